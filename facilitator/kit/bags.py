"""A table's open bag, as a module reads it (casting and counting go through the services:
``kit.vote_close``, ``kit.bot_ballot``; phones cast through the platform's ballot message)."""

from typing import Any

from facilitator import bags as _bags

# What this part of the kit offers; anything else of the platform's module is not for modules.
PUBLIC = frozenset({
    "generation", "open_bag", "voter_ids",
})


def __getattr__(name: str) -> Any:
    """Each name is looked up on the platform's module when used, so this part of the kit is
    always what the platform runs (a test that replaces one replaces it here too)."""
    if name in PUBLIC:
        return getattr(_bags, name)
    raise AttributeError(f"the lesson kit has no {name!r} here")
