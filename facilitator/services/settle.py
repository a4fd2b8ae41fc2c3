"""After every change at a table: bots act, a full bag is counted, the snapshot is saved."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from facilitator import bags, parties
from facilitator.log import apply_action, load_state, save_state
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction, TeacherStep
from facilitator.services.ballots import everyone_voted, vote_close
from facilitator.services.turns import table_seats

Actor = TableAction.Actor

# One bot vote in four is drawn at random among the options, whatever the bot's policy:
# a policy that always votes the same way could otherwise be subtracted from the tally.
BOT_VOTE_NOISE = 0.25


def table_settle(table: Table, session: ClassSession, step: TeacherStep | None,
                 state: Any = None, seats: list[Seat] | None = None, *,
                 filled: tuple[Bag, set[int]] | None = None) -> Any:
    """Let bots make every decision now due, count a full bag, and save the snapshot.
    ``filled``: the open bag and its voters, as the caller read them under the table's lock
    (a ballot that filled the bag), so they are not read again."""
    lesson = session.lesson
    state = load_state(table) if state is None else state
    seats = table_seats(table) if seats is None else seats
    bots = [s for s in seats if s.is_bot]
    for pass_ in range(64):  # bounded: each pass makes at least one decision
        acted = False
        if lesson.ballot_for(session, state) is None:
            bag, voted = None, set()
        elif filled is not None and pass_ == 0:  # true of the first pass only: bots vote after
            bag, voted = filled[0], set(filled[1])
        else:
            bag = bags.open_bag(table)
            voted = bags.voter_ids(bag) if bag is not None else set()
        groups = parties.parties(seats)
        for seat in bots:
            group = groups.get(seat.player_name, [seat])
            if bag is not None:
                # One token per party; a team votes by its bots only if all its members are.
                if (all(m.is_bot for m in group) and seat == group[0]
                        and not any(m.pk in voted for m in group)):
                    _bot_ballot(bag, state, seat, session)
                    voted.add(seat.pk)
                    acted = True
                continue
            if len(group) > 1 and parties.acting(group, session.round) != seat:
                continue  # a team's moves are its captain's
            action = lesson.bot_action(table, session, state, seat)
            if action is None:
                continue
            acted = True
            state, _e = apply_action(table, state, action, actor=Actor.BOT, seat=seat,
                                     step=step)
        if bag is not None and everyone_voted(seats, voted):
            state = vote_close(table, state, bag.decision, step, Actor.TEACHER, bag=bag,
                               voted=voted, seats=seats, confirmed=True)  # everyone voted
            acted = True
        automatic = lesson.automatic_action(seats, state)
        if automatic is not None:
            state, _e = apply_action(table, state, automatic, actor=Actor.TEACHER, step=step)
            acted = True
        if not acted:
            break
    save_state(table, state)
    return state


def _bot_ballot(bag: Bag, state: Any, seat: Seat, session: ClassSession) -> None:
    bot_ballot(bag, seat, lambda rng: session.lesson.bot_vote(state, seat, bag, rng))


def bot_ballot(bag: Bag, seat: Seat, vote: Callable[[random.Random], str]) -> None:
    """A bot's token in ``bag``: ``vote(rng)`` (its policy), or one time in four an option
    drawn at random, from randomness that is never stored (the operating system's), so
    nobody can recompute it from the database and subtract it from the tally."""
    rng = random.SystemRandom()
    option = rng.choice(bag.options) if rng.random() < BOT_VOTE_NOISE else vote(rng)
    key = bags.bag_key(bag)
    if key is None:
        raise bags.key_unreachable()
    bags.bag_cast(bag=bag, seat=seat, index=bag.options.index(option), key=key,
                  weight=bags.weight_of(bag, seat))
