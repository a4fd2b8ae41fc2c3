"""*Poleconomy* (play-by-mail rules) as a pure engine; see ``docs/engines/poleconomy.md``.

The engine API (see ``games.core``): ``new_game``, ``apply``, ``replay_actions``,
``legal_actions``, ``player_view``, ``public_view``, ``view``, ``decisions``, ``balances``,
``ballot_outcome``, ``is_over``, ``scores``, ``summary``, ``to_dict``, ``from_dict``.
"""

from games.poleconomy.rules import (
    GAME_ID,
    apply,
    ballot_outcome,
    is_over,
    new_game,
    replay_actions,
    scores,
)
from games.poleconomy.state import from_dict, to_dict
from games.poleconomy.views import (
    balances,
    decisions,
    legal_actions,
    player_view,
    public_view,
    summary,
    view,
)

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
