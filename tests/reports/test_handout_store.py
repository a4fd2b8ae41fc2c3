"""A finished lesson's PDFs are built once and served from then on; the debrief page has
them prepared and shows the progress."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from facilitator.models import Handout
from facilitator.reports import handouts, views

pytestmark = pytest.mark.django_db


class Counting:
    """The lesson's debrief, counting the PDFs it builds."""

    def __init__(self, debrief: Any) -> None:
        self.debrief, self.built = debrief, []

    def class_handout(self, session: Any, **kwargs: Any) -> bytes:
        self.built.append(("class", kwargs))
        return self.debrief.class_handout(session, **kwargs)

    def student_handouts(self, session: Any, **kwargs: Any) -> bytes:
        self.built.append(("students", kwargs))
        return self.debrief.student_handouts(session, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.debrief, name)


@pytest.fixture
def counting(monkeypatch, lessons):
    session = lessons["full"]
    Handout.objects.filter(session=session).delete()
    debrief = Counting(session.lesson.reports())
    monkeypatch.setattr(views, "_debrief", lambda _session: debrief)
    client = Client()
    client.force_login(lessons["teacher"])
    return session, debrief, client, f"/teacher/lessons/{session.pk}/reports/"


def test_a_handout_is_built_once_and_then_served_as_stored(counting):
    _session, debrief, client, base = counting
    first = client.get(base + "class.pdf?paper=a4").content
    again = client.get(base + "class.pdf?paper=a4").content
    assert first == again and first.startswith(b"%PDF")
    assert [what for what, _kw in debrief.built] == ["class"]


def test_each_paper_language_and_student_is_its_own_handout(counting):
    session, debrief, client, base = counting
    seat = session.seats.filter(is_bot=False).first()
    for url in ("class.pdf?paper=a4", "class.pdf?paper=letter", "class.pdf?paper=a4&lang=es",
                f"student/{seat.pk}.pdf?paper=a4", "students.pdf?paper=a4"):
        client.get(base + url)
        client.get(base + url)
    assert len(debrief.built) == 5
    assert set(Handout.objects.filter(session=session).values_list("key", flat=True)) == {
        "class|a4|en", "class|letter|en", "class|a4|es", f"student:{seat.pk}|a4|en",
        "students|a4|en"}


def test_a_renamed_lesson_or_student_gets_its_handout_built_again(counting):
    session, debrief, client, base = counting
    client.get(base + "class.pdf?paper=a4")
    session.title = "3B Economics, Tuesday"
    session.save(update_fields=["title"])
    client.get(base + "class.pdf?paper=a4")
    seat = session.seats.filter(is_bot=False).first()
    seat.nickname = seat.nickname[:15] + "2"
    seat.save(update_fields=["nickname"])
    client.get(base + "class.pdf?paper=a4")
    assert len(debrief.built) == 3
    assert Handout.objects.filter(session=session, key="class|a4|en").count() == 1


def test_the_debrief_page_lists_what_is_still_being_prepared(counting):
    _session, debrief, client, base = counting
    page = client.get(base + "?paper=a4").content.decode()
    assert f"{base}prepare/class?paper=a4" in page and f"{base}prepare/students?paper=a4" in page
    assert "js/handouts.js" in page and "<progress" in page
    assert client.post(base + "prepare/class?paper=a4").json() == {"ready": True}
    assert client.post(base + "prepare/students?paper=a4").json() == {"ready": True}
    page = client.get(base + "?paper=a4").content.decode()
    assert "prepare/" not in page and "<progress" not in page
    client.get(base + "class.pdf?paper=a4")
    assert [what for what, _kw in debrief.built] == ["class", "students"]


def test_preparing_needs_a_post_a_known_handout_and_the_owner(counting, lessons):
    _session, debrief, client, base = counting
    assert client.get(base + "prepare/class").status_code == 405
    assert client.post(base + "prepare/record").status_code == 404
    other = Client()
    other.force_login(lessons["other"])
    assert other.post(base + "prepare/class").status_code == 404
    assert Client().post(base + "prepare/class").status_code == 302
    assert debrief.built == []


def test_preparing_is_refused_before_the_lesson_is_over(lessons):
    from tests.facilitator.lesson import make_session

    waiting = make_session(lessons["teacher"])
    client = Client()
    client.force_login(lessons["teacher"])
    assert client.post(f"/teacher/lessons/{waiting.pk}/reports/prepare/class").status_code == 409
    assert not Handout.objects.filter(session=waiting).exists()


def test_the_stored_handout_is_only_what_the_builder_made():
    calls: list[int] = []

    def build() -> bytes:
        calls.append(1)
        return b"%PDF-fake"

    from tests.facilitator.lesson import make_session, make_teacher

    session = make_session(make_teacher("store"))
    name = handouts.key(handouts.CLASS, paper="a4", language="en")
    assert handouts.handout_get(session=session, name=name, build=build) == b"%PDF-fake"
    assert handouts.handout_get(session=session, name=name, build=build) == b"%PDF-fake"
    assert calls == [1]
    assert bytes(Handout.objects.get(session=session).content) == b"%PDF-fake"
