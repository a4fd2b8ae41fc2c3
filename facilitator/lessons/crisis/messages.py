"""What a phone (and the teacher) may send in a Crisis lesson beyond the platform's messages.

- ``move {decision, action}``: the captain's move; ``action`` is the engine action (an object,
  or its JSON: a form button's value); ``decision`` is the open decision's id (none for
  ``repay`` and ``influence``).
- ``suggest {decision, action}``: a team member's suggestion for that decision.
- ``plan {decision, op, company, tile}``: one tap of the production planner (``op``: company,
  staff, bonus, unseat, auto, clear).
- the teacher's ``turns_due``: every turn whose time is up takes its default now.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictStr

from facilitator.kit import Message
from facilitator.lessons.crisis import services

DecisionId = Annotated[StrictStr, Field(max_length=60)]
ActionJson = Annotated[StrictStr, Field(max_length=services.ACTION_MAX)] | dict[str, Any]
Short = Annotated[StrictStr, Field(max_length=40)]


class Move(Message):
    type: Literal["move"]
    decision: DecisionId | None = None
    action: ActionJson


class Suggest(Message):
    type: Literal["suggest"]
    decision: DecisionId
    action: ActionJson


class Plan(Message):
    type: Literal["plan"]
    decision: DecisionId
    op: Literal["company", "staff", "bonus", "unseat", "auto", "clear"]
    company: Short | None = None
    tile: Short | None = None


class TurnsDue(Message):
    type: Literal["turns_due"]


SEAT = (Move, Suggest, Plan)
TEACHER = (TurnsDue,)


def seat_act(seat_id: int, message: Any, token_hash: str | None) -> dict[str, Any] | None:
    if isinstance(message, Move):
        outcome = services.move_submit(seat_id=seat_id, decision=message.decision or None,
                                       action=message.action, expected=message.expected,
                                       token_hash=token_hash)
        return {"move": outcome}
    if isinstance(message, Suggest):
        services.suggest_submit(seat_id=seat_id, decision=message.decision,
                                action=message.action, expected=message.expected,
                                token_hash=token_hash)
    elif isinstance(message, Plan):
        services.plan_change(seat_id=seat_id, decision=message.decision, op=message.op,
                             company=message.company or None, tile=message.tile or None,
                             expected=message.expected, token_hash=token_hash)
    return None


def teacher_act(session: Any, message: Any) -> None:
    if isinstance(message, TurnsDue):
        services.turns_due(session=session, expected=message.expected)
