"""What the Poleconomy tests share: a three-player game staged from a situation, and a round
of orders."""

from __future__ import annotations

from typing import Any

from games.poleconomy.rules import new_game, step

NAMES = ["Ana", "Ben", "Cai"]


def staged(dice: Any = (), **start: Any) -> Any:
    start.setdefault("basic_incomes", {"Ana": 6, "Ben": 5, "Cai": 4})
    start.setdefault("pm", "Ana")
    return new_game({"players": NAMES, "rounds": 5, "dice": [list(d) for d in dice],
                     "start": start}, 1)


def play(state: Any, **orders: Any) -> list[Any]:
    """Send every player's orders (missing players: NMR); returns the round's events."""
    events = []
    for name in NAMES:
        events += step(state, {"type": "orders", "player": name, "orders": orders.get(name)})
    return events
