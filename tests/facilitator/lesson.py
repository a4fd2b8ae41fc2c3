"""Helpers that drive a whole lesson through the services, as the sockets would."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model

from facilitator import services
from facilitator.models import ClassSession, Seat, Table
from facilitator.tables import load_state

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou",
         "Max", "Ned", "Oli", "Pam", "Quy", "Rex", "Sam", "Tia", "Uma", "Val", "Wes", "Xia",
         "Yan", "Zoe", "Abe", "Bea", "Cal", "Dot", "Eve", "Fox"]


def make_teacher(username: str = "teacher") -> Any:
    return get_user_model().objects.create_user(username=username, password="x-" + username)


def make_session(teacher: Any = None, **kwargs: Any) -> ClassSession:
    return services.session_create(owner=teacher or make_teacher(), **kwargs)


def join(session: ClassSession, count: int) -> dict[str, str]:
    """``count`` students join; returns nickname -> seat token."""
    tokens = {}
    for name in NAMES[:count]:
        _seat, token = services.seat_join(code=session.join_code, nickname=name)
        tokens[name] = token
    return tokens


def fresh(session: ClassSession) -> ClassSession:
    return ClassSession.objects.get(pk=session.pk)


def humans(table: Table) -> list[Seat]:
    return list(table.seats.filter(is_bot=False, removed=False, shares__isnull=True)
                .order_by("position"))


def vote_all(session: ClassSession, kind: str, rng: random.Random,
             options: list[str]) -> None:
    session = fresh(session)
    for table in session.tables.all():
        for seat in humans(table):
            services.ballot_cast(seat_id=seat.pk, kind=kind, option=rng.choice(options),
                                 expected=session.phase_id)


def break_ties(session: ClassSession, rng: random.Random) -> None:
    for table in fresh(session).tables.all():
        for _ in range(10):
            table.refresh_from_db()
            state = load_state(table)
            if state.phase != "tie_break":
                break
            decider = table.seats.get(player_name=state.tie.deciders[0])
            choices = [*state.tie.options, *([None] if state.tie.kind == "tax" else [])]
            services.tie_break_submit(seat_id=decider.pk, choice=rng.choice(choices))


def play_lesson(session: ClassSession, rng: random.Random, *, tax_options: list[str] | None = None,
                fill: str | None = None) -> ClassSession:
    """From the lobby to the final count, every student acting through the services."""
    services.session_start(session=session, fill=fill)
    session = fresh(session)
    for table in session.tables.all():
        for seat in humans(table):
            services.pact_submit(seat_id=seat.pk, coins=rng.randrange(4),
                                 expected=session.phase_id)
    while fresh(session).stage != ClassSession.Stage.FINAL:
        session = fresh(session)
        if session.stage == ClassSession.Stage.TAX_VOTE:
            vote_all(session, "tax", rng, tax_options or ["A", "B", "C", "D"])
        elif session.stage == ClassSession.Stage.BUDGET_VOTE:
            vote_all(session, "budget", rng, ["health", "education", "shield"])
        break_ties(session, rng)
        services.session_advance(session=session, expected=fresh(session).phase_id)
    return fresh(session)
