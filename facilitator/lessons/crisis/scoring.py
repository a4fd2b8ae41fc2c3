"""The lesson's final result at a table: the engine's final scores, or — in the shorter game
(``options.SHORT_ROUNDS``), which ends before the engine's seventh round — the scores the
engine gives a game ended right after the last round's Evaluation.

The engine runs the next round's Event and Loan Interest in the same move that ends a round,
so the shorter game's scores take out what followed that round's ``end_of_round`` event
(credits, VP and Penalty tiles of the round the class never plays); the rest is the engine's
own rule (``games.crisis.scores``: VP + credits // 5 − 2 per loan − Penalty tiles; Axia is
bankrupt only if its track fell below 0, which ends the engine's game at once).
"""

from __future__ import annotations

from typing import Any

from facilitator.kit import engine_of, record_actions
from facilitator.models import Table
from games import crisis as engine
from games.core import Event
from games.crisis.state import OVER, GameState


def events_after_round(table: Table, rounds: int) -> tuple[GameState, list[Event]]:
    """The state after the table's record, and every event after round ``rounds`` ended."""
    state = engine.new_game(table.config, table.seed)
    after: list[Event] = []
    ended = False
    for action in record_actions(table):
        state, events = engine_of(table).apply(state, action)
        for event in events:
            if ended:
                after.append(event)
            elif event["type"] == "end_of_round" and event.get("round") == rounds:
                ended = True
    return state, after


def state_at_round_end(table: Table, rounds: int) -> GameState:
    """The table's game as it stood when round ``rounds`` ended (for the shorter game)."""
    state, later = events_after_round(table, rounds)
    if state.phase == OVER:
        return state
    scored = state.clone()
    for event in later:
        if event["type"] == "transfer":
            for account, sign in ((event["to"], -1), (event["from"], 1)):
                name = account.removeprefix("player:")
                if account != "bank" and name in scored.names:
                    scored.player(name).credits += sign * event["amount"]
        elif event["type"] == "vp":
            scored.player(event["player"]).vp -= event["delta"]
        elif event["type"] == "penalty":
            scored.player(event["player"]).penalty -= event["vp"]
    scored.phase = OVER
    return scored


_ENDED: dict[tuple[int, int, int, int], dict[str, Any]] = {}  # the shorter game's, per record


def final_scores(table: Table, state: GameState, rounds: int) -> dict[str, Any]:
    """Every team's final score, breakdown and place at the lesson's end. The shorter game's
    replays the record once per process and record length (every screen shows it)."""
    if state.phase == OVER:
        return engine.scores(state)
    key = (table.pk, table.seed, table.actions.count(), rounds)
    if key not in _ENDED:
        _ENDED[key] = engine.scores(state_at_round_end(table, rounds))
    return _ENDED[key]

