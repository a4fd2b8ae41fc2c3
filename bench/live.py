"""Live benchmark: real daphne, real websocket phones, real lessons, one table vote measured.

    python bench/live.py --scenario class      # 32 phones, 4 tables, 1 daphne, in-memory layer
    python bench/live.py --scenario austerity  # the same class playing Austerity (tables of 8)
    python bench/live.py --scenario school     # 1,000 phones in 40 lessons, 2 daphne + Redis + PG
    python bench/live.py --scenario smoke      # 8 phones, 1 table (the smoke test's run)
    python bench/live.py --scenario austerity-smoke  # 8 phones at one Austerity table

The vote measured depends on the scenario's game (``GAMES``):

- State in Class (``class``, ``school``, ``smoke``): the tax vote; phones name it by its short
  kind (``{"type": "ballot", "kind": "tax", ...}``);
- Austerity (``austerity``, ``austerity-smoke``): year 1's budget session, its "raise taxes"
  item (bag ``y1.budget.taxes``, options 0, 1 or 2 times), which ``session_start`` opens at
  every table. It is the budget ballot every student votes on: each seat is a voter of its own
  (one token per student), tables of 4 to 8 (32 students: four tables of 8), no bots. The
  Finance Minister's decisions come later, in the year. Phones name it by the bag's id
  (``{"type": "ballot", "decision": "y1.budget.taxes", ...}``).

What it does, all on loopback and all bounded in time:

1. makes a scratch database (a SQLite file, or a new PostgreSQL database dropped afterwards),
   migrates it and prepares the lessons server-side with ``manage.py shell -c``: students join
   (``seat_join``, which gives the seat tokens), ``session_start(seed=…)``, then the game brings
   the lesson to the vote (State in Class: every seat makes its pact, then
   ``session_advance`` ×3 to the tax vote; Austerity: the tax item is open at the start), and
   every table's bag is checked open;
2. starts one or more daphne processes (sharing Redis and PostgreSQL when there are several);
3. in this process (the client, separate from the servers) opens one projector socket per
   lesson (``/ws/lesson/<id>/``, the teacher's ``sessionid`` cookie), then every phone
   (``/ws/play/``, the ``sic_seat`` cookie; join time = socket opened → first screen), spread
   round-robin over the daphne processes;
4. every phone sends its ballot at a random instant within ``--spread`` seconds; for every
   ballot, the latency is the time from the phone sending it to the projector receiving the
   ``progress`` frame "n of N have voted" that counts it (frames naming the bag's decision;
   the last ballot of a table is answered by a ``view`` frame: the bag was counted, and the
   projector marks the table's line ``data-progress="N" data-counted`` in both games). See
   ``bench/harness.py`` for how ballots are matched with counts;
5. stops the servers and checks the database: every table's receipts and tally equal the
   ballots sent (lost or doubled votes), the bag counted. State in Class logs the count as
   the engine's ``count`` action with its tally; Austerity keeps a count's tally (a bag of 3
   ballots or more) in the table's ``TablePlay.counts``.

Memory per connection = growth of the servers' resident memory while the phones connect,
divided by the phones. Prints a table, writes ``bench/results/live-<scenario>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402
from bench.harness import HOST, Burst, Server, Voter  # noqa: E402

DAPHNE = Path(sys.executable).with_name("daphne")
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"

# "game": the lesson module played (GAMES), and so the vote measured.
SCENARIOS: dict[str, dict[str, Any]] = {
    # A class on the teacher's laptop (`make run`): one daphne, SQLite file, in-memory layer.
    # Server pinned to CPU 0 and this client to CPU 1, as for the oTree baseline.
    "class": {"game": "state-in-class", "lessons": 1, "students": 32, "servers": 1,
              "layer": "memory", "db": "sqlite", "repeat": 5, "spread": 1.0, "join_limit": 32,
              "pin": True, "warmup": True, "target_p95_ms": 50},
    # A school: 40 lessons of 25 (tables 7+6+6+6), 2 daphne + Redis + PostgreSQL, and every
    # phone voting within the same second.
    "school": {"game": "state-in-class", "lessons": 40, "students": 25, "servers": 2,
               "layer": "redis", "db": "postgres", "repeat": 1, "spread": 1.0,
               "join_limit": 100, "pin": False, "warmup": True, "target_p95_ms": 500},
    "smoke": {"game": "state-in-class", "lessons": 1, "students": 8, "servers": 1,
              "layer": "memory", "db": "sqlite", "repeat": 1, "spread": 0.5, "join_limit": 8,
              "pin": False, "warmup": False, "target_p95_ms": None},
    # The class of "class" playing Austerity (tables of 8: 8+8+8+8), every phone voting on
    # year 1's "raise taxes" item of the budget session. No p95 target of its own yet.
    "austerity": {"game": "austerity", "lessons": 1, "students": 32, "servers": 1,
                  "layer": "memory", "db": "sqlite", "repeat": 5, "spread": 1.0,
                  "join_limit": 32, "pin": True, "warmup": True, "target_p95_ms": None},
    "austerity-smoke": {"game": "austerity", "lessons": 1, "students": 8, "servers": 1,
                        "layer": "memory", "db": "sqlite", "repeat": 1, "spread": 0.5,
                        "join_limit": 8, "pin": False, "warmup": False, "target_p95_ms": None},
}

# Run by ``manage.py shell -c``: the lessons, at the measured vote, every table's bag open.
# Parameters in BENCH_SETUP. The game's part (``Game.setup``) runs first and defines ``GAME``
# (the lesson module), ``OPTIONS`` (its lesson options) and ``to_the_vote(session)``, which
# brings a started lesson to the vote.
SETUP_SCRIPT = """
import json, os
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from facilitator import broadcast, services
from facilitator.models import Bag, ClassSession

spec = json.loads(os.environ["BENCH_SETUP"])
# Nobody listens yet: skip the socket hints (each would start an event loop in this shell).
broadcast._send = lambda groups, message: None
User = get_user_model()
lessons = []
sizes = [spec["students"]] * spec["lessons"] + [8] * spec["warmup"]
for n, students in enumerate(sizes):
    teacher = User.objects.create_user(username=f"bench-teacher-{n}")
    session = services.session_create(owner=teacher, title=f"Bench {n + 1}", game=GAME,
                                      options=OPTIONS, class_size=max(6, students))
    tokens = {}
    for i in range(students):
        seat, tokens[seat.pk] = services.seat_join(code=session.join_code,
                                                   nickname=f"Student {i + 1}")
    services.session_start(session=session, seed=spec["seed"] + n)
    to_the_vote(session)
    session.refresh_from_db()
    # One open bag at every table, all for the same decision with the same options.
    bags = list(Bag.objects.filter(table__session=session, status=Bag.Status.OPEN))
    assert len(bags) == session.tables.count(), (len(bags), session.tables.count())
    ballots = {(b.decision, tuple(b.options)) for b in bags}
    assert len(ballots) == 1, ballots
    (decision, options), = ballots
    client = Client()
    client.force_login(teacher)
    seats = [{"token": tokens[s.pk], "table": s.table.number}
             for s in session.seats.filter(is_bot=False).select_related("table")
             .order_by("pk")]
    sizes = {}
    for s in seats:
        sizes[s["table"]] = sizes.get(s["table"], 0) + 1
    lessons.append({"session": session.pk, "phase": session.stage_id,
                    "sessionid": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "seats": seats, "tables": sizes, "decision": decision,
                    "options": list(options)})
print("SETUP " + json.dumps({"lessons": lessons}))
"""

# State in Class: every seat makes its pact, then pact -> event -> debate -> tax vote.
SIC_SETUP = """
from facilitator import services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.models import ClassSession

GAME, OPTIONS = "state-in-class", {}

def to_the_vote(session):
    for seat in session.seats.filter(is_bot=False):
        sic_services.pact_submit(seat_id=seat.pk, coins=1)
    for _ in range(3):
        services.session_advance(session=ClassSession.objects.get(pk=session.pk))
    session.refresh_from_db()
    assert session.stage == "tax_vote", session.stage
"""

# Austerity: ``session_start`` opens year 1's first budget item, "raise taxes" (options 0, 1,
# 2 times), at every table. The ballot timer is set to its longest: only the teacher's
# console runs a timer out (it sends "expire" at zero), so the vote ends when every phone has
# voted, as in State in Class, whatever the time between setting up and the run.
AUSTERITY_SETUP = """
from facilitator.lessons.austerity import options as aus_options
from facilitator.lessons.austerity import script as aus_script

GAME = "austerity"
OPTIONS = {"timers": {**aus_options.DEFAULT_TIMERS, "ballot": aus_options.TIMER_MAX}}

def to_the_vote(session):
    session.refresh_from_db()
    assert session.stage == aus_script.budget_stage(aus_script.TAXES), session.stage
"""

# Run by ``manage.py shell -c`` after the run: what the database says about every bag, by
# "<session>:<table>": its receipts, the ballots its count tallied (or, not counted yet, the
# sealed ballots in it), the table's voters, and whether the bag was counted.
SIC_VERIFY = """
import json, os
from facilitator.models import BallotReceipt, ClassSession, SealedBallot

out = {}
for sid in json.loads(os.environ["BENCH_SESSIONS"]):
    session = ClassSession.objects.get(pk=sid)
    for table in session.tables.order_by("number"):
        decision = f"{session.round}:tax"
        # The count is logged as the engine's "count" action, with its tally.
        count = table.actions.filter(round=session.round, payload__type="count",
                                     payload__kind="tax").first()
        tally = (sum(count.payload["tally"].values()) if count else
                 SealedBallot.objects.filter(bag__table=table, bag__decision=decision).count())
        out[f"{sid}:{table.number}"] = {
            "receipts": BallotReceipt.objects.filter(bag__table=table,
                                                     bag__decision=decision).count(),
            "tally": tally,
            "voters": table.seats.filter(removed=False, shares__isnull=True).count(),
            "counted": (table.snapshot or {}).get("phase") != "tax_vote",
        }
print("VERIFY " + json.dumps(out))
"""

# Austerity logs no count action with a tally (the count's actions are the engine's: one
# "raise-taxes" per time carried); the tally of a bag of 3 ballots or more is kept in the
# table's ``TablePlay.counts`` (``modes.record_count``), the last entry of the decision being
# its count. A count without a tally (fewer than 3 ballots: outcome only) cannot be checked
# against the receipts: its receipts stand for it.
AUSTERITY_VERIFY = """
import json, os
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity.models import TablePlay
from facilitator.models import Bag, BallotReceipt, ClassSession, SealedBallot

out = {}
for sid in json.loads(os.environ["BENCH_SESSIONS"]):
    session = ClassSession.objects.get(pk=sid)
    decision = script.decision_id(script.year_of(session), script.TAXES)
    for table in session.tables.order_by("number"):
        receipts = BallotReceipt.objects.filter(bag__table=table, bag__decision=decision).count()
        play = TablePlay.objects.filter(table=table).first()
        counts = [c for c in (play.counts if play else []) if c["decision"] == decision]
        if not counts:
            tally = SealedBallot.objects.filter(bag__table=table, bag__decision=decision).count()
        elif "tally" in counts[-1]:
            tally = sum(counts[-1]["tally"].values())
        else:
            tally = receipts
        out[f"{sid}:{table.number}"] = {
            "receipts": receipts,
            "tally": tally,
            "voters": table.seats.filter(removed=False, shares__isnull=True).count(),
            "counted": Bag.objects.filter(table=table, decision=decision,
                                          status=Bag.Status.COUNTED).exists(),
        }
print("VERIFY " + json.dumps(out))
"""


@dataclass(frozen=True)
class Game:
    """What differs between the lesson modules the benchmark plays: how the lessons are
    brought to the measured vote and checked afterwards, and how a phone names the vote.
    Progress frames name the bag's decision (``lesson["decision"]``, read from the open bags
    by SETUP_SCRIPT) in every module."""

    title: str
    setup: str  # defines GAME, OPTIONS and to_the_vote for SETUP_SCRIPT
    verify: str  # prints "VERIFY " + {"<session>:<table>": {receipts, tally, voters, counted}}
    kind: str | None = None  # the vote's short name, if phones send that instead of the id

    def ballot(self, lesson: dict[str, Any], option: int, expected: str) -> str:
        """A phone's ballot frame: the option's index, as phones send it."""
        names = {"kind": self.kind} if self.kind else {"decision": lesson["decision"]}
        return json.dumps({"type": "ballot", **names, "option": option, "expected": expected,
                           "id": "b1"})

    def counts(self, frame: dict[str, Any], lesson: dict[str, Any]) -> bool:
        """The progress frame is the measured vote's ("kind" before the lesson platform)."""
        return (frame.get("decision") == lesson["decision"]
                or (self.kind is not None and frame.get("kind") == self.kind))


GAMES: dict[str, Game] = {
    "state-in-class": Game("State in Class: the tax vote", SIC_SETUP, SIC_VERIFY, kind="tax"),
    "austerity": Game("Austerity: the budget session's tax item", AUSTERITY_SETUP,
                      AUSTERITY_VERIFY),
}


# --------------------------------------------------------------------------- database


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@contextlib.contextmanager
def scratch_database(kind: str, tmp: Path, pg_url: str) -> Iterator[str]:
    """A fresh database URL: a SQLite file in ``tmp``, or a new PostgreSQL database."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'bench.sqlite3'}"
        return
    name = f"sic_bench_{secrets.token_hex(4)}"
    admin_url = with_database(pg_url, "postgres")
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield with_database(pg_url, name)
    finally:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


def manage(env: dict[str, str], *args: str, timeout: float = 600) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


# --------------------------------------------------------------------------- the client

PHASE = re.compile(r'"phase":"([^"]*)"')
# A counted table's line on the console (templates/facilitator/_table.html).
COUNTED = re.compile(r'data-progress="(\d+)" data-counted')


@dataclass
class Phone(Voter):
    server: int = 0
    token: str = ""
    phase: str = ""
    first_view: asyncio.Event | None = None
    connect_started: float = 0.0
    lesson: dict[str, Any] = field(default_factory=dict)  # SETUP_SCRIPT's, for its ballot


class Projector:
    """One lesson's projector socket: records when each table's count arrives."""

    def __init__(self, lesson: dict[str, Any], server: Server, game: Game) -> None:
        self.lesson, self.server, self.game = lesson, server, game
        self.session = lesson["session"]
        self.ws: Any = None
        self.burst: Burst | None = None  # set while measuring
        self.last_frame = time.perf_counter()
        self.views = 0
        self.first_view = asyncio.Event()

    async def open(self) -> None:
        self.ws = await harness.open_socket(
            self.server.url(f"/ws/lesson/{self.session}/"), origin=self.server.origin,
            cookie=f"sessionid={self.lesson['sessionid']}")
        self.reader = asyncio.create_task(self.read())
        async with asyncio.timeout(30):
            await self.first_view.wait()

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                now = time.perf_counter()
                self.last_frame = now
                burst = self.burst
                if text.startswith('{"type":"progress"'):
                    if burst is not None:
                        frame = json.loads(text)
                        if self.game.counts(frame, self.lesson):
                            burst.arrived(f"{self.session}:{frame['table']}", frame["voted"],
                                          now)
                elif text.startswith('{"type":"view"'):
                    self.views += 1
                    self.first_view.set()
                    if burst is not None:
                        # The last ballot of a table: the bag was counted, and the projector
                        # gets a new screen instead of a progress frame; the screen marks
                        # each counted table's line (data-counted: State in Class's
                        # projector/_table.html, Austerity's projector/_now.html).
                        for number in COUNTED.findall(json.loads(text)["html"]):
                            group = f"{self.session}:{number}"
                            if group in burst.sizes:
                                burst.arrived(group, burst.sizes[group], now)


async def phone_reader(phone: Phone) -> None:
    assert phone.ws is not None and phone.first_view is not None
    with contextlib.suppress(Exception):
        async for text in phone.ws:
            now = time.perf_counter()
            if text.startswith('{"type":"view"'):
                if not phone.first_view.is_set():
                    phone.join_ms = (now - phone.connect_started) * 1000
                    match = PHASE.search(text[:200])
                    phone.phase = match.group(1) if match else ""
                    phone.first_view.set()
            elif text.startswith('{"type":"ack"'):
                if phone.sent_at is not None and phone.answered_at is None:
                    phone.answered_at = now
            elif text.startswith('{"type":"error"'):
                phone.error = "error frame: " + text[:200]
            elif text.startswith('{"type":"removed"'):
                phone.error = "removed"
    if phone.sent_at is None or phone.answered_at is None:
        phone.error = phone.error or "socket closed"


async def join(phone: Phone, servers: list[Server]) -> None:
    server = servers[phone.server]
    phone.first_view = asyncio.Event()
    phone.connect_started = time.perf_counter()
    try:
        phone.ws = await harness.open_socket(server.url("/ws/play/"), origin=server.origin,
                                             cookie=f"sic_seat={phone.token}")
        phone.reader = asyncio.create_task(phone_reader(phone))
        async with asyncio.timeout(60):
            await phone.first_view.wait()
    except Exception as exc:
        phone.error = f"join: {exc!r}"


async def close_all(sockets: list[Any]) -> None:
    async def close(ws: Any) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await ws.close()

    await harness.gather_bounded([lambda w=w: close(w) for w in sockets if w is not None], 200)


async def play_round(lessons: list[dict[str, Any]], servers: list[Server],
                     cfg: dict[str, Any], seed: int) -> dict[str, Any]:
    """One repetition: projectors, phones join, quiet, memory, the burst, close."""
    pids = [s.pid for s in servers]
    game = GAMES[cfg["game"]]
    projectors = [Projector(lesson, servers[i % len(servers)], game)
                  for i, lesson in enumerate(lessons)]
    await asyncio.gather(*(p.open() for p in projectors))
    rss_before = harness.rss_bytes(pids)
    rng = random.Random(seed)
    phones: list[Phone] = []
    sizes: dict[str, int] = {}
    for lesson in lessons:
        for seat in lesson["seats"]:
            group = f"{lesson['session']}:{seat['table']}"
            sizes[group] = lesson["tables"][str(seat["table"])]
            phones.append(Phone(group=group, token=seat["token"],
                                server=len(phones) % len(servers), lesson=lesson))
    joins_started = time.perf_counter()
    await harness.gather_bounded([lambda p=p: join(p, servers) for p in phones],
                                 cfg["join_limit"])
    join_seconds = time.perf_counter() - joins_started
    quiet = await harness.wait_quiet(lambda: max(p.last_frame for p in projectors), 1.0, 120)
    rss_after = harness.rss_bytes(pids)
    joined = [p for p in phones if p.ws is not None and p.error is None]
    for p in joined:
        p.payload = game.ballot(p.lesson, rng.randrange(len(p.lesson["options"])), p.phase)
    burst = Burst(sizes={g: n for g, n in sizes.items()})
    for p in projectors:
        p.burst = burst
    spies = burst_profilers(cfg, pids, seed)
    cpu_before = harness.cpu_seconds(pids)
    result = await harness.run_burst(joined, burst, spread=cfg["spread"],
                                     timeout=cfg["burst_timeout"], seed=seed)
    # Let the phones' own screens (the view after their ballot) arrive before closing.
    await harness.wait_quiet(lambda: max(p.last_frame for p in projectors), 0.5, 30)
    result["server_cpu_seconds_burst"] = harness.cpu_seconds(pids) - cpu_before
    stop_profilers(spies)
    rss_peak = harness.rss_bytes(pids)
    await close_all([p.ws for p in phones] + [p.ws for p in projectors])
    result.update({
        "phones": len(phones), "joined": len(joined),
        "join_errors": len(phones) - len(joined),
        "join_ms": [p.join_ms for p in phones if p.join_ms is not None],
        "join_seconds": join_seconds, "quiet_before_burst": quiet,
        "rss_before": rss_before, "rss_after": rss_after, "rss_peak": rss_peak,
        "sent_by_group": _sent_by_group(joined),
        "errors_by_kind": _errors(phones),
    })
    return result


def burst_profilers(cfg: dict[str, Any], pids: list[int], seed: int
                    ) -> list[subprocess.Popen[bytes]]:
    """With ``--py-spy-burst DIR``: py-spy attached to every server for the burst only (the
    ballots, their counts and the screens they cause; no joins, no start-up)."""
    if not cfg.get("py_spy_burst"):
        return []
    out = Path(cfg["py_spy_burst"])
    out.mkdir(parents=True, exist_ok=True)
    py_spy = os.environ.get("PY_SPY") or shutil.which("py-spy") or "py-spy"
    spies = [subprocess.Popen([py_spy, "record", "--pid", str(pid), "--threads", "--gil",
                               "--rate", "500", "--format", "raw", "--nonblocking",
                               "-o", str(out / f"burst-{i}-{seed}.txt")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for i, pid in enumerate(pids)]
    time.sleep(0.5)  # attached before the first ballot
    return spies


def stop_profilers(spies: list[subprocess.Popen[bytes]]) -> None:
    for spy in spies:
        spy.send_signal(signal.SIGINT)  # py-spy writes its samples and exits
    for spy in spies:
        with contextlib.suppress(subprocess.TimeoutExpired):
            spy.wait(timeout=30)


def _sent_by_group(phones: list[Phone]) -> dict[str, int]:
    sent: dict[str, int] = {}
    for p in phones:
        if p.sent_at is not None:
            sent[p.group] = sent.get(p.group, 0) + 1
    return sent


def _errors(phones: list[Phone]) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for p in phones:
        if p.error:
            key = p.error.split(":")[0]
            kinds[key] = kinds.get(key, 0) + 1
    return kinds


async def drive(setup: dict[str, Any], servers: list[Server], cfg: dict[str, Any]
                ) -> list[dict[str, Any]]:
    lessons = setup["lessons"]
    per = cfg["lessons"]
    if setup["warmup"]:
        # A lesson of 8 played first and thrown away: the server imports, compiles templates
        # and opens its database connections on first use (figures would include that).
        await play_round(setup["warmup"], servers, {**cfg, "spread": 0.2}, cfg["seed"] + 1000)
    rounds = []
    for r in range(cfg["repeat"]):
        rounds.append(await play_round(lessons[r * per:(r + 1) * per], servers, cfg,
                                       cfg["seed"] + r))
    return rounds


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="class")
    parser.add_argument("--lessons", type=int, help="lessons at once")
    parser.add_argument("--students", type=int,
                        help="students per lesson (State in Class: tables of 6–8, Austerity: "
                        "4–8; at most 40, the class size cap)")
    parser.add_argument("--servers", type=int, help="daphne processes")
    parser.add_argument("--layer", choices=["memory", "redis"], help="channel layer")
    parser.add_argument("--db", choices=["sqlite", "postgres"], help="database")
    parser.add_argument("--repeat", type=int, help="repetitions (fresh lessons), pooled")
    parser.add_argument("--spread", type=float, help="seconds within which all phones vote")
    parser.add_argument("--join-limit", type=int, help="phones joining at once")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to CPUs")
    parser.add_argument("--no-warmup", action="store_true", help="no warm-up lesson first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--burst-timeout", type=float, default=60.0)
    parser.add_argument("--timeline", action="store_true",
                        help="keep the first run's send and count times in the JSON")
    parser.add_argument("--name", help="result file name (default live-<scenario>)")
    parser.add_argument("--py-spy", metavar="DIR",
                        help="profile each daphne with py-spy (collapsed stacks) into DIR; py-spy "
                        "from PATH or $PY_SPY")
    parser.add_argument("--py-spy-burst", metavar="DIR",
                        help="profile each daphne with py-spy during the bursts only (the "
                        "thread holding the GIL: where Python's CPU goes; raw collapsed stacks, "
                        "one file per server and run) into DIR")
    args = parser.parse_args(argv)
    cfg = dict(SCENARIOS[args.scenario])
    for key in ("lessons", "students", "servers", "layer", "db", "repeat", "spread",
                "join_limit"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    if args.no_pin:
        cfg["pin"] = False
    if args.no_warmup:
        cfg["warmup"] = False
    if cfg["servers"] > 1 and cfg["layer"] == "memory":
        parser.error("several daphne processes need the Redis layer (--layer redis)")
    if cfg["servers"] > 1 and cfg["db"] == "sqlite":
        parser.error("several daphne processes need PostgreSQL (--db postgres)")
    cfg.update(scenario=args.scenario, seed=args.seed, burst_timeout=args.burst_timeout,
               name=args.name or f"live-{args.scenario}", py_spy=args.py_spy,
               timeline=args.timeline, py_spy_burst=args.py_spy_burst)
    return cfg


def run(cfg: dict[str, Any]) -> dict[str, Any]:
    pg_url = os.environ.get("BENCH_DATABASE_URL") or (
        os.environ["DATABASE_URL"] if os.environ.get("DATABASE_URL", "").startswith("postgres")
        else DEFAULT_PG)
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    phones = cfg["lessons"] * cfg["students"]
    harness.raise_open_files(phones * 2 + 1000)
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="sic-live-") as tmpname:
        tmp = Path(tmpname)
        with scratch_database(cfg["db"], tmp, pg_url) as db_url:
            env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DEBUG")}
            env.update({"DATABASE_URL": db_url, "DJANGO_SETTINGS_MODULE":
                        "stateinclass.settings", "ALLOWED_HOSTS": f"{HOST},localhost",
                        "SECRET_KEY": "bench-" + secrets.token_hex(16),
                        "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING"})
            started = time.perf_counter()
            manage(env, "migrate", "--noinput", "-v", "0")
            # Setting up uses the in-memory layer: nobody listens yet.
            out = manage({**env, "BENCH_SETUP": json.dumps({
                "lessons": cfg["lessons"] * cfg["repeat"], "students": cfg["students"],
                "seed": cfg["seed"], "warmup": int(cfg["warmup"])})}, "shell", "-c",
                GAMES[cfg["game"]].setup + SETUP_SCRIPT)
            setup = json.loads(out.split("SETUP ", 1)[1])
            measured = cfg["lessons"] * cfg["repeat"]
            setup["warmup"] = setup["lessons"][measured:]
            setup["lessons"] = setup["lessons"][:measured]
            timings["setup_seconds"] = time.perf_counter() - started
            if cfg["layer"] == "redis":
                env["REDIS_URL"] = redis_url
            servers: list[Server] = []
            try:
                for i in range(cfg["servers"]):
                    port = harness.free_port()
                    argv = [str(DAPHNE), "-b", HOST, "-p", str(port),
                            "stateinclass.asgi:application"]
                    if cfg["py_spy"]:
                        Path(cfg["py_spy"]).mkdir(parents=True, exist_ok=True)
                        py_spy = os.environ.get("PY_SPY") or shutil.which("py-spy") or "py-spy"
                        argv = [py_spy, "record", "--threads", "--rate", "200", "--format",
                                "raw", "-o", str(Path(cfg["py_spy"]) / f"daphne-{i}.txt"),
                                "--", *argv]
                    argv = harness.pin(0 if cfg["pin"] else None) + argv
                    servers.append(Server(argv, port=port, env=env, cwd=ROOT,
                                          log=tmp / f"daphne-{i}.log",
                                          wrapped=bool(cfg["py_spy"])))
                for server in servers:
                    server.wait_ready()
                if cfg["pin"]:
                    harness.pin_self(1)
                started = time.perf_counter()
                rounds = asyncio.run(asyncio.wait_for(drive(setup, servers, cfg), 900))
                timings["drive_seconds"] = time.perf_counter() - started
            finally:
                for server in servers:
                    server.stop()
                logs = {f"daphne-{i}": s.tail(20000) for i, s in enumerate(servers)}
            sessions = [lesson["session"] for lesson in setup["lessons"]]
            out = manage({**env, "BENCH_SESSIONS": json.dumps(sessions)}, "shell", "-c",
                         GAMES[cfg["game"]].verify)
            verify = json.loads(out.split("VERIFY ", 1)[1])
    return report(cfg, setup, rounds, verify, logs, timings)


def report(cfg: dict[str, Any], setup: dict[str, Any], rounds: list[dict[str, Any]],
           verify: dict[str, Any], logs: dict[str, str], timings: dict[str, float]
           ) -> dict[str, Any]:
    latencies = [x for r in rounds for x in r["latencies_ms"]]
    answers = [x for r in rounds for x in r["answer_ms"]]
    joins = [x for r in rounds for x in r["join_ms"]]
    sent: dict[str, int] = {}
    for r in rounds:
        sent.update(r["sent_by_group"])
    lost = doubled = uncounted = 0
    for group, db in verify.items():
        n = sent.get(group, 0)
        counted = min(db["receipts"], db["tally"])
        lost += max(0, n - counted)
        doubled += max(0, db["receipts"] - n) + max(0, db["tally"] - db["receipts"])
        if n == db["voters"] and not db["counted"]:
            uncounted += 1  # everyone voted but the bag was not counted
    phones = sum(r["phones"] for r in rounds)
    mem_per_phone = [(r["rss_after"] - r["rss_before"]) / max(1, r["joined"]) for r in rounds]
    tracebacks = sum(log.count("Traceback") for log in logs.values())
    tables = {len(lesson["tables"]) for lesson in setup["lessons"]}
    sizes = sorted({tuple(sorted(lesson["tables"].values(), reverse=True))
                    for lesson in setup["lessons"]})
    result = {
        "benchmark": "live", "scenario": cfg["scenario"], "game": cfg["game"],
        "vote": sorted({lesson["decision"] for lesson in setup["lessons"]}),
        **harness.machine(),
        "config": {k: cfg[k] for k in ("game", "lessons", "students", "servers", "layer", "db",
                                       "repeat", "spread", "join_limit", "pin", "seed")},
        "seating": {"tables_per_lesson": sorted(tables), "table_sizes": sizes},
        "phones": phones, "ballots_sent": sum(r["sent"] for r in rounds),
        "ballot_to_projector_ms": harness.summary(latencies),
        "ballot_to_ack_ms": harness.summary(answers),
        "join_ms": harness.summary(joins),
        "server_cpu_ms_per_ballot": round(1000 * sum(r["server_cpu_seconds_burst"]
                                                     for r in rounds)
                                          / max(1, sum(r["sent"] for r in rounds)), 2),
        "memory_per_phone_kib": round(sorted(mem_per_phone)[len(mem_per_phone) // 2] / 1024, 1),
        "server_rss_mib": {"before_phones": round(rounds[0]["rss_before"] / 2**20, 1),
                           "phones_connected": round(rounds[0]["rss_after"] / 2**20, 1),
                           "after_burst": round(max(r["rss_peak"] for r in rounds) / 2**20, 1)},
        "lost_votes": lost, "doubled_votes": doubled, "tables_not_counted": uncounted,
        "counts_missing_at_projector": sum(r["counts_missing"] for r in rounds),
        "errors": sum(r["errors"] for r in rounds) + sum(r["join_errors"] for r in rounds),
        "errors_by_kind": _merge(r["errors_by_kind"] for r in rounds),
        "server_tracebacks": tracebacks,
        "burst_seconds": [round(r["seconds"], 3) for r in rounds],
        "per_run_p50_p95_ms": [[harness.summary(r["latencies_ms"])["p50"],
                                harness.summary(r["latencies_ms"])["p95"]] for r in rounds],
        "target_p95_ms": cfg["target_p95_ms"],
        **{k: round(v, 1) for k, v in timings.items()},
    }
    if cfg["timeline"]:
        result["timelines"] = [r["timeline"] for r in rounds]
    p95 = result["ballot_to_projector_ms"]["p95"]
    result["target_met"] = (None if cfg["target_p95_ms"] is None else
                            p95 is not None and p95 <= cfg["target_p95_ms"] and lost == 0
                            and doubled == 0)
    print_report(result)
    path = harness.write_result(cfg["name"], result)
    print(f"wrote {path.relative_to(harness.ROOT)}")
    if tracebacks:
        for name, log in logs.items():
            if "Traceback" in log:
                print(f"--- {name} (last lines) ---\n{log[-3000:]}")
    return result


def _merge(dicts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def print_report(r: dict[str, Any]) -> None:
    c = r["config"]
    print(f"\n{GAMES[r['game']].title}, live: {r['scenario']} — {r['phones']} phones in "
          f"{c['lessons']} lesson(s) × {c['repeat']} run(s), tables {r['seating']['table_sizes']}"
          f", {c['servers']} daphne, {c['layer']} layer, {c['db']}, votes within "
          f"{c['spread']} s")
    rows = []
    for label, key in (("ballot → projector count (ms)", "ballot_to_projector_ms"),
                       ("ballot → phone's ack (ms)", "ballot_to_ack_ms"),
                       ("join: socket → first screen (ms)", "join_ms")):
        s = r[key]
        rows.append([label, s["n"], s["p50"], s["p95"], s["p99"], s["max"]])
    print(harness.table(["measure", "n", "p50", "p95", "p99", "max"], rows))
    target = r["target_p95_ms"]
    print(harness.table(["figure", "value"], [
        ["memory per phone (KiB)", r["memory_per_phone_kib"]],
        ["server CPU per ballot, all its work (ms)", r["server_cpu_ms_per_ballot"]],
        ["server RSS before / with phones / after (MiB)",
         f"{r['server_rss_mib']['before_phones']} / {r['server_rss_mib']['phones_connected']}"
         f" / {r['server_rss_mib']['after_burst']}"],
        ["ballots sent", r["ballots_sent"]],
        ["lost / doubled votes", f"{r['lost_votes']} / {r['doubled_votes']}"],
        ["errors (frames, sockets, joins)", r["errors"]],
        ["server tracebacks", r["server_tracebacks"]],
        ["p95 target (ms)", "—" if target is None else
         f"≤ {target}: {'met' if r['target_met'] else 'MISSED'}"],
        ["cores / commit", f"{r['cores']} / {r['commit']}"],
    ]))


def main(argv: list[str] | None = None) -> int:
    cfg = parse_args(argv)
    result = run(cfg)
    ok = result["lost_votes"] == 0 and result["doubled_votes"] == 0 and result["errors"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
