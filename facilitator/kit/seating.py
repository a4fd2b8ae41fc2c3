"""How a class is split into tables (a module's ``seating`` returns a ``SeatingPlan``)."""

from typing import Any

from facilitator import seating as _seating

# What this part of the kit offers; anything else of the platform's module is not for modules.
PUBLIC = frozenset({
    "MAX_TABLE", "MIN_TABLE", "SeatingPlan", "even_split", "plan",
})


def __getattr__(name: str) -> Any:
    """Each name is looked up on the platform's module when used, so this part of the kit is
    always what the platform runs (a test that replaces one replaces it here too)."""
    if name in PUBLIC:
        return getattr(_seating, name)
    raise AttributeError(f"the lesson kit has no {name!r} here")
