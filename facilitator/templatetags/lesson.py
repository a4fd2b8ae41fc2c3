"""Template helpers every lesson module's pages may use."""

from __future__ import annotations

from typing import Any

from django import template

from facilitator import clock

register = template.Library()


@register.simple_tag
def server_now() -> str:
    """The server's time, in epoch seconds, as a page's countdowns read it (``data-now`` on
    the live part of a page: static/js/live.js, ``facilitator.countdown``)."""
    return repr(clock.now().timestamp())


@register.filter
def timer(seconds: Any) -> str:
    """Seconds as the timer shows them: ``2:05``."""
    try:
        s = max(0, int(seconds))
    except (TypeError, ValueError):
        return "--:--"
    return f"{s // 60}:{s % 60:02d}"
