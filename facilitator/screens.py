"""The template context of a projector or a phone screen: the lesson module's presenters over
a selector's view, with the module's template names (``templates.phone`` and so on) for the
platform's page shells."""

from __future__ import annotations

from typing import Any

from facilitator.lessons import lesson_for


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    lesson = lesson_for(view["session"]["game"])
    return {**lesson.projector_context(view, join_url=join_url), "templates": lesson.templates}


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    lesson = lesson_for(view["session"]["game"])
    return {**lesson.phone_context(view), "templates": lesson.templates}
