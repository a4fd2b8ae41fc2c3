"""Austerity's pace: every wait of a table has a timer (the minister's decision by kind,
every table ballot); a minister's timer that runs out takes the sensible bot's answer, a
ballot's counts the bag; the teacher changes the seconds; and with the default timers a
year's timers add up to at most 6 minutes in 95 % of bot-played years."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from facilitator import clock, selectors, services
from facilitator.lessons.austerity import modes, options, pacing, turns
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import Table
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    advance,
    log_of,
    minister_answers,
    minister_of,
    open_bag,
    pending,
    started,
    state_of,
    to_the_year,
    vote,
)

pytestmark = pytest.mark.django_db
SIX_MINUTES = 360


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move the services' clock ``seconds`` on from now."""
    start = clock.now()

    def at(seconds: float) -> None:
        monkeypatch.setattr("facilitator.clock.now", lambda: start + timedelta(seconds=seconds))

    return at


def test_a_years_timers_are_its_ministers_decisions_and_its_ballots() -> None:
    timers = {"draw": 5, "event": 15, "cuts": 15, "income": 8, "ballot": 25}
    year = [{"type": "action", "choice": "borrow"}, {"type": "draw"},
            {"type": "event", "choice": "a"}, {"type": "income", "choice": "treasury"},
            {"type": "draw"}, {"type": "cuts", "choice": "social-welfare"}]
    assert pacing.year_seconds(year, 2, timers) == 5 + 15 + 8 + 5 + 15 + 2 * 25
    assert pacing.year_seconds([], 0, timers) == 0


def test_with_default_timers_95_percent_of_bot_years_take_at_most_six_minutes() -> None:
    config = options.table_config(options.DEFAULTS)  # Economic Crash, easy
    budgets = sorted(pacing.year_seconds(actions, ballots)
                     for seed in range(25)
                     for actions, ballots in pacing.played_years(config, seed))
    assert len(budgets) > 25  # every game lasts more than a year
    within = sum(1 for seconds in budgets if seconds <= SIX_MINUTES)
    assert within >= 0.95 * len(budgets), budgets[-5:]


def test_the_ministers_timer_shows_on_the_screens_and_runs_from_the_decision() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    timer = selectors.projector_view(session)["tables"][0]["timer"]
    assert timer == {"kind": "draw", "name": "Before each draw", "decision": pending(table).id,
                     "seconds": options.DEFAULT_TIMERS["draw"],
                     "left": options.DEFAULT_TIMERS["draw"], "running": True}
    chair = minister_of(session, table)
    assert selectors.seat_view(chair)["seat"]["timer"]["kind"] == "draw"


def test_a_ministers_timer_that_ran_out_takes_the_sensible_answer(later) -> None:  # type: ignore[no-untyped-def]
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    with pytest.raises(services.ServiceError) as caught:
        aus_services.wait_expire(session=fresh(session), table=1)
    assert caught.value.code == "not_yet"
    later(options.DEFAULT_TIMERS["draw"] + 1)
    expected = turns.default_answer(Table.objects.get(pk=table.pk), state_of(table))
    aus_services.wait_expire(session=fresh(session), table=1)
    assert log_of(table) == [("teacher", expected)] and expected["type"] == "draw"


def test_a_table_ballots_timer_that_ran_out_counts_the_bag(later) -> None:  # type: ignore[no-untyped-def]
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    aus_services.mode_switch(session=fresh(session), kind=modes.ACTIONS, mode=modes.BALLOT)
    vote(session, table, ["borrow", "borrow", "borrow"])
    later(options.DEFAULT_TIMERS["ballot"] - 5)
    with pytest.raises(services.ServiceError) as caught:
        aus_services.wait_expire(session=fresh(session), table=1)
    assert caught.value.code == "not_yet" and "seconds" in caught.value.message
    later(options.DEFAULT_TIMERS["ballot"] + 1)
    aus_services.wait_expire(session=fresh(session), table=1)
    assert open_bag(table) is None
    assert log_of(table) == [("teacher", {"type": "action", "choice": "borrow"})]


def test_a_decision_the_teacher_took_over_has_no_timer() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    minister_answers(session, table, until="event")
    assert selectors.projector_view(session)["tables"][0]["timer"]["kind"] == "event"
    aus_services.mode_switch(session=fresh(session), kind=modes.EVENT, mode=modes.TEACHER)
    assert selectors.projector_view(session)["tables"][0]["timer"] is None
    with pytest.raises(services.ServiceError) as caught:
        aus_services.wait_expire(session=fresh(session), table=1)
    assert caught.value.code == "no_timer"


def test_the_teacher_changes_a_timer_for_the_rest_of_the_lesson() -> None:
    session = started(5, seating="class")
    aus_services.timer_set(session=fresh(session), kind="event", seconds="40")
    assert fresh(session).options["timers"]["event"] == 40
    assert selectors.projector_view(fresh(session))["session"]["timers"]["event"] == 40
    for kind, seconds in (("event", 1), ("lunch", 30), ("ballot", "ten")):
        with pytest.raises(services.ServiceError) as caught:
            aus_services.timer_set(session=fresh(session), kind=kind, seconds=seconds)
        assert caught.value.code == "bad_timer"
    assert fresh(session).options["timers"]["event"] == 40


def test_every_budget_item_has_the_ballot_timer() -> None:
    session = started(5, seating="class")
    assert services.timer_left(session.timer)[0] == options.DEFAULT_TIMERS["ballot"]
    session = advance(session)
    assert session.stage == "budget_borrow"
    assert services.timer_left(session.timer)[0] == options.DEFAULT_TIMERS["ballot"]
    assert to_the_year(session).timer is None  # the year's timers are each table's


def test_after_an_undo_a_tables_timer_starts_when_the_console_first_asks(later) -> None:  # type: ignore[no-untyped-def]
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    play = table.austerity
    play.wait = {}  # as after an Undo: the table's wait was never timed
    play.save(update_fields=["wait"])
    with pytest.raises(services.ServiceError) as caught:
        aus_services.wait_expire(session=fresh(session), table=1)
    assert caught.value.code == "not_yet"
    assert Table.objects.get(pk=table.pk).austerity.wait["key"] == pending(table).id
    later(options.DEFAULT_TIMERS["draw"] + 1)
    aus_services.wait_expire(session=fresh(session), table=1)
    assert log_of(table)[-1][1]["type"] == "draw"
