"""Helpers that drive an Austerity lesson through the services, as the sockets would."""

from __future__ import annotations

from typing import Any

from facilitator import services
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity import services as aus_services
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction
from games import austerity as engine
from tests.facilitator.lesson import fresh, join, make_teacher


def started(students: int, fill: str | None = None, seed: int = 3,
            **options: Any) -> ClassSession:
    teacher = make_teacher(f"teacher{ClassSession.objects.count()}")
    session = services.session_create(owner=teacher, game="austerity", options=options)
    join(session, students)
    services.session_start(session=fresh(session), fill=fill, seed=seed)
    return fresh(session)


def advance(session: ClassSession) -> ClassSession:
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    return fresh(session)


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.filter(shares__isnull=True, removed=False).order_by("position"))


def state_of(table: Table) -> Any:
    return load_state(Table.objects.get(pk=table.pk))


def minister_of(session: ClassSession, table: Table) -> Seat:
    chair = script.minister(seats_of(table), script.year_of(session))
    assert chair is not None
    return chair


def open_bag(table: Table) -> Bag | None:
    return Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()


def vote(session: ClassSession, table: Table, options: list[str]) -> None:
    """The table's students put these options in the open bag, in seat order."""
    bag = open_bag(table)
    assert bag is not None
    humans = [s for s in seats_of(table) if not s.is_bot]
    for seat, option in zip(humans, options, strict=False):
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=option,
                             expected=fresh(session).stage_id)


def to_the_year(session: ClassSession) -> ClassSession:
    while session.stage != script.YEAR:
        session = advance(session)
    return session


def pending(table: Table) -> Any:
    return engine.decisions(state_of(table))[0]


def minister_answers(session: ClassSession, table: Table, *, until: str | None = None,
                     most: int = 200) -> None:
    """The student minister answers pending decisions with their first option until the
    year ends (or the pending decision's kind is ``until``)."""
    chair = minister_of(session, table)
    for _n in range(most):
        state = state_of(table)
        if not script.minister_may_act(fresh(session), state) or open_bag(table) is not None:
            return
        decision = engine.decisions(state)[0]
        if decision.kind == until:
            return
        aus_services.decide(seat_id=chair.pk, decision=decision.id,
                            choice=decision.options[0], expected=fresh(session).stage_id)


def log_of(table: Table) -> list[tuple[str, dict[str, Any]]]:
    return [(a.actor, a.payload) for a in TableAction.objects.filter(table=table).order_by("seq")]
