"""A student's action starts here: their table locked, the lesson's state checked."""

from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext as _

from facilitator import kept_reads, parties
from facilitator.errors import ServiceError
from facilitator.models import ClassSession, Seat, Table
from facilitator.rows import Rows
from facilitator.table_reads import SEAT, SESSION, read_seats

Status = ClassSession.Status

# A student's action reads the table without its snapshot and config (deferred: loaded by the
# few actions that reach the engine), with its session, and the table's seats: fixed SQL.
TABLE = Rows(Table, ["id", "session", "number", "seed"])
_TABLE_SQL: dict[str, str] = {}


def _table_sql() -> str:
    """The seat's table and its session, the table locked (``FOR UPDATE OF`` the table only,
    where the database has it; SQLite's writers are serialised by its IMMEDIATE
    transactions)."""
    sql = _TABLE_SQL.get(connection.vendor)
    if sql is None:
        lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
        sql = (f"SELECT {TABLE.columns('t')}, {SESSION.columns('s')} "
               f"FROM {TABLE.table} t JOIN {SESSION.table} s ON s.id = t.session_id "
               f"WHERE t.id = (SELECT table_id FROM {SEAT.table} "
               f"WHERE id = %s AND shares_id IS NULL){lock}")
        _TABLE_SQL[connection.vendor] = sql
    return sql


def _locked_table(seat_id: int) -> Table | None:
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(), [seat_id])
        row = cursor.fetchone()
    if row is None:
        return None
    table = TABLE.load(row[:len(TABLE)])
    table.session = SESSION.load(row[len(TABLE):])
    return table


def table_seats(table: Table) -> list[Seat]:
    """The table's seats, read once per service call (they do not change within one); on a
    screen being rendered, those it has read already (``table_reads``)."""
    reads = kept_reads.kept(table.pk)
    if reads is not None:
        return list(reads.roster_seats(table))
    return sorted(table.seats.all(), key=lambda s: s.position or 0)


def seat_turn(seat_id: int, expected: str | None, token_hash: str | None = None, *,
              captain_only: bool = False) -> tuple[Seat, Table, ClassSession, list[Seat]]:
    """Lock the seat's table; read the session, and the table's seats as they are now.

    ``captain_only``: the action is a party's move, which only its captain this round makes
    (``facilitator.parties``; a party of one is always its own captain).

    Two fixed statements (performance, docs/performance.md): the table is locked together with
    its session, then its seats are read under that lock (the acting seat among them). A
    ``token_hash`` (a socket's) must still be the seat's: a seat removed or given to another
    phone no longer answers to the old one.
    """
    table = _locked_table(seat_id)
    seats = read_seats(table) if table is not None else []
    seat = next((s for s in seats if s.pk == seat_id), None)
    if seat is None:  # not at that table (any more): read it only to say why
        seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None or seat.removed or (token_hash is not None
                                        and seat.token_hash != token_hash):
        raise ServiceError("removed", _("You are no longer in this lesson."), status=403)
    if table is None or seat.table_id != table.pk or seat.shares_id is not None:
        raise ServiceError("no_table", _("You do not have a seat at a table yet."), status=409)
    session = table.session
    if session.status != Status.RUNNING:
        raise ServiceError("read_only", _("This lesson is over."), status=409)
    if session.paused:
        raise ServiceError("paused", _("Your teacher has paused the game. Wait a moment."),
                           status=409)
    if expected is not None and expected != session.stage_id:
        raise ServiceError("stale", _("That moment of the game is over; your screen has been "
                                      "updated."), status=409)
    if captain_only and not parties.is_captain(seat, seats, session.round):
        raise ServiceError("not_captain", _("Your team's captain makes this move this round."),
                           status=403)
    return seat, table, session, seats


