"""Secret ballots at a table, keyed by the decision they settle (docs/secrecy.md).

A ballot writes its receipt and its sealed ballot and nothing else: the engine and the
snapshot stay off the ballot path. The engine meets the bag at the count: its receipts (by
seat) and its tally, or only its outcome where a full tally could reveal who voted what (fewer
than ``OUTCOME_ONLY_BELOW`` ballots in the bag, or a weighted ballot); then only the outcome is
kept, in the action log and in every record.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import bags, broadcast, parties
from facilitator.errors import ServiceError
from facilitator.lessons.base import Ballot
from facilitator.log import apply_action, ballots, engine_error, engine_of, load_state
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction, TeacherStep
from facilitator.privacy import FEWEST_TO_OPEN
from facilitator.services.sessions import last_step
from facilitator.services.settle import everyone_voted, table_settle, voters
from facilitator.services.turns import seat_turn, table_seats
from facilitator.table_reads import seat_order
from games.core import InvalidAction

Actor = TableAction.Actor

# Our privacy rule (docs/secrecy.md): a bag with fewer tokens than this is never opened
# unless every party at the table has voted; and a bag with fewer than this, or a weighted
# one, publishes its outcome only (two tokens' tally says how both voted to anyone who knows
# one of them).
OUTCOME_ONLY_BELOW = FEWEST_TO_OPEN


def vote_open(table: Table, ballot: Ballot, step: TeacherStep) -> Bag:
    """Open the bag of ``ballot`` at ``table`` (a teacher's step opens it; undoing the step
    removes it)."""
    return bags.bag_open(table=table, decision=ballot.decision, options=list(ballot.options),
                         weights=ballot.weights, step=step)


def count_unconfirmed(table: Table, missing: int) -> ServiceError:
    """The refusal of a count that the teacher asked for while tokens are missing, without
    confirming it in the request (the console asks "count anyway?" and sends ``confirm``)."""
    return ServiceError("confirm_count", ngettext(
        "Table %(table)d: %(n)d token is not in the bag yet. Count anyway? (Press again to "
        "confirm.)",
        "Table %(table)d: %(n)d tokens are not in the bag yet. Count anyway? (Press again to "
        "confirm.)", missing) % {"table": table.number, "n": missing}, status=409)


def vote_close(table: Table, state: Any, decision: str, step: TeacherStep | None,
               actor: str, *, confirmed: bool, bag: Bag | None = None,
               voted: set[int] | None = None, seats: list[Seat] | None = None) -> Any:
    """Empty the bag of ``decision``: the engine meets its receipts and its count (absentees
    abstain). The sealed ballots and the key are gone afterwards.

    Our privacy rule, whoever asks: a bag that does not hold every party's token needs
    ``confirmed`` (the teacher's explicit "count anyway" in the request, or a timer the
    table was shown), else nothing changes and the teacher is asked; such a bag with fewer
    than ``FEWEST_TO_OPEN`` tokens is closed unopened, as if nobody had voted (each game's own
    rule for no votes). A decision counted before at this table (then undone) publishes its
    outcome only. ``bag``, ``voted`` (its voters' seat ids) and ``seats`` (the table's): as
    the caller read them under the table's lock, so they are not read again."""
    if bag is None:
        bag = bags.open_bag(table)
    if bag is None or bag.decision != decision or bag.status != Bag.Status.OPEN:
        raise ServiceError("vote_closed", _("This vote is not open."), status=409)
    if seats is None:
        seats = table_seats(table)
    if voted is None:
        voted = bags.voter_ids(bag)
    full = everyone_voted(seats, voted)
    if not full and not confirmed:
        raise count_unconfirmed(table, voters(seats) - len(voted))
    engine, lesson = engine_of(table), table.session.lesson
    key = bags.bag_key(bag)
    if key is None:  # only the process holding the keys closes a bag, opened or not
        raise bags.key_unreachable()
    if not full and len(voted) < FEWEST_TO_OPEN:
        _told_set_aside(table, bags.bag_set_aside(bag=bag, step=step))
        names: list[str] = []
        tally: dict[str, int] = {}
    else:
        # who voted, by seat (as bags.voter_names lists them)
        names = [s.player_name for s in sorted(seats, key=seat_order) if s.pk in voted]
        try:
            state, _e = engine.replay_actions(state, ballots(lesson, decision, names))
        except InvalidAction as exc:
            raise engine_error(exc) from None
        tally = bags.bag_count(bag=bag, key=key, step=step, receipts=len(voted))
    result: dict[str, Any] = {"tally": tally}
    if bag.weights or len(names) < OUTCOME_ONLY_BELOW or bag.counted_before:
        try:
            result = {"outcome": lesson.ballot_outcome(state, decision, tally)}
        except InvalidAction as exc:
            raise engine_error(exc) from None
    counted = lesson.count_action(decision, result)
    for action in counted if isinstance(counted, list) else [counted]:
        state, _e = apply_action(table, state, action, actor=actor, step=step,
                                 how=TableAction.How.VOTE)
    return lesson.on_count(table, state, decision, result, step)


def _told_set_aside(table: Table, tokens: int) -> None:
    """The screens say, until the teacher's next step, that ``table``'s bag was closed
    unopened with ``tokens`` in it (``ClassSession.set_aside``)."""
    session = ClassSession.objects.select_for_update().get(pk=table.session_id)
    session.set_aside = {**session.set_aside, str(table.number): tokens}
    session.save(update_fields=["set_aside"])


def ballot_cast(*, seat_id: int, option: Any, kind: Any = None, decision: Any = None,
                expected: str | None = None, token_hash: str | None = None
                ) -> dict[str, Any] | None:
    """Put a token in the bag: the seat's receipt and its option, sealed. Nothing else moves.

    The ballot names its ``decision`` (the bag's id), or the module's short ``kind`` for it
    (State in Class: "tax", "budget"). ``option`` is the option's index among the bag's
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
