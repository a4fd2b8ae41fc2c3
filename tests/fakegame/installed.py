"""Coin Jar installed for a test: its engine registered and its app in INSTALLED_APPS (the
platform finds its lesson module as it finds any other), and a lesson of it started."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.test import override_settings

from facilitator import lessons, services
from facilitator.models import ClassSession
from games.registry import ENGINES
from tests.facilitator.lesson import fresh, make_teacher
from tests.fakegame import engine


@contextmanager
def coin_jar_installed(monkeypatch: Any) -> Iterator[None]:
    monkeypatch.setitem(ENGINES, engine.GAME_ID, engine)
    with override_settings(INSTALLED_APPS=[*settings.INSTALLED_APPS, "tests.fakegame"]):
        lessons.forget()
        yield
    lessons.forget()


def started(students: int = 3) -> ClassSession:
    """A Coin Jar lesson of ``students``, started with seed 7."""
    session = services.session_create(owner=make_teacher(), game=engine.GAME_ID)
    for i in range(students):
        services.seat_join(code=session.join_code, nickname=f"S{i + 1}")
    services.session_start(session=fresh(session), seed=7)
    return fresh(session)
