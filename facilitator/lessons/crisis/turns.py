"""Who may answer which of the engine's decisions at which moment of the lesson, and what an
unanswered decision takes.

- **Stages gate phases.** A team's move is taken only while the lesson is at the stage of its
  engine phase (``STAGE_PHASES``): Planning (placing Managers, then the Operations choices
  they lead to), Production, Exports. A phase the engine reaches by itself before the teacher's
  beat waits for that beat.
- **The round ends at the teacher's Evaluation.** The engine runs Evaluation, the End of the
  Round, the next Event and its interest at once after a round's last decision; a move that
  would set that off (the last pass of Exports, the last production plan when nobody
  exports, ...) is *held* (``models.HeldMove``) and applied when the teacher moves the lesson to
  Evaluation, so no phone and no projector learns the outcome before the teacher shows it.
- **Defaults** (``closing_action``): when the teacher closes a stage, every decision of it left
  unanswered takes the engine's default — a Manager on Government Subsidy (no Penalty), a
  reserved space's first option (it buys what it can), the automatic production plan, an
  Exports turn passes — or, for a team with nobody connected or only bots, the bot's move.
- **Turn timer** (``turn_due``): a turn-by-turn decision (placing, resolving, exporting) not
  answered within the lesson's ``turn_seconds`` of the table's last turn (or the teacher's
  last step), counted in lesson time (a pause stops it), takes the same default, the next
  time anything happens at the table or when the teacher asks for the turns that are due
  (``services.turns_due``).
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from facilitator import kit
from facilitator.kit import parties
from facilitator.lessons.crisis.models import HeldMove
from facilitator.models import ClassSession, Seat, Table
from games import crisis as engine
from games.core import Decision, InvalidAction
from games.crisis import bots as policies
from games.crisis.state import EXPORTS, OPERATIONS, OVER, PLANNING, PRODUCTION, GameState

EVENT, PLAN, PRODUCE, EXPORT, EVALUATION, FINAL = (
    "event", "planning", "production", "exports", "evaluation", "final")
STAGE_PHASES: dict[str, tuple[str, ...]] = {
    PLAN: (PLANNING, OPERATIONS), PRODUCE: (PRODUCTION,), EXPORT: (EXPORTS,)}
TURN_KINDS = ("place", "resolve", "export")  # one team at a time, in order: timed
TURN_ACTIONS = ("place", "resolve", "produce", "export", "black_market", "pass")
ANY_TIME = ("repay", "influence")  # the engine allows them whenever it waits
DEFAULT_POLICY = "sensible"


def round_of(session: ClassSession) -> int:
    """The round the lesson is at (the first stage is shown at round 0: round 1's Event)."""
    return max(session.round, 1)


def open_decisions(state: GameState, phases: tuple[str, ...] | None = None) -> list[Decision]:
    if state.phase == OVER or (phases is not None and state.phase not in phases):
        return []
    return engine.decisions(state)


def stage_decisions(session: ClassSession, state: GameState) -> list[Decision]:
    """The engine's open decisions the teams may answer at the lesson's stage now."""
    phases = STAGE_PHASES.get(session.stage)
    if phases is None or state.round != round_of(session):
        return []
    return open_decisions(state, phases)


def team_decisions(session: ClassSession, state: GameState, team: str) -> list[Decision]:
    return [d for d in stage_decisions(session, state) if team in d.deciders]


def may_act_any_time(session: ClassSession, state: GameState, team: str) -> bool:
    """When a team may repay a loan or play an Influence card: on its own turn at Planning
    (also before it places), any time during Production and Exports (so before the interest
    and, in the last round, before the final scoring, both of which follow Exports)."""
    if state.phase == OVER or state.round != round_of(session):
        return False
    if session.stage == PLAN:
        return bool(team_decisions(session, state, team))
    return session.stage in (PRODUCE, EXPORT)


def ends_round(state: GameState, action: dict[str, Any]) -> bool:
    """Whether ``action`` would end the round (or the game). An illegal action ends nothing."""
    try:
        after, _events = engine.apply(state, action)
    except InvalidAction:
        return False
    return after.round != state.round or after.phase == OVER


def held_move(table: Table, state: GameState) -> HeldMove | None:
    """The table's held move, if its decision is still the open one."""
    held = HeldMove.objects.filter(table=table).first()
    if held is None:
        return None
    if held.decision not in {d.id for d in open_decisions(state)}:
        return None
    return held


def waits_for_teacher(table: Table, session: ClassSession, state: GameState,
                      seats: list[Seat]) -> bool:
    """The round's last move is in and waits for the teacher's Evaluation: a captain's held
    move, or the move a bot captain would make (it never ends the round by itself)."""
    if held_move(table, state) is not None:
        return True
    pending = stage_decisions(session, state)
    if len(pending) != 1:
        return False
    decision = pending[0]
    chief = parties.acting(team_seats(seats, decision.deciders[0]), session.round)
    if chief is None or not chief.is_bot:
        return False
    return ends_round(state, bot_move(table, state, decision, chief.bot_policy))


def bot_rng(table: Table, state: GameState, decision: Decision) -> random.Random:
    """The bot's chance: a function of the table's seed and the decision (its moves are
    stored as actions, so the record replays without it)."""
    return random.Random(f"{table.seed}:{decision.id}")


def bot_move(table: Table, state: GameState, decision: Decision, policy: str) -> dict[str, Any]:
    return dict(policies.act(policy or DEFAULT_POLICY, state, decision,
                             bot_rng(table, state, decision)))


def team_seats(seats: list[Seat], team: str) -> list[Seat]:
    return parties.members(seats, team)


def nobody_here(members: list[Seat]) -> bool:
    """A team with no member left, only bots, or nobody connected."""
    humans = [m for m in members if not m.is_bot]
    return not humans or not kit.online(m.pk for m in humans)


def closing_action(table: Table, state: GameState, decision: Decision,
                   seats: list[Seat]) -> dict[str, Any]:
    """What an unanswered decision takes when its time is up (see the module docstring)."""
    members = team_seats(seats, decision.deciders[0])
    if nobody_here(members):
        bot = next((m for m in members if m.is_bot), None)
        return bot_move(table, state, decision, bot.bot_policy if bot else DEFAULT_POLICY)
    return dict(decision.default or {})


def turn_started(table: Table, session: ClassSession) -> datetime | None:
    """When the open turn began: the table's last turn-taking action or the teacher's last
    step, whichever is later."""
    last = (table.actions.filter(payload__type__in=TURN_ACTIONS).order_by("-seq")
            .values_list("created_at", flat=True).first())
    step = session.steps.order_by("-seq").values_list("created_at", flat=True).first()
    moments = [m for m in (last, step) if m is not None]
    return max(moments) if moments else None


def turn_countdown(table: Table, session: ClassSession,
                   state: GameState) -> dict[str, Any] | None:
    """The open timed turn's countdown at this table (``kit.countdown``: lesson time, so it
    stands still while the lesson is paused), or None: no timed turn is open."""
    seconds = int(session.options.get("turn_seconds") or 0)
    timed = [d for d in stage_decisions(session, state) if d.kind in TURN_KINDS]
    started = turn_started(table, session) if timed and seconds else None
    if started is None:
        return None
    return kit.countdown(session, since=started.timestamp(), seconds=seconds)


def turn_left(table: Table, session: ClassSession, state: GameState) -> int | None:
    """Seconds left of the open turn at this table (None: no timed turn is open)."""
    shown = turn_countdown(table, session, state)
    return None if shown is None else int(shown["left"])


def turn_due(table: Table, session: ClassSession, state: GameState,
             seats: list[Seat]) -> dict[str, Any] | None:
    """The default of the open timed turn once its time is up (never the round's last move:
    that one waits for Evaluation), else None. A paused lesson's turns are never due."""
    if session.paused:
        return None
    timed = [d for d in stage_decisions(session, state) if d.kind in TURN_KINDS]
    if not timed or held_move(table, state) is not None:
        return None
    shown = turn_countdown(table, session, state)
    if shown is None or shown["left"] > 0:
        return None
    action = closing_action(table, state, timed[0], seats)
    return None if ends_round(state, action) else action


def closing_moves(table: Table, state: GameState, phases: tuple[str, ...], seats: list[Seat],
                  *, end_round: bool) -> list[dict[str, Any]]:
    """The moves that close ``phases`` at a table: the held move first, then every open
    decision's closing action, until the engine leaves those phases (or, unless
    ``end_round``, until only a move that would end the round is left)."""
    moves: list[dict[str, Any]] = []
    state = state.clone()
    start = state.round
    held = held_move(table, state)
    for _n in range(500):  # bounded: a round has a few dozen decisions
        if state.phase not in phases or state.round != start:
            break
        pending = open_decisions(state)
        if not pending:
            break
        if held is not None and held.decision == pending[0].id:
            action, held = dict(held.action), None
        else:
            action = closing_action(table, state, pending[0], seats)
        if not end_round and ends_round(state, action):
            break
        try:
            state, _e = engine.apply(state, action)
        except InvalidAction:
            action = dict(pending[0].default or {})
            state, _e = engine.apply(state, action)
        moves.append(action)
    return moves
