"""Parties: who acts for one engine player (a student, two on one phone, a team), the
captain by rotation and the stand-in while the captain's phone is asleep."""

from typing import Any

from facilitator import parties as _parties

# What this part of the kit offers; anything else of the platform's module is not for modules.
PUBLIC = frozenset({
    "acting", "captain", "is_captain", "members", "on_whose_behalf", "parties", "stands_in_for",
    "team_names", "voters",
})


def __getattr__(name: str) -> Any:
    """Each name is looked up on the platform's module when used, so this part of the kit is
    always what the platform runs (a test that replaces one replaces it here too)."""
    if name in PUBLIC:
        return getattr(_parties, name)
    raise AttributeError(f"the lesson kit has no {name!r} here")
