"""Austerity's own student action: the Finance Minister answers the engine's decision."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator import broadcast
from facilitator.errors import ServiceError
from facilitator.lessons.austerity import script
from facilitator.log import apply_action, engine_of, load_state
from facilitator.models import TableAction
from facilitator.services import seat_turn, table_settle
from facilitator.services.sessions import last_step

Actor = TableAction.Actor


@transaction.atomic
def decide(*, seat_id: int, decision: Any, choice: Any, expected: str | None = None,
           token_hash: str | None = None) -> None:
    """The minister's answer to one of the engine's open decisions (``decision``: its id,
    ``choice``: one of its options). Refused for anyone but this year's minister, outside the
    year, for a decision no longer open, and for an option it does not list."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    state = load_state(table)
    if not script.minister_may_act(session, state):
        raise ServiceError("not_now", _("The Finance Minister decides during the year only."),
                           status=409)
    if script.minister(seats, script.year_of(session)) != seat:
        raise ServiceError("not_minister", _("Only this year's Finance Minister decides this."),
                           status=403)
    open_ = {d.id: d for d in engine_of(table).decisions(state)}
    if decision not in open_:
        raise ServiceError("stale_decision", _("That decision is no longer open; your screen "
                                               "has been updated."), status=409)
    wanted = open_[decision]
    if choice not in wanted.options:
        raise ServiceError("bad_choice", _("That is not one of the options."))
    step = last_step(session)
    state, _e = apply_action(table, state, script.engine_action(wanted, choice),
                             actor=Actor.SEAT, seat=seat, step=step)
    table_settle(table, session, step, state, seats)
    broadcast.refresh(session.pk, [s.pk for s in seats])
