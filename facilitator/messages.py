"""One dispatcher per audience, shared by the websocket consumers and the HTTP fallback.

A message is validated (pydantic, strict) before any service runs; a phone whose websocket is
blocked by the school network can still play through plain form posts to the same code.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, Literal

from django.utils.translation import gettext as _
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from facilitator import services
from facilitator.errors import ServiceError
from facilitator.lessons.base import Lesson
from facilitator.models import ClassSession

Id = Annotated[StrictStr, Field(max_length=64)] | StrictInt | None
Phase = Annotated[StrictStr, Field(max_length=40)] | None
Option = Annotated[StrictStr, Field(max_length=20)]


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: Id = None
    expected: Phase = None


class Ballot(Message):
    """A token for the bag of ``decision`` (or of the module's short ``kind`` for it).
    ``option``: the option's index (what phones send, so that every ballot's frame has the
    same length whatever the vote) or its name."""

    type: Literal["ballot"]
    decision: Annotated[StrictStr, Field(max_length=40)] | None = None
    kind: Annotated[StrictStr, Field(max_length=20)] | None = None
    option: Annotated[StrictInt, Field(ge=0, le=255)] | Option

    @model_validator(mode="after")
    def _names_its_vote(self) -> Ballot:
        if (self.decision is None) == (self.kind is None):
            raise ValueError("a ballot names its vote: its decision or its kind, not both")
        return self


class Refresh(Message):
    type: Literal["refresh"]


class Start(Message):
    type: Literal["start"]
    fill: Literal["bots", "pairs"] | None = None


class Simple(Message):
    type: Literal["next", "undo", "pause", "resume"]
    # "next" that counts a bag with tokens missing: the teacher answered "count anyway?"
    confirm: StrictBool = False


class Remove(Message):
    type: Literal["remove"]
    seat: StrictInt


class Timer(Message):
    type: Literal["timer"]
    action: Literal["toggle", "add"]


PLATFORM_SEAT = (Ballot, Refresh)
PLATFORM_TEACHER = (Start, Simple, Remove, Timer, Refresh)


@cache
def _adapter(models: tuple[type[BaseModel], ...]) -> TypeAdapter[Any]:
    union = models[0]
    for model in models[1:]:
        union = union | model  # type: ignore[assignment]
    return TypeAdapter(Annotated[union, Field(discriminator="type")])


def seat_messages(lesson: Lesson) -> TypeAdapter[Any]:
    """What a phone may send in a lesson of this module: the platform's and the module's."""
    return _adapter(PLATFORM_SEAT + tuple(lesson.seat_messages))


def teacher_messages(lesson: Lesson) -> TypeAdapter[Any]:
    return _adapter(PLATFORM_TEACHER + tuple(lesson.teacher_messages))


def describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"] if not isinstance(p, int)) or "message"
    return _("Bad message (%(where)s): %(problem)s") % {"where": where, "problem": first["msg"]}


def parse(adapter: TypeAdapter[Any], raw: Any) -> Any:
    try:
        return adapter.validate_python(raw)
    except ValidationError as exc:
        raise ServiceError("bad_message", describe(exc)) from None


def from_form(post: Any, lesson: Lesson) -> dict[str, Any]:
    """A form post as a message: the platform's numbers become numbers, an empty ``fill``
    null, a ticked ``confirm`` box true; then the lesson's own fields
    (``Lesson.form_message``)."""
    raw: dict[str, Any] = {k: v for k, v in post.items() if k != "csrfmiddlewaretoken"}
    if "confirm" in raw:
        raw["confirm"] = raw["confirm"] in ("1", "true", "on")
    for key in ("seat", "table", "option"):
        number_field(raw, key)
    if raw.get("fill") == "":
        raw["fill"] = None
    return lesson.form_message(raw)


def number_field(raw: dict[str, Any], key: str) -> None:
    """A form field that holds a whole number becomes one (anything else stays as typed, for
    the message's validation to refuse by name)."""
    # ASCII digits only: "²" is a digit to str.isdigit but not a number to int().
    if key in raw and re.fullmatch(r"-?[0-9]{1,9}", str(raw[key])):
        raw[key] = int(raw[key])


def _check_expected(session: ClassSession, expected: str | None) -> None:
    if expected is None:
        return
    if expected != ClassSession.objects.get(pk=session.pk).stage_id:
        raise ServiceError("stale", _("The lesson has already moved on; the screen has been "
                                      "updated."), status=409)


def seat_act(seat_id: int, lesson: Lesson, message: Any, token_hash: str | None = None
             ) -> dict[str, Any] | None:
    """A phone's action; ``token_hash`` is the token the phone holds (checked under the
    table's lock). Returns what the phone's ``ack`` should carry (a ballot's progress)."""
    expected = message.expected
    if isinstance(message, Ballot):
        progress = services.ballot_cast(seat_id=seat_id, decision=message.decision,
                                        kind=message.kind, option=message.option,
                                        expected=expected, token_hash=token_hash)
        return {"progress": progress} if progress else None
    if isinstance(message, Refresh):
        return None
    return lesson.seat_act(seat_id, message, token_hash)


def teacher_act(session: ClassSession, message: Any) -> None:
    expected = message.expected
    if isinstance(message, Start | Remove) or (isinstance(message, Simple)
                                               and message.type in ("pause", "resume")):
        # Every message carries the console's stage id: one from an earlier moment is stale.
        _check_expected(session, expected)
    if isinstance(message, Start):
        services.session_start(session=session, fill=message.fill)
    elif isinstance(message, Simple) and message.type == "next":
        services.session_advance(session=session, expected=expected, confirm=message.confirm)
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
    elif not isinstance(message, Refresh):
        session.lesson.teacher_act(session, message)
