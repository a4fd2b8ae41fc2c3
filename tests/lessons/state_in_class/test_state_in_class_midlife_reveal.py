"""The Midlife Crossroads is read card by card, on the projector and on every phone.

The engine plays round 4 at once; the class sees, at the teacher's n-th press, the n-th card
of every table and only then the Tension and Exclusion tokens it causes. Class changes come
at the end, once everyone has read their card (the rulebook). These lessons are played
through the services; at every step the projector and each phone are rendered and compared
with what has been read so far, worked out here from the cards themselves.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import selectors, services
from facilitator.lessons.state_in_class.script import cards_read
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state
from facilitator.models import ClassSession, Seat
from facilitator.screens import phone_context, projector_context
from games.state_in_class import data
from tests.facilitator.lesson import advance, drive_to, fresh, join, make_session, make_teacher

pytestmark = pytest.mark.django_db


def projector(session: ClassSession) -> str:
    view = selectors.projector_view(fresh(session))
    return render_to_string("facilitator/_console_live.html",
                            {**projector_context(view), "csrf_token": "x"})


def phone(seat: Seat) -> str:
    view = selectors.seat_view(seat)
    return render_to_string("play/_screen.html", {**phone_context(view), "csrf_token": "x"})


def card_tension(draw: dict[str, Any]) -> int:
    """What the card itself adds to Tension (the rulebook's table), token included."""
    card = data.MIDLIFE_CARDS[draw["card"]]
    level = draw["level"]
    if card.measures == "country":
        outcome = card.low if level <= 5 else card.high if level >= 11 else card.mid
    else:
        outcome = card.low if level <= 2 else card.mid if level == 3 else card.high
    return outcome.tension + (data.MIDLIFE_EXCLUSION_TENSION if draw["token"] else 0)


def shown_tension(html: str) -> int:
    return int(re.search(r'<li class="on[^"]*">(\d+)</li>', html).group(1))


def lessons_at_the_crossroads(count: int) -> list[ClassSession]:
    """Lessons of 8 students at round 4's event with the State still standing."""
    teacher, found = make_teacher(), []
    for seed in range(1, 40):
        session = make_session(teacher, title=f"seed {seed}")
        join(session, 8)
        services.session_start(session=session, seed=seed)
        try:
            session = drive_to(session, Stage.EVENT, data.MIDLIFE_ROUND,
                               rng=random.Random(seed))
        except AssertionError:  # the State failed before the Crossroads
            continue
        found.append(session)
        if len(found) == count:
            break
    return found


def test_each_press_reveals_one_card_and_only_its_consequences() -> None:
    tokens_seen = 0
    for session in lessons_at_the_crossroads(3):
        table = session.tables.get()
        history = load_state(table).history
        draws = history[data.MIDLIFE_ROUND - 1]["midlife"]
        start = history[data.MIDLIFE_ROUND - 2]["tension_after"]
        seats = {s.player_name: s for s in table.seats.all()}
        names = {d["player"]: data.MIDLIFE_CARDS[d["card"]].name for d in draws}

        html = projector(session)
        assert shown_tension(html) == start
        assert "First card ▶" in html
        assert not any(f"“{name}”" in html for name in names.values())
        for player, seat in seats.items():
            assert "Read your card aloud" not in phone(seat), player

        expected = start
        for read in range(1, len(draws) + 1):
            session = advance(session)
            assert cards_read(fresh(session)) == read
            expected = min(data.FAIL_TENSION, expected + card_tension(draws[read - 1]))
            tokens_seen += draws[read - 1]["token"]
            html = projector(session)
            assert shown_tension(html) == expected, (read, draws[read - 1])
            assert ("The State has failed" in html) == (expected >= data.FAIL_TENSION)
            assert f"card {read} of {len(seats)}" in html  # of the players, not of the draws
            for later in draws[read:]:
                assert f"“{names[later['player']]}”" not in html
            assert "class=\"changes\"" not in html  # class changes come after every card
            for i, d in enumerate(draws):
                screen = phone(seats[d["player"]])
                assert ("Read your card aloud" in screen) == (i < read), (read, i)
                if i >= read:
                    assert f"Midlife: {names[d['player']]}" not in screen
            if expected >= data.FAIL_TENSION:  # every phone is told, a card read or not
                for seat in seats.values():
                    screen = phone(seat)
                    assert "the State has failed" in screen
                    assert "Class changes happen" not in screen
                break
            label = "Next card ▶" if read < len(draws) else "End of the Crossroads ▶"
            assert label in html
        else:
            session = advance(session)
            assert fresh(session).stage == Stage.END_OF_ROUND
            assert "After the Midlife Crossroads" in projector(session)
    assert tokens_seen, "no lesson drew a card with an Exclusion token: pick other seeds"


def test_undo_hides_the_last_card_read_again() -> None:
    session = lessons_at_the_crossroads(1)[0]
    session = advance(advance(session))
    assert cards_read(fresh(session)) == 2
    services.session_undo(session=fresh(session), expected=fresh(session).stage_id)
    assert cards_read(fresh(session)) == 1
    assert fresh(session).stage == Stage.MIDLIFE


def test_a_second_press_for_the_same_card_is_stale() -> None:
    session = advance(lessons_at_the_crossroads(1)[0])
    stale = fresh(session).stage_id
    services.session_advance(confirm=True, session=fresh(session), expected=stale)
    with pytest.raises(services.ServiceError):
        services.session_advance(confirm=True, session=fresh(session), expected=stale)
    assert cards_read(fresh(session)) == 2
