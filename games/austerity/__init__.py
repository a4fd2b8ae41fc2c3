"""*Austerity* (a solo budget game; in class a whole table governs one country).

The engine API (see ``games.core``): ``new_game``, ``apply``, ``replay_actions``,
``legal_actions``, ``decisions``, ``player_view``, ``public_view``, ``view``, ``is_over``,
``scores``, ``summary``, ``balances``, ``ballot_outcome``, ``to_dict``/``from_dict``. The
record format is in ``docs/engines/austerity.md``.
"""

from collections.abc import Mapping
from typing import Any

from games.austerity.rules import GAME_ID, apply, is_over, replay_actions, scores
from games.austerity.setup import new_game
from games.austerity.state import from_dict, to_dict
from games.austerity.views import (
    balances,
    decisions,
    legal_actions,
    player_view,
    public_view,
    summary,
    view,
)
from games.core import no_secret_ballot


def ballot_outcome(state: Any, decision_id: str, tally: Mapping[str, int]) -> Any:
    """No decision of Austerity is a secret ballot: always ``InvalidAction``."""
    raise no_secret_ballot("Austerity", decision_id)


__all__ = [
    "GAME_ID",
    "apply",
    "balances",
    "ballot_outcome",
    "decisions",
    "from_dict",
    "is_over",
    "legal_actions",
    "new_game",
    "player_view",
    "public_view",
    "replay_actions",
    "scores",
    "summary",
    "to_dict",
    "view",
]
