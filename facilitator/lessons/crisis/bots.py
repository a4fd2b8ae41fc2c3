"""Crisis's bots at a lesson table: a bot captain answers its team's decision with a
``games.crisis.bots`` policy (``sensible`` by default) when the lesson's stage opens it; the
round's last move waits for the teacher's Evaluation (``turns``). A team of students with
nobody connected, or whose turn has run out, is handled by ``automatic_action``."""

from __future__ import annotations

from typing import Any

from facilitator.lessons.crisis import turns
from facilitator.models import ClassSession, Seat, Table
from games.crisis.state import GameState


def bot_action(table: Table, session: ClassSession, state: GameState, seat: Seat
               ) -> dict[str, Any] | None:
    mine = turns.team_decisions(session, state, seat.player_name)
    if not mine:
        return None
    action = turns.bot_move(table, state, mine[0], seat.bot_policy)
    if action["type"] in turns.ANY_TIME and not turns.may_act_any_time(session, state,
                                                                     seat.player_name):
        return None
    return None if turns.ends_round(state, action) else action


def automatic_action(seats: list[Seat], state: GameState) -> dict[str, Any] | None:
    """A team with no member left (every one removed) is played by the bot at once; any other
    open turn whose time is up takes its default (``turns.turn_due``)."""
    if not seats:
        return None
    table = seats[0].table
    if table is None:
        return None
    session = table.session
    teams = {s.player_name for s in seats if not s.removed and s.shares_id is None}
    for decision in turns.stage_decisions(session, state):
        if decision.deciders[0] not in teams:
            action = turns.bot_move(table, state, decision, turns.DEFAULT_POLICY)
            if action["type"] in turns.ANY_TIME:
                action = dict(decision.default or {})
            return None if turns.ends_round(state, action) else action
    return turns.turn_due(table, session, state, seats)
