"""Austerity's bots at a lesson table: a bot Finance Minister plays the engine's decisions
with a policy of ``games.austerity.bots`` (``sensible`` by default; it plays in
``turns.follow``, limited to what the minister answers); a bot voter votes in each table
ballot for what that policy would do (a motion taking a kind from the minister: no)."""

from __future__ import annotations

import random
from typing import Any

from facilitator.lessons.austerity import modes, motions, script
from facilitator.lessons.austerity.models import Motion
from facilitator.models import Bag, Seat, Table, TableAction
from games.austerity import bots as policies
from games.austerity import rules
from games.austerity.state import GameState

DEFAULT_POLICY = "sensible"
Actor = TableAction.Actor


def policy_of(seat: Seat) -> Any:
    return policies.get_policy(seat.bot_policy or DEFAULT_POLICY)


def rng_of(table: Table, state: GameState) -> random.Random:
    """The bot's chance, a function of the table's seed and the game's position (the
    record replays without it: the bot's choices are stored as actions)."""
    return random.Random(f"{table.seed}:{state.year}:{state.draws_done}:{state.stage}:"
                         f"{state.income_asked}:{state.actions_taken}")


def minister_action(table: Table, state: GameState, seat: Seat) -> dict[str, Any]:
    return dict(policy_of(seat)(state, rng_of(table, state)))


def _times(state: GameState, seat: Seat, action: str, rng: random.Random) -> int:
    """How many times in a row the bot's policy would take ``action`` now (at most
    ``script.MOST_TIMES``)."""
    policy, done = policy_of(seat), 0
    state = state.clone()
    while done < script.MOST_TIMES:
        move = policy(state, rng)
        if move != {"type": "action", "choice": action}:
            break
        rules.step(state, move)
        done += 1
    return done


def bot_vote(state: GameState, seat: Seat, bag: Bag, rng: Any) -> str:
    """What the bot's policy would do with this budget item, decision or motion."""
    kind = modes.ballot_kind(bag.decision)
    if kind == modes.BUDGET:
        choice = _budget_vote(state, seat, bag, rng)
    elif kind == modes.MOTION:
        choice = _motion_vote(state, seat, bag, rng)
    else:
        move = policy_of(seat)(state, rng)
        if kind == modes.ACTIONS_BALLOT:
            choice = str(move["choice"]) if move.get("type") == "action" else script.NONE
        else:
            if move.get("type") == "action":
                move = policies.sensible_policy(state, rng, act=False)
            choice = str(move.get("choice", ""))
    return choice if choice in bag.options else bag.options[0]


def _motion_vote(state: GameState, seat: Seat, bag: Bag, rng: Any) -> str:
    """Yes to the Action or policy turn the bot's policy would take now; no to taking a kind
    of decision from the minister."""
    parsed = motions.parse_id(bag.decision)
    motion = Motion.objects.filter(table_id=bag.table_id, year=parsed[0],
                                   number=parsed[1]).first() if parsed else None
    if motion is None or motion.kind == motions.BALLOT:
        return script.NO
    move = policy_of(seat)(state, rng)
    return script.YES if move.get("choice") == motion.target else script.NO


def _budget_vote(state: GameState, seat: Seat, bag: Bag, rng: Any) -> str:
    item = script.item_of(bag.decision)
    if item == script.TAXES:
        return str(_times(state, seat, "raise-taxes", rng))
    if item == script.BORROW:
        return str(_times(state, seat, "borrow", rng))
    if item == script.LOAN:
        return script.YES if _times(state, seat, "pay-loan", rng) else script.NO
    if item == script.POLICY_ITEM:
        return str(policy_of(seat)(state, rng).get("choice", script.KEEP))
    return str(policy_of(seat)(state, rng).get("choice", script.NONE))
