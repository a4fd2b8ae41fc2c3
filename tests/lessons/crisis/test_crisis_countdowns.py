"""Every Crisis timer counts down where it is seen: a team's turn on the projector and on the
phones of the team whose turn it is, not on the other teams'; Production's (the stage's) on
the projector and on the phones of every team that plans one. A paused lesson's turn stands
still and says so, takes no default, and goes on from there when the lesson resumes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.utils import translation

from facilitator import clock, parties, services
from facilitator import log as log_module
from facilitator.lessons.crisis import services as crisis
from facilitator.lessons.crisis import turns
from facilitator.lessons.crisis.lesson import LESSON
from facilitator.models import Seat
from tests.facilitator.countdowns import console_page, countdowns, phone_page
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    busy_round,
    human_table,
    started,
    state_of,
    to_stage,
    waiting,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)
    with translation.override("en"):
        yield


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move the server's clock (and what the record stores) to ``seconds`` after the start."""
    start = clock.now()

    def move(seconds: float) -> None:
        moment = start + timedelta(seconds=seconds)
        monkeypatch.setattr(clock, "now", lambda: moment)
        monkeypatch.setattr(log_module, "now", lambda: moment)
    move(0)
    return move


def team_phones(session, team: str) -> list[Seat]:
    table = human_table(session)
    return [s for s in parties.members(list(table.seats.all()), team) if not s.is_bot]


def test_a_turn_counts_down_on_the_projector_and_its_teams_phones_only(at) -> None:
    session = advance(started(4, team_size=2, turn_seconds=30))
    table = human_table(session)
    team = waiting(table).deciders[0]
    ends = turns.turn_started(table, session).timestamp() + 30
    at(5)
    (shown,) = countdowns(console_page(fresh(session)))
    assert shown.ends_at == pytest.approx(ends) and shown.left == 25
    for seat in team_phones(session, team):
        (mine,) = countdowns(phone_page(seat))
        assert mine.ends_at == pytest.approx(ends) and mine.label == "Time left:"
    other = next(n for n in state_of(table).names if n != team)
    for seat in team_phones(session, other):
        assert countdowns(phone_page(seat)) == []


def test_production_counts_down_on_the_projector_and_every_planning_teams_phones(at) -> None:
    session = advance(started(4, team_size=2, turn_seconds=30, production_seconds=90))
    busy_round(session, human_table(session))
    session = to_stage(session, "production")
    ends = session.timer["ends_at"]
    (shown,) = countdowns(console_page(fresh(session)))
    assert shown.ends_at == pytest.approx(ends)
    planning = [d.deciders[0] for d in turns.stage_decisions(session, state_of(human_table(
        session))) if d.kind == "produce"]
    assert planning
    for team in planning:
        for seat in team_phones(session, team):
            (mine,) = countdowns(phone_page(seat))
            assert mine.ends_at == pytest.approx(ends)


def test_a_paused_lessons_turn_stands_still_takes_no_default_and_goes_on_after_it(at) -> None:
    session = advance(started(4, team_size=2, turn_seconds=30))
    table = human_table(session)
    team = waiting(table).deciders[0]
    at(10)
    services.session_pause(session=fresh(session), paused=True)
    at(100)  # long past the turn's end, had it run on
    (shown,) = countdowns(console_page(fresh(session)))
    assert shown.paused and shown.ends_at is None and shown.left == 20
    (mine,) = countdowns(phone_page(team_phones(session, team)[0]))
    assert mine.paused and mine.left == 20
    services.session_pause(session=fresh(session), paused=False)
    at(105)
    assert turns.turn_left(table, fresh(session), state_of(table)) == 15
    with pytest.raises(services.ServiceError) as caught:
        crisis.turns_due(session=fresh(session), expected=fresh(session).stage_id)
    assert caught.value.code == "no_turn_due"
    at(121)
    assert crisis.turns_due(session=fresh(session), expected=fresh(session).stage_id) == [1]
