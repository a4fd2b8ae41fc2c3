"""What the screens read of a lesson's tables, each kind in one fixed statement.

A projector's view read every table's seats, presence, open bag and voters with a handful of
ORM queries per table (18 for four tables; building them was most of the view's CPU,
docs/performance.md). ``TableReads`` reads them for the whole lesson (or one table) at once:
the tables with their snapshots, their seats, which seats are online, and each open bag with
the seats whose token is in it. Read-only, for the selectors; it never sees a sealed ballot.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection

from facilitator import bags, presence
from facilitator.clock import now
from facilitator.models import Bag, BallotReceipt, ClassSession, Presence, Seat, Table
from facilitator.rows import Rows

TABLE = Rows(Table)
SEAT = Rows(Seat)
OPEN = Bag.Status.OPEN.value


@dataclass
class OpenBag:
    decision: str
    reopened: str
    generation: str
    voters: list[tuple[int, str]] = field(default_factory=list)  # (seat id, player), by seat


@dataclass
class TableReads:
    """One lesson's tables (or one table) and what the screens need of each."""

    tables: list[Table]
    seats: dict[int, list[Seat]]  # by table id, in seat order
    online: set[int]
    open_bags: dict[int, OpenBag]  # by table id

    def roster_seats(self, table: Table) -> list[Seat]:
        return self.seats.get(table.pk, [])

    def voter_names(self, table: Table) -> dict[str, list[str]]:
        """The open bag's voters by decision (as ``log._bag_voters`` gives them)."""
        bag = self.open_bags.get(table.pk)
        if bag is None or not bag.voters:
            return {}
        return {bag.decision: [name for _seat, name in bag.voters]}

    def bag_info(self, table: Table) -> dict[str, str]:
        bag = self.open_bags.get(table.pk)
        return {"reopened": "", "bag": ""} if bag is None else {
            "reopened": bag.reopened, "bag": bag.generation}


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
        seats: dict[int, list[Seat]] = defaultdict(list)
        by_id = {t.pk: t for t in tables}
        for row in cursor.fetchall():
            seat = SEAT.load(row)
            seat.table = by_id[seat.table_id]
            seats[seat.table_id].append(seat)
        for group in seats.values():
            group.sort(key=lambda s: (s.position or 0, s.joined_at, s.pk))
        cursor.execute(f"SELECT p.seat_id FROM {Presence._meta.db_table} p "
                       f"JOIN {SEAT.table} x ON x.id = p.seat_id "
                       f"JOIN {TABLE.table} t ON t.id = x.table_id "
                       f"WHERE {where} AND p.sockets > 0 AND p.seen_at >= %s",
                       [key, _seen_since()])
        online = {row[0] for row in cursor.fetchall()}
        cursor.execute(f"SELECT b.table_id, b.decision, b.reopened, b.key_ref, r.seat_id, "
                       f"v.player_name, v.position "
                       f"FROM {Bag._meta.db_table} b JOIN {TABLE.table} t ON t.id = b.table_id "
                       f"LEFT JOIN {BallotReceipt._meta.db_table} r ON r.bag_id = b.id "
                       f"LEFT JOIN {SEAT.table} v ON v.id = r.seat_id "
                       f"WHERE {where} AND b.status = %s", [key, OPEN])
        open_bags: dict[int, OpenBag] = {}
        order: dict[int, int] = {}
        for table_id, decision, reopened, key_ref, seat_id, name, position in cursor.fetchall():
            bag = open_bags.get(table_id)
            if bag is None:
                bag = open_bags[table_id] = OpenBag(decision, reopened,
                                                    bags.generation_of(key_ref))
            if seat_id is not None:
                bag.voters.append((seat_id, name))
                order[seat_id] = position or 0
    for bag in open_bags.values():  # listed by seat, never in the order of casting
        bag.voters.sort(key=lambda v: (order[v[0]], v[0]))
    return TableReads(tables, dict(seats), online, open_bags)


def _seen_since() -> datetime:
    return now() - presence.EXPIRY
