"""Builders for Crisis tests: staged situations (the documented ``start``
config) and a driver that answers every open decision with a bot."""

from __future__ import annotations

import random
from typing import Any

from games.crisis import bots, rules, views
from games.crisis.setup import new_game
from games.crisis.state import OVER, GameState

NAMES = ["Blue", "Red", "Green", "White", "Black"]


def config(n: int = 4, **extra: Any) -> dict[str, Any]:
    return {"players": NAMES[:n], **extra}


def staged(n: int = 4, seed: int = 1, pins: dict[str, Any] | None = None,
           **start: Any) -> GameState:
    """A game started from a stated situation (``config.start``)."""
    return new_game(config(n, start=start, **(pins or {})), seed)


def act(state: GameState, **action: Any) -> list[dict[str, Any]]:
    """Apply one action in place (tests of one rule)."""
    return rules.step(state, action)


def play_out(state: GameState, policy: str = "sensible", seed: int = 0,
             until_round: int | None = None) -> list[dict[str, Any]]:
    """Answer decisions with bots until the game is over (or ``until_round`` begins)."""
    rng = random.Random(seed)
    actions = []
    while state.phase != OVER and (until_round is None or state.round < until_round):
        decision = views.decisions(state)[0]
        action = bots.act(policy, state, decision, rng)
        rules.step(state, action)
        actions.append(action)
    return actions


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
