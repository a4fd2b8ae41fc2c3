"""Every Austerity timer counts down where it is seen: a budget item's ballot on the
projector and on the phones of the tables that vote on it; the minister's decision on the
projector and on the phone that decides, not on the others; a table ballot on the projector
and on every phone of its table. A paused lesson's timers stand still and say so, and go on
from there when it resumes."""

from __future__ import annotations

import pytest

from facilitator import selectors, services
from facilitator.lessons.austerity import modes
from facilitator.lessons.austerity import options as lesson_options
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.austerity.models import TablePlay
from tests.facilitator.countdowns import console_page, countdowns, phone_page
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    minister_answers,
    minister_of,
    open_bag,
    seats_of,
    started,
    to_the_year,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def test_a_budget_items_ballot_counts_down_on_the_projector_and_every_voting_phone(at) -> None:
    session = started(5, seating="class")
    assert open_bag(session.tables.get()) is not None and session.timer
    at(10)
    ends = session.timer["ends_at"]
    (shown,) = countdowns(console_page(fresh(session)))
    assert shown.ends_at == pytest.approx(ends) and not shown.paused
    assert shown.left == lesson_options.DEFAULT_TIMERS["ballot"] - 10
    for seat in seats_of(session.tables.get()):
        if not seat.is_bot:
            (mine,) = countdowns(phone_page(seat))
            assert mine.ends_at == pytest.approx(ends) and mine.label == "Time left:"


def test_the_ministers_decision_counts_down_on_the_projector_and_the_ministers_phone_only(
        at) -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    wait = TablePlay.objects.get(table=table).wait
    assert wait.get("key")  # the minister's first draw is timed from the start of the year
    kind = selectors.projector_view(fresh(session))["tables"][0]["timer"]["kind"]
    ends = wait["since"] + lesson_options.DEFAULT_TIMERS[kind]
    consoled = countdowns(console_page(fresh(session)))
    assert consoled and all(c.ends_at == pytest.approx(ends) for c in consoled)
    minister = minister_of(session, table)
    (mine,) = countdowns(phone_page(minister))
    assert mine.ends_at == pytest.approx(ends)
    for seat in seats_of(table):
        if seat != minister and not seat.is_bot:
            assert countdowns(phone_page(seat)) == []


def test_a_table_ballot_counts_down_on_every_phone_of_its_table(at) -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    aus_services.mode_switch(session=fresh(session), kind=modes.EVENT, mode=modes.BALLOT,
                             table=None, expected=fresh(session).stage_id)
    minister_answers(session, table)  # draws until the table must vote on an event
    bag = open_bag(table)
    assert bag is not None
    wait = TablePlay.objects.get(table=table).wait
    assert wait["key"] == bag.decision
    ends = wait["since"] + lesson_options.DEFAULT_TIMERS["ballot"]
    assert any(c.ends_at == pytest.approx(ends) for c in countdowns(console_page(fresh(session))))
    for seat in seats_of(table):
        if not seat.is_bot:
            (mine,) = countdowns(phone_page(seat))
            assert mine.ends_at == pytest.approx(ends)


def test_a_paused_lessons_timers_stand_still_say_so_and_go_on_after_it(at) -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    minister = minister_of(session, table)
    seconds = countdowns(phone_page(minister))[0].left
    at(1)
    services.session_pause(session=fresh(session), paused=True)
    at(60)  # long past the timer's end, had it run on
    (mine,) = countdowns(phone_page(minister))
    assert mine.paused and mine.ends_at is None and mine.left == seconds - 1
    assert all(c.paused for c in countdowns(console_page(fresh(session))))
    services.session_pause(session=fresh(session), paused=False)
    at(61)
    (mine,) = countdowns(phone_page(minister))
    assert not mine.paused and mine.left == seconds - 2
