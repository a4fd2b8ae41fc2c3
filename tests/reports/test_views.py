"""Downloads: only the lesson's teacher, only once it is finished, paper remembered."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from facilitator.models import ClassSession
from tests.facilitator.lesson import join, make_session, make_teacher
from tests.reports.conftest import pdf_info

pytestmark = pytest.mark.django_db


def urls(session: ClassSession) -> list[str]:
    base = f"/teacher/lessons/{session.pk}/reports/"
    seat = session.seats.filter(is_bot=False).first()
    return [base, base + "class.pdf", base + "students.pdf", base + f"student/{seat.pk}.pdf",
            base + "table/1/record.json", base + "rounds.csv", base + "results.csv"]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_anonymous_visitors_are_sent_to_the_login(lessons):
    for url in urls(lessons["full"]):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_another_teacher_gets_not_found(lessons):
    client = logged_in(lessons["other"])
    for url in urls(lessons["full"]):
        assert client.get(url).status_code == 404, url


def test_the_owner_downloads_everything(lessons):
    client = logged_in(lessons["teacher"])
    session = lessons["full"]
    base = f"/teacher/lessons/{session.pk}/reports/"
    page = client.get(base)
    assert page.status_code == 200 and b"class.pdf" in page.content
    for url in urls(session)[1:4]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF")
        assert response["Cache-Control"] == "no-store"
    record = client.get(base + "table/1/record.json")
    assert json.loads(record.content)["game"] == "state-in-class"
    assert "attachment" in record["Content-Disposition"]
    anonymous = client.get(base + "results.csv?anonymous=1").content.decode()
    assert "Player 1" in anonymous
    assert all(s.nickname not in anonymous for s in session.seats.all())
    assert client.get(base + "table/9/record.json").status_code == 404


def test_unknown_or_bot_seats_are_not_found(lessons):
    client = logged_in(lessons["teacher"])
    session, other = lessons["full"], lessons["failing"]
    foreign = other.seats.first()
    assert client.get(f"/teacher/lessons/{session.pk}/reports/student/{foreign.pk}.pdf"
                      ).status_code == 404


def test_paper_choice_is_remembered(lessons, tmp_path):
    client = logged_in(lessons["teacher"])
    session = lessons["failing"]
    base = f"/teacher/lessons/{session.pk}/reports/"
    try:
        assert client.get(base + "class.pdf?paper=letter").status_code == 200
        session.refresh_from_db()
        assert session.options["paper"] == "letter"
        remembered = client.get(base + "class.pdf").content
        assert pdf_info(remembered, tmp_path)["Page size"] == "612 x 792 pts (letter)"
        client.get(base + "class.pdf?paper=a4")
        session.refresh_from_db()
        assert session.options["paper"] == "a4"
        assert client.get(base + "class.pdf?paper=a3").status_code == 200  # ignored
        session.refresh_from_db()
        assert session.options["paper"] == "a4"
        page = client.get(base + "?paper=letter").content.decode()  # the index page's links
        assert "students.pdf?paper=letter" in page
        session.refresh_from_db()
        assert session.options["paper"] == "letter"
    finally:
        session.options.pop("paper", None)
        session.save(update_fields=["options"])


def test_reports_wait_for_the_end_of_the_lesson():
    teacher = make_teacher("reports-running")
    session = make_session(teacher, title="Still playing")
    join(session, 6)
    client = logged_in(teacher)
    for url in urls_for_unstarted(session):
        response = client.get(url)
        assert response.status_code == 409, url
        assert "not finished" in response.content.decode()


def urls_for_unstarted(session: ClassSession) -> list[str]:
    base = f"/teacher/lessons/{session.pk}/reports/"
    return [base, base + "class.pdf", base + "students.pdf", base + "rounds.csv",
            base + "results.csv", base + "table/1/record.json"]


def test_a_removed_student_gets_no_handout_and_is_not_counted(lessons):
    session = ClassSession.objects.get(pk=lessons["full"].pk)
    students = list(session.seats.filter(is_bot=False, table__isnull=False).order_by("pk"))
    gone = students[0]
    gone.removed = True
    gone.save(update_fields=["removed"])
    client = logged_in(lessons["teacher"])
    base = f"/teacher/lessons/{session.pk}/reports/"
    page = client.get(base).content.decode()
    assert f"Student handouts ({len(students) - 1} pages)" in page
    assert f"student/{gone.pk}.pdf" not in page
    assert client.get(base + f"student/{gone.pk}.pdf").status_code == 404
