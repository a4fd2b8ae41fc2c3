"""A lesson stored before a schema upgrade is continued, exported and printed after it.

Each test migrates ``facilitator`` back to ``0003_sealed_ballots``, writes a lesson in the
middle of play with the *historical* models of 0003 (rows exactly as the services of that
release wrote them: the action log and the ledger come from the pure engine), migrates forward
to the latest migrations, and then drives the lesson with the current code only. The schema
is restored to the latest migrations whatever happens, so later tests see a normal database.

Current-code modules are imported inside the test functions (after the upgrade), in one
block at the top of each, so that a renamed module is one line to change.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.registry import get_engine
from games.state_in_class.bots import get_policy

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("facilitator", "0003_sealed_ballots")
GAME = "state-in-class"
# The lesson options the 0003 services stored for a lesson made with the defaults.
OPTIONS_0003 = {"bots_allowed": True, "debate_seconds": 120, "bot_policy": "civic"}
VOTE_OPTIONS = {"tax": ["A", "B", "C", "D"], "budget": ["health", "education", "shield"]}
# Table 1: six students and two bots; table 2: seven students (tables of 6–8 players).
TABLE_1 = [("Ana", False), ("Ben", False), ("Bot 1", True), ("Cai", False), ("Dee", False),
           ("Bot 2", True), ("Eli", False), ("Fay", False)]
TABLE_2 = [("Gus", False), ("Hal", False), ("Ivy", False), ("Jon", False), ("Kim", False),
           ("Lou", False), ("Max", False)]
# Round 1's ballots, seat by seat: one clear winner, and every service ranked by its votes
# alone (no tie to break), whatever the engine dealt.
ROUND_1_VOTES = {
    1: {"tax": "BBABBACB", "budget": ["health", "education", "health", "shield", "education",
                                      "health", "education", "health"]},
    2: {"tax": "BABDBAB", "budget": ["health", "health", "education", "shield", "health",
                                     "education", "health"]},
}


# --------------------------------------------------------------------------- the schema


@contextmanager
def schema_at_0003() -> Iterator[Apps]:
    """The database migrated back to 0003, and the models of that migration; on leaving, the
    database migrated forward to the latest migrations (also after a failure)."""
    try:
        executor = MigrationExecutor(connection)
        executor.migrate([BEFORE])
        yield MigrationExecutor(connection).loader.project_state([BEFORE]).apps
    finally:
        upgrade()


def upgrade() -> None:
    """Every app migrated to its latest migration."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


# --------------------------------------------------------------------------- the 0003 rows


class LessonAt0003:
    """A State in Class lesson written row by row with the models of migration 0003, as the
    services of that release wrote it: the teacher's steps, each table's log of decisions and
    its ledger (the engine's transfers, double entry), bags with their receipts by seat and,
    while a bag is open, its sealed ballots. No row is written by current code."""

    def __init__(self, apps: Apps, *, title: str) -> None:
        self.apps = apps
        self.model = {name: apps.get_model("facilitator", name) for name in (
            "ClassSession", "Table", "Seat", "TeacherStep", "TableAction", "LedgerEntry",
            "Bag", "BallotReceipt", "SealedBallot")}
        self.clock = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
        user = apps.get_model("auth", "User")
        # An unusable password (what ``set_unusable_password`` stores): tests log in directly.
        self.teacher = user.objects.create(username="teacher", password="!unusable",
                                           date_joined=self.now())
        self.session = self.model["ClassSession"].objects.create(
            owner=self.teacher, title=title, game=GAME, language="en", options=OPTIONS_0003,
            status="lobby", stage="lobby", round=0, join_code="ACDEFH", class_size=32,
            created_at=self.now())
        self.tables: list[TableAt0003] = []
        self.steps = 0
        self.tokens: dict[str, str] = {}  # student -> seat token (the phone's cookie)

    def now(self) -> datetime:
        self.clock += timedelta(seconds=7)
        return self.clock

    def seat(self, nickname: str, *, is_bot: bool) -> Any:
        token_hash = None
        if not is_bot:
            self.tokens[nickname] = secrets.token_urlsafe(32)
            token_hash = hashlib.sha256(self.tokens[nickname].encode()).hexdigest()
        return self.model["Seat"].objects.create(
            session=self.session, nickname=nickname, token_hash=token_hash, is_bot=is_bot,
            bot_policy="civic" if is_bot else "", joined_at=self.now())

    def step(self, kind: str, stage: str, round_: int) -> Any:
        """One teacher step: the session moves to ``(stage, round_)``."""
        before = (self.session.stage, self.session.round)
        self.session.stage, self.session.round = stage, round_
        fields = ["stage", "round"]
        if kind == "start":
            self.session.status, self.session.started_at = "running", self.now()
            fields += ["status", "started_at"]
        if stage == "debate":
            self.session.timer = {"ends_at": self.now().timestamp() + 120, "left": None}
            fields.append("timer")
        self.session.save(update_fields=fields)
        self.steps += 1
        return self.model["TeacherStep"].objects.create(
            session=self.session, seq=self.steps, kind=kind, stage_before=before[0],
            round_before=before[1], stage_after=stage, round_after=round_, created_at=self.now())

    def start(self, seed: int, tables: list[list[tuple[str, bool]]]) -> Any:
        """Seat the class (the lobby's seats, then one table per list), deal the opening
        coins, and open the pact: the bots contribute at once (their policy's choice)."""
        seats = {name: self.seat(name, is_bot=is_bot)
                 for players in tables for name, is_bot in players}
        rng = random.Random(seed)
        for number, players in enumerate(tables, start=1):
            self.tables.append(TableAt0003(self, number, rng.randrange(2**62),
                                           [seats[name] for name, _bot in players]))
        step = self.step("start", "pact", 0)
        for table in self.tables:
            table.bots_pact(step)
        return step

    def open_votes(self, kind: str, step: Any) -> None:
        for table in self.tables:
            table.open_bag(kind, step)

    def save_snapshots(self, *, keep: set[int]) -> None:
        """Each table's snapshot (the state after its log); ``None`` for the tables not in
        ``keep`` (a missing cache: the code replays the log)."""
        for table in self.tables:
            table.row.snapshot = table.engine.to_dict(table.state) if table.row.number in keep \
                else None
            table.row.save(update_fields=["snapshot"])


class TableAt0003:
    def __init__(self, lesson: LessonAt0003, number: int, seed: int, seats: list[Any]) -> None:
        self.lesson, self.model, self.engine = lesson, lesson.model, get_engine(GAME)
        names = [seat.nickname for seat in seats]
        self.row = self.model["Table"].objects.create(
            session=lesson.session, number=number, seed=seed, config={"players": names})
        self.seats = {}
        for position, seat in enumerate(seats):
            seat.table, seat.position, seat.player_name = self.row, position, seat.nickname
            seat.save(update_fields=["table", "position", "player_name"])
            self.seats[seat.player_name] = seat
        self.state = self.engine.new_game(self.row.config, seed)
        # What the game record of this table holds so far (ballots put back in).
        self.record: list[dict[str, Any]] = []
        self.actions = self.ledger = 0
        self.bag: Any = None
        self.ballots: list[str] = []  # who is in the open bag, as the receipts say
        self.options: list[str] = []  # what they chose (sealed: nobody may read it back)
        self.record_transfers([{"type": "transfer", "from": "bank", "to": f"player:{p.name}",
                                "amount": p.coins, "reason": "start", "round": 0}
                               for p in self.state.players if p.coins], None)

    def record_transfers(self, events: list[dict[str, Any]], action: Any) -> None:
        keys = ("service", "option")
        for event in events:
            if event["type"] != "transfer":
                continue
            self.ledger += 1
            self.model["LedgerEntry"].objects.create(
                table=self.row, action=action, seq=self.ledger, round=event.get("round", 0),
                source=event["from"], destination=event["to"], amount=event["amount"],
                reason=event["reason"], details={k: event[k] for k in keys if k in event})

    def act(self, action: dict[str, Any], *, actor: str, step: Any, seat: Any = None) -> None:
        """One logged decision: the engine applies it, the log and the ledger record it."""
        new_state, events = self.engine.apply(self.state, action)
        self.actions += 1
        row = self.model["TableAction"].objects.create(
            table=self.row, seq=self.actions, step=step, actor=actor, seat=seat,
            round=self.state.round, payload=action, created_at=self.lesson.now())
        self.record_transfers(events, row)
        self.state = new_state
        self.record.append(action)

    def bots_pact(self, step: Any) -> None:
        for seat in self.seats.values():
            if seat.is_bot:
                me = self.state.player(seat.player_name)
                rng = random.Random(f"{self.row.seed}:{seat.position}:{self.state.round}:"
                                    f"{self.state.phase}")
                self.act({"type": "pact", "player": me.name,
                          "coins": get_policy(seat.bot_policy).pact(self.state, me, rng)},
                         actor="bot", seat=seat, step=step)

    def pact(self, name: str, coins: int, step: Any) -> None:
        self.act({"type": "pact", "player": name, "coins": coins}, actor="seat",
                 seat=self.seats[name], step=step)

    def open_bag(self, kind: str, step: Any) -> None:
        """The bag of this round's vote, its key held by the server process of the day (the
        fingerprint of a key that is gone: that process has ended)."""
        assert self.state.phase == f"{kind}_vote", self.state.phase
        key = secrets.token_bytes(32)
        self.bag = self.model["Bag"].objects.create(
            table=self.row, decision=f"{self.state.round}:{kind}", options=VOTE_OPTIONS[kind],
            status="open", key_ref=secrets.token_hex(16), store="memory:" + secrets.token_hex(8),
            fingerprint=hashlib.sha256(b"state-in-class bag key\x00" + key).hexdigest()[:32],
            step=step)
        self.ballots, self.options = [], []

    def ballot(self, name: str, option: str) -> None:
        """A token in the bag: the seat's receipt and a sealed ballot (44 bytes, a sealed
        ballot's length, that open to nothing without the bag's key)."""
        self.model["BallotReceipt"].objects.create(bag=self.bag, seat=self.seats[name])
        self.model["SealedBallot"].objects.create(bag=self.bag, sealed=secrets.token_bytes(44))
        self.ballots.append(name)
        self.options.append(option)

    def count(self, step: Any) -> None:
        """Everyone has voted: the bag is emptied into its tally, by the teacher's step that
        opened it (the 0003 services counted a full bag at the last ballot)."""
        kind = self.bag.decision.split(":", 1)[1]
        by_seat = sorted(self.ballots, key=lambda name: self.seats[name].position)
        ballots = [{"type": "ballot", "kind": kind, "player": name} for name in by_seat]
        self.state, _events = self.engine.replay_actions(self.state, ballots)
        self.record.extend(ballots)
        tally = {o: self.options.count(o) for o in VOTE_OPTIONS[kind] if self.options.count(o)}
        self.model["SealedBallot"].objects.filter(bag=self.bag).delete()
        self.bag.status, self.bag.counted_by = "counted", step
        self.bag.save(update_fields=["status", "counted_by"])
        self.bag = None
        self.act({"type": "count", "kind": kind, "tally": tally}, actor="teacher", step=step)

    def vote(self, kind: str, options: list[str], step: Any, *, students: int | None = None
             ) -> None:
        """The bots' tokens first (they vote when the bag opens), then the students' in seat
        order (``students`` of them; all by default, and then the bag is counted)."""
        by_name = dict(zip(self.seats, options, strict=True))
        bots = [n for n, s in self.seats.items() if s.is_bot]
        people = [n for n, s in self.seats.items() if not s.is_bot]
        for name in bots + people[:students]:
            self.ballot(name, by_name[name])
        if students is None:
            self.count(step)


def play_round_1(lesson: LessonAt0003, seed: int, tables: list[list[tuple[str, bool]]]
                 ) -> None:
    """From the lobby to the end of round 1: pacts, the tax vote, the pay, the budget vote."""
    start = lesson.start(seed, tables)
    for table in lesson.tables:
        for i, (name, seat) in enumerate(table.seats.items()):
            if not seat.is_bot:
                table.pact(name, i % 4, start)
        assert (table.state.round, table.state.phase) == (1, "tax_vote")
    lesson.step("next", "event", 1)
    lesson.step("next", "debate", 1)
    tax = lesson.step("next", "tax_vote", 1)
    lesson.open_votes("tax", tax)
    for table in lesson.tables:
        table.vote("tax", list(ROUND_1_VOTES[table.row.number]["tax"]), tax)
        assert table.state.phase == "budget_vote", table.state.phase
    lesson.step("next", "pay", 1)
    budget = lesson.step("next", "budget_vote", 1)
    lesson.open_votes("budget", budget)
    for table in lesson.tables:
        table.vote("budget", ROUND_1_VOTES[table.row.number]["budget"], budget)
        assert (table.state.round, table.state.phase) == (2, "tax_vote"), table.state.phase
    lesson.step("next", "end_of_round", 1)


# --------------------------------------------------------------------------- the tests


def test_a_lesson_stored_before_the_upgrade_is_continued_exported_and_printed_after_it(
        monkeypatch):
    """Stored at the debate of round 2 (round 1 played, both its bags counted): after the
    upgrade the table verifies, its record is the stored one, a student's phone still opens
    its seat, the class votes and plays to the final count, and the lesson's record exports,
    replays to the same game and prints."""
    with schema_at_0003() as apps:
        lesson = LessonAt0003(apps, title="Before the upgrade")
        play_round_1(lesson, 2026, [TABLE_1])
        lesson.step("next", "event", 2)
        lesson.step("next", "debate", 2)
        lesson.save_snapshots(keep={1})
        session_id, tokens = lesson.session.pk, lesson.tokens
        stored = {t.row.number: list(t.record) for t in lesson.tables}
        ledger_rows = {t.row.number: t.ledger for t in lesson.tables}
        upgrade()

        # The current code, after the upgrade.
        from django.contrib.auth import get_user_model
        from django.test import Client

        from facilitator import services
        from facilitator.consumers import SEAT_COOKIE
        from facilitator.lessons.state_in_class.debrief import DEBRIEF
        from facilitator.log import engine_of, load_state, verify_table
        from facilitator.models import BallotReceipt, ClassSession, LedgerEntry
        from facilitator.reports.export import table_record
        from games.registry import replay
        from tests.facilitator.lesson import (
            break_ties,
            deterministic,
            drive_to_the_end,
            fresh,
            humans,
        )

        deterministic(monkeypatch, 4)
        session = ClassSession.objects.get(pk=session_id)
        assert (session.status, session.stage, session.round) == ("running", "debate", 2)
        assert session.owner == get_user_model().objects.get(username="teacher")
        tables = list(session.tables.order_by("number"))
        assert [verify_table(t) for t in tables] == [[]]
        for table in tables:
            assert table_record(table)["actions"] == stored[table.number]
            assert LedgerEntry.objects.filter(table=table).count() == ledger_rows[table.number]

        phone = Client()
        phone.cookies[SEAT_COOKIE] = tokens["Ana"]
        page = phone.get("/play/")
        assert page.status_code == 200 and "Ana" in page.content.decode()

        # Round 2's tax vote: the bots vote as the bag opens, every student through the
        # services; the last ballot fills the bag and it is counted.
        session = services.session_advance(confirm=True, session=session, expected=session.stage_id)
        assert session.stage == "tax_vote"
        for table in tables:
            students = humans(table)
            assert BallotReceipt.objects.filter(bag__table=table, bag__status="open").count() \
                == len(table.config["players"]) - len(students)
            for i, seat in enumerate(students):
                progress = services.ballot_cast(seat_id=seat.pk, kind="tax", option="ABC"[i % 3],
                                                expected=session.stage_id)
                assert (progress is None) == (i == len(students) - 1)
            table.refresh_from_db()
            assert load_state(table).phase in ("budget_vote", "tie_break")
        break_ties(session, random.Random(4))
        session = services.session_advance(confirm=True,
                                           session=fresh(session), expected=session.stage_id)
        assert (session.stage, session.round) == ("pay", 2)

        session = drive_to_the_end(session, rng=random.Random(4))
        assert (session.status, session.stage) == ("finished", "final")

        console = Client()
        console.force_login(session.owner)
        for table in session.tables.order_by("number"):
            assert verify_table(table) == []
            record = table_record(table)
            assert record["actions"][:len(stored[table.number])] == stored[table.number]
            assert len(record["actions"]) > len(stored[table.number])
            response = console.get(
                f"/teacher/lessons/{session.pk}/reports/table/{table.number}/record.json")
            assert response.status_code == 200
            exported = json.loads(response.content)
            assert exported == json.loads(json.dumps(record))
            replayed = replay(exported)
            assert replayed.engine.is_over(replayed.state)
            assert engine_of(table).to_dict(replayed.state) == table.snapshot
        handout = DEBRIEF.class_handout(session)
        assert handout.startswith(b"%PDF") and len(handout) > 10_000


def test_a_vote_open_when_the_server_was_upgraded_is_asked_again_after_it():
    """The server that held the open bag's key stopped for the upgrade (the in-memory key
    store): the ballots already cast cannot be opened, so the bag is emptied and asked again,
    and the lesson goes on from there."""
    with schema_at_0003() as apps:
        lesson = LessonAt0003(apps, title="Mid-vote at the upgrade")
        play_round_1(lesson, 7, [TABLE_1, TABLE_2])
        lesson.step("next", "event", 2)
        lesson.step("next", "debate", 2)
        tax = lesson.step("next", "tax_vote", 2)
        lesson.open_votes("tax", tax)
        for table in lesson.tables:
            table.vote("tax", ["B"] * len(table.seats), tax, students=3)
        lesson.save_snapshots(keep={1})  # table 2 has no snapshot: the code replays its log
        session_id = lesson.session.pk
        stored = {t.row.number: t.record + [{"type": "ballot", "kind": "tax", "player": n}
                                            for n in sorted(t.ballots, key=lambda n:
                                                            t.seats[n].position)]
                  for t in lesson.tables}
        upgrade()

        # The current code, after the upgrade.
        from facilitator import services
        from facilitator.errors import ServiceError
        from facilitator.log import load_state, verify_table
        from facilitator.models import Bag, ClassSession, SealedBallot
        from facilitator.reports.export import table_record
        from tests.facilitator.lesson import fresh, humans

        session = ClassSession.objects.get(pk=session_id)
        assert (session.stage, session.round) == ("tax_vote", 2)
        tables = list(session.tables.order_by("number"))
        assert [t.snapshot is None for t in tables] == [False, True]
        assert [verify_table(t) for t in tables] == [[], []]
        assert [table_record(t)["actions"] for t in tables] == [stored[1], stored[2]]

        with pytest.raises(ServiceError) as lost:
            services.session_advance(confirm=True, session=session, expected=session.stage_id)
        assert lost.value.code == "votes_lost"
        session = fresh(session)
        assert session.stage == "tax_vote"
        for table in tables:
            bag = Bag.objects.get(table=table, decision="2:tax")
            bots = len(table.config["players"]) - len(humans(table))
            assert (bag.status, bag.reopened) == ("open", "lost")
            assert bag.receipts.count() == SealedBallot.objects.filter(bag=bag).count() == bots
            for seat in humans(table):
                services.ballot_cast(seat_id=seat.pk, kind="tax", option="B",
                                     expected=session.stage_id)
            bag.refresh_from_db()
            table.refresh_from_db()
            assert bag.status == "counted"
            assert load_state(table).history[1]["tax"]["voters"] == len(table.config["players"])
            assert verify_table(table) == []
        session = services.session_advance(confirm=True, session=session, expected=session.stage_id)
        assert (session.stage, session.round) == ("pay", 2)
