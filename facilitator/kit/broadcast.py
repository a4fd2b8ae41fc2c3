"""What the sockets are told after a change: new screens for some seats, a vote's progress."""

from typing import Any

from facilitator import broadcast as _broadcast

# What this part of the kit offers; anything else of the platform's module is not for modules.
PUBLIC = frozenset({
    "progress", "refresh",
})


def __getattr__(name: str) -> Any:
    """Each name is looked up on the platform's module when used, so this part of the kit is
    always what the platform runs (a test that replaces one replaces it here too)."""
    if name in PUBLIC:
        return getattr(_broadcast, name)
    raise AttributeError(f"the lesson kit has no {name!r} here")
