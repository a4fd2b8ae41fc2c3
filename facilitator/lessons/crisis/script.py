"""Crisis's lesson script: the teacher's beats of every round.

A round R (``ClassSession.round``; the first stage, round 1's Event, is shown at round 0):
``event`` (the Event in force and the interest just paid) → ``planning`` (Managers placed in
turn order, one timed turn at a time, then the Operations choices they lead to) →
``production`` (every team's plan at once) → ``exports`` (the rotation, timed turns) →
``evaluation`` (the round's VP against the goal, the Crisis track) → round R+1's ``event``, or
``final`` once every table's game is over or the lesson's rounds are played (the shorter
variant, ``options.SHORT_ROUNDS``). Stage values are stored in sessions and teacher steps:
they never change.

"Next" closes the stage: every decision of it still unanswered takes its default
(``turns.closing_moves``); into Evaluation, the round's last move (held or default) ends the
round at every table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.errors import ServiceError
from facilitator.kit import StepPlan, apply_action, table_seats
from facilitator.lessons.crisis import turns
from facilitator.lessons.crisis.turns import EVALUATION, EVENT, EXPORT, FINAL, PLAN, PRODUCE
from facilitator.models import LOBBY, ClassSession, Table, TableAction, TeacherStep
from games import crisis as engine
from games.crisis import cards
from games.crisis.state import OVER, GameState

Actor = TableAction.Actor
ORDER = (EVENT, PLAN, PRODUCE, EXPORT, EVALUATION)
FIRST_STAGE = EVENT
STAGE_NAMES = {
    LOBBY: gettext_lazy("Lobby"),
    EVENT: gettext_lazy("The Event"),
    PLAN: gettext_lazy("Planning"),
    PRODUCE: gettext_lazy("Production"),
    EXPORT: gettext_lazy("Exports"),
    EVALUATION: gettext_lazy("Evaluation"),
    FINAL: gettext_lazy("Final result"),
}
# The teacher's button, by the stage it opens (``step_label``): a stage nobody has anything
# to do at is skipped, so the button names the stage the step really opens.
STEP_LABELS = {
    PLAN: gettext_lazy("Open Planning"),
    PRODUCE: gettext_lazy("Open Production"),
    EXPORT: gettext_lazy("Open Exports"),
    EVALUATION: gettext_lazy("Evaluate the round"),
}
ALL_PHASES = tuple(p for phases in turns.STAGE_PHASES.values() for p in phases)


def rounds_of(session: ClassSession) -> int:
    return int(session.options.get("rounds") or cards.ROUNDS)


def last_round(session: ClassSession) -> bool:
    return turns.round_of(session) >= rounds_of(session)


def plan_step(session: ClassSession, tables: list[Table],
              states: Mapping[int, GameState]) -> StepPlan:
    if session.stage == FINAL:
        raise ServiceError("read_only", _("The lesson is over."))
    round_ = turns.round_of(session)
    if session.stage == EVALUATION:
        if last_round(session) or all(s.phase == OVER for s in states.values()):
            return StepPlan(FINAL, round_, finished=True)
        return StepPlan(EVENT, round_ + 1)
    stage = next_play_stage(session, tables, states)
    timer = int(session.options.get("production_seconds") or 0) if stage == PRODUCE else 0
    return StepPlan(stage, round_, timer=timer or None)


def phases_before(stage: str) -> tuple[str, ...]:
    """The engine phases the stages before ``stage`` hold (closed when it opens)."""
    return tuple(p for s in ORDER[:ORDER.index(stage)] for p in turns.STAGE_PHASES.get(s, ()))


def next_play_stage(session: ClassSession, tables: list[Table],
                    states: Mapping[int, GameState]) -> str:
    """The next stage with something for a team to do at some table, once the stages before
    it are closed with their defaults (Production is skipped when nobody has a Company to run,
    Exports when nobody has a Manager there); Evaluation always comes."""
    for stage in ORDER[ORDER.index(session.stage) + 1:]:
        if stage not in turns.STAGE_PHASES:
            return stage
        for table in tables:
            state = states[table.pk]
            if state.phase == OVER:
                continue
            closed = state.clone()
            seats = table_seats(table)
            for move in turns.closing_moves(table, closed, phases_before(stage), seats,
                                           end_round=False):
                closed, _e = engine.apply(closed, move)
            if turns.open_decisions(closed, turns.STAGE_PHASES[stage]):
                return stage
    return EVALUATION


def on_step(table: Table, state: GameState, *, before: str, plan: StepPlan,
            step: TeacherStep) -> GameState:
    """Close the stage the lesson leaves: its unanswered decisions take their defaults; into
    Evaluation, the rest of the round is played out (the held move first)."""
    if before not in turns.STAGE_PHASES:
        return state
    end_round = plan.stage == EVALUATION
    phases = ALL_PHASES if end_round else phases_before(plan.stage)
    seats = table_seats(table)
    for move in turns.closing_moves(table, state, phases, seats, end_round=end_round):
        state, _e = apply_action(table, state, move, actor=Actor.TEACHER, step=step)
    return state


def step_label(plan: StepPlan) -> Any:
    """The teacher's button for the step to ``plan`` (``Lesson.step_label``): the stage it
    opens; None where the platform's words say it (the next round, the final result)."""
    return None if plan.finished else STEP_LABELS.get(plan.stage)
