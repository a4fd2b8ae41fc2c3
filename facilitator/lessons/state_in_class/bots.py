"""State in Class's bots at a lesson table: the pact, tie-breaks and votes of their policy."""

from __future__ import annotations

import random
from typing import Any

from facilitator.lessons.state_in_class.stages import Stage
from facilitator.models import Bag, ClassSession, Seat, Table
from games.registry import get_engine
from games.state_in_class import bots as policies

DEFAULT_POLICY = "civic"


def bot_action(table: Table, session: ClassSession, state: Any, seat: Seat
               ) -> dict[str, Any] | None:
    legal = get_engine(session.game).legal_actions(state, seat.player_name)
    if not legal:
        return None
    policy = policies.get_policy(seat.bot_policy or DEFAULT_POLICY)
    me = state.player(seat.player_name)
    rng = random.Random(f"{table.seed}:{seat.position}:{state.round}:{state.phase}")
    kind = legal[0]["type"]
    if kind == "pact" and session.stage == Stage.PACT:
        return {"type": "pact", "player": me.name, "coins": policy.pact(state, me, rng)}
    if kind == "tie_break":
        return {"type": "tie_break", "player": me.name,
                "choice": policy.tie_break(state, me, state.tie.kind, list(state.tie.options),
                                           rng)}
    return None


def bot_vote(state: Any, seat: Seat, bag: Bag, rng: Any) -> str:
    kind = bag.decision.split(":", 1)[1]
    policy = policies.get_policy(seat.bot_policy or DEFAULT_POLICY)
    return str(policy.vote(state, state.player(seat.player_name), kind, rng))


def automatic_action(seats: list[Seat], state: Any) -> dict[str, Any] | None:
    """A removed student cannot say whether their vote was among the tied options: they
    pass, and the next lowest Income decides (a budget tie, where nobody may pass, waits for
    the teacher to decide for them)."""
    if state.phase != "tie_break" or state.tie is None or state.tie.kind != "tax":
        return None
    decider = state.tie.deciders[0]
    if any(s.player_name == decider and s.removed for s in seats):
        return {"type": "tie_break", "player": decider, "choice": None}
    return None


def after_count(state: Any, seats: list[Seat]) -> list[int]:
    """The phones whose screen a count changes: none.

    A bag is counted when its last token goes in, in the voting stage. Every phone shows the
    same screen before and after (phones are paced to the teacher's stage: the result, the
    payments and a tie's question appear when the teacher reveals the count, see
    ``pacing.tie_shown``), so none is re-rendered (docs/performance.md;
    ``tests/lessons/state_in_class/test_state_in_class_pacing_at_count.py``).
    """
    return []
