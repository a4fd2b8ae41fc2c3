"""A student's action starts here: their table locked, the lesson's state checked."""

from __future__ import annotations

from django.utils.translation import gettext as _

from facilitator import parties
from facilitator.errors import ServiceError
from facilitator.models import ClassSession, Seat, Table

Status = ClassSession.Status


def table_seats(table: Table) -> list[Seat]:
    """The table's seats, read once per service call (they do not change within one)."""
    return sorted(table.seats.all(), key=lambda s: s.position or 0)


def seat_turn(seat_id: int, expected: str | None, token_hash: str | None = None, *,
              captain_only: bool = False) -> tuple[Seat, Table, ClassSession, list[Seat]]:
    """Lock the seat's table; read the session, and the table's seats as they are now.

    ``captain_only``: the action is a party's move, which only its captain this round makes
    (``facilitator.parties``; a party of one is always its own captain).

    Two statements (performance, docs/performance.md): the table is locked together with its
    session (``FOR UPDATE OF`` the table only), then its seats are read under that lock (the
    acting seat among them). A ``token_hash`` (a socket's) must still be the seat's: a seat
    removed or given to another phone no longer answers to the old one.
    """
    table = (Table.objects.select_for_update(of=("self",)).select_related("session")
             .filter(seats__pk=seat_id, seats__shares__isnull=True).first())
    seats = table_seats(table) if table is not None else []
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


