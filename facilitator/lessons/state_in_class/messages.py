"""What a phone and the teacher's console may send in a State in Class lesson, beyond the
platform's own messages (``facilitator.messages``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt

from facilitator.kit import Message, Option
from facilitator.lessons.state_in_class import services
from facilitator.models import ClassSession


class Pact(Message):
    type: Literal["pact"]
    coins: Annotated[StrictInt, Field(ge=0, le=3)]


class SeatTieBreak(Message):
    type: Literal["tie_break"]
    choice: Option | None


class TeacherTieBreak(Message):
    type: Literal["tie_break"]
    table: Annotated[StrictInt, Field(ge=1)]
    choice: Option | None


SEAT = (Pact, SeatTieBreak)
TEACHER = (TeacherTieBreak,)


def seat_act(seat_id: int, message: Any, token_hash: str | None) -> None:
    if isinstance(message, Pact):
        services.pact_submit(seat_id=seat_id, coins=message.coins, expected=message.expected,
                             token_hash=token_hash)
    elif isinstance(message, SeatTieBreak):
        services.tie_break_submit(seat_id=seat_id, choice=message.choice,
                                  expected=message.expected, token_hash=token_hash)


def teacher_act(session: ClassSession, message: Any) -> None:
    if isinstance(message, TeacherTieBreak):
        services.tie_break_submit(session=session, table_number=message.table,
                                  choice=message.choice, expected=message.expected)
