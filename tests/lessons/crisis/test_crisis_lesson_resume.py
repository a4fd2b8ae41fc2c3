"""A Crisis lesson paused one day and carried on another: the teams' moves, a teammate's
suggestion and the turn order are kept, the phones come back to their seats with their seat
tokens, and the captain's next move is taken as if the class had never left."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from facilitator import parties, presence, selectors, services
from facilitator.lessons.crisis import services as crisis
from facilitator.lessons.crisis import turns
from facilitator.lessons.crisis.lesson import LESSON
from facilitator.log import load_state, verify_table
from facilitator.models import ClassSession, Seat, Table
from games import crisis as engine
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(LESSON, "playable", True)  # whatever the module's flag says
    deterministic(monkeypatch)
    with translation.override("en"):
        yield


def state_of(table: Table) -> Any:
    return load_state(Table.objects.get(pk=table.pk))


def captain_of(session: ClassSession, table: Table, team: str) -> Seat:
    chosen = parties.acting(parties.members(table.seats.all(), team),
                             turns.round_of(fresh(session)))
    assert chosen is not None
    return chosen


def test_a_lesson_paused_at_planning_goes_on_another_day_with_everything_kept() -> None:
    session = services.session_create(owner=make_teacher("day-one"), game="crisis",
                                      options={"team_size": 2, "turn_seconds": 30})
    tokens = join(session, 4)
    services.session_start(session=fresh(session), seed=5)
    for seat in Seat.objects.filter(session=session, is_bot=False):
        presence.presence_join(seat_id=seat.pk)
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    session = fresh(session)
    table = session.tables.get()
    first = engine.decisions(state_of(table))[0]
    crisis.move_submit(seat_id=captain_of(session, table, first.deciders[0]).pk,
                       decision=first.id, action={"type": "place", "space": "loan"},
                       expected=session.stage_id)
    second = engine.decisions(state_of(table))[0]
    team = second.deciders[0]
    chief = captain_of(session, table, team)
    mate = next(s for s in parties.members(table.seats.all(), team) if s != chief)
    crisis.suggest_submit(seat_id=mate.pk, decision=second.id,
                          action={"type": "place", "space": "initiative"},
                          expected=session.stage_id)
    services.session_pause(session=fresh(session), paused=True)
    day_one = state_of(table)
    for seat in Seat.objects.filter(session=session, is_bot=False):
        presence.presence_leave(seat_id=seat.pk)  # the class goes home

    # Another day: only the database is left; the phones come back with their seat tokens.
    again = ClassSession.objects.get(pk=session.pk)
    assert (again.paused, again.stage, again.round) == (True, "planning", 1)
    with pytest.raises(services.ServiceError) as caught:
        crisis.move_submit(seat_id=chief.pk, decision=second.id,
                           action={"type": "place", "space": "initiative"},
                           expected=again.stage_id)
    assert caught.value.code == "paused"
    services.session_pause(session=again, paused=False)
    for name, token in tokens.items():
        seat = selectors.seat_for_token(token)
        assert seat is not None and seat.nickname == name
        presence.presence_join(seat_id=seat.pk)
    back = Table.objects.get(pk=table.pk)
    state = load_state(back)
    assert engine.to_dict(state) == engine.to_dict(day_one)
    assert state.placements["loan"] == list(first.deciders)
    mate_view = selectors.seat_view(Seat.objects.get(pk=mate.pk))
    assert mate_view["seat"]["crisis"]["decision"] == second.id
    chief_view = selectors.seat_view(Seat.objects.get(pk=chief.pk))
    (kept,) = chief_view["seat"]["crisis"]["suggestions"]
    assert kept["nickname"] == mate.nickname and '"initiative"' in kept["action"]

    # The captain plays the kept suggestion, and the round goes on from there.
    assert crisis.move_submit(seat_id=chief.pk, decision=second.id, action=kept["action"],
                              expected=fresh(again).stage_id) == "done"
    after = load_state(Table.objects.get(pk=table.pk))
    assert after.placements["initiative"] == [team]
    assert after.placements.get("government-subsidy", []) == []  # no turn was defaulted
    assert verify_table(Table.objects.get(pk=table.pk)) == []
