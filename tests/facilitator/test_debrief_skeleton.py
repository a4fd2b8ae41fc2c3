"""The debrief's skeleton is the platform's (``kit.reports.Debrief``): a module supplies its
story and one page per student; the platform decides who gets a page, the language and the
page frame, and writes the PDF. Run with Coin Jar (``tests/fakegame/debrief.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from facilitator import services
from facilitator.kit.reports import Debrief, people
from facilitator.models import ClassSession, Seat
from tests.facilitator.lesson import fresh, make_teacher
from tests.fakegame import engine
from tests.fakegame.debrief import DEBRIEF
from tests.fakegame.installed import coin_jar_installed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def coin_jar(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with coin_jar_installed(monkeypatch):
        yield


def lesson(students: int, *, fill: str | None = None, language: str = "en") -> ClassSession:
    teacher = make_teacher()
    session = services.session_create(owner=teacher, game=engine.GAME_ID, language=language)
    for i in range(students):
        services.seat_join(code=session.join_code, nickname=f"S{i + 1}")
    services.session_start(session=fresh(session), fill=fill, seed=7)
    return fresh(session)


def pages(html: str) -> list[str]:
    return re.findall(r'<section class="student"><h1>([^<]*)</h1>', html)


def test_a_handout_has_a_page_for_each_student_and_none_for_a_bot() -> None:
    session = lesson(2, fill="bots")
    assert Seat.objects.filter(session=session, is_bot=True).count() == 1
    assert sorted(pages(DEBRIEF.students_html(session, paper="a4"))) == ["S1", "S2"]
    assert '<p class="people">2 students</p>' in DEBRIEF.class_html(session, paper="a4")


def test_a_removed_student_has_no_page() -> None:
    session = lesson(4)
    gone = Seat.objects.get(session=session, nickname="S3")
    services.seat_remove(session=session, seat=gone)
    seated = [s.nickname for s in people(fresh(session))]
    assert sorted(seated) == ["S1", "S2", "S4"]
    assert pages(DEBRIEF.students_html(fresh(session), paper="a4")) == seated


def test_one_students_handout_is_their_page_alone() -> None:
    session = lesson(3)
    seat = Seat.objects.get(session=session, nickname="S2")
    assert pages(DEBRIEF.students_html(session, paper="a4", seat_id=seat.pk)) == ["S2"]


def test_a_handout_is_written_in_the_language_asked_with_the_lessons_by_default() -> None:
    session = lesson(3, language="es")
    assert '<html lang="es">' in DEBRIEF.class_html(session, paper="a4")
    assert '<html lang="en">' in DEBRIEF.students_html(session, paper="a4", language="en")


def test_the_platform_writes_the_handout_as_a_pdf() -> None:
    pdf = DEBRIEF.class_handout(lesson(3), paper="letter")
    assert pdf.startswith(b"%PDF-")


def test_a_debrief_that_leaves_out_a_part_cannot_be_made() -> None:
    class NoPages(Debrief):
        class_template = students_template = "coin_jar/reports/class.html"

        def class_parts(self, session: ClassSession) -> dict[str, Any]:
            return {}

        def results(self, session: ClassSession) -> list[Any]:
            return []

        def rounds_csv(self, session: ClassSession, *, anonymous: bool = False) -> str:
            return ""

        def results_csv(self, session: ClassSession, *, anonymous: bool = False) -> str:
            return ""

    with pytest.raises(TypeError, match="student_pages"):
        NoPages()  # type: ignore[abstract]
