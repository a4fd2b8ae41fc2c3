"""Crisis's debrief from a finished lesson: the reports page, the class handout and the
students' pages (PDF, English and Spanish), the rounds and results CSV (with and without
nicknames), all read from the tables' histories and the lesson's final scores."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from facilitator.lessons.crisis import debrief, scoring
from facilitator.models import ClassSession
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    human_table,
    playable,  # noqa: F401 (autouse: lessons of the module may be created)
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


def finished(**options: Any) -> ClassSession:
    session = started(4, team_size=2, here=False, **options)
    for _n in range(60):
        if session.stage == "final":
            return session
        session = advance(session)
    raise AssertionError("the lesson did not end")


def teacher(session: ClassSession) -> Client:
    client = Client()
    client.force_login(session.owner)
    return client


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_results_csv_has_one_row_per_team_with_the_lessons_final_scores() -> None:
    session = finished(rounds=5, difficulty="easy")
    table = human_table(session)
    scores = scoring.final_scores(table, state_of(table), 5)
    got = rows(debrief.results_csv(session))
    assert {r["team"] for r in got} == set(scores)
    for r in got:
        assert int(r["score"]) == scores[r["team"]]["score"]
        assert r["members"]
    anonymous = rows(debrief.results_csv(session, anonymous=True))
    assert all(r["members"] == "" for r in anonymous)


def test_the_rounds_csv_follows_the_track_round_by_round() -> None:
    session = finished(rounds=5, difficulty="easy")
    state = state_of(human_table(session))
    got = rows(debrief.rounds_csv(session))
    assert [int(r["round"]) for r in got] == [1, 2, 3, 4, 5]
    for r, h in zip(got, state.history, strict=False):
        assert int(r["status"]) == h["status"] and int(r["goal"]) == h["evaluation"]["goal"]
        assert r["event"] == (h.get("event") or "")


def test_the_handouts_download_as_pdf_in_both_languages() -> None:
    session = finished(rounds=5, difficulty="easy")
    client = teacher(session)
    base = f"/teacher/lessons/{session.pk}/reports/"
    page = client.get(base)
    assert page.status_code == 200 and b"Axia" in page.content
    for path in ("class.pdf", "students.pdf", "class.pdf?lang=es"):
        answer = client.get(base + path)
        assert answer.status_code == 200 and answer.content.startswith(b"%PDF"), path
    html = debrief.DEBRIEF.class_html(session, paper="a4")
    assert "Final ranking" in html and "Questions for the discussion" in html
    seat = session.seats.filter(is_bot=False).first()
    mine = debrief.DEBRIEF.students_html(session, paper="a4", seat_id=seat.pk)
    assert seat.nickname in mine and seat.player_name in mine
    assert client.get(f"{base}rounds.csv").status_code == 200
    assert client.get(f"{base}results.csv?anonymous=1").status_code == 200
