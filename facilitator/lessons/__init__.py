"""The lesson modules this server offers, found among the installed apps.

A lesson module is a Django app whose ``AppConfig`` has a ``lesson`` attribute: the dotted path
``"package.module:NAME"`` of its :class:`~facilitator.lessons.base.Lesson`. The platform reaches
a game only through this registry (``tests/facilitator/test_platform_boundary.py``): adding a
game is adding its app to ``INSTALLED_APPS``, never an import here.
"""

from __future__ import annotations

import importlib
from functools import cache

from django.apps import apps

from facilitator.lessons.base import Lesson


@cache
def _registry() -> dict[str, Lesson]:
    found: dict[str, Lesson] = {}
    for config in apps.get_app_configs():
        path = getattr(config, "lesson", None)
        if not path:
            continue
        module, _sep, name = path.partition(":")
        lesson = getattr(importlib.import_module(module), name)
        if lesson.game in found:
            raise RuntimeError(f"two lesson modules for the game {lesson.game!r}")
        found[lesson.game] = lesson
    return found


def all_lessons() -> list[Lesson]:
    """Every installed lesson, playable ones first, in the order of ``INSTALLED_APPS``."""
    return sorted(_registry().values(), key=lambda lesson: not lesson.playable)


def playable() -> list[Lesson]:
    return [lesson for lesson in all_lessons() if lesson.playable]


def lesson_for(game: str) -> Lesson:
    """The lesson of ``game``; ``KeyError`` for a game no installed module plays."""
    return _registry()[game]


def forget() -> None:
    """Read the installed apps again (tests that install a lesson app call this)."""
    _registry.cache_clear()
