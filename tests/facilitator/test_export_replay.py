"""The game record (docs/record.md): exported from a live table, replayed to the same game."""

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from facilitator import services
from facilitator.log import engine_of, game_record, load_state, load_view_state
from games.registry import replay
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    deterministic,
    drive_to,
    humans,
    join,
    make_session,
    play_lesson,
    started,
)

pytestmark = pytest.mark.django_db


def replay_command(record: dict, tmp_path) -> dict:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    return json.loads(out.getvalue())


def check_record_shape(record: dict) -> None:
    assert set(record) == {"game", "version", "seed", "config", "actions", "acted"}
    assert len(record["acted"]) == len(record["actions"])
    assert (record["game"], record["version"]) == ("state-in-class", 1)
    in_bag: dict[str, int] = {"tax": 0, "budget": 0}
    for action in record["actions"]:
        assert action["type"] in {"pact", "ballot", "count", "tie_break"}
        if action["type"] == "ballot":
            assert set(action) == {"type", "kind", "player"}
            in_bag[action["kind"]] += 1
        elif action["type"] == "count":
            assert sum(action["tally"].values()) == in_bag[action["kind"]]
            in_bag[action["kind"]] = 0


def test_a_whole_lessons_record_replays_to_the_live_game(monkeypatch, tmp_path):
    deterministic(monkeypatch, 8)
    session = make_session()
    join(session, 10)
    session = play_lesson(session, random.Random(8), fill="pairs")
    assert session.status == "finished"
    tables = list(session.tables.all())
    assert len(tables) == 1
    for table in tables:
        record = json.loads(json.dumps(game_record(table)))  # as exported: plain JSON
        check_record_shape(record)
        assert record["seed"] == table.seed and record["config"] == table.config
        live = engine_of(table).summary(load_state(table))
        printed = replay_command(record, tmp_path)
        assert printed == json.loads(json.dumps(live))
        for name, player in live["players"].items():
            assert printed["players"][name]["score"] == player["score"]
            assert printed["players"][name]["coins"] == player["coins"]
        assert {"round", "phase", "tension", "failed", "services", "players"} <= set(printed)
        replayed = replay(record)
        assert engine_of(table).to_dict(replayed.state) == table.snapshot
    assert any(" & " in name for t in tables for name in t.config["players"])


def test_a_record_that_stops_mid_vote_replays_to_the_open_bag(tmp_path):
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    for s in humans(table)[:3]:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="A", expected=session.stage_id)
    record = game_record(table)
    assert [a["type"] for a in record["actions"][-3:]] == ["ballot"] * 3
    replayed = replay(record)
    table.refresh_from_db()
    assert engine_of(table).to_dict(replayed.state) == engine_of(table).to_dict(
        load_view_state(table))
    assert replayed.state.phase == "tax_vote" and len(replayed.state.receipts) == 3
    printed = replay_command(record, tmp_path)
    assert (printed["round"], printed["phase"]) == (1, "tax_vote")


def test_a_doctored_record_is_refused_with_the_index_of_the_bad_action(tmp_path):
    session, _tokens = started(8)
    session = drive_to(session, "event", 3, rng=random.Random(5))
    record = game_record(session.tables.get())
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "count")
    record["actions"][index]["tally"] = {"A": 99}
    with pytest.raises(CommandError) as caught:
        replay_command(record, tmp_path)
    assert f"action {index}" in str(caught.value)


def test_the_record_of_a_started_table_replays_before_any_decision(tmp_path):
    session, _tokens = started(6)
    table = session.tables.get()
    record = game_record(table)
    assert record["actions"] == []
    printed = replay_command(record, tmp_path)
    assert printed["phase"] == "pact"
    assert all(p["coins"] == 3 for p in printed["players"].values())
