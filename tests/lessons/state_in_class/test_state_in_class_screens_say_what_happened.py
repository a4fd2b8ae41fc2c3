"""The screens say what happened, to whom, in plain words (and never a rule's amount cut
short without saying so)."""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string

from facilitator import selectors, services
from facilitator.lessons.state_in_class.presenters import (
    next_blocked,
    seating_text,
    tension_reason,
)
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state
from facilitator.models import Seat
from facilitator.screens import phone_context
from games.state_in_class import data
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    break_ties,
    fresh,
    join,
    make_session,
    make_teacher,
    vote_all,
)


def phone(seat: Seat) -> str:
    view = selectors.seat_view(seat)
    return render_to_string("play/_screen.html", {**phone_context(view), "csrf_token": "x"})


def test_a_capped_midlife_token_shows_the_rules_amount_and_the_cap() -> None:
    change = {"delta": 1, "value": 10, "reason": "midlife", "player": "Ana",
              "role": "care-worker"}
    text = tension_reason(change)
    assert text.startswith(f"+{data.MIDLIFE_EXCLUSION_TENSION}: ")
    assert "Tension stops at 10" in text
    assert tension_reason({**change, "delta": 2, "value": 6}) == (
        "+2: Home care worker got an Exclusion token at the Midlife Crossroads")


def test_the_player_it_is_about_reads_you() -> None:
    change = {"delta": 3, "value": 7, "reason": "could_not_pay", "player": "Ana",
              "role": "care-worker"}
    assert tension_reason(change, me="Ana") == "+3: you could not pay"
    assert tension_reason(change, me="Ben") == "+3: Home care worker could not pay"


def test_start_says_why_it_cannot_act_and_the_fill_buttons_say_they_start() -> None:
    lobby = {"stage": Stage.LOBBY, "round": 0}
    assert next_blocked(lobby, [], None) == "Wait for the students to join."
    one = seating_text(1)
    assert next_blocked(lobby, [], one) == "Choose below how to fill the gaps."
    assert one["bots"] == "Add 5 bots and start (6)"
    assert next_blocked(lobby, [], seating_text(8)) == ""


def test_next_round_waits_visibly_for_a_tie_break() -> None:
    session = {"stage": Stage.END_OF_ROUND, "round": 2}
    tables = [{"number": 1, "tie_break": None, "failed": False},
              {"number": 2, "tie_break": {"decider": "Ana"}, "failed": False}]
    assert next_blocked(session, tables, None) == "Waiting for a tie-break at table 2."


@pytest.mark.django_db
def test_a_student_who_could_not_pay_is_told_first_and_plainly() -> None:
    teacher = make_teacher()
    for seed in range(1, 30):  # tax D, nothing in the pact: someone soon cannot pay
        session = make_session(teacher, title=f"seed {seed}")
        join(session, 8)
        services.session_start(session=session, seed=seed)
        all_pacts(session, coins=0)
        for _round in range(3):
            session = advance(session)  # the event
            session = advance(advance(session))  # the debate, the tax vote
            vote_all(session, "tax", random.Random(seed), ["D"])
            session = advance(session)  # the count: paying
            table = fresh(session).tables.get()
            entry = load_state(table).history[fresh(session).round - 1]
            excluded = [e for e in entry.get("exclusions", []) if e["reason"] == "could_not_pay"]
            if excluded or load_state(table).phase == "over":
                break
            session = advance(session)
            vote_all(session, "budget", random.Random(seed), ["health"])
            session = advance(session)
            break_ties(session, random.Random(seed))
        if excluded:
            break
    else:
        pytest.fail("no seed gave an exclusion: pick others")
    screen = phone(table.seats.get(player_name=excluded[0]["player"]))
    plain = "You could not pay: you get an Exclusion token (−5 points at the end)."
    assert plain in screen
    assert screen.index(plain) < screen.index("This round for you")
    assert "you could not pay" in screen
    others = table.seats.exclude(player_name__in=[e["player"] for e in excluded])
    assert plain not in phone(others.first())
