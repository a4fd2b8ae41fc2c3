"""Ballot secrecy at rest: whoever copies the SQLite files finds no seat paired with an option.

The probe's method, as an attacker with a copy of the files would work: a real lesson is
played in a separate daphne process on a SQLite file in WAL mode (as ``make run`` serves it),
8 phones on one table driven through real websockets. During the tax vote the database, its
``-wal`` and ``-shm`` (and a ``-journal``, if any) are copied after every ballot, one ballot
apart; in the budget vote daphne is killed (SIGKILL) mid-vote and the files are copied again.
Every page image of every copy is decoded with ``sqlite_pages`` (main-file pages with the
free ones, every WAL frame, stale or not, every journal page; deleted rows carved out of free
space), and so is the logical database at every commit of the WAL and in every copy.

The old design fell to this: each ballot's commit wrote the seat's receipt and bumped a
per-option counter (a row holding the option and a count), so decoding the WAL commit by
commit recovered every vote. ``test_the_detectors_find_the_pairing_of_the_old_design`` builds
such a database with the plain ``sqlite3`` module and checks that these detectors find the
pairing there.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from facilitator import sealing
from tests.facilitator.test_two_daphne import HOST, Daphne, frame_until
from tests.reliability import sqlite_pages as sp

BASE_DIR = Path(__file__).resolve().parents[2]
TAX, BUDGET = ("A", "B", "C", "D"), ("health", "education", "shield")
OPTIONS = set(TAX) | set(BUDGET)
QUOTED = re.compile('"({})"'.format("|".join(sorted(OPTIONS))))
RECEIPTS, SEALED = "facilitator_ballotreceipt", "facilitator_sealedballot"
SEALED_BYTES = 44
NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]
TAX_VOTES = ["C", "A", "C", "B", "D", "A", "C", "B"]  # same options twice: C, A and B
BUDGET_VOTES = ["health", "shield", "health"]  # then the server dies, mid-vote

SETUP_SCRIPT = """
import json
from django.core.management import call_command
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from facilitator import services
from facilitator.models import ClassSession
from facilitator.lessons.state_in_class import services as sic_services

call_command("migrate", interactive=False, verbosity=0)
teacher = get_user_model().objects.create_user(username="teacher")
session = services.session_create(owner=teacher, title="At rest")
tokens, seats = {}, {}
for name in NAMES:
    seat, tokens[name] = services.seat_join(code=session.join_code, nickname=name)
    seats[name] = seat.pk
services.session_start(session=session, seed=11)
for pk in seats.values():
    sic_services.pact_submit(seat_id=pk, coins=1)
while ClassSession.objects.get(pk=session.pk).stage != "debate":
    services.session_advance(confirm=True, session=ClassSession.objects.get(pk=session.pk))
client = Client()
client.force_login(teacher)
print("SETUP " + json.dumps({"session": session.pk, "tokens": tokens, "seats": seats,
                             "sessionid": client.cookies[settings.SESSION_COOKIE_NAME].value}))
"""


# --------------------------------------------------------------------------- the copies


@dataclass
class Copy:
    """The files of the database as copied at one moment, decoded."""

    label: str
    main: dict[int, bytes]
    salt: tuple[int, int] | None
    frames: list[sp.Frame]
    journal: list[tuple[int, bytes]]
    backfilled: int  # WAL frames already copied into the main file (the -shm's nBackfill)
    voter: int | None = None  # the seat whose ballot this copy follows
    option: str | None = None
    _states: list[tuple[int, dict[str, Counter[tuple[Any, ...]]]]] | None = None

    def live(self) -> list[sp.Frame]:
        """The current log's frames up to its last commit (what a reader would see)."""
        live = [f for f in self.frames if f.salt == self.salt]
        commits = [i for i, f in enumerate(live) if f.commit]
        return live[:commits[-1] + 1] if commits else []

    def images(self) -> Iterator[tuple[str, int, bytes]]:
        """Every page image in the files: (where, page number, bytes)."""
        free = sp.free_pages(self.main) if self.main else set()
        for number, page in self.main.items():
            yield f"{self.label} main page {number}{' (free)' * (number in free)}", number, page
        for frame in self.frames:
            yield f"{self.label} WAL frame {frame.index}", frame.page, frame.data
        for number, page in self.journal:
            yield f"{self.label} journal page {number}", number, page

    def states(self) -> list[tuple[int, dict[str, Counter[tuple[Any, ...]]]]]:
        """The logical database after each commit of the current log that the main file
        allows to rebuild (from nBackfill on), as (frames, content)."""
        if self._states is None:
            self._states = self._rebuild()
        return self._states

    def _rebuild(self) -> list[tuple[int, dict[str, Counter[tuple[Any, ...]]]]]:
        pages, out = dict(self.main), []
        for i, frame in enumerate(self.live(), start=1):
            pages[frame.page] = frame.data
            if frame.commit and i >= self.backfilled:
                out.append((i, sp.database(pages)))
        return out or [(0, sp.database(pages))]

    def content(self) -> dict[str, Counter[tuple[Any, ...]]]:
        return self.states()[-1][1]


def copy_files(db: Path, into: Path, label: str) -> Copy:
    """Copy the database files as they are now (the server may be writing), then decode."""
    into.mkdir(parents=True)
    for suffix in ("", "-wal", "-shm", "-journal"):
        source = Path(f"{db}{suffix}")
        if source.exists():
            shutil.copyfile(source, into / f"db{suffix}")
    _size, main = sp.read_main(into / "db")
    salt, frames = sp.read_wal(into / "db-wal")
    shm = into / "db-shm"
    backfilled = struct.unpack_from("=I", shm.read_bytes(), 96)[0] if shm.exists() and (
        shm.stat().st_size >= 100) else 0
    return Copy(label, main, salt, frames, sp.read_journal(into / "db-journal"), backfilled)


# --------------------------------------------------------------------------- the detectors


_cells: dict[bytes, list[sp.Cell]] = {}
_carved: dict[tuple[bytes, frozenset[int]], list[tuple[Any, ...]]] = {}


def page_records(number: int, page: bytes, lengths: frozenset[int]
                 ) -> tuple[list[sp.Cell], list[tuple[Any, ...]]]:
    """The page's cells and the records carved from its free space, or from the whole page
    if it is no b-tree page (cached by content: the same image recurs in many copies)."""
    digest = hashlib.sha256(page + number.to_bytes(4)).digest()
    if digest not in _cells:
        _cells[digest] = sp.cells(page, number)
    if (digest, lengths) not in _carved:
        spans = sp.free_spans(page, number) if sp.is_btree(page, number) else [page]
        _carved[digest, lengths] = [r for span in spans for r in sp.carve(span, set(lengths))]
    return _cells[digest], _carved[digest, lengths]


def option_columns(values: tuple[Any, ...]) -> list[str]:
    """The columns of a record that are a vote option of their own."""
    return [v for v in values if isinstance(v, str) and v in OPTIONS]


def shapes(content: dict[str, Counter[tuple[Any, ...]]]) -> set[tuple[str, ...]]:
    """The column types of every live record ("n" null, "i" int, "f" float, "t" text, "b"
    blob): a carved record that matches none of them is noise, not a deleted row."""
    tables = {r[2] for r in content["sqlite_master"] if r[1] == "table"} | {"sqlite_master"}
    return {tuple(_kind(v) for v in row[name in tables:]) for name, rows in content.items()
            for row in rows}


def _kind(value: Any) -> str:
    return {type(None): "n", int: "i", float: "f", str: "t", bytes: "b"}[type(value)]


def fits(values: tuple[Any, ...], known: set[tuple[str, ...]]) -> bool:
    kinds = tuple(_kind(v) for v in values)
    return any(len(s) == len(kinds) and all(k in ("n", s[i]) or s[i] == "n"
                                            for i, k in enumerate(kinds)) for s in known)


def pairings_in_images(copies: list[Copy], known: set[tuple[str, ...]]) -> list[str]:
    """Every record, live or deleted, in any page image that holds an option as a column."""
    lengths = frozenset(len(s) for s in known)
    found = []
    for copy in copies:
        for where, number, page in copy.images():
            records, carved = page_records(number, page, lengths)
            for cell in records:
                if option_columns(cell.values):
                    found.append(f"{where}: {cell.values}")
            for values in carved:
                if option_columns(values) and fits(values, known):
                    found.append(f"{where} (free space): {values}")
    return found


def counter_bumps(before: dict[str, Counter[tuple[Any, ...]]],
                  after: dict[str, Counter[tuple[Any, ...]]]) -> list[str]:
    """Rows (same table, same rowid) that hold an option and whose integer went up by one."""
    found = []
    indexes = index_tables(after)
    for name, rows in after.items():
        if name in indexes:
            continue
        old = {row[0]: row for row in before.get(name, ())}
        for row in rows:
            prior = old.get(row[0])
            if prior is None or prior == row or len(prior) != len(row):
                continue
            holds = any(isinstance(v, str) and (v in OPTIONS or QUOTED.search(v)) for v in row)
            bumped = any(isinstance(a, int) and isinstance(b, int) and b == a + 1
                         for a, b in zip(prior[1:], row[1:], strict=True))
            if holds and bumped:
                found.append(f"{name}: {prior} -> {row}")
    return found


def changes(before: dict[str, Counter[tuple[Any, ...]]],
            after: dict[str, Counter[tuple[Any, ...]]]) -> dict[str, tuple[list, list]]:
    """Per table or index: (records that appeared, records that disappeared)."""
    out = {}
    for name in set(before) | set(after):
        old, new = before.get(name, Counter()), after.get(name, Counter())
        added, removed = list((new - old).elements()), list((old - new).elements())
        if added or removed:
            out[name] = (added, removed)
    return out


def ballot_only(diff: dict[str, tuple[list, list]], indexes: dict[str, str]) -> list[str]:
    """What a ballot's commit changed beyond inserting receipts and sealed ballots."""
    allowed = {RECEIPTS, SEALED}
    return [f"{name}: +{added} -{removed}" for name, (added, removed) in diff.items()
            if removed or indexes.get(name, name) not in allowed]


def index_tables(content: dict[str, Counter[tuple[Any, ...]]]) -> dict[str, str]:
    return {r[2]: r[3] for r in content["sqlite_master"] if r[1] == "index"}


def quoted_options_outside_public_json(content: dict[str, Counter[tuple[Any, ...]]]
                                       ) -> list[str]:
    """Texts naming an option that are not published JSON: a count or tie-break payload,
    a bag's option list, a ledger entry's details, a table's snapshot (its history)."""
    found = []
    for name, rows in content.items():
        for row in rows:
            for value in row:
                if isinstance(value, str) and QUOTED.search(value) and not _public(name,
                                                                                   value):
                    found.append(f"{name}: {value[:200]}")
    return found


def _public(table: str, text: str) -> bool:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if table == "facilitator_tableaction":
        return isinstance(data, dict) and data.get("type") in ("count", "tie_break")
    if table == "facilitator_bag":
        return sorted(data) in (sorted(TAX), sorted(BUDGET))
    return table in ("facilitator_ledgerentry", "facilitator_table")


# --------------------------------------------------------------------------- the lesson


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"manage.py {args[0]}:\n{done.stdout}\n{done.stderr[-3000:]}"
    return done.stdout


async def open_socket(server: Daphne, path: str, cookie: str) -> ClientConnection:
    return await connect(server.url(path), origin=server.origin(),
                         additional_headers={"Cookie": cookie}, proxy=None, open_timeout=10,
                         close_timeout=2)


async def answer(ws: ClientConnection, message: dict[str, Any], refused: str | None = None
                 ) -> dict[str, Any]:
    """Send ``message``; its ack (or, if ``refused``, its error with that code)."""
    await ws.send(json.dumps(message))
    frame = await frame_until(ws, lambda f: f.get("id") == message["id"]
                              and f["type"] in ("ack", "error"))
    assert (frame["type"], frame.get("code")) == (("error", refused) if refused
                                                  else ("ack", None)), frame
    return frame


@dataclass
class Lesson:
    copies: list[Copy] = field(default_factory=list)
    seats: dict[str, int] = field(default_factory=dict)


async def play(start: Callable[[], Daphne], setup: dict[str, Any], db: Path, tmp: Path
               ) -> Lesson:
    """The lesson, copied as it goes; ``start`` starts a daphne process on the database."""
    lesson = Lesson(seats=setup["seats"])
    server = start()

    def snap(label: str, voter: str | None = None, option: str | None = None) -> None:
        copy = copy_files(db, tmp / f"{len(lesson.copies):02d}", label)
        copy.voter, copy.option = (lesson.seats[voter] if voter else None), option
        lesson.copies.append(copy)

    console, phones = await connect_all(server, setup)

    async def next_stage(stage: str) -> None:
        await answer(console, {"type": "next", "id": f"next-{stage}"})

    async def vote(name: str, kind: str, options: tuple[str, ...], option: str,
                   refused: str | None = None) -> None:
        ws = phones[name]
        await ws.send(json.dumps({"type": "refresh"}))  # the phone's current screen
        view = await frame_until(ws, lambda f: f["type"] == "view"
                                 and f["view"]["can"]["vote"] == kind)
        await answer(ws, {"type": "ballot", "kind": kind, "option": options.index(option),
                          "expected": view["view"]["session"]["stage_id"], "id": f"{name}-b"},
                     refused)
        snap(f"after {name}'s {kind} ballot{' (refused)' if refused else ''}",
             None if refused else name, None if refused else option)

    snap("the debate")
    await next_stage("tax vote")  # the bag opens in the server: its key lives only there
    snap("the tax vote is open")
    for name, option in zip(NAMES, TAX_VOTES, strict=True):
        await vote(name, "tax", TAX, option)  # the eighth ballot fills the bag: counted
    await next_stage("pay")
    await next_stage("budget vote")
    snap("the budget vote is open")
    for name, option in zip(NAMES, BUDGET_VOTES, strict=False):
        await vote(name, "budget", BUDGET, option)
    server.process.send_signal(signal.SIGKILL)  # the laptop's server crashes mid-vote
    server.process.wait(timeout=10)
    snap("after the crash")
    for ws in [console, *phones.values()]:
        ws.transport.abort()
    # The teacher starts the server again. The bag's key died with the old process: when
    # the console reconnects, the bag is emptied and reopened, and the phones vote again.
    server = start()
    console, phones = await connect_all(server, setup)
    snap("the console is back: the lost bag is reopened")
    await vote("Dee", "budget", BUDGET, "education")
    for ws in [console, *phones.values()]:
        await ws.close()
    return lesson


async def connect_all(server: Daphne, setup: dict[str, Any]
                      ) -> tuple[ClientConnection, dict[str, ClientConnection]]:
    """The console and every phone, each connected and shown its screen (its seat marked
    connected: that write happens before the first view)."""
    console = await open_socket(server, f"/ws/lesson/{setup['session']}/",
                                f"sessionid={setup['sessionid']}")
    phones = {n: await open_socket(server, "/ws/play/", f"sic_seat={t}")
              for n, t in setup["tokens"].items()}
    for ws in [console, *phones.values()]:
        await frame_until(ws, lambda f: f["type"] == "view")
    return console, phones


@pytest.fixture(scope="module")
def lesson(tmp_path_factory: pytest.TempPathFactory) -> Lesson:
    tmp = tmp_path_factory.mktemp("at_rest")
    db = tmp / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{db}", ALLOWED_HOSTS=HOST, PYTHONUNBUFFERED="1")
    script = SETUP_SCRIPT.replace("NAMES", repr(NAMES))
    setup = json.loads(manage(env, "shell", "-c", script).split("SETUP ", 1)[1])
    servers: list[Daphne] = []

    def start() -> Daphne:
        servers.append(Daphne(env, tmp / f"daphne-{len(servers) + 1}.log"))
        servers[-1].wait_ready()
        return servers[-1]

    try:
        return asyncio.run(asyncio.wait_for(play(start, setup, db, tmp / "copies"), 90))
    finally:
        for server in servers:
            server.stop()


# --------------------------------------------------------------------------- the tests


def all_states(lesson: Lesson) -> list[tuple[str, dict[str, Counter[tuple[Any, ...]]]]]:
    """The logical database at every commit the copies let us rebuild, in order."""
    out, seen = [], set()
    for copy in lesson.copies:
        for frames, content in copy.states():
            key = (copy.salt, frames)
            if key not in seen:
                seen.add(key)
                out.append((f"{copy.label}, after WAL frame {frames}", content))
    return out


@pytest.mark.slow
def test_the_copies_saw_every_ballot_and_the_crash(lesson: Lesson):
    """The lesson went as planned (else the other tests would prove little)."""
    receipts = [sum(c.content()[RECEIPTS].values()) for c in lesson.copies]
    sealed = [sum(c.content()[SEALED].values()) for c in lesson.copies]
    # Receipts stay (who voted); the sealed ballots go when the 8th ballot fills the bag.
    # After the restart the budget bag is emptied (its key is lost) and Dee votes again.
    assert receipts == [0, 0, *range(1, 9), 8, 9, 10, 11, 11, 8, 9]
    assert sealed == [0, 0, *range(1, 8), 0, 0, 1, 2, 3, 3, 0, 1]
    payloads = [json.loads(v) for row in lesson.copies[9].content()["facilitator_tableaction"]
                for v in row if isinstance(v, str) and v.startswith("{")]
    [count] = [p for p in payloads if p["type"] == "count"]
    assert count == {"type": "count", "kind": "tax", "tally": dict(Counter(TAX_VOTES))}
    assert all(c.live() for c in lesson.copies)  # every copy had a WAL to read


@pytest.mark.slow
def test_no_page_image_holds_an_option_as_a_column_of_its_own(lesson: Lesson):
    known = set().union(*(shapes(c.content()) for c in lesson.copies))
    assert pairings_in_images(lesson.copies, known) == []
    # The page images were read: every sealed ballot is seen in them, as a cell.
    seen = {v for copy in lesson.copies for _w, number, page in copy.images()
            for cell in page_records(number, page, frozenset())[0] for v in cell.values}
    assert {row[2] for c in lesson.copies for row in c.content()[SEALED]} <= seen


@pytest.mark.slow
def test_no_row_counts_ballots_per_option_from_one_commit_or_copy_to_the_next(lesson: Lesson):
    commits = all_states(lesson)
    copies = [(c.label, c.content()) for c in lesson.copies]
    assert len(commits) > len(copies)  # the WAL shows more moments than the copies
    bumps = [f"{label}: {bump}" for states in (commits, copies)
             for (_a, a), (label, b) in pairwise(states) for bump in counter_bumps(a, b)]
    assert bumps == []


@pytest.mark.slow
def test_a_ballot_adds_its_receipt_and_its_sealed_ballot_and_nothing_else(lesson: Lesson):
    """Between two copies one ballot apart, and commit by commit in between."""
    pairs = [(a, b) for a, b in pairwise(lesson.copies)
             if b.voter and a.salt == b.salt and sum(b.content()[SEALED].values())]
    # The tax vote's 8th ballot filled the bag and was counted with it; 3 + 1 budget ballots.
    assert len(pairs) == 7 + 3 + 1
    for before, after in pairs:
        old, new = before.content(), after.content()
        indexes = index_tables(new)
        diff = changes(old, new)
        assert ballot_only(diff, indexes) == [], after.label
        [receipt] = diff[RECEIPTS][0]
        [sealed] = diff[SEALED][0]
        assert receipt[2] == after.voter  # (rowid, id, seat, bag): the voter's receipt
        assert isinstance(sealed[2], bytes) and len(sealed[2]) == SEALED_BYTES
        start = before.states()[-1][0]
        between = [state for frames, state in after.states() if frames > start]
        assert between, after.label
        for previous, state in pairwise([old, *between]):
            assert ballot_only(changes(previous, state), indexes) == [], after.label


@pytest.mark.slow
def test_sealed_ballots_are_all_44_bytes_and_never_repeat_even_for_one_option(lesson: Lesson):
    blobs: dict[bytes, set[str]] = {}
    for copy in lesson.copies:
        for row in copy.content()[SEALED]:
            blobs.setdefault(row[2], set()).add(row[1])  # the bytes, by sealed ballot's id
    assert len(blobs) == 7 + 3 + 1  # the 8th tax ballot was never committed uncounted
    assert {len(b) for b in blobs} == {SEALED_BYTES}
    assert all(len(ids) == 1 for ids in blobs.values())  # no two ballots share bytes
    assert len({b[:12] for b in blobs}) == len(blobs)  # nor a nonce
    by_option: dict[str, list[bytes]] = {}
    for before, after in pairwise(lesson.copies):
        added = changes(before.content(), after.content()).get(SEALED, ([], []))[0]
        if after.option and added:
            [row] = added
            by_option.setdefault(after.option, []).append(row[2])
    repeated = {o: b for o, b in by_option.items() if len(b) > 1}
    assert set(repeated) == {"C", "A", "health"}
    assert all(len(set(b)) == len(b) for b in repeated.values())


@pytest.mark.slow
def test_options_appear_in_texts_only_as_published_json(lesson: Lesson):
    found = {f for _label, state in all_states(lesson)
             for f in quoted_options_outside_public_json(state)}
    assert found == set()


@pytest.mark.slow
def test_no_copy_holds_the_key_of_the_bag_left_open_by_the_crash(lesson: Lesson):
    """Every 32-byte window of the crash copy's files, and every hex text in any record, is
    tried as the open bag's key against its fingerprint (a hash of the key)."""
    [crash] = [c for c in lesson.copies if c.label == "after the crash"]
    [bag] = [row for row in crash.content()["facilitator_bag"] if row[4] == "open"]
    fingerprint = bag[7]
    files = [b"".join(crash.main.values()), *(f.data for f in crash.frames)]
    windows = {data[i:i + 32] for data in files for i in range(len(data) - 31)}
    for copy in lesson.copies:
        for rows in copy.content().values():
            for value in (v for row in rows for v in row if isinstance(v, str)):
                windows.update(bytes.fromhex(h) for h in re.findall(r"[0-9a-f]{64}", value))
    assert windows and not any(sealing.fingerprint(w) == fingerprint for w in windows)


# --------------------------------------------------------------------------- the detector


def old_design_database(tmp: Path, *, secure_delete: bool) -> list[Copy]:
    """The old design in miniature: each ballot's commit inserts the seat's receipt and bumps
    its option's counter; then a naive count stores (seat, option) rows and deletes them."""
    db = tmp / "old.sqlite3"
    con = sqlite3.connect(db, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL",
                   f"secure_delete={'ON' if secure_delete else 'OFF'}"):
        con.execute(f"PRAGMA {pragma}")
    con.execute("CREATE TABLE receipt (id integer PRIMARY KEY, bag int, seat int)")
    con.execute("CREATE TABLE counter (id integer PRIMARY KEY, bag int, option text, votes int)")
    con.execute("CREATE TABLE pairs (id integer PRIMARY KEY, seat int, option text)")
    con.executemany("INSERT INTO counter (bag, option, votes) VALUES (1, ?, 0)",
                    [(o,) for o in TAX])
    copies = [copy_files(db, tmp / "c00", "opened")]
    for seat, option in enumerate(TAX_VOTES, start=1):
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO receipt (bag, seat) VALUES (1, ?)", (seat,))
        con.execute("UPDATE counter SET votes = votes + 1 WHERE option = ?", (option,))
        con.execute("COMMIT")
        copies.append(copy_files(db, tmp / f"c{seat:02d}", f"ballot {seat}"))
        copies[-1].voter, copies[-1].option = seat, option
    con.executemany("INSERT INTO pairs (seat, option) VALUES (?, ?)",
                    list(enumerate(TAX_VOTES, start=1)))
    con.execute("DELETE FROM pairs")
    con.execute("DELETE FROM counter")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    copies.append(copy_files(db, tmp / "end", "after the count"))
    return copies


def test_the_detectors_find_the_pairing_of_the_old_design(tmp_path: Path):
    copies = old_design_database(tmp_path, secure_delete=False)
    states = [c.content() for c in copies]
    bumps = [counter_bumps(a, b) for a, b in pairwise(states[:-1])]
    assert [len(b) for b in bumps] == [1] * len(TAX_VOTES)  # each ballot: its option's +1
    for (before, after), copy in zip(pairwise(states[:-1]), copies[1:-1], strict=True):
        flagged = ballot_only(changes(before, after), {"receipt": RECEIPTS})
        assert flagged and all(f.startswith("counter") for f in flagged), flagged
        assert f"'{copy.option}'" in bumps[copy.voter - 1][0]  # the voter's option, found
    known = shapes(states[-2]) | {("n", "i", "t")}
    found = pairings_in_images(copies, known)
    assert any("(free space)" in f and "(None, 3, 'C')" in f for f in found)  # deleted
    assert any("WAL frame" in f for f in found)


def test_the_free_space_is_zeroed_by_secure_delete_but_the_counters_still_show(tmp_path: Path):
    """What this machine's SQLite does by default (Debian builds with secure_delete on)."""
    copies = old_design_database(tmp_path, secure_delete=True)
    known = shapes(copies[-2].content()) | {("n", "i", "t")}
    found = pairings_in_images(copies[-1:], known)
    assert not any("(free space)" in f for f in found)
    states = [c.content() for c in copies]
    assert all(counter_bumps(a, b) for a, b in pairwise(states[:-1]))


@pytest.mark.slow
def test_after_the_restart_the_bag_is_emptied_and_reopened_under_a_new_key(lesson: Lesson):
    [crash] = [c for c in lesson.copies if c.label == "after the crash"]
    reopened = lesson.copies[lesson.copies.index(crash) + 1]
    [before] = [row for row in crash.content()["facilitator_bag"] if row[4] == "open"]
    [after] = [row for row in reopened.content()["facilitator_bag"] if row[4] == "open"]
    assert after[0] == before[0] and after[8] == "lost"
    assert after[5] != before[5] and after[7] != before[7]  # a new name and key
    assert not [r for r in reopened.content()[RECEIPTS] if r[3] == after[0]]
    assert not reopened.content()[SEALED]


@pytest.mark.slow
def test_the_stored_tally_lists_its_options_in_the_votes_order_not_in_casting_order(
        lesson: Lesson):
    """The attack on one copy taken after the count, with no key: the receipts' rowids give
    the order of casting (rowid 1 is the first token in the bag), and a tally whose keys
    come in order of first appearance names the first voter's option, and narrows the
    next ones'. Published in the vote's own option order, the tally tells neither."""
    content = lesson.copies[9].content()
    [text] = [v for row in content["facilitator_tableaction"] for v in row
              if isinstance(v, str) and '"count"' in v]
    keys = list(json.loads(text)["tally"])  # the stored text's order (json keeps it)
    first_voter = min(content[RECEIPTS])[2]  # (rowid, id, seat, bag): the first to cast
    assert keys == [o for o in TAX if o in keys], (
        f"the tally's first key, {keys[0]}, is the vote of seat {first_voter}, the first "
        "receipt by rowid")
