"""What the screens read of a lesson's tables, each kind in one fixed statement.

A projector's view read every table's seats, presence, open bag and voters with a handful of
ORM queries per table (18 for four tables; building them was most of the view's CPU,
docs/performance.md). ``TableReads`` reads them for the whole lesson (or one table) at once:
the tables with their snapshots, their seats, which seats are online, and each open bag with
the seats whose token is in it. Read-only, for the selectors; it never sees a sealed ballot.

Within ``kept_reads.screen_reads()`` (one screen being rendered, which writes nothing) those
reads are kept (``kept_reads.keep``): ``table_seats``, ``bags.open_bag``, ``bags.voter_ids`` and
``presence.online`` answer from them. Outside it every call reads the database, as services
must.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db import connection

from facilitator import bags, presence
from facilitator.clock import now
from facilitator.kept_reads import OpenBag, TableReads, keep
from facilitator.models import Bag, BallotReceipt, ClassSession, Presence, Seat, Table
from facilitator.rows import Rows

TABLE = Rows(Table)
SEAT = Rows(Seat)
SESSION = Rows(ClassSession)
BAG = bags.BAG
OPEN = Bag.Status.OPEN.value
_BAG_TABLE = BAG.attnames.index("table_id")


_SEAT_SQL = (f"SELECT {SEAT.columns('x')}, {SESSION.columns('s')}, {TABLE.columns('t')} "
             f"FROM {SEAT.table} x JOIN {SESSION.table} s ON s.id = x.session_id "
             f"LEFT JOIN {TABLE.table} t ON t.id = x.table_id WHERE ")


def read_seat(seat_id: int) -> Seat | None:
    """A seat with its session and its table (if it has one): one fixed statement."""
    return _seat_where("x.id = %s", seat_id)


def read_seat_by_token(token_hash: str) -> Seat | None:
    """The seat (not removed) that this token's hash holds, read as ``read_seat``."""
    return _seat_where("x.token_hash = %s AND NOT x.removed", token_hash)


def _seat_where(where: str, key: Any) -> Seat | None:
    with connection.cursor() as cursor:
        cursor.execute(_SEAT_SQL + where, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    seat = SEAT.load(row[:len(SEAT)])
    seat.session = SESSION.load(row[len(SEAT):len(SEAT) + len(SESSION)])
    if seat.table_id is not None:
        table = TABLE.load(row[len(SEAT) + len(SESSION):])
        table.session = seat.session
        seat.table = table
    return seat


def seat_order(seat: Seat) -> tuple[Any, ...]:
    """A table's seats in seat order, as ``table.seats.all()`` sorted by position gives them
    (the model's order, the time of joining, breaks ties)."""
    return (seat.position or 0, seat.joined_at, seat.pk)


def seats_from(rows: list[tuple[Any, ...]], tables: dict[int, Table]) -> dict[int, list[Seat]]:
    """Rows of ``SEAT.columns`` as each table's seats in seat order, every seat holding its
    table (and the table's session, where it was read with the table)."""
    seats: dict[int, list[Seat]] = defaultdict(list)
    for row in rows:
        seat = SEAT.load(row)
        table = tables[seat.table_id]
        seat.table = table
        if seat.session_id == table.session_id and "session" in table._state.fields_cache:
            seat.session = table.session
        seats[seat.table_id].append(seat)
    for group in seats.values():
        group.sort(key=seat_order)
    return dict(seats)


def read_seats(table: Table) -> list[Seat]:
    """The table's seats in seat order: one fixed statement."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {SEAT.columns('x')} FROM {SEAT.table} x WHERE x.table_id = %s",
                       [table.pk])
        return seats_from(cursor.fetchall(), {table.pk: table}).get(table.pk, [])


def _where(session: ClassSession | None, table: Table | None) -> tuple[str, int]:
    if table is not None:
        return "t.id = %s", table.pk
    assert session is not None
    return "t.session_id = %s", session.pk


def read_tables(*, session: ClassSession | None = None, table: Table | None = None
                ) -> TableReads:
    """Every table of ``session`` in number order (or only ``table``), in four statements."""
    where, key = _where(session, table)
    with connection.cursor() as cursor:
        if table is None:
            cursor.execute(f"SELECT {TABLE.columns('t')} FROM {TABLE.table} t WHERE {where} "
                           "ORDER BY t.number", [key])
            tables = [TABLE.load(row) for row in cursor.fetchall()]
            for t in tables:
                t.session = session  # type: ignore[assignment]
        else:
            tables = [table]
        cursor.execute(f"SELECT {SEAT.columns('x')} FROM {SEAT.table} x "
                       f"JOIN {TABLE.table} t ON t.id = x.table_id WHERE {where}", [key])
        by_id = {t.pk: t for t in tables}
        seats = seats_from(cursor.fetchall(), by_id)
        cursor.execute(f"SELECT p.seat_id FROM {Presence._meta.db_table} p "
                       f"JOIN {SEAT.table} x ON x.id = p.seat_id "
                       f"JOIN {TABLE.table} t ON t.id = x.table_id "
                       f"WHERE {where} AND p.sockets > 0 AND p.seen_at >= %s",
                       [key, _seen_since()])
        online = {row[0] for row in cursor.fetchall()}
        cursor.execute(f"SELECT {BAG.columns('b')}, r.seat_id, v.player_name, v.position "
                       f"FROM {Bag._meta.db_table} b JOIN {TABLE.table} t ON t.id = b.table_id "
                       f"LEFT JOIN {BallotReceipt._meta.db_table} r ON r.bag_id = b.id "
                       f"LEFT JOIN {SEAT.table} v ON v.id = r.seat_id "
                       f"WHERE {where} AND b.status = %s", [key, OPEN])
        open_bags: dict[int, OpenBag] = {}
        order: dict[int, int] = {}
        for row in cursor.fetchall():
            seat_id, name, position = row[len(BAG):]
            bag = open_bags.get(row[_BAG_TABLE])
            if bag is None:
                found = BAG.load(row[:len(BAG)])
                found.table = by_id[found.table_id]
                bag = open_bags[found.table_id] = OpenBag(found, bags.generation(found))
            if seat_id is not None:
                bag.voters.append((seat_id, name))
                order[seat_id] = position or 0
    for bag in open_bags.values():  # listed by seat, never in the order of casting
        bag.voters.sort(key=lambda v: (order[v[0]], v[0]))
    reads = TableReads(tables, seats, online, open_bags)
    keep(reads)
    return reads


def _seen_since() -> datetime:
    return now() - presence.EXPIRY
