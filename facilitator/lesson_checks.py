"""``manage.py check``: every installed lesson module has the parts a lesson needs.

A module missing a part, or naming one the platform does not have, fails the check at
start-up (``make run`` runs it with ``migrate``), with a message that says which module and
what, instead of a ``NotImplementedError`` in the middle of a lesson (docs/modules.md).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from django.core.checks import Error, register
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from facilitator import lessons
from facilitator.lessons.base import Lesson
from facilitator.reports.debrief import Debrief
from games.core import InvalidConfig
from games.registry import get_engine

# What every lesson states about itself (the new-lesson and About pages show them).
TEXTS = ("name", "summary", "duration", "group_sizes", "students_do")
# The hooks the platform calls during every lesson: the base class has no answer for them.
HOOKS = ("seating", "seating_error", "plan_step", "on_step", "projector_context",
         "phone_context")
# The templates the page shells include; "css" entries are static paths, not templates.
TEMPLATES = ("phone", "console", "progress")


def _declared(cls: type) -> set[str]:
    """The public names a class defines itself (methods, attributes, annotations)."""
    return {n for n in (*vars(cls), *getattr(cls, "__annotations__", {}))
            if not n.startswith("_")}


def _overrides(lesson: Lesson, hook: str) -> bool:
    return getattr(type(lesson), hook) is not getattr(Lesson, hook)


def lesson_problems(lesson: Lesson) -> list[str]:
    """What ``lesson`` lacks or names wrongly, each as one sentence ([] when complete)."""
    cls = type(lesson)
    problems: list[str] = []
    if not isinstance(getattr(lesson, "game", None), str) or not lesson.game:
        return ["it names no game (the class attribute 'game')"]
    try:
        get_engine(lesson.game)
    except (KeyError, InvalidConfig):
        problems.append(f"no engine declares its game {lesson.game!r} (a package under "
                        "games/ whose GAME_ID it is)")
    problems += [f"it has no {text!r}" for text in TEXTS if not getattr(lesson, text, "")]
    first = getattr(lesson, "first_stage", None)
    if not first:
        problems.append("it has no 'first_stage'")
    elif lesson.stage_names and first not in lesson.stage_names:
        problems.append(f"its first stage {first!r} is not among its 'stage_names'")
    if lesson.playable:
        problems += [f"it does not define {hook}()" for hook in HOOKS
                     if not _overrides(lesson, hook)]
    if lesson.seat_messages and not _overrides(lesson, "seat_act"):
        problems.append("it declares 'seat_messages' but does not define seat_act()")
    if lesson.teacher_messages and not _overrides(lesson, "teacher_act"):
        problems.append("it declares 'teacher_messages' but does not define teacher_act()")
    for key in TEMPLATES if lesson.playable else ():
        if key not in lesson.templates:
            problems.append(f"its 'templates' has no {key!r}")
    for key, name in lesson.templates.items():
        if key.endswith("_css"):
            continue
        try:
            get_template(name)
        except TemplateDoesNotExist:
            problems.append(f"its template {key!r} ({name}) does not exist")
    problems += _debrief_problems(lesson)
    if lesson.teacher_urls:
        try:
            importlib.import_module(lesson.teacher_urls)
        except ImportError as exc:
            problems.append(f"its 'teacher_urls' ({lesson.teacher_urls}) does not import: "
                            f"{exc}")
    known = _declared(Lesson) | {n for n, _v in inspect.getmembers(Lesson)}
    for base in cls.__mro__:
        if base is Lesson or not issubclass(base, Lesson):
            continue
        for name in sorted(_declared(base) - known):
            if callable(getattr(base, name, None)) and not isinstance(
                    getattr(base, name), type):
                problems.append(f"it defines {name}(), which the platform never calls "
                                "(a misspelt hook?); keep its own helpers private (_name) "
                                "or out of the Lesson class")
    return problems


def _debrief_problems(lesson: Lesson) -> list[str]:
    """A debrief is the platform's skeleton with the module's parts, or none at all."""
    debrief = lesson.reports()
    if debrief is None:
        return []
    if not isinstance(debrief, Debrief):
        return ["its reports() is not a kit.reports.Debrief"]
    problems = []
    for key in ("class_template", "students_template"):
        name = getattr(debrief, key, "")
        try:
            get_template(name)
        except TemplateDoesNotExist:
            problems.append(f"its debrief's {key} ({name or 'none'}) does not exist")
    return problems


@register()
def lesson_modules_are_complete(app_configs: Any = None, **kwargs: Any) -> list[Any]:
    errors = []
    for lesson in lessons.all_lessons():
        for problem in lesson_problems(lesson):
            errors.append(Error(
                f"The lesson module of {lesson.game!r} ({type(lesson).__module__}): {problem}.",
                hint="docs/modules.md lists what a lesson module provides.",
                id="facilitator.E010"))
    return errors
