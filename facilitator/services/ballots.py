"""Secret ballots at a table, keyed by the decision they settle (docs/secrecy.md).

Opening and counting a bag (a ballot is cast in ``casting``, which settles the table after it;
``settle`` counts a bag its bots fill): this module imports neither. A ballot writes its
receipt and its sealed ballot and nothing else: the engine and the snapshot stay off the
ballot path. The engine meets the bag at the count: its receipts (by
seat) and its tally, or only its outcome where a full tally could reveal who voted what (fewer
than ``FEWEST_TO_OPEN`` ballots in the bag, or a weighted ballot); then only the outcome is
kept, in the action log and in every record.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import bags, parties
from facilitator.errors import ServiceError
from facilitator.lessons.base import Ballot
from facilitator.log import apply_action, ballots, engine_error, engine_of
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction, TeacherStep
from facilitator.privacy import FEWEST_TO_OPEN
from facilitator.services.turns import table_seats
from facilitator.table_reads import seat_order
from games.core import InvalidAction

Actor = TableAction.Actor

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
        # who voted, by seat (as the record lists receipts, never in the order of casting)
        names = [s.player_name for s in sorted(seats, key=seat_order) if s.pk in voted]
        try:
            state, _e = engine.replay_actions(state, ballots(lesson, decision, names))
        except InvalidAction as exc:
            raise engine_error(exc) from None
        tally = bags.bag_count(bag=bag, key=key, step=step, receipts=len(voted))
    result: dict[str, Any] = {"tally": tally}
    # A bag of fewer than FEWEST_TO_OPEN tokens (every voter's), a weighted one or a recount
    # publishes its outcome only: two tokens' tally says how both voted to either voter.
    if bag.weights or len(names) < FEWEST_TO_OPEN or bag.counted_before:
        try:
            result = {"outcome": lesson.ballot_outcome(state, decision, tally)}
        except InvalidAction as exc:
            raise engine_error(exc) from None
    counted = lesson.count_action(decision, result)
    for action in counted if isinstance(counted, list) else [counted]:
        state, _e = apply_action(table, state, action, actor=actor, step=step,
                                 how=TableAction.How.VOTE)
    return lesson.on_count(table, state, decision, result, step)


def voters(seats: list[Seat]) -> int:
    """How many tokens the table's bag takes: one per party (``facilitator.parties``)."""
    return len(parties.parties(seats))


def everyone_voted(seats: list[Seat], voted: set[int]) -> bool:
    """Every party has its token in the bag."""
    return all(any(m.pk in voted for m in group)
               for group in parties.parties(seats).values())


def _told_set_aside(table: Table, tokens: int) -> None:
    """The screens say, until the teacher's next step, that ``table``'s bag was closed
    unopened with ``tokens`` in it (``ClassSession.set_aside``)."""
    session = ClassSession.objects.select_for_update().get(pk=table.session_id)
    session.set_aside = {**session.set_aside, str(table.number): tokens}
    session.save(update_fields=["set_aside"])
