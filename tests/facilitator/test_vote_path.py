"""The vote path's shape (docs/performance.md, issue #19): what a ballot and a screen cost in
statements, and that a socket's screen never holds up its next message.

Statements are counted with Django's own query log; the database is whatever the settings
select (SQLite here, PostgreSQL in CI), so the counts hold on both.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from facilitator import bags, broadcast, kept_reads, presence, selectors, services, table_reads
from facilitator.bags import BAG
from facilitator.consumers import SeatConsumer, TeacherConsumer
from facilitator.models import Bag, ClassSession, Seat, Table
from facilitator.services.turns import TABLE, _locked_table
from facilitator.table_reads import SEAT, SESSION, read_seats
from tests.facilitator.lesson import all_pacts, fresh, join, make_session, make_teacher
from tests.facilitator.wsclient import Socket, login_cookie, wait_all

CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements that read or write (not the transaction's own)."""
    return [q["sql"] for q in queries.captured_queries
            if not q["sql"].lstrip().upper().startswith(CONTROL)]


def at_the_tax_vote(students: int = 16) -> ClassSession:
    session = make_session(make_teacher(), class_size=max(students, 6))
    join(session, students)
    services.session_start(session=session)
    all_pacts(session)
    for _ in range(3):  # pact -> event -> debate -> tax vote
        services.session_advance(confirm=True, session=fresh(session))
    session = fresh(session)
    assert session.stage == "tax_vote"
    return session


def voter(session: ClassSession, table: int = 1, nth: int = 0) -> Seat:
    return list(Seat.objects.filter(session=session, table__number=table, is_bot=False)
                .order_by("position"))[nth]


@pytest.mark.django_db
def test_a_ballot_is_five_fixed_statements() -> None:
    session = at_the_tax_vote()
    seat = voter(session)
    with CaptureQueriesContext(connection) as queries:
        progress = services.ballot_cast(seat_id=seat.pk, kind="tax", option=0,
                                        expected=session.stage_id, token_hash=seat.token_hash)
    assert progress == {"voted": 1, "of": 8}
    sql = statements(queries)
    # the table and session (locked), its seats, the open bag with its voters; the receipt
    # and the sealed ballot: no engine, no snapshot, no query built by the ORM
    assert len(sql) == 5, sql
    assert [s.split()[0] for s in sql] == ["SELECT", "SELECT", "SELECT", "INSERT", "INSERT"]
    assert not any("snapshot" in s for s in sql), sql


@pytest.mark.django_db
def test_a_second_ballot_from_one_seat_is_refused_and_changes_nothing() -> None:
    session = at_the_tax_vote()
    seat = voter(session)
    services.ballot_cast(seat_id=seat.pk, kind="tax", option=0, expected=session.stage_id)
    with pytest.raises(services.ServiceError) as refused:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option=1, expected=session.stage_id)
    assert refused.value.code == "already_voted"
    bag = Bag.objects.get(table=seat.table, status=Bag.Status.OPEN)
    assert bag.receipts.count() == 1 and bag.sealed.count() == 1


@pytest.mark.django_db
def test_fixed_sql_reads_the_same_instances_as_the_orm() -> None:
    session = at_the_tax_vote()
    seat = voter(session)
    table = _locked_table(seat.pk)
    assert table is not None
    orm = Table.objects.select_related("session").get(pk=table.pk)
    assert {f: getattr(table, f) for f in TABLE.attnames} == \
        {f: getattr(orm, f) for f in TABLE.attnames}
    assert {f: getattr(table.session, f) for f in SESSION.attnames} == \
        {f: getattr(orm.session, f) for f in SESSION.attnames}
    # columns left out are deferred, and load as the ORM's would
    assert table.get_deferred_fields() == {"config", "snapshot", "counted"}
    assert table.snapshot == orm.snapshot and table.config == orm.config
    seats = read_seats(table)
    by_orm = sorted(orm.seats.all(), key=lambda s: s.position or 0)
    assert [[getattr(s, f) for f in SEAT.attnames] for s in seats] == \
        [[getattr(s, f) for f in SEAT.attnames] for s in by_orm]
    assert all(isinstance(s.removed, bool) and s.joined_at.tzinfo for s in seats)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    kept = table_reads.read_tables(table=table).open_bags[table.pk].bag
    assert {f: getattr(kept, f) for f in BAG.attnames} == {f: getattr(bag, f)
                                                           for f in BAG.attnames}
    assert isinstance(kept.options, list)


@pytest.mark.django_db
def test_a_projector_screen_reads_every_table_in_a_few_statements() -> None:
    session = at_the_tax_vote(students=32)  # four tables
    with CaptureQueriesContext(connection) as queries, kept_reads.screen_reads():
        view = selectors.projector_view(session)
    assert len(view["tables"]) == 4
    # the session's own lines, then the tables, seats, presence and open bags, once for all
    # four tables (it was 18 statements for four tables, and grew with every table)
    assert len(statements(queries)) <= 7, statements(queries)


@pytest.mark.django_db
def test_a_phone_screen_reads_its_table_in_a_few_statements() -> None:
    session = at_the_tax_vote()
    seat = voter(session)
    with CaptureQueriesContext(connection) as queries, kept_reads.screen_reads():
        view = selectors.held_seat_view(seat, seat.token_hash)
    assert view is not None and view["table"]["number"] == 1
    assert len(statements(queries)) <= 7, statements(queries)


@pytest.mark.django_db
def test_reads_are_kept_only_within_one_screen() -> None:
    session = at_the_tax_vote()
    seat = voter(session)
    table = seat.table
    with kept_reads.screen_reads():
        selectors.held_seat_view(seat, seat.token_hash)
        with CaptureQueriesContext(connection) as queries:
            assert services.table_seats(table)
            assert presence.online([seat.pk]) == set()
        assert statements(queries) == []  # read once for this screen
    services.ballot_cast(seat_id=seat.pk, kind="tax", option=0, expected=session.stage_id)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    # outside a screen every call reads the database again: the ballot is seen
    with CaptureQueriesContext(connection) as queries:
        assert bags.voter_ids(bag) == {seat.pk}
    assert len(statements(queries)) == 1
    with kept_reads.screen_reads():
        view = selectors.held_seat_view(seat, seat.token_hash)
    assert view is not None and view["game"]["vote"]["voted"] == 1


@pytest.mark.django_db
def test_a_deleted_seat_gets_the_removed_screen_not_an_error() -> None:
    session = at_the_tax_vote()
    seat = voter(session)
    Seat.objects.filter(pk=seat.pk).update(removed=True)
    assert selectors.held_seat_view(seat, seat.token_hash) is None


# --------------------------------------------------------------------------- sockets

db = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _close_worker_connections() -> Any:
    yield
    await database_sync_to_async(connections.close_all)()


async def _lesson_sockets(students: int = 8) -> tuple[ClassSession, Socket, list[Socket]]:
    def setup() -> tuple[ClassSession, dict[str, str], Any]:
        session = make_session(make_teacher(), class_size=max(students, 6))
        tokens = join(session, students)
        services.session_start(session=session)
        all_pacts(session)
        for _ in range(3):
            services.session_advance(confirm=True, session=fresh(session))
        return fresh(session), tokens, session.owner

    session, tokens, teacher = await database_sync_to_async(setup)()
    projector = await Socket.projector(session.pk, await login_cookie(teacher))
    phones = [await Socket.phone(token, name) for name, token in tokens.items()]
    await wait_all([s.drain() for s in (projector, *phones)])
    return session, projector, phones


@db
async def test_a_ballot_is_answered_while_its_phone_screen_is_still_being_rendered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session, projector, phones = await _lesson_sockets()
    slow = SeatConsumer.render

    def render(self: SeatConsumer) -> dict[str, Any]:
        time.sleep(1.0)  # a screen that takes a second to render
        return slow(self)

    monkeypatch.setattr(SeatConsumer, "render", render)
    phone = phones[0]
    assert phone.view is not None
    seat_id = phone.view["seat"]["id"]
    # the phone is told to fetch its screen (a count, a step): it is being rendered...
    await get_channel_layer().group_send(broadcast.seat_group(seat_id),
                                         {"type": "lesson.refresh"})
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await phone.send({"type": "ballot", "kind": "tax", "option": 0, "id": "b",
                      "expected": session.stage_id})
    # ...and the ballot is answered at once, not after the screen
    answer = await phone.answer("b")
    assert answer["type"] == "ack" and answer["progress"]["voted"] == 1
    assert time.monotonic() - started < 0.8
    # the screen sent last was rendered after the ballot (the one under way may predate it)
    await phone.until(lambda f: f["type"] == "view", timeout=10)
    await phone.until(lambda f: f["type"] == "view", timeout=10)
    assert phone.view["game"]["vote"]["voted"] == 1
    assert await phone.quiet(1.5)  # and no more than those two
    for s in (projector, *phones):
        await s.close()


@db
async def test_the_console_renders_at_most_ten_screens_a_second(monkeypatch) -> None:
    """The throttle spaces the renders' starts; a render's own length (and the machine's load)
    may bring two arrivals closer, so the starts are what is measured."""
    session, projector, phones = await _lesson_sockets()
    layer = get_channel_layer()
    loop = asyncio.get_running_loop()
    starts: list[float] = []
    render = TeacherConsumer.render_async

    async def timed_render(self: TeacherConsumer) -> dict[str, Any]:
        starts.append(loop.time())
        return await render(self)

    monkeypatch.setattr(TeacherConsumer, "render_async", timed_render)
    arrivals: list[float] = []

    async def read() -> None:  # every view, timed as it arrives
        deadline = loop.time() + 1.2
        while (left := deadline - loop.time()) > 0:
            if await projector.comm.receive_nothing(timeout=min(left, 0.01)):
                continue
            if (await projector.next())["type"] == "view":
                arrivals.append(loop.time())

    reader = asyncio.ensure_future(read())
    for _ in range(12):  # twelve refreshes within a quarter of a second
        last_asked = loop.time()
        await layer.group_send(broadcast.projector_group(session.pk),
                               {"type": "lesson.refresh"})
        await asyncio.sleep(0.02)
    await reader
    # The refreshes are not lost: a screen starts after the last was asked for, and arrives.
    assert starts and starts[-1] >= last_asked, (starts, last_asked)
    assert len(arrivals) == len(starts) >= 2
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= 0.95 / TeacherConsumer.RENDERS_PER_SECOND, gaps
    assert len(starts) <= 5, starts
    for s in (projector, *phones):
        await s.close()


@pytest.mark.django_db
def test_the_ballot_that_fills_the_bag_counts_it_without_reading_the_bag_again() -> None:
    session = at_the_tax_vote()
    seats = list(Seat.objects.filter(session=session, table__number=1, is_bot=False)
                 .order_by("position"))
    for seat in seats[:-1]:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option=0, expected=session.stage_id)
    with CaptureQueriesContext(connection) as queries:
        assert services.ballot_cast(seat_id=seats[-1].pk, kind="tax", option=1,
                                    expected=session.stage_id) is None
    sql = statements(queries)
    # the ballot's five; the count: the teacher's step, the snapshot, the sealed ballots
    # (deleted), the bag marked counted, the log (one statement) and the ledger, the snapshot
    # saved (fixed SQL: facilitator.log_rows)
    assert len(sql) <= 15, sql
    reads_bag = [s for s in sql if s.startswith("SELECT") and ("FROM facilitator_bag" in s
                                                               or 'FROM "facilitator_bag"' in s)]
    reads_receipts = [s for s in sql if s.startswith("SELECT")
                      and 'FROM "facilitator_ballotreceipt"' in s]
    assert len(reads_bag) == 1 and reads_receipts == [], sql  # read once, under the lock
    assert Bag.objects.get(table=seats[0].table, decision=f"{session.round}:tax").status == \
        Bag.Status.COUNTED


@pytest.mark.django_db
def test_the_counts_log_ledger_and_snapshot_rows_read_back_as_the_orm_writes_them() -> None:
    """The count's fixed SQL (``facilitator.log_rows``): its action follows the log, its
    transfers follow the ledger, each value as the ORM gives it back, and the table still
    verifies (snapshot = replay, ledger = engine, coins conserved)."""
    from facilitator.log import load_state, verify_table
    from facilitator.models import LedgerEntry, TableAction, TeacherStep

    session = at_the_tax_vote()
    seats = list(Seat.objects.filter(session=session, table__number=1, is_bot=False)
                 .order_by("position"))
    table = seats[0].table
    actions_before = list(TableAction.objects.filter(table=table).values_list("seq", flat=True))
    ledger_before = LedgerEntry.objects.filter(table=table).count()
    for seat in seats:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option=0, expected=session.stage_id)
    actions = list(TableAction.objects.filter(table=table).order_by("seq"))
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    count = next(a for a in actions[len(actions_before):] if a.payload["type"] == "count")
    assert count.payload["kind"] == "tax" and isinstance(count.payload, dict)
    assert count.created_at.tzinfo is not None and count.actor == TableAction.Actor.TEACHER
    assert count.step == TeacherStep.objects.filter(session=session).order_by("-seq").first()
    entries = list(LedgerEntry.objects.filter(table=table).order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    paid = entries[ledger_before:]
    assert paid and all(e.action_id is not None for e in paid)
    assert all(isinstance(e.details, dict) and e.amount > 0 for e in paid)
    table.refresh_from_db()
    assert isinstance(table.snapshot, dict) and load_state(table).round == session.round
    assert verify_table(table) == []
