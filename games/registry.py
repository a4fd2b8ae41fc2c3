"""The engines this project knows, by game id (the ``"game"`` of a game record)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import games.austerity
import games.crisis
import games.poleconomy
import games.state_in_class

if TYPE_CHECKING:
    from games.core import Engine

ENGINES: dict[str, Engine] = {
    games.state_in_class.GAME_ID: cast("Engine", games.state_in_class),
    games.austerity.GAME_ID: cast("Engine", games.austerity),
    games.crisis.GAME_ID: cast("Engine", games.crisis),
    games.poleconomy.GAME_ID: cast("Engine", games.poleconomy),
}
