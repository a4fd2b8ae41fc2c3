"""The template context of a projector or a phone screen: the lesson module's presenters over
a selector's view, with the module's template names (``templates.phone`` and so on) for the
platform's page shells."""

from __future__ import annotations

from typing import Any

from facilitator import notices
from facilitator.lessons import lesson_for


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    """The module's projector context, with the platform's notice of bags closed unopened
    and the main button's label (``facilitator.main_button``: where the step goes, said by
    the module; the module's own label only while it refuses the step)."""
    lesson = lesson_for(view["session"]["game"])
    context = {**lesson.projector_context(view, join_url=join_url),
               "templates": lesson.templates,
               "set_aside": notices.set_aside_notice(view["session"].get("set_aside") or {})}
    button = view.get("next")
    if button:
        context["next_label"] = button["label"]
        context["next_label_voted"] = button.get("voted", "")
    return context


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    """The module's phone context, with what the platform says on every ballot: how secret
    it is (``facilitator.privacy``), for ``play/_ballot_secrecy.html``."""
    lesson = lesson_for(view["session"]["game"])
    table = view.get("table") or {}
    return {**lesson.phone_context(view), "templates": lesson.templates,
            "ballot_secrecy": table.get("secrecy", ""),
            "set_aside": notices.set_aside_notice(view["session"].get("set_aside") or {},
                                                  table=table.get("number", 0))}
