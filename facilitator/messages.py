"""One dispatcher per audience, shared by the websocket consumers and the HTTP fallback.

A message is validated (pydantic, strict) before any service runs; a phone whose websocket is
blocked by the school network can still play through plain form posts to the same code.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from django.utils.translation import gettext as _
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from facilitator import services
from facilitator.errors import ServiceError
from facilitator.models import ClassSession

Id = Annotated[StrictStr, Field(max_length=64)] | StrictInt | None
Phase = Annotated[StrictStr, Field(max_length=40)] | None
Option = Annotated[StrictStr, Field(max_length=20)]


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: Id = None
    expected: Phase = None


class Pact(Message):
    type: Literal["pact"]
    coins: Annotated[StrictInt, Field(ge=0, le=3)]


class Ballot(Message):
    """``option``: the option's index (what phones send, so that every ballot's frame has the
    same length whatever the vote) or its name."""

    type: Literal["ballot"]
    kind: Literal["tax", "budget"]
    option: Annotated[StrictInt, Field(ge=0, le=9)] | Option


class SeatTieBreak(Message):
    type: Literal["tie_break"]
    choice: Option | None


class Refresh(Message):
    type: Literal["refresh"]


class Start(Message):
    type: Literal["start"]
    fill: Literal["bots", "pairs"] | None = None


class Simple(Message):
    type: Literal["next", "undo", "pause", "resume"]


class Remove(Message):
    type: Literal["remove"]
    seat: StrictInt


class Timer(Message):
    type: Literal["timer"]
    action: Literal["toggle", "add"]


class TeacherTieBreak(Message):
    type: Literal["tie_break"]
    table: Annotated[StrictInt, Field(ge=1)]
    choice: Option | None


SEAT_MESSAGES: TypeAdapter[Any] = TypeAdapter(
    Annotated[Pact | Ballot | SeatTieBreak | Refresh, Field(discriminator="type")])
TEACHER_MESSAGES: TypeAdapter[Any] = TypeAdapter(
    Annotated[Start | Simple | Remove | TeacherTieBreak | Timer | Refresh,
              Field(discriminator="type")])


def describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"] if not isinstance(p, int)) or "message"
    return _("Bad message (%(where)s): %(problem)s") % {"where": where, "problem": first["msg"]}


def parse(adapter: TypeAdapter[Any], raw: Any) -> Any:
    try:
        return adapter.validate_python(raw)
    except ValidationError as exc:
        raise ServiceError("bad_message", describe(exc)) from None


def from_form(post: Any) -> dict[str, Any]:
    """A form post as a message: numbers become numbers, "pass" becomes null."""
    raw: dict[str, Any] = {k: v for k, v in post.items() if k != "csrfmiddlewaretoken"}
    for key in ("coins", "seat", "table", "option"):
        # ASCII digits only: "²" is a digit to str.isdigit but not a number to int().
        if key in raw and re.fullmatch(r"-?[0-9]{1,9}", str(raw[key])):
            raw[key] = int(raw[key])
    if raw.get("choice") == "pass":
        raw["choice"] = None
    if raw.get("fill") == "":
        raw["fill"] = None
    return raw


def _check_expected(session: ClassSession, expected: str | None) -> None:
    if expected is None:
        return
    if expected != ClassSession.objects.get(pk=session.pk).phase_id:
        raise ServiceError("stale", _("The lesson has already moved on; the screen has been "
                                      "updated."), status=409)


def seat_act(seat_id: int, message: Any, token_hash: str | None = None
             ) -> dict[str, Any] | None:
    """A phone's action; ``token_hash`` is the token the phone holds (checked under the
    table's lock). Returns what the phone's ``ack`` should carry (a ballot's progress)."""
    expected = message.expected
    if isinstance(message, Pact):
        services.pact_submit(seat_id=seat_id, coins=message.coins, expected=expected,
                             token_hash=token_hash)
    elif isinstance(message, Ballot):
        progress = services.ballot_cast(seat_id=seat_id, kind=message.kind,
                                        option=message.option, expected=expected,
                                        token_hash=token_hash)
        return {"progress": progress} if progress else None
    elif isinstance(message, SeatTieBreak):
        # Fix: pass the phone's phase id on: it was dropped here, so a tie-break sent from a
        # screen of an earlier moment (a resend after a reconnect) was not refused as stale.
        services.tie_break_submit(seat_id=seat_id, choice=message.choice, expected=expected,
                                  token_hash=token_hash)
    return None


def teacher_act(session: ClassSession, message: Any) -> None:
    expected = message.expected
    if isinstance(message, Start | Remove) or (isinstance(message, Simple)
                                               and message.type in ("pause", "resume")):
        # Fix: these accepted a phase id and ignored it (a console showing an earlier moment
        # could still pause or remove); like every other message, a stale one is refused.
        _check_expected(session, expected)
    if isinstance(message, Start):
        services.session_start(session=session, fill=message.fill)
    elif isinstance(message, Simple) and message.type == "next":
        services.session_advance(session=session, expected=expected)
    elif isinstance(message, Simple) and message.type == "undo":
        services.session_undo(session=session, expected=expected)
    elif isinstance(message, Simple):
        services.session_pause(session=session, paused=message.type == "pause")
    elif isinstance(message, Remove):
        seat = session.seats.filter(pk=message.seat).first()
        if seat is None:
            raise ServiceError("not_found", _("That student is not in this lesson."),
                               status=404)
        services.seat_remove(session=session, seat=seat)
    elif isinstance(message, Timer):
        services.timer_change(session=session, action=message.action, expected=expected)
    elif isinstance(message, TeacherTieBreak):
        services.tie_break_submit(session=session, table_number=message.table,
                                  choice=message.choice, expected=expected)
