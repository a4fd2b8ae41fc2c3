"""What a phone may send in an Austerity lesson beyond the platform's own messages
(``facilitator.messages``): the Finance Minister's answer to the engine's decision."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictStr

from facilitator.lessons.austerity import services
from facilitator.messages import Message


class Decide(Message):
    type: Literal["decide"]
    decision: Annotated[StrictStr, Field(max_length=40)]
    choice: Annotated[StrictStr, Field(max_length=60)]


SEAT = (Decide,)
TEACHER = ()


def seat_act(seat_id: int, message: Any, token_hash: str | None) -> None:
    if isinstance(message, Decide):
        services.decide(seat_id=seat_id, decision=message.decision, choice=message.choice,
                        expected=message.expected, token_hash=token_hash)
