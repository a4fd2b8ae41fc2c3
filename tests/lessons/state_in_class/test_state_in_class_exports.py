"""Data exports: game records (JSON), rounds and results (CSV), and the anonymous option."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from facilitator.lessons.state_in_class.debrief import spreadsheets
from facilitator.log import replay_table
from facilitator.reports import export
from games.registry import replay
from games.state_in_class import data
from games.state_in_class.rules import scores
from tests.reports.conftest import finished_lessons

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def lessons(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Finished lessons for this module's tests (``tests/reports/conftest.py``)."""
    yield from finished_lessons(django_db_blocker)


def nicknames(session: Any) -> list[str]:
    return list(session.seats.values_list("nickname", flat=True))


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_record_replays_to_the_same_game(lessons):
    table = lessons["full"].tables.get()
    record = export.table_record(table)
    assert record["game"] == "state-in-class" and record["version"] == 1
    assert replay(record).state.history == replay_table(table).history


def test_the_anonymous_record_names_nobody_and_replays_the_same(lessons):
    session = lessons["two"]
    for table in session.tables.all():
        record = export.table_record(table, anonymous=True)
        text = json.dumps(record, ensure_ascii=False)
        for name in nicknames(session):
            assert f'"{name}"' not in text
        assert record["config"]["players"] == [f"Player {i}" for i in range(1, 9)]
        original = scores(replay_table(table))
        again = scores(replay(record).state)
        assert [p["score"] for p in again["players"].values()] == \
            [p["score"] for p in original["players"].values()]
        assert again["tension"] == original["tension"]


def test_rounds_csv_has_one_row_per_round_and_stable_columns(lessons):
    session = lessons["two"]
    table = rows(spreadsheets.rounds_csv(session))
    header = spreadsheets.rounds_csv(session).splitlines()[0].split(",")
    assert tuple(header) == spreadsheets.ROUND_COLUMNS
    assert len(table) == sum(len(replay_table(t).history) for t in session.tables.all())
    for t in session.tables.all():
        state = replay_table(t)
        mine = [r for r in table if r["table"] == str(t.number)]
        for row, entry in zip(mine, state.history, strict=True):
            assert row["round"] == str(entry["round"]) and row["event"] == entry["event"]
            assert row["tension_after"] == str(entry["tension_after"])
            if entry.get("tax"):
                assert row["tax_winner"] == entry["tax"]["winner"]
                assert [int(row[f"tax_votes_{o}"]) for o in data.TAX_OPTIONS] == \
                    [entry["tax"]["tally"][o] for o in data.TAX_OPTIONS]
    text = spreadsheets.rounds_csv(session)
    for name in nicknames(session):  # rounds name roles, never players
        assert name not in text


def test_results_csv_has_every_player_and_their_score(lessons):
    session = lessons["full"]
    text = spreadsheets.results_csv(session)
    assert tuple(text.splitlines()[0].split(",")) == spreadsheets.RESULT_COLUMNS
    table = rows(text)
    final = scores(replay_table(session.tables.get()))
    assert {r["player"]: int(r["score"]) for r in table} == {
        n: p["score"] for n, p in final["players"].items()}
    assert {r["winner"] for r in table} <= {"0", "1"}
    assert sum(r["winner"] == "1" for r in table) == len(final["winners"])


def test_results_csv_anonymous(lessons):
    session = lessons["failing"]
    text = spreadsheets.results_csv(session, anonymous=True)
    for name in nicknames(session):
        assert name not in text
    players = [r["player"] for r in rows(text)]
    assert players == [f"Player {i}" for i in range(1, 9)]
    assert all(r["table_failed"] == "1" for r in rows(text))


def test_csv_cells_cannot_run_as_spreadsheet_formulas():
    assert export.cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert export.cell("Ana") == "Ana" and export.cell(True) == 1 and export.cell(None) == ""
