"""Finished lessons of every module for the what-if tests, built through the services as the
phones and the teacher would (students acting as the engines' bots would), the same on every
run: State in Class (8 students), Austerity (4), Crisis (6 in teams of 2, 7 rounds) and
Poleconomy (4 students, 4 rounds, the Prime Minister asking Parliament for a raise every
round, so its consents and the Index's direction may be changed)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

from facilitator import services
from facilitator.lessons import lesson_for
from facilitator.lessons.poleconomy import script as pol_script
from facilitator.lessons.poleconomy import services as pol
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Seat, Table
from games.poleconomy import bots as pole_bots
from games.poleconomy.elections import majority_bloc
from tests.facilitator.lesson import fresh, join
from tests.lessons.austerity.austerity_scripted import austerity_lesson
from tests.reports.scripted import scripted_lesson, seeded

GAMES = ("state-in-class", "austerity", "crisis", "poleconomy")


@contextlib.contextmanager
def playable(game: str) -> Iterator[None]:
    """A module offered as "in preparation" makes lessons all the same here."""
    lesson = lesson_for(game)
    before = type(lesson).playable
    type(lesson).playable = True  # type: ignore[misc]
    try:
        yield
    finally:
        type(lesson).playable = before  # type: ignore[misc]


def _advance(session: ClassSession) -> ClassSession:
    services.session_advance(confirm=True, session=fresh(session),
                             expected=fresh(session).stage_id)
    return fresh(session)


def crisis_lesson(*, teacher: Any, language: str, title: str, students: int = 6,
                  **options: Any) -> ClassSession:
    """Three teams of two, absent (each turn closes with the default bot's move), for the
    full 7 rounds: their exports may be changed."""
    with playable("crisis"), seeded(5):
        session = services.session_create(owner=teacher, game="crisis", language=language,
                                           title=title, options={"rounds": 7,
                                                                 "difficulty": "easy",
                                                                 "team_size": 2, **options})
        join(session, students)
        services.session_start(session=fresh(session), seed=5)
        session = fresh(session)
        for _n in range(80):
            if session.status == ClassSession.Status.FINISHED:
                return session
            session = _advance(session)
    raise AssertionError("the Crisis lesson did not end")


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.filter(shares__isnull=True, removed=False).order_by("position"))


def poleconomy_lesson(*, teacher: Any, language: str, title: str,
                      consent: Callable[[int, int], str] | None = None, students: int = 4,
                      rounds: int = 4) -> ClassSession:
    """``consent(round, seat index)``: each student's consent ballot ("yes" or "no"); by
    default the Government's members consent and the others do not."""
    policy = pole_bots.get_policy("builder")
    with playable("poleconomy"), seeded(5):
        session = services.session_create(owner=teacher, game="poleconomy", language=language,
                                           title=title, options={"rounds": rounds})
        join(session, students)
        services.session_start(session=fresh(session), seed=5)
        session = fresh(session)
        table = session.tables.get()
        rng = random.Random("whatif-lesson")
        for _n in range(60 * rounds):
            if session.status == ClassSession.Status.FINISHED:
                return session
            table = Table.objects.get(pk=table.pk)
            state = load_state(table)
            if session.stage == pol_script.GOVERNMENT and state.phase == "government" \
                    and majority_bloc(state) is None:
                ranked = sorted(state.players, key=lambda p: -p.votes)
                members = [p.name for p in ranked[:3]]
                pol.master_government(session=session, table=1, members=members,
                                      pm=members[0])
            elif session.stage == pol_script.PROPOSAL and state.pm:
                pm = next(s for s in _seats(table) if s.player_name == state.pm)
                pol.proposal_write(seat_id=pm.pk,
                                   items={"salaries": {"pm": state.pm_salary + 3}},
                                   expected=session.stage_id)
            elif session.stage == pol_script.ORDERS:
                seats = _seats(table)
                bag = Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()
                for index, seat in enumerate(seats):
                    orders = policy.orders(state, seat.player_name, rng)
                    if orders and "pm" in orders:
                        orders["pm"] = {k: v for k, v in orders["pm"].items()
                                        if k not in ("salaries", "tax", "payments")}
                    pol.orders_send(seat_id=seat.pk, orders=orders, expected=session.stage_id)
                    if bag is not None:
                        yes = consent(session.round, index) if consent else (
                            "yes" if seat.player_name in state.government else "no")
                        services.ballot_cast(seat_id=seat.pk, decision=bag.decision,
                                             option=yes, expected=session.stage_id)
            session = _advance(session)
    raise AssertionError("the Poleconomy lesson did not end")


def finished(game: str, *, teacher: Any, language: str = "en",
             title: str = "What if") -> ClassSession:
    """A finished lesson of ``game`` owned by ``teacher``."""
    if game == "state-in-class":
        return scripted_lesson(students=8, seed=5, teacher=teacher, language=language,
                               title=title)
    if game == "austerity":
        return austerity_lesson(teacher=teacher, students=4, seed=3, language=language,
                                title=title)
    if game == "crisis":
        return crisis_lesson(teacher=teacher, language=language, title=title)
    return poleconomy_lesson(teacher=teacher, language=language, title=title)
