"""Austerity's bots at a lesson table: a bot Finance Minister plays the engine's decisions
with a policy of ``games.austerity.bots`` (``sensible`` by default); a bot voter votes in the
budget session for what that policy would do."""

from __future__ import annotations

import random
from typing import Any

from facilitator.lessons.austerity import script
from facilitator.log import apply_action
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction, TeacherStep
from facilitator.services import table_seats
from games.austerity import bots as policies
from games.austerity.state import GameState

DEFAULT_POLICY = "sensible"
Actor = TableAction.Actor


def policy_of(seat: Seat) -> Any:
    return policies.get_policy(seat.bot_policy or DEFAULT_POLICY)


def _rng(table: Table, state: GameState) -> random.Random:
    """The bot's chance, a function of the table's seed and the game's position (the
    record replays without it: the bot's choices are stored as actions)."""
    return random.Random(f"{table.seed}:{state.year}:{state.draws_done}:{state.stage}:"
                         f"{state.income_asked}:{state.actions_taken}")


def minister_action(table: Table, state: GameState, seat: Seat) -> dict[str, Any]:
    return dict(policy_of(seat)(state, _rng(table, state)))


def bot_action(table: Table, session: ClassSession, state: GameState, seat: Seat
               ) -> dict[str, Any] | None:
    """The bot's move: the engine's next decision when it is the minister in the year."""
    if not script.minister_may_act(session, state):
        return None
    if script.minister(table_seats(table), script.year_of(session)) != seat:
        return None
    return minister_action(table, state, seat)


def play_year(table: Table, session: ClassSession, state: GameState,
              step: TeacherStep | None) -> GameState:
    """A bot minister plays the rest of its table's year at once."""
    chair = script.minister(table_seats(table), script.year_of(session))
    for _n in range(1000):  # bounded: every action is a decision of a finite year
        if chair is None or not chair.is_bot or not script.minister_may_act(session, state):
            break
        state, _e = apply_action(table, state, minister_action(table, state, chair),
                                 actor=Actor.BOT, seat=chair, step=step)
    return state


def _times(state: GameState, seat: Seat, action: str, rng: random.Random) -> int:
    """How many times in a row the bot's policy would take ``action`` now (at most
    ``script.MOST_TIMES``)."""
    from games.austerity import rules

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
    """What the bot's policy would do with this budget item."""
    item = script.item_of(bag.decision)
    if item == script.TAXES:
        choice = str(_times(state, seat, "raise-taxes", rng))
    elif item == script.BORROW:
        choice = str(_times(state, seat, "borrow", rng))
    elif item == script.LOAN:
        choice = script.YES if _times(state, seat, "pay-loan", rng) else script.NO
    elif item == script.POLICY_ITEM:
        choice = str(policy_of(seat)(state, rng).get("choice", script.KEEP))
    else:
        move = policy_of(seat)(state, rng)
        choice = str(move.get("choice", script.NONE))
    return choice if choice in bag.options else bag.options[0]
