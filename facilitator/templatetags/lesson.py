"""Template helpers every lesson module's pages may use."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def timer(seconds: Any) -> str:
    """Seconds as the timer shows them: ``2:05``."""
    try:
        s = max(0, int(seconds))
    except (TypeError, ValueError):
        return "--:--"
    return f"{s // 60}:{s % 60:02d}"
