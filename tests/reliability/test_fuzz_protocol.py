"""Fuzzing the socket protocol with hypothesis: 10,000+ generated messages, every one refused.

A real daphne (a subprocess, its own SQLite file and in-memory channel layer) serves a lesson
of 8 at the tax vote; a phone socket and the teacher's console socket stay open throughout.
Hypothesis generates messages of every type of both sockets, then breaks them: wrong types,
missing or extra fields, huge strings, negative or huge numbers, unicode, wrong phase ids, raw
non-JSON text and binary frames. A message that still happens to be valid is sent with a wrong
phase id (so the lesson must refuse it as stale). For every batch we check that

- every message got exactly one ``error`` frame (in order, over the wire),
- the socket stays usable (a ``refresh`` after the batch is answered with a view and an ack),
- nothing changed: every row of the lesson's tables is as before,

and at the end, that daphne's log holds no exception.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from facilitator import messages
from tests.facilitator.test_two_daphne import SETUP_SCRIPT, Daphne

pytestmark = pytest.mark.slow

BASE_DIR = Path(__file__).resolve().parents[2]
BATCH = 50
BATCHES = 101  # per socket: 2 x 101 x 50 = 10,100 messages
PHASE = "1:tax_vote"
WRONG_PHASES = ["0:lobby", "0:pact", "1:debate", "1:pay", "2:tax_vote", "1:tax_vote ",
                "1:TAX_VOTE", "", "x" * 40, "1:tax_vote\x00", "٣:tax_vote", "-1:tax_vote"]
SENT: dict[str, int] = {"phone": 0, "teacher": 0}
CODES: Counter[str] = Counter()  # the error codes seen (schema errors and lesson refusals)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("fuzz")
    db = tmp / "fuzz.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{db}", DJANGO_SETTINGS_MODULE="stateinclass.settings",
               PYTHONUNBUFFERED="1", LOG_LEVEL="INFO")
    for args in (["migrate", "--noinput", "-v", "0"], ["shell", "-c", SETUP_SCRIPT]):
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                              capture_output=True, text=True, timeout=180, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
    setup = json.loads(done.stdout.split("SETUP ", 1)[1])
    daphne = Daphne(env, tmp / "daphne.log")
    try:
        daphne.wait_ready()
        yield {"daphne": daphne, "db": db, **setup}
    finally:
        daphne.stop()


def open_socket(server: dict[str, Any], path: str, cookie: str) -> ClientConnection:
    daphne = server["daphne"]
    return connect(daphne.url(path), origin=daphne.origin(),
                   additional_headers={"Cookie": cookie}, proxy=None, open_timeout=15,
                   close_timeout=5, max_size=2**22)


def fingerprint(db: Path) -> dict[str, list[tuple]]:
    """Every row of every lesson table (read straight from the server's SQLite file)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as con:
        names = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'facilitator_%'")]
        return {n: sorted(map(repr, con.execute(f'SELECT * FROM "{n}"'))) for n in names}


# --------------------------------------------------------------------------- messages

UNICODE = st.text(alphabet=st.characters(codec="utf-8"), max_size=30)
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([-1, 0, 1, 2, 3, 4, 2**31, 2**63, -(2**63), 10**40]),
    st.floats(allow_nan=False, allow_infinity=False), UNICODE,
    st.sampled_from(["A", "B", "C", "D", "E", "tax", "budget", "health", "shield", "pass",
                     "bots", "pairs", "", "é" * 2100, "x" * 5000, "\u202e", "😀" * 10]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                         max_size=2))
PHONE_TEMPLATES: list[dict[str, Any]] = [
    {"type": "pact", "coins": 2}, {"type": "ballot", "kind": "tax", "option": "C"},
    {"type": "ballot", "kind": "budget", "option": "health"},
    {"type": "tie_break", "choice": "A"}, {"type": "tie_break", "choice": None},
    {"type": "refresh"}]
TEACHER_TEMPLATES: list[dict[str, Any]] = [
    {"type": "start", "fill": "bots"}, {"type": "next"}, {"type": "undo"}, {"type": "pause"},
    {"type": "resume"}, {"type": "remove", "seat": 1}, {"type": "tie_break", "table": 1,
                                                         "choice": "A"}, {"type": "refresh"}]
FIELDS = ["type", "coins", "kind", "option", "choice", "fill", "seat", "table", "expected",
          "id", "player", "extra", "Type", " type"]


@st.composite
def message(draw: Any, templates: list[dict[str, Any]], adapter: Any) -> str | bytes:
    """One broken message (text frame), or now and then raw text or a binary frame."""
    roll = draw(st.integers(0, 19))
    if roll == 0:
        return draw(st.one_of(UNICODE, st.sampled_from(["", "{", "[" * 3000, "null", "1",
                                                        '"ballot"', "{]", "\x00"])))
    if roll == 1:
        return draw(st.binary(max_size=40))
    msg = dict(draw(st.sampled_from(templates)))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "drop", "extra", "type", "phase", "id"]))
        if action == "set":
            msg[draw(st.sampled_from(FIELDS))] = draw(VALUES)
        elif action == "drop" and msg:
            msg.pop(draw(st.sampled_from(sorted(msg))))
        elif action == "extra":
            msg[draw(st.text(min_size=1, max_size=10))] = draw(VALUES)
        elif action == "type":
            msg["type"] = draw(st.one_of(VALUES, st.sampled_from(
                ["ballot", "pact", "next", "start", "remove", "dance", "BALLOT"])))
        elif action == "phase":
            msg["expected"] = draw(st.one_of(st.sampled_from(WRONG_PHASES), VALUES))
        else:
            msg["id"] = draw(VALUES)
    try:
        valid = adapter.validate_python(msg)
    except Exception:
        valid = None
    if valid is not None:  # still a well-formed message: make the lesson refuse it
        if msg.get("type") == "refresh":
            msg["extra"] = 1
        else:
            msg["expected"] = draw(st.sampled_from(WRONG_PHASES))
    return json.dumps(msg, ensure_ascii=draw(st.booleans()))


def send_batch(ws: ClientConnection, batch: list[str | bytes], who: str) -> None:
    for frame in batch:
        ws.send(frame)
    marker = f"end-{who}-{SENT[who]}"
    ws.send(json.dumps({"type": "refresh", "id": marker}))
    errors, seen = 0, []
    while True:
        frame = json.loads(ws.recv(timeout=60))
        seen.append(frame["type"])
        if frame["type"] == "ack":
            assert frame["id"] == marker, frame
            break
        assert frame["type"] in ("error", "view"), frame
        if frame["type"] == "error":
            assert frame["code"] and frame["message"], frame
            CODES[frame["code"]] += 1
            errors += 1
    assert errors == len(batch), (errors, len(batch), seen[-10:])
    assert seen[-2] == "view"  # the refresh: the socket still works
    SENT[who] += len(batch)


def state_in_class() -> Any:
    from facilitator.lessons import lesson_for

    return lesson_for("state-in-class")


def run_fuzz(server: dict[str, Any], who: str) -> None:
    if who == "phone":
        ws = open_socket(server, "/ws/play/", f"sic_seat={server['tokens']['Ana']}")
        templates, adapter = PHONE_TEMPLATES, messages.seat_messages(state_in_class())
    else:
        ws = open_socket(server, f"/ws/lesson/{server['session']}/",
                         f"sessionid={server['sessionid']}")
        templates, adapter = TEACHER_TEMPLATES, messages.teacher_messages(state_in_class())
    with ws:
        assert json.loads(ws.recv(timeout=15))["type"] == "view"
        ws.send(json.dumps({"type": "refresh", "id": "settle"}))
        while json.loads(ws.recv(timeout=30)).get("id") != "settle":
            pass
        before = fingerprint(server["db"])

        @settings(max_examples=BATCHES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(batch=st.lists(message(templates, adapter), min_size=BATCH, max_size=BATCH))
        def fuzz(batch: list[str | bytes]) -> None:
            send_batch(ws, batch, who)
            assert fingerprint(server["db"]) == before

        fuzz()


@pytest.mark.parametrize("who", ["phone", "teacher"])
def test_fuzz_socket_protocol_refuses_every_bad_message_and_changes_nothing(server, who):
    run_fuzz(server, who)
    assert SENT[who] >= BATCHES * BATCH // 2, SENT


def test_fuzz_sent_ten_thousand_messages_and_the_server_logged_no_exception(server):
    assert sum(SENT.values()) >= 10_000, SENT
    # Both kinds of refusal were exercised: malformed messages and well-formed ones the
    # lesson refuses (stale phase ids, for instance).
    assert CODES["bad_message"] > 1000 and CODES["stale"] > 500, CODES
    print(f"\n{SENT} messages; error codes {dict(CODES)}")
    log = server["daphne"].output()
    for sign in ("Traceback", "Exception", "ERROR", "Error:"):
        assert sign not in log, log[-3000:]
