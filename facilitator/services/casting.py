"""A student's ballot: the seat's receipt and its option, sealed (docs/secrecy.md).

Casting writes nothing else; the ballot that fills the bag has the table settled at once
(``settle.table_settle``: the bag is counted, bots move on). Opening and counting a bag are
``ballots``'.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator import bags, broadcast, parties
from facilitator.errors import ServiceError
from facilitator.log import engine_of, load_state
from facilitator.models import Bag
from facilitator.services.ballots import everyone_voted, voters
from facilitator.services.sessions import last_step
from facilitator.services.settle import table_settle
from facilitator.services.turns import seat_turn


def ballot_cast(*, seat_id: int, option: Any, kind: Any = None, decision: Any = None,
                expected: str | None = None, token_hash: str | None = None
                ) -> dict[str, Any] | None:
    """Put a token in the bag: the seat's receipt and its option, sealed. Nothing else moves.

    The ballot names its ``decision`` (the bag's id), or the module's short ``kind`` for it
    (``Lesson.ballot_decision``). ``option`` is the option's index among the bag's
    options (what phones send: a frame of the same length for every option) or its name.
    Returns the bag's progress (``{"voted": n, "of": m}``) while it is still open, ``None``
    once this ballot filled it and it was counted. The voter's phone is not re-rendered for
    its own ballot: its ``ack`` carries the progress and the phone shows "your token is in the
    bag" (rendered with the ballot, hidden until then). If the bag's key was lost (the server
    restarted mid-vote), the bag is reopened empty (committed) and the phone is told to vote
    again.
    """
    with transaction.atomic():
        progress, asked_again = _ballot(seat_id, kind, decision, option, expected, token_hash)
    if asked_again:  # raised after the commit: the bag's reopening stays
        raise ServiceError("vote_restarted", _(
            "The votes at your table were lost when the server restarted. Please vote "
            "again."), status=409)
    return progress


def _option_index(options: list[str], option: Any) -> int:
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < len(options):
        return option
    if isinstance(option, str) and option in options:
        return options.index(option)
    raise ServiceError("bad_option", _("That is not one of the options."))


def _ballot(seat_id: int, kind: Any, decision: Any, option: Any, expected: str | None,
            token_hash: str | None) -> tuple[dict[str, Any] | None, bool]:
    """The ballot's progress (None: it filled the bag), and whether the bag had lost its key
    and was reopened, so that the phone must vote again."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    lesson = session.lesson
    if decision is None:
        decision = lesson.ballot_decision(session, kind)
    elif not isinstance(decision, str):
        raise ServiceError("bad_kind", _("Unknown vote."))
    bag, voted = bags.open_bag_voters(table)
    if bag is None or bag.decision != decision:
        # Counted already (everyone voted, or the game at this table is over).
        counted = Bag.objects.filter(table=table, decision=decision,
                                     receipts__seat=seat).exists()
        if counted:
            raise ServiceError("already_voted", _("Your token is already in the bag."),
                               status=409)
        if engine_of(table).is_over(load_state(table)):
            raise ServiceError("game_over", _("The game at your table is over."), status=409)
        raise ServiceError("vote_closed", _("This vote is not open."), status=409)
    if seat.pk in voted:
        raise ServiceError("already_voted", _("Your token is already in the bag."), status=409)
    index = _option_index(bag.options, option)
    team = parties.members(seats, seat.player_name)
    if len(team) > 1 and voted & {m.pk for m in team}:
        raise ServiceError("already_voted", _("Your team's token is already in the bag."),
                           status=409)
    key = bags.bag_key(bag)
    if key is None:
        if not bags.key_lost(bag):
            raise bags.key_unreachable()
        bags.bag_reopen(bag=bag, reason=bags.LOST)
        table_settle(table, session, last_step(session), load_state(table), seats)
        broadcast.refresh(session.pk, [s.pk for s in seats])
        return None, True
    bags.bag_cast(bag=bag, seat=seat, index=index, key=key, weight=bags.weight_of(bag, seat))
    voted = voted | {seat.pk}  # the bag's voters, read under the table's lock, and this one
    progress = {"voted": len(voted), "of": voters(seats)}
    full = everyone_voted(seats, voted)
    marks_only = full and lesson.count_only_marks_the_bag(session, decision)
    # The projectors' count goes out at once, the last ballot's too: the screen a count
    # changes follows when it has been rendered; where the count changes only the table's
    # line, the frame says it was counted and nothing is rendered for it.
    broadcast.progress(session.pk, table.number, {
        "what": "vote", "decision": decision, "bag": bags.generation(bag), **progress,
        **({"counted": True} if marks_only else {})})
    if not full:
        return progress, False
    state = table_settle(table, session, last_step(session), load_state(table), seats,
                         filled=(bag, voted))
    changed = lesson.after_count(state, seats)
    if marks_only:  # the phones a count changes turn their marked parts, rendering nothing
        broadcast.counted(table.number, bags.generation(bag), changed)
    else:
        broadcast.refresh(session.pk, changed)
    return None, False
