"""*Crisis* (Pantelis Bouboulis & Sotiris Tsantilas; LudiCreations) as a pure rules engine.

The engine API (see ``games.core`` and ``docs/engines/crisis.md``): ``new_game``, ``apply``,
``replay_actions``, ``legal_actions``, ``decisions``, ``player_view``, ``public_view``,
``view``, ``balances``, ``ballot_outcome``, ``is_over``, ``scores``, ``summary``,
``to_dict``/``from_dict`` and ``preview_production``. For screens: ``games.crisis.previews``
(what each choice of a team costs, needs and earns) and ``games.crisis.names`` (names and
engine texts shown after translation).
"""

from collections.abc import Mapping
from typing import Any

from games.core import no_secret_ballot
from games.crisis.production import preview_production
from games.crisis.rules import GAME_ID, apply, is_over, replay_actions
from games.crisis.setup import new_game
from games.crisis.state import from_dict, to_dict
from games.crisis.views import (
    balances,
    decisions,
    legal_actions,
    player_view,
    public_view,
    scores,
    summary,
    view,
)


def ballot_outcome(state: Any, decision_id: str, tally: Mapping[str, int]) -> Any:
    """No decision of Crisis is a secret ballot: always ``InvalidAction``."""
    raise no_secret_ballot("Crisis", decision_id)


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
    "preview_production",
    "public_view",
    "replay_actions",
    "scores",
    "summary",
    "to_dict",
    "view",
]
