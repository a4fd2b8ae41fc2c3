"""*A State in Class · Who Pays for Us All?* (José Miguel Martín Rodríguez, CC BY-NC-SA 4.0).

The engine API (see ``games.core``): ``new_game``, ``apply``, ``legal_actions``,
``player_view``, ``public_view``, ``is_over``, ``scores``, ``summary``, ``replay_actions``, and
the lesson-module protocol's ``decisions``, ``view``, ``balances`` and ``ballot_outcome``.
"""

from games.state_in_class.audiences import legal_actions, player_view, public_view, summary
from games.state_in_class.decisions import balances, ballot_outcome, decisions, view
from games.state_in_class.rules import (
    GAME_ID,
    apply,
    is_over,
    new_game,
    replay_actions,
    scores,
)
from games.state_in_class.state import from_dict, to_dict

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
