"""Test support for Austerity's screens while the module is "in preparation": it is offered
on the new-lesson page, and a seat at its table is shown the engine's one player's view
("government": the whole table is one player) whatever its own name. The platform asks the
engine for the seat's own name today; the lesson's core work replaces that, and then the
second patch changes nothing (the engine is already asked for "government")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import games.austerity
from games.austerity.views import AUDIENCES, PLAYER


def government_view(real: Callable[[Any, str], dict[str, Any]]
                    ) -> Callable[[Any, str], dict[str, Any]]:
    def view(state: Any, audience: str) -> dict[str, Any]:
        return real(state, audience if audience in AUDIENCES else PLAYER)

    return view


def apply(setattr_: Callable[[Any, str, Any], None] = setattr) -> None:
    """Offer Austerity and show every seat the government's view (``setattr_``: pytest's
    ``monkeypatch.setattr`` in a test, plain ``setattr`` in the e2e server)."""
    from facilitator.lessons.austerity.lesson import AusterityLesson

    setattr_(AusterityLesson, "playable", True)
    setattr_(games.austerity, "view", government_view(games.austerity.view))
