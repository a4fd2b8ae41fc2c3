"""State in Class's lesson script: its stages, what the teacher's "next" does at each, and
what each step closes and opens at every table.

A round: event → debate (a timer) → tax vote → pay → budget vote → end of round; round 4, the
Midlife Crossroads, goes event → midlife (one card read per press) → end of round. Every table
moves on together. Stage values are stored in ``ClassSession.stage`` (and in the teacher's
steps): they never change.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.kit import Ballot, StepPlan, apply_action
from facilitator.lessons.state_in_class import pacing
from facilitator.lessons.state_in_class.pacing import VOTE_STAGES
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.models import Bag, ClassSession, Table, TableAction, TeacherStep
from games.state_in_class import data

Actor = TableAction.Actor


VOTE_OPTIONS = {"tax": data.TAX_OPTIONS, "budget": data.SERVICES}
# The vote just counted, at the moment the teacher shows its result.
COUNTED_AT = {Stage.PAY: "tax", Stage.END_OF_ROUND: "budget"}
DEFAULT_DEBATE_SECONDS = 120


def decision_id(round_: int, kind: str) -> str:
    """The secret decision a bag settles: round 3's tax vote is ``"3:tax"``."""
    return f"{round_}:{kind}"


def held_back(table: Table) -> Any:
    """In a voting stage whose bag its last token counted: the game just before that count
    (the count, the payments, a tie and what the engine then played by itself wait for the
    teacher's next step: ``pacing.tie_shown``); None otherwise (``Lesson.held_back``)."""
    session = table.session
    kind = VOTE_STAGES.get(session.stage)
    if kind is None:
        return None
    if not table.bags.filter(decision=decision_id(session.round, kind),
                             status=Bag.Status.COUNTED).exists():
        return None
    # Its count is the record's last of that kind (the engine's ``count`` names its kind).
    actions = kit.record_actions(table)
    cut = max(n for n, a in enumerate(actions) if a.get("type") == "count"
              and a.get("kind", kind) == kind)
    engine = kit.engine_of(table)
    state, _events = engine.replay_actions(engine.new_game(table.config, table.seed),
                                           actions[:cut])
    return state


def cards_read(session: ClassSession) -> int:
    """Midlife cards the class has seen: the press that opened the Crossroads shows the
    first, each teacher step of kind "card" one more (so undo hides the last again)."""
    if session.stage != Stage.MIDLIFE:
        return 0
    return 1 + session.steps.filter(kind="card", round_before=session.round,
                                    stage_before=session.stage).count()


def stage_id(session: ClassSession) -> str:
    """In the Midlife stage each card read is a moment of its own (a second press of the
    teacher's button for the same card is stale, not a second card)."""
    if session.stage == Stage.MIDLIFE:
        return f"{session.round}:{session.stage}:{cards_read(session)}"
    return f"{session.round}:{session.stage}"


def next_stage(stage: str, rnd: int) -> tuple[str, int]:
    """The lesson's stage sequence (round 4 is the Midlife Crossroads: no debate, no votes)."""
    if stage == Stage.PACT:
        return Stage.EVENT, 1
    if stage == Stage.EVENT:
        return (Stage.MIDLIFE if rnd == data.MIDLIFE_ROUND else Stage.DEBATE), rnd
    if stage in (Stage.BUDGET_VOTE, Stage.MIDLIFE):
        return Stage.END_OF_ROUND, rnd
    if stage == Stage.END_OF_ROUND:
        return (Stage.FINAL, rnd) if rnd >= data.ROUNDS else (Stage.EVENT, rnd + 1)
    following = {Stage.DEBATE: Stage.TAX_VOTE, Stage.TAX_VOTE: Stage.PAY,
                 Stage.PAY: Stage.BUDGET_VOTE}
    return following[stage], rnd


def _cards_to_read(tables: list[Table], states: dict[int, Any], rnd: int) -> int:
    """The most Midlife cards drawn at any table in round ``rnd`` (a table whose State
    failed at a card drew no more)."""
    drawn = [len(states[t.pk].history[rnd - 1].get("midlife") or [])
             for t in tables if len(states[t.pk].history) >= rnd]
    return max(drawn, default=0)


def _after_failure(session: ClassSession, tables: list[Table], states: dict[int, Any],
                   normal: tuple[str, int]) -> tuple[str, int]:
    """The State failed at every table: walk on to the moment of the (last) failure, so the
    class sees it happen, then go to the final count."""
    moments = [pacing.failure_key(True, states[t.pk].round, states[t.pk].history)
               for t in tables if states[t.pk].failed]
    target = max((m for m in moments if m), default=None)
    if target and pacing.stage_key(session.round, session.stage,
                                   cards_read(session)) < target:
        nxt, nrnd = normal
        if pacing.stage_key(nrnd, nxt) > target:
            return pacing.ROUND_STAGES[target[1]], target[0]
        return normal
    return Stage.FINAL, session.round


__all__ = ["Stage"]


def plan_step(session: ClassSession, tables: list[Table], states: dict[int, Any]) -> StepPlan:
    stage, rnd = session.stage, session.round
    if stage == Stage.FINAL:
        raise ServiceError("read_only", _("The lesson is over."))
    live = [t for t in tables if states[t.pk].phase != "over"]
    waiting = [t.number for t in live if states[t.pk].phase == "tie_break"]
    if waiting and stage in (Stage.PAY, Stage.END_OF_ROUND):
        raise ServiceError("tie_break_pending", ngettext(
            "Waiting for a tie-break at table %(tables)s.",
            "Waiting for tie-breaks at tables %(tables)s.", len(waiting)) % {
                "tables": ", ".join(map(str, waiting))})
    if stage == Stage.MIDLIFE and cards_read(session) < _cards_to_read(tables, states, rnd):
        return StepPlan(stage, rnd, kind="card")  # the next card at every table: no action
    # Leave the normal sequence only when the State failed at every table (a last budget
    # vote that closes itself also ends a game, and round 8's end of round still comes).
    nxt, nrnd = next_stage(stage, rnd)
    if not live and all(states[t.pk].failed for t in tables):
        nxt, nrnd = _after_failure(session, tables, states, (nxt, nrnd))
    timer = (session.options.get("debate_seconds", DEFAULT_DEBATE_SECONDS)
             if nxt == Stage.DEBATE else None)
    return StepPlan(nxt, nrnd, timer=timer, finished=nxt == Stage.FINAL)


def on_step(table: Table, state: Any, *, before: str, plan: StepPlan,
            step: TeacherStep) -> Any:
    if before == Stage.PACT:
        state = _close_pact(table, state, step)
    elif before in VOTE_STAGES:
        kind = VOTE_STAGES[before]
        if state.phase == f"{kind}_vote":
            state = kit.vote_close(table, state, decision_id(state.round, kind), step,
                                        Actor.TEACHER, confirmed=plan.confirmed)
    if plan.stage in VOTE_STAGES:
        kind = VOTE_STAGES[plan.stage]
        kit.vote_open(table, Ballot(decision_id(state.round, kind),
                                         list(VOTE_OPTIONS[kind])), step)
    return state


def _close_pact(table: Table, state: Any, step: TeacherStep) -> Any:
    """Whoever has not contributed when the teacher moves on contributes nothing."""
    for p in state.players:
        if state.phase == "pact" and p.pact is None:
            state, _e = apply_action(table, state, {"type": "pact", "player": p.name,
                                                    "coins": 0}, actor=Actor.TEACHER, step=step)
    return state


def ballot_for(session: ClassSession, state: Any) -> Ballot | None:
    kind = VOTE_STAGES.get(session.stage)
    if kind is None or state.phase != f"{kind}_vote":
        return None
    return Ballot(decision_id(state.round, kind), list(VOTE_OPTIONS[kind]))


def ballot_decision(session: ClassSession, kind: Any) -> str:
    if not isinstance(kind, str) or kind not in VOTE_OPTIONS:
        raise ServiceError("bad_kind", _("Unknown vote."))
    if VOTE_STAGES.get(session.stage) != kind:
        raise ServiceError("vote_closed", _("This vote is not open."), status=409)
    return decision_id(session.round, kind)
