"""Austerity's teacher options: every table the same starting bag and seed, cabinet
portfolios, and the timers; what each seat's phone is shown (the engine's one player)."""

from __future__ import annotations

from typing import Any

import pytest

from facilitator import selectors, services
from facilitator.lessons.austerity import options
from facilitator.lessons.austerity.forms import OptionsForm
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import Seat
from tests.facilitator.lesson import deterministic, make_teacher
from tests.lessons.austerity.austerity_lesson import started, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def test_every_table_gets_the_same_seed_and_bag_with_the_same_start_option() -> None:
    same = started(10, same_start=True, country="random")
    first, second = same.tables.order_by("number")
    assert first.seed == second.seed
    assert state_of(first).bag == state_of(second).bag
    assert state_of(first).country == state_of(second).country


def test_without_the_option_each_table_has_its_own_seed() -> None:
    apart = started(10)
    first, second = apart.tables.order_by("number")
    assert first.seed != second.seed


@pytest.mark.parametrize("bad", [{"same_start": "yes"}, {"portfolios": 1},
                                 {"timers": {"draw": 5}},
                                 {"timers": {**options.DEFAULT_TIMERS, "event": 2}},
                                 {"timers": {**options.DEFAULT_TIMERS, "ballot": "30"}}])
def test_bad_new_options_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.session_create(owner=make_teacher(), game="austerity", options=bad)
    assert caught.value.code == "bad_options"


def test_the_form_gives_the_start_portfolios_and_timers_options() -> None:
    form = OptionsForm(data={"seating": "tables", "scenario": "economic-crash",
                             "difficulty": "easy", "country": "", "same_start": "on",
                             "portfolios": "on", "decision_seconds": "30",
                             "ballot_seconds": "40", "bots_allowed": "on"})
    assert form.is_valid(), form.errors
    chosen = {**LESSON.default_options, **form.options()}
    LESSON.check_options(chosen)
    assert chosen["same_start"] and chosen["portfolios"]
    assert chosen["timers"] == {"draw": 8, "event": 30, "cuts": 30, "income": 16,
                                "ballot": 40}
    untouched = OptionsForm(data={"seating": "tables", "scenario": "economic-crash",
                                  "difficulty": "easy", "country": ""})
    assert untouched.is_valid(), untouched.errors
    assert untouched.options()["timers"] == options.DEFAULT_TIMERS


def test_every_seat_is_shown_the_governments_view_with_its_legal_actions() -> None:
    session = started(5, seating="class")
    table = session.tables.get()
    for seat in Seat.objects.filter(table=table):
        view = selectors.seat_view(seat)
        assert view["game"]["player"] == "government"
        assert view["game"]["legal_actions"]  # the engine's player: the whole table


def test_portfolios_are_given_by_seat_position_when_the_option_is_on() -> None:
    session = started(7, seating="class", portfolios=True)
    table = session.tables.get()
    seats = list(table.seats.order_by("position"))
    views = [selectors.seat_view(s)["seat"]["portfolio"]["portfolio"] for s in seats]
    assert views == ["labour", "interior", "economy", "health", "press", "treasury", "labour"]
    projector = selectors.projector_view(session)["tables"][0]
    assert [p["portfolio"] for p in projector["portfolios"]] == views
    off = started(5, seating="class")
    seat = off.tables.get().seats.first()
    assert selectors.seat_view(seat)["seat"]["portfolio"] is None
    assert selectors.projector_view(off)["tables"][0]["portfolios"] == []
