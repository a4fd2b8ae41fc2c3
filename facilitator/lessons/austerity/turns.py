"""The year at one table: who answers the engine's pending decision, the table ballots that
decisions and motions open, the bot minister's moves, and what a count does.

After every change at a table in the year, :func:`follow` brings it to its next wait: it
drops motions that became impossible, opens the ballot the pending decision asks for (its kind
is a table ballot: ``modes``), lets a bot minister play up to the next thing it may not
answer, and starts the timer of what the table now waits for (``pacing``).

Table ballots in the year, by decision id (every one ``no change``/first-listed on a tie):

- the engine's own decision id (``y3.d4.event``, ``y3.d4.cuts``, ``y3.d4.income1``): its
  options, in the engine's order; the count answers the decision with the winner;
- ``y3.d4.actions`` (Actions as a ballot: once before each draw): ``none`` then every Action
  now legal; the count takes the winning Action, or none;
- ``y3.motion2``: a motion's ballot, ``no``/``yes`` (``motions``).

Tie rule (``TIE_RULE``): the option listed first among the tied ones wins; nobody voted: the
first listed option (no Action, a motion not carried). The outcome is kept with whether the
rule decided it (``TablePlay.counts``), except for a count of fewer than 3 ballots (outcome
only: ``tie`` is None there, since with two ballots a tie tells each voter the other's vote).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from facilitator import kit
from facilitator.kit import Ballot, apply_action, bags, table_seats
from facilitator.lessons.austerity import bots, modes, motions, pacing, script
from facilitator.lessons.austerity.models import TablePlay
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction, TeacherStep
from games.austerity.bots import sensible_policy
from games.austerity.choices import action_options
from games.austerity.state import GameState
from games.core import Decision

Actor = TableAction.Actor
How = TableAction.How
NONE = script.NONE
TIE_RULE = gettext_lazy("A tie goes to the option listed first among the tied ones; if "
                        "nobody votes, the first option is taken.")


def actions_ballot_id(draw: Decision) -> str:
    """Actions as a ballot are asked once before each draw: ``y3.d4.draw`` → ``y3.d4.actions``."""
    return draw.id.rsplit(".", 1)[0] + ".actions"


def due_ballot(table: Table, session: ClassSession, state: GameState,
               play: TablePlay) -> Ballot | None:
    """The table ballot the pending decision asks for now, if its kind is a table ballot."""
    if not script.minister_may_act(session, state):
        return None
    main = modes.main_decision(state)
    if main is None:
        return None
    year = script.year_of(session)
    if main.kind == "draw":
        actions = list(action_options(state))
        decision = actions_ballot_id(main)
        if (modes.actions_mode(play.modes, year) != modes.BALLOT or not actions
                or Bag.objects.filter(table=table, decision=decision).exists()):
            return None
        return Ballot(decision, [NONE, *actions])
    if modes.answered_by(play.modes, year, main) != modes.BALLOT:
        return None
    return Ballot(main.id, list(main.options))


def default_answer(table: Table, state: GameState) -> dict[str, Any]:
    """The stated default when the minister's timer runs out: the sensible bot's answer to
    the pending decision (never an optional Action; a draw just draws)."""
    return dict(sensible_policy(state, bots.rng_of(table, state), act=False))


def bot_minister_move(table: Table, session: ClassSession, state: GameState, seat: Seat,
                      play: TablePlay) -> dict[str, Any] | None:
    """A bot minister's move now: its policy's, limited to what the minister answers (an
    Action only while Actions are the minister's)."""
    if not script.minister_may_act(session, state) or bags.open_bag(table) is not None:
        return None
    main = modes.main_decision(state)
    year = script.year_of(session)
    if main is None or modes.answered_by(play.modes, year, main) != modes.MINISTER:
        return None
    move = bots.minister_action(table, state, seat)
    if move.get("type") == "action" and modes.actions_mode(play.modes, year) != modes.MINISTER:
        move = default_answer(table, state)
    return move


def follow(table: Table, session: ClassSession, state: GameState,
           step: TeacherStep | None) -> GameState:
    """Bring the table to its next wait (see the module docstring); returns its state."""
    play = modes.play_of(table)
    seats = table_seats(table)
    minister = script.minister(seats, script.year_of(session))
    chair = script.minister_acting(seats, script.year_of(session))
    for _n in range(1000):  # bounded: every pass answers a decision of a finite year
        motions.review(table, session, state, play)
        if bags.open_bag(table) is not None:
            break
        ballot = due_ballot(table, session, state, play)
        if ballot is not None:
            kit.vote_open(table, ballot, step)  # type: ignore[arg-type]
            break
        if chair is None or not chair.is_bot:
            break
        move = bot_minister_move(table, session, state, chair, play)
        if move is None:
            break
        state, _e = apply_action(table, state, move, actor=Actor.BOT, seat=chair, step=step,
                                 on_behalf=minister,
                                 how=How.BOT if chair == minister else How.STAND_IN)
    pacing.mark(play, pacing.wait_now(table, session, state, play))
    return state


def listed_winner(ranked: list[list[str]], options: list[str]) -> tuple[str, bool]:
    """The first listed option of the top group, and whether the tie rule decided it;
    nobody voted: the first option."""
    if not ranked:
        return options[0], False
    top = ranked[0]
    return min(top, key=options.index), len(top) > 1


def on_count(table: Table, state: GameState, decision: str, result: dict[str, Any],
             step: TeacherStep | None) -> GameState:
    """A table ballot was counted: keep its outcome (and whether the tie rule decided it);
    a ballot of the year answers its decision, then the table moves on (:func:`follow`)."""
    ranked = result["outcome"] if "outcome" in result else script.ranking(result["tally"])
    kind = modes.ballot_kind(decision)
    play = modes.play_of(table)
    # An outcome-only count (fewer than 3 ballots) says nothing of a tie: with two ballots
    # it would tell either voter how the other voted.
    shown = "tally" in result
    if kind == modes.BUDGET:
        item = script.item_of(decision)
        choice, tie = script.winner(item, ranked)
        modes.record_count(play, decision, choice, tie if shown else None, result.get("tally"))
        return state
    options = list(Bag.objects.get(table=table, decision=decision).options)
    choice, tie = listed_winner(ranked, options)
    tie = tie and shown
    modes.record_count(play, decision, choice, tie if shown else None, result.get("tally"))
    if kind == modes.MOTION:
        state = motions.counted(table, state, decision, choice, tie, step)
    elif kind == modes.ACTIONS_BALLOT:
        if choice != NONE:
            state, _e = apply_action(table, state, {"type": "action", "choice": choice},
                                     actor=Actor.TEACHER, step=step, how=How.VOTE)
    else:
        main = modes.main_decision(state)
        if main is not None and main.id == decision:
            state, _e = apply_action(table, state, script.engine_action(main, choice),
                                     actor=Actor.TEACHER, step=step, how=How.VOTE)
    return follow(table, table.session, state, step)
