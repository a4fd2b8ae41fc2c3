"""Joining the lobby, the teacher removing a student, and the one-time "New phone" link."""

from __future__ import annotations

import unicodedata

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from facilitator import broadcast, clock
from facilitator.errors import ServiceError
from facilitator.models import ClassSession, Seat, Table
from facilitator.services.sessions import last_step, locked_session
from facilitator.services.settle import table_settle
from facilitator.services.tokens import JOIN_CODE_LENGTH, hash_token, new_seat_token, normalise_code

Status = ClassSession.Status

NICKNAME_MAX = 20


# Characters that draw nothing although Unicode files them as letters or symbols (the Hangul
# fillers, the blank Braille cell): a name made of them looks empty, and one hidden in "Ana"
# makes a second "Ana" on the projector. No real nickname needs them.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


# A name must show at least one of these: letters, numbers, punctuation, symbols. Marks
# (accents, variation selectors, joiners) draw only on a character before them.
VISIBLE_CATEGORIES = ("L", "N", "P", "S")


def clean_nickname(raw: str) -> str:
    """Trimmed, inner spaces collapsed; 1–20 characters with at least one visible one; no
    control, format or blank-looking characters."""
    name = unicodedata.normalize("NFC", " ".join((raw or "").split()))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn") for ch in name):
        raise ServiceError("bad_nickname", _("Use letters, numbers and spaces in your nickname."))
    if not name:
        raise ServiceError("bad_nickname", _("Please type a nickname."))
    if not any(unicodedata.category(ch)[0] in VISIBLE_CATEGORIES and ch not in BLANK_LOOKING
               for ch in name):
        # A name of Hangul fillers (U+3164) or of marks alone would show as a blank.
        raise ServiceError("bad_nickname", _("Your nickname needs at least one letter, number "
                                             "or symbol that people can see."))
    if any(ch in BLANK_LOOKING for ch in name):
        raise ServiceError("bad_nickname", _("Use letters, numbers and spaces in your nickname."))
    if len(name) > NICKNAME_MAX:
        raise ServiceError("bad_nickname", _("Your nickname can have at most %(n)d characters.")
                           % {"n": NICKNAME_MAX})
    return name


def session_by_code(code: str) -> ClassSession:
    code = normalise_code(code)
    # The open session holding the code wins: a finished session may share it (codes are
    # reused), even one created in the same instant.
    session = (ClassSession.objects.filter(join_code=code, status__in=ClassSession.OPEN_STATUSES)
               .first()
               or ClassSession.objects.filter(join_code=code).order_by("-created_at").first())
    if session is None or len(code) != JOIN_CODE_LENGTH:
        raise ServiceError("wrong_code", _("There is no lesson with that code. Check the code "
                                           "on the board and try again."), status=404)
    if not session.is_open:
        raise ServiceError("closed_code", _("That lesson has ended."), status=410)
    return session


@transaction.atomic
def seat_join(*, code: str, nickname: str) -> tuple[Seat, str]:
    """A student joins the lobby; returns the seat and its token (for the phone's cookie)."""
    session = session_by_code(code)
    name = clean_nickname(nickname)
    # Under the session's lock: no join slips in while the teacher starts the lesson (it
    # would leave a seat with no table in a running lesson).
    session = locked_session(session)
    if session.status != Status.LOBBY:
        raise ServiceError("already_started", _("This lesson has already started. Ask your "
                                                "teacher to give you a seat."), status=409)
    # Compared case-insensitively in Python too: SQLite's iexact/LOWER() fold ASCII only
    # ("ÉMILE" and "émile" are the same nickname).
    taken = {n.casefold() for n in session.seats.filter(removed=False)
             .values_list("nickname", flat=True)}
    # The class size caps the lobby. It holds students only (bots come at Start, removed
    # students are deleted), counted under the session lock.
    if len(taken) >= session.class_size:
        raise ServiceError("lesson_full", _("This lesson is full: all %(n)d places are taken. "
                                            "Ask your teacher.") % {"n": session.class_size},
                           status=409)
    if name.casefold() in taken:
        raise ServiceError("nickname_taken", _("Someone is already called %(name)s. Please "
                                               "choose another nickname.") % {"name": name},
                           status=409)
    token, token_hash = new_seat_token()
    try:
        with transaction.atomic():
            seat = Seat.objects.create(session=session, nickname=name, token_hash=token_hash,
                                       joined_at=clock.now())
    except IntegrityError:
        raise ServiceError("nickname_taken", _("Someone is already called %(name)s. Please "
                                               "choose another nickname.") % {"name": name},
                           status=409) from None
    broadcast.refresh(session.pk)
    return seat, token


@transaction.atomic
def seat_remove(*, session: ClassSession, seat: Seat) -> None:
    """The teacher removes a student: gone from the lobby, or abstaining from now on."""
    session = locked_session(session)
    _check_owned(session, seat)
    if seat.is_bot:
        raise ServiceError("is_bot", _("Bots cannot be removed."))
    if session.status not in ClassSession.OPEN_STATUSES:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    seat_id = seat.pk
    if session.status == Status.LOBBY:
        seat.delete()
    else:
        Seat.objects.filter(pk=seat_id).update(removed=True, token_hash=None, claim_hash=None)
        # The seat abstains from now on: if everyone else is already in the bag, it is
        # counted now.
        table = Table.objects.select_for_update().filter(pk=seat.table_id).first()
        if table is not None:
            table_settle(table, session, last_step(session))
    broadcast.seat_removed(seat_id)
    broadcast.refresh(session.pk)


@transaction.atomic
def seat_reseat(*, session: ClassSession, seat: Seat) -> str:
    """The token of a one-time "New phone" link for a seat (any earlier link stops working).

    The seat's phone keeps the seat until the link is used (``seat_claim``): a link made by
    mistake changes nothing.
    """
    session = locked_session(session)
    _check_owned(session, seat)
    if seat.is_bot or seat.removed:
        raise ServiceError("cannot_reseat", _("That seat cannot be given to a phone."))
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    token, claim_hash = new_seat_token()
    Seat.objects.filter(pk=seat.pk).update(claim_hash=claim_hash)
    return token


@transaction.atomic
def seat_claim(*, token: str) -> tuple[Seat, str]:
    """A new phone uses a "New phone" link: it gets the seat with a fresh seat token (for its
    cookie), the link stops working, and the seat's earlier phone is signed out.

    The link is not the seat token: only the phone that uses it first gets the seat.
    """
    used = ServiceError("claim_used", _("This link has already been used, or it has "
                                        "expired. Each link works once: ask your teacher for "
                                        "a new one."), status=410)
    if not token or len(token) > 200:
        raise used
    claim_hash = hash_token(token)
    seat = Seat.objects.select_related("session").filter(claim_hash=claim_hash,
                                                         removed=False).first()
    if seat is None or not seat.session.is_open:
        raise used
    new_token, token_hash = new_seat_token()
    # The claim is the update itself: of two phones using the link at once, one matches.
    if not Seat.objects.filter(pk=seat.pk, claim_hash=claim_hash, removed=False).update(
            token_hash=token_hash, claim_hash=None):
        raise used
    seat.token_hash, seat.claim_hash = token_hash, None
    broadcast.seat_removed(seat.pk)  # the earlier phone's socket is told and closed
    return seat, new_token


def _check_owned(session: ClassSession, seat: Seat) -> None:
    if seat.session_id != session.pk:
        raise ServiceError("not_found", _("That student is not in this lesson."), status=404)


