"""Test support for Austerity's screens while the module is "in preparation": it is offered
on the new-lesson page (the lead flips ``AusterityLesson.playable`` once it is ready)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def apply(setattr_: Callable[[Any, str, Any], None] = setattr) -> None:
    """Offer Austerity (``setattr_``: pytest's ``monkeypatch.setattr`` in a test, plain
    ``setattr`` in the e2e server)."""
    from facilitator.lessons.austerity.lesson import AusterityLesson

    setattr_(AusterityLesson, "playable", True)
