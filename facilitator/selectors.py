"""Selectors read: what each audience may see, built from the database. Secrecy lives here.

- ``projector_view``: the projector and the teacher's console. Public game data only (the
  engine's ``view`` for the ``"public"`` audience), nicknames, connection and voting
  *progress* (how many, never who).
- ``seat_view``: one phone: the engine's view for its party (the seat's player: a student, or
  the team a student plays in); a student on a partner's phone gets the public view.
Nothing here can read a vote: an open bag holds receipts and sealed ballots only.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from facilitator import kept_reads, parties, presence, privacy
from facilitator.countdown import stage_countdown
from facilitator.errors import ServiceError
from facilitator.kept_reads import TableReads
from facilitator.log import engine_of, load_view_state
from facilitator.main_button import next_button
from facilitator.models import ClassSession, Seat, Table
from facilitator.services import hash_token, timer_left
from facilitator.table_reads import read_seat, read_seat_by_token, read_tables
from games.core import PUBLIC


def teacher_sessions(user: AbstractBaseUser) -> QuerySet[ClassSession]:
    return ClassSession.objects.filter(owner=user).order_by("-created_at")


def session_for_teacher(user: AbstractBaseUser, session_id: Any) -> ClassSession:
    """The session if ``user`` owns it; otherwise 'not found' (never 'forbidden': no hints)."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in first."), status=403)
    session = ClassSession.objects.filter(pk=session_id, owner=user).first() \
        if str(session_id).isdigit() else None
    if session is None:
        raise ServiceError("not_found", _("There is no such lesson."), status=404)
    return session


def seat_for_token(token: str | None) -> Seat | None:
    if not token or len(token) > 200:
        return None
    return read_seat_by_token(hash_token(token))


def seat_for_claim(token: str | None) -> Seat | None:
    """The seat an unused "New phone" link is for, in an open lesson; else None."""
    if not token or len(token) > 200:
        return None
    seat = (Seat.objects.select_related("session")
            .filter(claim_hash=hash_token(token), removed=False).first())
    return seat if seat is not None and seat.session.is_open else None


def session_info(session: ClassSession) -> dict[str, Any]:
    return {
        "id": session.pk, "title": str(session), "game": session.game,
        "language": session.language, "status": session.status, "stage": session.stage,
        "round": session.round, "paused": session.paused, "stage_id": session.stage_id,
        "join_code": session.join_code if session.is_open else None,
        "undone": session.undone, "set_aside": session.set_aside,
        **session.lesson.session_info(session),
        **dict(zip(("timer_left", "timer_running"), timer_left(session.timer), strict=True)),
        "countdown": stage_countdown(session),
    }


def _roster(seats: list[Seat], here: set[int]) -> list[dict[str, Any]]:
    """A table's seats for the screens; ``here``: the seats online."""
    partners = {s.shares_id: s.nickname for s in seats if s.shares_id}
    return [{"seat": s.pk, "name": s.player_name, "nickname": s.nickname, "bot": s.is_bot,
             "removed": s.removed, "connected": s.pk in here or s.is_bot,
             "partner": partners.get(s.pk)}
            for s in seats if s.shares_id is None]


def table_public(table: Table, state: Any = None, reads: TableReads | None = None
                 ) -> dict[str, Any]:
    """One table for the projector; ``reads``: its seats, presence and open bag, if read."""
    if reads is None:
        reads = read_tables(table=table)
    if state is None:
        state = load_view_state(table, reads.voter_names(table))
    return {**table.session.lesson.table_info(table, state), "number": table.number,
            "seats": _roster(reads.roster_seats(table), reads.online),
            "game": engine_of(table).view(state, PUBLIC), **reads.bag_info(table)}


def projector_view(session: ClassSession) -> dict[str, Any]:
    view: dict[str, Any] = {"session": session_info(session)}
    if session.status == ClassSession.Status.LOBBY:
        seats = list(session.seats.filter(removed=False).order_by("joined_at"))
        here = presence.online(s.pk for s in seats)
        view["lobby"] = [{"seat": s.pk, "nickname": s.nickname, "connected": s.pk in here}
                         for s in seats]
    reads = read_tables(session=session)  # every table's reads in four statements
    view["tables"] = [table_public(t, reads=reads) for t in reads.tables]
    view["next"] = next_button(session)  # the main button: what "next" does from here
    return view


def held_seat_view(seat: Seat, token_hash: str) -> dict[str, Any] | None:
    """A socket's phone view, or ``None`` if its token (``token_hash``) no longer holds the
    seat: the seat was removed, or given to a new phone (its token changed)."""
    fresh = read_seat(seat.pk)
    if fresh is None or fresh.removed or fresh.token_hash != token_hash:
        return None
    return _seat_view(fresh)


def seat_view(seat: Seat) -> dict[str, Any]:
    fresh = read_seat(seat.pk)
    if fresh is None:
        raise Seat.DoesNotExist(seat.pk)
    return _seat_view(fresh)


def _seat_view(seat: Seat) -> dict[str, Any]:
    session = seat.session
    view: dict[str, Any] = {"session": session_info(session),
                            "seat": {"id": seat.pk, "nickname": seat.nickname, "table": None,
                                     "shares_with": seat.shares.nickname if seat.shares else None}}
    playing = seat.shares or seat
    if playing.table_id is None:
        return view
    table = playing.table
    assert table is not None
    # Its seats, presence and open bag (four statements), and its state: read once for the
    # phones rendered together (``phone_screens``).
    reads = kept_reads.kept(table.pk) or read_tables(table=table)
    state = kept_reads.remembered(("view_state", table.pk),
                                   lambda: load_view_state(table, reads.voter_names(table)))
    engine = engine_of(table)
    view["seat"]["table"] = table.number
    seats = reads.roster_seats(table)  # read once: the roster and the team
    view["table"] = {"number": table.number, "seats": _roster(seats, reads.online),
                     **reads.bag_info(table)}
    if seat.shares_id is None:
        open_bag = reads.open_bags.get(table.pk)
        view["table"]["secrecy"] = privacy.ballot_secrecy(
            open_bag.bag if open_bag is not None else None, seats, seat)
    team = parties.members(seats, seat.player_name) if seat.shares_id is None else []
    if len(team) > 1:  # a team: its members, its captain this round, and who acts now
        captain = parties.captain(team, session.round)
        now = parties.acting(team, session.round, reads.online)
        view["seat"]["party"] = {"name": seat.player_name,
                                 "members": [m.nickname for m in team],
                                 "captain": captain.nickname if captain else None,
                                 "acting": now.nickname if now is not None and now != captain
                                 else None,
                                 "is_captain": now == seat}
    if seat.shares_id is None:
        view["game"] = engine.view(state, session.lesson.engine_audience(seat))
        extra = session.lesson.seat_info(session, seat, table, view["game"]["legal_actions"])
        view["can"] = extra.pop("can", {})
        view["seat"].update(extra)
    else:
        view["game"] = engine.view(state, PUBLIC)
    return view
