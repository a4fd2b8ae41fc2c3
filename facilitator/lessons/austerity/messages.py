"""What a phone and the teacher's console may send in an Austerity lesson beyond the
platform's own messages (``facilitator.messages``).

Phone: ``decide`` (the minister's answer), ``motion_raise`` (``kind``, ``target``),
``motion_support`` (``motion``: its id, e.g. ``"y3.motion2"``).
Teacher: ``decide`` (``table``, ``decision``, ``choice``: the console answers), ``mode``
(``kind``, ``mode``, ``table`` or ``"all"``), ``timer_set`` (``kind``, ``seconds``),
``motion_open`` (``table``, ``motion``), ``ballot_close`` (``table``), ``expire``
(``table``: its timer reached zero), ``end_now``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictInt, StrictStr

from facilitator.kit import Message
from facilitator.lessons.austerity import motions, services
from facilitator.models import ClassSession

DecisionId = Annotated[StrictStr, Field(max_length=40)]
Choice = Annotated[StrictStr, Field(max_length=60)]
TableNumber = Annotated[StrictInt, Field(ge=1)]
Seconds = Annotated[StrictInt, Field(ge=0, le=9999)] | Annotated[
    StrictStr, Field(pattern=r"^[0-9]{1,4}$")]


class Decide(Message):
    type: Literal["decide"]
    decision: DecisionId
    choice: Choice


class RaiseMotion(Message):
    """``kind`` may be left out: every target names one kind (``motions.kind_of``)."""

    type: Literal["motion_raise"]
    kind: Annotated[StrictStr, Field(max_length=12)] | None = None
    target: Choice


class SupportMotion(Message):
    type: Literal["motion_support"]
    motion: DecisionId


class TeacherDecide(Message):
    type: Literal["decide"]
    table: TableNumber
    decision: DecisionId
    choice: Choice


class SwitchMode(Message):
    type: Literal["mode"]
    kind: Annotated[StrictStr, Field(max_length=12)]
    mode: Annotated[StrictStr, Field(max_length=12)]
    table: TableNumber | Literal["all"] = "all"


class SetTimer(Message):
    type: Literal["timer_set"]
    kind: Annotated[StrictStr, Field(max_length=12)]
    seconds: Seconds


class OpenMotion(Message):
    type: Literal["motion_open"]
    table: TableNumber
    motion: DecisionId


class CloseBallot(Message):
    type: Literal["ballot_close"]
    table: TableNumber
    confirm: StrictBool = False  # the teacher answered "count anyway?"


class Expire(Message):
    type: Literal["expire"]
    table: TableNumber


class EndNow(Message):
    type: Literal["end_now"]
    confirm: StrictBool = False  # the teacher answered "End the lesson for every table?"


SEAT = (Decide, RaiseMotion, SupportMotion)
TEACHER = (TeacherDecide, SwitchMode, SetTimer, OpenMotion, CloseBallot, Expire, EndNow)


def seat_act(seat_id: int, message: Any, token_hash: str | None) -> Any:
    expected = message.expected
    if isinstance(message, Decide):
        services.decide(seat_id=seat_id, decision=message.decision, choice=message.choice,
                        expected=expected, token_hash=token_hash)
    elif isinstance(message, RaiseMotion):
        kind = message.kind or motions.kind_of(message.target)
        motions.motion_raise(seat_id=seat_id, kind=kind, target=message.target,
                             expected=expected, token_hash=token_hash)
    elif isinstance(message, SupportMotion):
        motions.motion_support(seat_id=seat_id, motion=message.motion, expected=expected,
                               token_hash=token_hash)
    return None


def teacher_act(session: ClassSession, message: Any) -> None:
    expected = message.expected
    if isinstance(message, TeacherDecide):
        services.teacher_decide(session=session, table=message.table,
                                decision=message.decision, choice=message.choice,
                                expected=expected)
    elif isinstance(message, SwitchMode):
        services.mode_switch(session=session, kind=message.kind, mode=message.mode,
                             table=None if message.table == "all" else message.table,
                             expected=expected)
    elif isinstance(message, SetTimer):
        services.timer_set(session=session, kind=message.kind, seconds=message.seconds,
                           expected=expected)
    elif isinstance(message, OpenMotion):
        motions.motion_open(session=session, table=message.table, motion=message.motion,
                            expected=expected)
    elif isinstance(message, CloseBallot):
        services.ballot_close(session=session, table=message.table, expected=expected,
                              confirm=message.confirm)
    elif isinstance(message, Expire):
        services.wait_expire(session=session, table=message.table, expected=expected)
    elif isinstance(message, EndNow):
        services.lesson_end_now(session=session, expected=expected, confirm=message.confirm)
