"""State in Class's own student and teacher actions: the opening pact and tie-breaks."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator.errors import ServiceError
from facilitator.kit import (
    apply_action,
    broadcast,
    check_can_drive,
    last_step,
    load_state,
    locked_session,
    seat_turn,
    table_settle,
)
from facilitator.lessons.state_in_class.pacing import tie_shown
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.models import ClassSession, Table, TableAction

Actor = TableAction.Actor


@transaction.atomic
def pact_submit(*, seat_id: int, coins: Any, expected: str | None = None,
                token_hash: str | None = None) -> None:
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    if session.stage != Stage.PACT:
        raise ServiceError("wrong_phase", _("The opening pact is over."), status=409)
    if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= 3:
        raise ServiceError("bad_coins", _("Choose 0, 1, 2 or 3 coins."))
    state = load_state(table)
    if state.player(seat.player_name).pact is not None:
        raise ServiceError("already_contributed", _("You have already made your pact "
                                                    "contribution."), status=409)
    step = last_step(session)
    state, _e = apply_action(table, state, {"type": "pact", "player": seat.player_name,
                                            "coins": coins},
                             actor=Actor.SEAT, seat=seat, step=step)
    state = table_settle(table, session, step, state, seats)
    broadcast.progress(session.pk, table.number, {"what": "pact"}, seat.pk)
    if state.phase != "pact":  # everyone has contributed: roles are dealt
        broadcast.refresh(session.pk, [s.pk for s in seats])


@transaction.atomic
def tie_break_submit(*, choice: Any, seat_id: int | None = None,
                     session: ClassSession | None = None, table_number: int | None = None,
                     expected: str | None = None, token_hash: str | None = None) -> None:
    """The decider settles a tie (or passes); the teacher may decide for an absent decider."""
    if seat_id is not None:
        # The phone's stage id is checked: a tie-break from an earlier screen is stale.
        seat, table, session, _seats = seat_turn(seat_id, expected, token_hash)
        actor, name = Actor.SEAT, seat.player_name
    else:
        assert session is not None
        session = locked_session(session)
        check_can_drive(session, expected)
        table = Table.objects.select_for_update().filter(session=session,
                                                         number=table_number).first()
        if table is None:
            raise ServiceError("not_found", _("There is no such table."), status=404)
        seat, actor, name = None, Actor.TEACHER, ""
    if not tie_shown(session.stage):
        # The same answer whether this table tied or not: a message must not tell a phone
        # what its bag's count was before the teacher shows it (pacing.tie_shown).
        raise ServiceError("count_not_shown", _("A tie is decided once your teacher shows "
                                                "the count."), status=409)
    state = load_state(table)
    if state.phase != "tie_break" or state.tie is None:
        raise ServiceError("no_tie", _("There is no tie to break."), status=409)
    decider = state.tie.deciders[0]
    if seat is not None and name != decider:
        raise ServiceError("not_your_turn", _("It is not your turn to break the tie."),
                           status=403)
    if choice is not None and choice not in state.tie.options:
        raise ServiceError("bad_option", _("Choose one of the tied options."))
    step = last_step(session)
    state, _e = apply_action(table, state, {"type": "tie_break", "player": decider,
                                            "choice": choice},
                             actor=actor, seat=seat, step=step)
    table_settle(table, session, step, state)
    broadcast.refresh(session.pk, table.seats.values_list("pk", flat=True))
