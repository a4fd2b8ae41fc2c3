"""Ballot secrecy by construction, proven on everything a lesson leaves behind.

Extends ``tests/facilitator/test_secrecy_dump.py`` (every row of the database scanned for a
seat next to a vote option) with the strongest form of the property: *indistinguishability*.
The same scripted lesson is played twice, identical in every respect except that two students,
Ana and Ben, swap their ballots in every vote (so every tally, and therefore the whole game, is
the same). If anything stored or produced linked a student to an option, the two runs would
differ there. We compare, run against run:

- every row of every table of the database (PostgreSQL in CI: all rows of all tables), with
  ids replaced by their rank and the values random by design (join code, token hashes, the
  receipts' random keys) masked;
- the exported records (game record JSON from the console and from the reports, named and
  anonymous; the rounds and results CSVs);
- the PDF handouts (class and students), as text (``pdftotext``);
- every page a student or the teacher can open at the end (phones and console);
- the log records of the whole lesson (every logger, DEBUG and up).

The same artefacts of the first run also go through the row-level link detector of
``tests/facilitator/test_websockets.py`` (``ballot_links``).
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import json
import logging
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from facilitator import clock, log, services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.pacing import tie_shown
from facilitator.models import ClassSession, Seat
from games.state_in_class import data
from tests.facilitator.lesson import NAMES, fresh, humans, make_teacher, state_of
from tests.facilitator.test_websockets import _dump_database, ballot_links
from tests.support import require

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

TAX = "CACBCDCC"
BUDGET = list(data.SERVICES)
SWAPPED = ("Ana", "Ben")
FIXED = dt.datetime(2030, 3, 4, 9, 30, tzinfo=dt.UTC)
# Columns whose values are random by design (and so differ between any two runs).
RANDOM_COLUMNS = {"join_code", "token_hash", "claim_hash", "session_key", "session_data",
                  "expire_date"}
# A bag's name, its key's fingerprint and the key store's id are random by design too.
RANDOM_CELLS = {("facilitator_bag", "key_ref"), ("facilitator_bag", "fingerprint"),
                ("facilitator_bag", "store")}


def option_for(kind: str, rnd: int, index: int) -> str | None:
    """What student ``index`` votes (None: absent). Round 1's tax vote ties 4 C to 4 D."""
    if kind == "tax" and rnd == 1:
        return "C" if index % 2 else "D"
    if index == rnd % 8:
        return None  # absent: the teacher empties the bag without this ballot
    if kind == "tax":
        return TAX[(index + rnd) % 8]
    return BUDGET[(index + rnd) % 3]


def play(teacher: Any, *, swap: bool) -> tuple[ClassSession, dict[tuple[int, str], dict]]:
    """The scripted lesson (8 students, one table, from the lobby to the final count)."""
    session = services.session_create(owner=teacher, title="3B Economics")
    for name in NAMES[:8]:
        services.seat_join(code=session.join_code, nickname=name)
    services.session_start(session=session, seed=42)
    session = fresh(session)
    for s in humans(session.tables.get()):
        sic_services.pact_submit(seat_id=s.pk, coins=NAMES.index(s.nickname) % 4,
                             expected=session.stage_id)
    secret: dict[tuple[int, str], dict[str, str]] = {}
    while session.stage != "final":
        kind = {"tax_vote": "tax", "budget_vote": "budget"}.get(session.stage)
        table = session.tables.get()
        if kind and state_of(table).phase == f"{kind}_vote":
            bag = {s.nickname: option_for(kind, session.round, NAMES.index(s.nickname))
                   for s in humans(table)}
            bag = {k: v for k, v in bag.items() if v is not None}
            a, b = SWAPPED
            if swap and a in bag and b in bag:
                bag[a], bag[b] = bag[b], bag[a]
            for s in humans(table):
                if s.nickname in bag:
                    services.ballot_cast(seat_id=s.pk, kind=kind, option=bag[s.nickname],
                                         expected=session.stage_id)
            secret[(session.round, kind)] = bag
        for _ in range(10 if tie_shown(fresh(session).stage) else 0):
            # ties, once the count is shown: the decider picks the first tied option
            state = state_of(table)
            if state.phase != "tie_break":
                break
            decider = table.seats.get(player_name=state.tie.deciders[0])
            sic_services.tie_break_submit(seat_id=decider.pk, choice=state.tie.options[0],
                                      expected=fresh(session).stage_id)
        session = fresh(session)
        session = services.session_advance(confirm=True, session=session, expected=session.stage_id)
    return fresh(session), secret


# --------------------------------------------------------------------------- artefacts


def canonical_dump() -> dict[str, list[str]]:
    """Every row of every table, comparable between two runs: each id (primary or foreign
    key) replaced by its rank in its table, random-by-design values masked, rows sorted."""
    with connection.cursor() as cursor:
        names = sorted(connection.introspection.table_names(cursor))
        relations = {t: connection.introspection.get_relations(cursor, t) for t in names}
        pks = {t: connection.introspection.get_primary_key_column(cursor, t) for t in names}
        raw: dict[str, tuple[list[str], list[tuple]]] = {}
        for name in names:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(name)}")
            raw[name] = ([c[0] for c in cursor.description], cursor.fetchall())
    ranks: dict[str, dict[Any, int]] = {}
    for name, (columns, rows) in raw.items():
        pk = pks[name]
        if pk in columns:
            values = [row[columns.index(pk)] for row in rows]
            if all(isinstance(v, int) for v in values):
                ranks[name] = {v: i for i, v in enumerate(sorted(values))}
    dump = {}
    for name, (columns, rows) in raw.items():
        out = []
        for row in rows:
            cells = {}
            for column, value in zip(columns, row, strict=True):
                if (column in RANDOM_COLUMNS or (name, column) in RANDOM_CELLS) and \
                        value is not None:
                    value = "<random>"
                elif column == pks[name]:
                    value = ranks[name][value] if name in ranks else "<random key>"
                elif column in relations[name] and value is not None:
                    target = relations[name][column][1]
                    value = ranks[target][value] if target in ranks else "<random key>"
                elif isinstance(value, str) and value[:1] in "[{":
                    with contextlib.suppress(ValueError):
                        value = json.loads(value)  # SQLite keeps JSON as text
                cells[column] = value
            out.append(json.dumps(cells, sort_keys=True, default=str))
        dump[name] = sorted(out)
    return dump


def pdf_text(content: bytes, tmp: Path) -> str:
    tool = shutil.which("pdftotext")
    require(tool is not None, "needs pdftotext (poppler-utils)")
    path = tmp / "handout.pdf"
    path.write_bytes(content)
    done = subprocess.run([str(tool), "-layout", str(path), "-"], capture_output=True,
                          check=True, timeout=60)
    return done.stdout.decode()


def artefacts(session: ClassSession, teacher_client: Client, tmp: Path) -> dict[str, Any]:
    """Everything the lesson left behind that a person or a file could read."""
    base = f"/teacher/lessons/{session.pk}"
    got: dict[str, Any] = {}

    def get(client: Client, url: str) -> bytes:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        content = getattr(response, "content", None)
        return content if content is not None else b"".join(response.streaming_content)

    got["record.json"] = json.loads(get(teacher_client, f"{base}/tables/1/record.json"))
    for anonymous in ("", "?anonymous=1"):
        got[f"reports record{anonymous}"] = json.loads(
            get(teacher_client, f"{base}/reports/table/1/record.json{anonymous}"))
        for name in ("rounds.csv", "results.csv"):
            got[f"{name}{anonymous}"] = get(teacher_client,
                                            f"{base}/reports/{name}{anonymous}").decode()
    for name in ("class.pdf", "students.pdf"):
        content = get(teacher_client, f"{base}/reports/{name}")
        assert content.startswith(b"%PDF")
        got[name] = pdf_text(content, tmp)
    got["reports page"] = get(teacher_client, f"{base}/reports/").decode()
    got["console"] = get(teacher_client, f"{base}/").decode()
    got["dashboard"] = get(teacher_client, "/teacher/").decode()
    for seat in Seat.objects.filter(session=session, is_bot=False):
        token, token_hash = services.new_seat_token()  # the phone's cookie, made known here
        Seat.objects.filter(pk=seat.pk).update(token_hash=token_hash)
        phone = Client()
        phone.cookies[SEAT_COOKIE] = token
        got[f"phone {seat.nickname}"] = get(phone, "/play/").decode()
    return got


def normalised(name: str, value: Any, session: ClassSession) -> str:
    """Text with what differs by design between two runs replaced: the lesson's id (in links,
    file names and the CSVs' session column), seat ids (links, the console's presence dots)
    and CSRF tokens."""
    if name.startswith(("rounds.csv", "results.csv")):
        rows = csv_rows(value)
        for row in rows:
            assert row.pop("session") in (str(session.pk), session.title), row
        value = rows
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else value
    text = re.sub(rf"(lessons/|lesson/|lesson-){session.pk}\b", r"\1<id>", text)
    seats = dict(Seat.objects.filter(session=session).values_list("pk", "nickname"))
    text = re.sub(r'(student/|seats/|data-presence=")(\d+)\b', lambda m: m[1] + seats[int(m[2])],
                  text)
    text = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1<csrf>", text)
    return text


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# --------------------------------------------------------------------------- the tests


@pytest.fixture
def fixed_clock(monkeypatch):
    monkeypatch.setattr(clock, "now", lambda: FIXED)
    monkeypatch.setattr(log, "now", lambda: FIXED)


def run(teacher: Any, client: Client, tmp: Path, caplog: Any, *, swap: bool) -> dict[str, Any]:
    caplog.clear()
    session, secret = play(teacher, swap=swap)
    assert session.status == "finished" and len(secret) == 14
    got = artefacts(session, client, tmp)
    # Libraries' own chatter is left out: the PDF renderer's, and the Redis client's note on
    # its first connection (made in whichever run comes first).
    got["logs"] = [f"{r.name} {r.levelname} {r.getMessage()}" for r in caplog.records
                   if not r.name.startswith(("fontTools", "weasyprint"))
                   and not (r.name.startswith("redis.") and r.levelno < logging.WARNING)]
    got["log levels"] = sorted({r.levelname for r in caplog.records
                                if r.levelno >= logging.WARNING})
    got["dump"] = canonical_dump()
    got["links"] = ballot_links(_dump_database(), list(Seat.objects.all()), {
        h["round"]: h["tax"]["winner"] for h in state_of(session.tables.get()).history
        if h.get("tax")})
    text = {k: normalised(k, v, session) for k, v in got.items() if k not in ("dump", "links")}
    session.delete()
    return {"text": text, "dump": got["dump"], "links": got["links"], "secret": secret,
            "raw": got}


def test_secrecy_swapping_two_students_ballots_changes_nothing_stored_exported_or_logged(
        fixed_clock, caplog, tmp_path, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    caplog.set_level(logging.DEBUG)
    teacher = make_teacher()
    client = Client()
    client.force_login(teacher)
    first = run(teacher, client, tmp_path, caplog, swap=False)
    second = run(teacher, client, tmp_path, caplog, swap=True)
    # The two runs differ in what Ana and Ben voted, and in nothing else ...
    differ = [k for k in first["secret"] if first["secret"][k] != second["secret"][k]]
    assert len(differ) >= 8, differ
    for key in differ:
        a, b = first["secret"][key], second["secret"][key]
        assert sorted(a.values()) == sorted(b.values())  # the same tally
        assert {n for n in a if a[n] != b[n]} == set(SWAPPED)
    # ... and nothing stored, exported, printed, shown or logged tells them apart.
    assert first["dump"].keys() == second["dump"].keys()
    for name in first["dump"]:
        assert first["dump"][name] == second["dump"][name], name
    for name, text in first["text"].items():
        assert text == second["text"][name], name
    # The artefacts are real: the handouts name the students, the dump holds the receipts.
    raw = first["raw"]
    assert all(n in raw["students.pdf"] for n in NAMES[:8])
    assert "Ana" in raw["class.pdf"] and "Ana" in raw["phone Ana"]
    assert len(first["dump"]["facilitator_ballotreceipt"]) == sum(
        len(bag) for bag in first["secret"].values())
    assert {r["player"] for r in csv_rows(raw["results.csv"])} == set(NAMES[:8])
    # No row of the database (nor of the JSON columns in it) pairs a seat with an option,
    # and the lesson logged no warning or error.
    assert first["links"] == [] and second["links"] == []
    assert first["text"]["log levels"] == "[]"
