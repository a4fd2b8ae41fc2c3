"""Austerity's data exports: the game record (the platform's) replays to the same game, and
the CSVs parse and agree with the engine's own history of each table."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from facilitator.lessons.austerity import portfolios
from facilitator.lessons.austerity.debrief import results_csv, rounds_csv
from facilitator.lessons.austerity.debrief.spreadsheets import RESULT_COLUMNS, ROUND_COLUMNS
from facilitator.log import replay_table
from facilitator.models import ClassSession, TableAction
from facilitator.reports.export import table_record
from games import austerity as engine
from games.registry import replay
from tests.lessons.austerity.austerity_scripted import finished_lessons

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def austerity(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Finished Austerity lessons for this module's tests (``finished_lessons``)."""
    yield from finished_lessons(django_db_blocker)


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_record_replays_to_the_same_game(austerity):
    for key in ("two", "ended"):
        for table in austerity[key].tables.all():
            record = json.loads(json.dumps(table_record(table)))
            assert engine.to_dict(replay(record).state) == engine.to_dict(replay_table(table))
            assert "tally" not in json.dumps(record)


def test_the_anonymous_record_is_the_record_austerity_names_nobody(austerity):
    for table in austerity["two"].tables.all():
        anonymous, named = table_record(table, anonymous=True), table_record(table)
        # the game itself names nobody; who acted is the only part renamed
        assert {k: v for k, v in anonymous.items() if k != "acted"} == {
            k: v for k, v in named.items() if k != "acted"}
        assert len(anonymous["acted"]) == len(named["acted"])
        text = json.dumps(anonymous)
        assert not any(seat.nickname in text for seat in table.seats.all())


def test_rounds_csv_has_a_row_per_year_that_agrees_with_the_engine(austerity):
    session = austerity["two"]
    table_rows = rows(rounds_csv(session))
    assert list(table_rows[0]) == list(ROUND_COLUMNS)
    for table in session.tables.order_by("number"):
        state = replay_table(table)
        mine = [r for r in table_rows if r["table"] == str(table.number)]
        assert [int(r["year"]) for r in mine] == [e["year"] for e in state.history]
        names = [s.nickname for s in table.seats.order_by("position")]
        for row, entry in zip(mine, state.history, strict=True):
            assert row["ministers"] == names[(entry["year"] - 1) % len(names)]  # in turn
            assert int(row["start_wealth"]) == entry["tracks"]["wealth"]
            assert int(row["start_debt_in_bag"]) == entry["bag"]["debt"]
            draws = [line for line in entry["log"] if line["kind"] == "draw"]
            assert int(row["draws"]) == len(draws)
            assert row["events"].split(";") == [d["event"] or "lone" for d in draws]
            actions = [line["choice"] for line in entry["log"] if line["kind"] == "action"]
            assert row["actions"].split(";") == actions if actions else row["actions"] == ""
        last = mine[-1]
        assert (last["result"], last["reason"]) == (state.result, state.reason)
        assert {int(last[f"end_{t}"]) for t in ("wealth",)} == {state.tracks["wealth"]}
        assert int(last["end_debt_owed"]) == portfolios.debt(state)
        assert all(r["result"] == "" for r in mine[:-1])


def test_rounds_csv_budget_columns_are_the_counted_actions(austerity):
    """A tax item chose as many Raise Taxes as the teacher's count logged for that year's
    session (the minister's own actions are not the session's)."""
    session = austerity["two"]
    for table in session.tables.order_by("number"):
        for row in rows(rounds_csv(session)):
            if row["table"] != str(table.number) or not row["taxes_chosen"]:
                continue
            bag = table.bags.get(decision=f"y{row['year']}.budget.taxes")
            counted = TableAction.objects.filter(
                table=table, actor="teacher", step=bag.counted_by,
                payload={"type": "action", "choice": "raise-taxes"}).count()
            assert int(row["taxes_chosen"]) == counted
            assert int(row["taxes_voters"]) == bag.receipts.count()
            assert row["taxes_options"] == "0;1;2"


def test_results_csv_has_every_seat_with_its_portfolio_and_the_result(austerity):
    session = austerity["two"]
    result = rows(results_csv(session))
    assert list(result[0]) == list(RESULT_COLUMNS)
    seats = list(session.seats.filter(table__isnull=False).order_by("table__number",
                                                                     "position"))
    assert [r["player"] for r in result] == [s.nickname for s in seats]
    for row, seat in zip(result, seats, strict=True):
        table = seat.table
        state = replay_table(table)
        start = engine.new_game(table.config, table.seed)
        standing = portfolios.standing(portfolios.portfolio_of(seat.position), state, start)
        assert row["portfolio"] == standing.portfolio
        assert (int(row["portfolio_start"]), int(row["portfolio_end"]),
                int(row["portfolio_change"])) == (standing.start, standing.value,
                                                  standing.change)
        assert row["table_result"] == state.result and row["table_reason"] == state.reason
        assert int(row["table_tracks"]) == sum(state.tracks.values())


def test_results_csv_anonymous_names_players_by_seat(austerity):
    session = austerity["two"]
    text = results_csv(session, anonymous=True)
    assert not any(s.nickname in text for s in session.seats.all())
    positions = [r["position"] for r in rows(text)]
    assert [r["player"] for r in rows(text)] == [f"Player {p}" for p in positions]
    rounds = rounds_csv(session, anonymous=True)
    assert not any(s.nickname in rounds for s in session.seats.all())
    assert "Player 1" in rounds


def test_an_unfinished_country_is_unfinished_in_the_results(austerity):
    session = ClassSession.objects.get(pk=austerity["ended"].pk)
    table = session.tables.get()
    state = replay_table(table)
    result = rows(results_csv(session))
    tracks, debt = sum(state.tracks.values()), portfolios.debt(state)
    assert {r["table_result"] for r in result} == {"unfinished"}
    assert {int(r["table_unfinished_score"]) for r in result} == {tracks - 2 * debt}
    assert rows(rounds_csv(session))[-1]["result"] == "unfinished"
    assert not any(r["portfolio"] for r in result)  # the option was off
