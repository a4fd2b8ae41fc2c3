"""A scripted lesson for the report tests and ``bench/pdf.py``: whole games, every student
acting through the services as the phones would, with the same outcome on every run.

Seating is random in production (``random.SystemRandom``); ``seeded`` makes it repeatable.
Votes follow a small plan per round (a tie in round 1, the flat tax in round 2, then mostly
progressive), budget votes go to the weakest service, as civic players would do.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

from facilitator import services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.pacing import tie_shown
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state
from facilitator.models import ClassSession, Table
from games.state_in_class import bots
from tests.facilitator.lesson import fresh, humans, join, make_session

TaxPlan = Callable[[int, int, int], str]  # (table number, round, seat index) -> option
BudgetPlan = Callable[[Any, Any, int], str]  # (engine state, player, seat index) -> service


@contextlib.contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Make the seating and the table seeds repeatable (they use random.SystemRandom)."""
    original = random.SystemRandom
    random.SystemRandom = lambda *a: random.Random(seed)  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        random.SystemRandom = original  # type: ignore[misc]


def default_tax(table: int, rnd: int, seat: int) -> str:
    """Round 1: a 4–4 tie between C and D. Then mostly progressive (even tables: B and D),
    with the flat tax in round 7 at odd tables."""
    if rnd == 1:
        return "C" if seat % 2 else "D"
    if rnd == 7 and table % 2:  # the flat tax in the last rounds
        return "A" if seat < 5 else "C"
    if table % 2 == 0:
        return "B" if seat < 5 else "D"
    return "C" if seat < 6 else "D"


def default_pact(table: int, seat: int) -> int:
    return (3, 3, 2, 2, 2, 1, 3, 2)[seat % 8] if table % 2 else (1, 0, 2, 1, 0, 1, 2, 1)[seat % 8]


def _tables(session: ClassSession) -> list[Table]:
    return list(fresh(session).tables.order_by("number"))


def civic_budget(state: Any, me: Any, index: int) -> str:
    """Shield first in rounds 1–2 (ready for round 3's crisis), then the weakest service."""
    if state.round <= 2:
        return "shield" if index < 6 else "health"
    return bots.spread_budget(state, me)


def _vote(session: ClassSession, kind: str, tax: TaxPlan, budget: BudgetPlan) -> None:
    session = fresh(session)
    for table in _tables(session):
        state = load_state(table)
        if state.phase != f"{kind}_vote":  # this table's game is over
            continue
        for index, seat in enumerate(humans(table)):
            if kind == "tax":
                option = tax(table.number, state.round, index)
            else:
                option = budget(state, state.player(seat.player_name), index)
            services.ballot_cast(seat_id=seat.pk, kind=kind, option=option,
                                 expected=session.stage_id)


def _break_ties(session: ClassSession, pass_rounds: tuple[int, ...]) -> None:
    if not tie_shown(fresh(session).stage):  # a tie is decided once the count is shown
        return
    for table in _tables(session):
        for _ in range(16):
            table.refresh_from_db()
            state = load_state(table)
            if state.phase != "tie_break":
                break
            tie = state.tie
            decider = table.seats.get(player_name=tie.deciders[0])
            choice: Any = tie.options[0]
            if tie.kind == "tax" and state.round in pass_rounds:
                choice = None
            sic_services.tie_break_submit(seat_id=decider.pk, choice=choice)


def play_scripted(session: ClassSession, *, tax: TaxPlan = default_tax,
                  budget: BudgetPlan = civic_budget,
                  pact: Callable[[int, int], int] = default_pact,
                  pass_rounds: tuple[int, ...] = (), fill: str | None = None) -> ClassSession:
    """From the lobby to the final count (or the State's failure)."""
    services.session_start(session=session, fill=fill)
    session = fresh(session)
    for table in _tables(session):
        for index, seat in enumerate(humans(table)):
            sic_services.pact_submit(seat_id=seat.pk, coins=pact(table.number, index),
                                 expected=session.stage_id)
    for _step in range(200):
        session = fresh(session)
        if session.stage == Stage.FINAL:
            break
        if session.stage == Stage.TAX_VOTE:
            _vote(session, "tax", tax, budget)
        elif session.stage == Stage.BUDGET_VOTE:
            _vote(session, "budget", tax, budget)
        _break_ties(session, pass_rounds)
        services.session_advance(confirm=True, session=session, expected=fresh(session).stage_id)
    return fresh(session)


def scripted_lesson(*, students: int = 8, seed: int = 8, teacher: Any = None,
                    title: str = "3B Economics", language: str = "en",
                    **kwargs: Any) -> ClassSession:
    """A finished lesson: ``students`` join, the game is played to the end."""
    with seeded(seed):
        session = make_session(teacher, title=title, language=language)
        join(session, students)
        return play_scripted(session, **kwargs)
