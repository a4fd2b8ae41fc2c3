"""Finished lessons shared by the report tests (built once for the package: games take a while),
and the PDF readers every debrief test uses.

The lessons are committed to the test database while tests/reports runs and deleted after
(no test here uses ``transactional_db``, which would flush them). State in Class's own
debrief tests (``tests/lessons/state_in_class/``) build the same lessons once per module
with ``finished_lessons``.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from facilitator.log import replay_table
from facilitator.models import ClassSession
from tests.reports.scripted import scripted_lesson
from tests.support import require

FULL_SEEDS = (5, 1, 2, 3, 4, 6, 7, 8)


def full_game(teacher: Any, *, students: int = 8, title: str = "3B Economics") -> ClassSession:
    """A lesson whose tables all reach the final count (the first seed that gives one)."""
    for seed in FULL_SEEDS:
        session = scripted_lesson(students=students, seed=seed, teacher=teacher, title=title)
        states = [replay_table(t) for t in session.tables.all()]
        if all(s.phase == "over" and not s.failed for s in states):
            return session
        session.delete()
    raise AssertionError("no scripted seed reached the final count: check tests/reports/scripted")


def failing_game(teacher: Any) -> ClassSession:
    """Nobody gives to the pact (Tension 4), the flat tax every round, and every budget vote
    for Health: two services stay at level 1 (+2 Tension a round), so the State fails."""
    return scripted_lesson(students=8, seed=0, teacher=teacher, title="4C Failing State",
                           tax=lambda *_: "A", budget=lambda *_: "health",
                           pact=lambda *_: 0)


def finished_lessons(django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """State in Class lessons played to the end (a full one, a failing one, one of two tables)
    with their teacher and another teacher: for a package- or module-scoped fixture
    (``yield from finished_lessons(django_db_blocker)``). They are committed to the test
    database while the fixture lives and deleted after it."""
    with django_db_blocker.unblock():
        users = get_user_model().objects
        teacher = users.create_user(username="reports-teacher", password="x-reports",
                                    first_name="Marta", last_name="Ruiz")
        other = users.create_user(username="reports-other", password="x-other")
        data = {
            "teacher": teacher, "other": other,
            "full": full_game(teacher),
            "failing": failing_game(teacher),
            "two": full_game(teacher, students=16, title="Two tables"),
        }
        try:
            yield data
        finally:
            ClassSession.objects.filter(owner__in=[teacher, other]).delete()
            users.filter(pk__in=[teacher.pk, other.pk]).delete()


@pytest.fixture(scope="package")
def lessons(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    yield from finished_lessons(django_db_blocker)


def poppler(tool: str) -> str:
    path = shutil.which(tool)
    require(path is not None, f"needs {tool} (poppler-utils): apt-get install poppler-utils")
    assert path is not None
    return path


def pdf_text(pdf: bytes, tmp: Path, *, raw: bool = True) -> str:
    """The PDF's text in drawing order (``pdftotext -raw``), whitespace collapsed."""
    path = tmp / "doc.pdf"
    path.write_bytes(pdf)
    args = [poppler("pdftotext"), *(["-raw"] if raw else []), str(path), "-"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


def pdf_info(pdf: bytes, tmp: Path) -> dict[str, str]:
    path = tmp / "info.pdf"
    path.write_bytes(pdf)
    out = subprocess.run([poppler("pdfinfo"), str(path)], capture_output=True, text=True,
                         check=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}
