"""Nothing the teacher can read depends on who cast which token.

Two lessons, played the same way by the same class, except that in every bag two students
swap their tokens: the counts are the same, so every published result is. Then everything the
teacher can read at the end — the tables' records, both spreadsheets, the console, the class
handout and every student's handout — must be the same, word for word (docs/secrecy.md). A
Undo and a recount in the middle are included.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import services
from facilitator.lessons.state_in_class.debrief import handouts, spreadsheets
from facilitator.log import game_record
from facilitator.models import ClassSession
from facilitator.screens import projector_context
from facilitator.selectors import projector_view
from tests.facilitator.lesson import (
    all_pacts,
    break_ties,
    deterministic,
    fresh,
    humans,
    join,
    make_session,
    make_teacher,
)

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

OPTIONS = {"tax_vote": ("tax", ["A", "B", "C", "D"]),
           "budget_vote": ("budget", ["health", "education", "shield"])}


def play(teacher: Any, swap: bool) -> ClassSession:
    """A seeded lesson of seven students to its end, the last one seated abstaining; ``swap``:
    the first two students seated swap their tokens in every bag."""
    session = make_session(teacher, title="Swap")
    join(session, 7)
    services.session_start(session=session, seed=11)
    all_pacts(fresh(session))
    rng, undone = random.Random(3), False
    while fresh(session).stage != "final":
        session = fresh(session)
        if session.stage in OPTIONS:
            kind, options = OPTIONS[session.stage]
            seats = humans(session.tables.get())[:-1]  # one abstains: the teacher counts
            votes = [rng.choice(options) for _ in seats]
            if swap:
                votes[0], votes[1] = votes[1], votes[0]
            for seat, option in zip(seats, votes, strict=True):
                services.ballot_cast(seat_id=seat.pk, kind=kind, option=option,
                                     expected=session.stage_id)
        break_ties(session, rng)
        session = services.session_advance(session=fresh(session), confirm=True,
                                           expected=fresh(session).stage_id)
        if session.round == 2 and session.stage == "pay" and not undone:
            undone = True  # the teacher takes the count back; everyone votes again
            services.session_undo(session=fresh(session))
    return fresh(session)


def readable(session: ClassSession) -> dict[str, str]:
    """Everything the teacher can read of a finished lesson, with its own ids taken out."""
    context = projector_context(projector_view(session))
    out = {
        "record": str([game_record(t) for t in session.tables.order_by("number")]),
        "rounds.csv": spreadsheets.rounds_csv(session),
        "results.csv": spreadsheets.results_csv(session),
        "console": render_to_string("facilitator/_console_live.html",
                                    {**context, "csrf_token": "x"}),
        "class handout": handouts.DEBRIEF.class_html(session, paper="a4"),
        "student handouts": handouts.DEBRIEF.students_html(session, paper="a4"),
    }
    # The two lessons' own ids: the session's in each spreadsheet row's first column, and
    # database ids in the pages' attributes (links, seat ids); nothing else differs.
    out = {k: re.sub(r'="[^"]*\d[^"]*"', lambda m: re.sub(r"\d+", "#", m.group(0)), v)
           for k, v in out.items()}
    for sheet in ("rounds.csv", "results.csv"):
        out[sheet] = "\n".join(line.partition(",")[2] for line in out[sheet].splitlines())
    return out


def test_two_lessons_that_differ_only_in_who_cast_which_token_read_the_same(monkeypatch):
    deterministic(monkeypatch)
    teacher = make_teacher()
    first = readable(play(teacher, swap=False))
    second = readable(play(teacher, swap=True))
    for what in first:
        assert first[what] == second[what], what
