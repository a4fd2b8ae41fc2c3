"""Crisis's own actions: the captain's move, a teammate's suggestion, the production planner,
and the teacher's "turns that are due".

Every phone action locks its table (``facilitator.services.seat_turn``), checks the lesson's
moment (``turns``), changes nothing when refused, and tells the screens after the commit.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.kit import (
    apply_action,
    broadcast,
    check_can_drive,
    last_step,
    load_state,
    locked_session,
    parties,
    seat_turn,
    table_settle,
)
from facilitator.lessons.crisis import turns
from facilitator.lessons.crisis.models import HeldMove, Suggestion
from facilitator.lessons.crisis.words import plan_error
from facilitator.models import ClassSession, Seat, Table, TableAction
from games import crisis as engine
from games.core import Decision
from games.crisis import production
from games.crisis.state import GameState

Actor = TableAction.Actor
ACTION_MAX = 4000  # characters of an action's JSON


def parse_action(raw: Any) -> dict[str, Any]:
    """An action as a phone sends it: an object, or its JSON (a form button's value)."""
    if isinstance(raw, str):
        if len(raw) > ACTION_MAX:
            raise ServiceError("bad_action", _("That move is too long."))
        try:
            raw = json.loads(raw)
        except ValueError:
            raise ServiceError("bad_action", _("That move could not be read.")) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ServiceError("bad_action", _("A move names its type, e.g. 'place'."))
    return dict(raw)


def _canonical(action: dict[str, Any]) -> dict[str, Any]:
    out = dict(action)
    if out.get("type") == "resolve" and isinstance(out.get("choice"), int):
        out["choice"] = str(out["choice"])
    return out


def _decision_for(session: ClassSession, state: GameState, team: str,
                  decision: str | None, action: dict[str, Any]) -> Decision | None:
    """The open decision ``action`` answers (None for a repay or an Influence card), or the
    specific refusal."""
    kind = action["type"]
    if kind in turns.ANY_TIME:
        if not turns.may_act_any_time(session, state, team):
            raise ServiceError("not_now", _("Loans are repaid and Influence cards played on your "
                                            "turn at Planning, or during Production and "
                                            "Exports."), status=409)
        return None
    if kind not in turns.TURN_ACTIONS:
        raise ServiceError("bad_action", _("Unknown move."))
    mine = turns.team_decisions(session, state, team)
    if not mine:
        if turns.stage_decisions(session, state):
            raise ServiceError("not_your_turn", _("It is not your team's turn."), status=409)
        raise ServiceError("not_now", _("Wait for your teacher to open the next part of the "
                                        "round."), status=409)
    wanted = next((d for d in mine if d.id == decision), None)
    if wanted is None:
        raise ServiceError("stale_decision", _("That decision is no longer open; your screen "
                                               "has been updated."), status=409)
    answers = {"place": ("place",), "resolve": ("resolve",), "produce": ("produce",),
               "export": ("export", "black_market", "pass")}[wanted.kind]
    if kind not in answers:
        raise ServiceError("bad_action", _("That move does not answer this decision."))
    return wanted


def check_move(session: ClassSession, state: GameState, team: str, decision: str | None,
               raw: Any) -> tuple[dict[str, Any], Decision | None]:
    """The move as the engine takes it, checked against its legal actions (a production plan:
    by the engine's own check, whose reason is shown in plain words)."""
    action = _canonical({**parse_action(raw), "player": team})
    wanted = _decision_for(session, state, team, decision, action)
    if action["type"] == "produce":
        preview = engine.preview_production(state, team, action.get("plan"))
        if not preview["ok"]:
            raise ServiceError("bad_plan", plan_error(preview))
        return action, wanted
    if action not in [_canonical(a) for a in engine.legal_actions(state, team)]:
        raise ServiceError("illegal_move", _("That move is not open to your team now."))
    return action, wanted


@transaction.atomic
def move_submit(*, seat_id: int, decision: str | None, action: Any,
                expected: str | None = None, token_hash: str | None = None) -> str:
    """The captain's move for the team: applied now, or held until Evaluation when it would
    end the round (``turns``). Returns "done" or "held"."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash, captain_only=True)
    state = load_state(table)
    move, wanted = check_move(session, state, seat.player_name, decision, action)
    step = last_step(session)
    if wanted is not None and turns.ends_round(state, move):
        HeldMove.objects.filter(table=table).delete()
        HeldMove.objects.create(table=table, seat=seat, step=step, decision=wanted.id,
                                action=move, created_at=kit.now())
        broadcast.refresh(session.pk, [s.pk for s in seats])
        return "held"
    whose, how = parties.on_whose_behalf(seat, seats, session.round)
    state, _e = apply_action(table, state, move, actor=Actor.SEAT, seat=seat, step=step,
                             on_behalf=whose, how=how)
    table_settle(table, session, step, state, seats)
    broadcast.refresh(session.pk, [s.pk for s in seats])
    return "done"


def _suggestion_target(session: ClassSession, state: GameState, seat: Seat,
                       decision: str) -> Decision:
    wanted = next((d for d in turns.team_decisions(session, state, seat.player_name)
                   if d.id == decision), None)
    if wanted is None:
        raise ServiceError("stale_decision", _("That decision is no longer open; your screen "
                                               "has been updated."), status=409)
    return wanted


def _keep(table: Table, seat: Seat, session: ClassSession, decision: str,
          action: dict[str, Any]) -> None:
    Suggestion.objects.update_or_create(
        seat=seat, decision=decision,
        defaults={"table": table, "player": seat.player_name, "action": action,
                  "step": last_step(session), "created_at": kit.now()})


@transaction.atomic
def suggest_submit(*, seat_id: int, decision: str, action: Any, expected: str | None = None,
                   token_hash: str | None = None) -> None:
    """A team member's suggestion for one of the team's open decisions (one per member and
    decision: a new one replaces it). Shown to the team; never a move."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    state = load_state(table)
    move, wanted = check_move(session, state, seat.player_name, decision, action)
    if wanted is None:
        raise ServiceError("bad_action", _("Suggest a space, an option or a plan."))
    _keep(table, seat, session, wanted.id, move)
    broadcast.refresh(session.pk, [s.pk for s in seats if s.player_name == seat.player_name])


def team_suggestions(table: Table, state: GameState, team: str) -> list[Suggestion]:
    """The team's suggestions for its decisions still open, oldest first."""
    open_ = {d.id for d in engine.decisions(state) if team in d.deciders} \
        if state.phase != "over" else set()
    return [s for s in Suggestion.objects.filter(table=table, player=team)
            .select_related("seat").order_by("created_at", "pk") if s.decision in open_]


# ------------------------------------------------------------------ the production planner

PLAN_OPS = ("company", "staff", "bonus", "unseat", "auto", "clear")


def draft_of(table: Table, seat: Seat, decision: str) -> list[dict[str, Any]]:
    mine = Suggestion.objects.filter(seat=seat, decision=decision).first()
    return [dict(e) for e in mine.action.get("plan", [])] if mine else []


def edit_plan(plan: list[dict[str, Any]], op: str, company: str | None, tile: str | None,
              state: GameState, team: str) -> list[dict[str, Any]]:
    """One tap of the planner: add or drop a Company, seat an Employee on its necessary
    (``staff``) or bonus slots, take an Employee out, the automatic plan, or clear."""
    p = state.player(team)
    plan = [{"company": e["company"], "staff": list(e["staff"]), "bonus": list(e["bonus"])}
            for e in plan]
    if op == "clear":
        return []
    if op == "auto":
        return production.auto_plan(state, p)
    if op == "company":
        if company not in p.companies:
            raise ServiceError("bad_plan", _("Your team does not own that Company."))
        if any(e["company"] == company for e in plan):
            return [e for e in plan if e["company"] != company]
        return [*plan, {"company": company, "staff": [], "bonus": []}]
    if tile not in p.employees:
        raise ServiceError("bad_plan", _("Your team has no such Employee."))
    for e in plan:  # an Employee works in one Company per round
        e["staff"] = [t for t in e["staff"] if t != tile]
        e["bonus"] = [t for t in e["bonus"] if t != tile]
    if op == "unseat":
        return plan
    entry = next((e for e in plan if e["company"] == company), None)
    if entry is None:
        raise ServiceError("bad_plan", _("Pick the Company first."))
    entry[op].append(tile)
    return plan


@transaction.atomic
def plan_change(*, seat_id: int, decision: str, op: str, company: str | None = None,
                tile: str | None = None, expected: str | None = None,
                token_hash: str | None = None) -> None:
    """A tap of the production planner: changes the member's own draft (a suggestion, which
    the captain confirms as the team's move); the phone shows the engine's preview."""
    seat, table, session, _seats = seat_turn(seat_id, expected, token_hash)
    state = load_state(table)
    wanted = _suggestion_target(session, state, seat, decision)
    if wanted.kind != "produce":
        raise ServiceError("bad_action", _("Only Production has a planner."))
    if op not in PLAN_OPS:
        raise ServiceError("bad_action", _("Unknown planner step."))
    plan = edit_plan(draft_of(table, seat, wanted.id), op, company, tile, state,
                     seat.player_name)
    _keep(table, seat, session, wanted.id,
          {"type": "produce", "player": seat.player_name, "plan": plan})
    broadcast.refresh(session.pk, [seat.pk])


# ------------------------------------------------------------------ the teacher


@transaction.atomic
def turns_due(*, session: ClassSession, expected: str | None = None) -> list[int]:
    """Every table whose open turn's time is up takes its default now (``turns.turn_due``);
    the table numbers."""
    session = locked_session(session)
    check_can_drive(session, expected)
    step = last_step(session)
    moved = []
    for table in session.tables.select_for_update().order_by("number"):
        before = table.actions.count()
        table_settle(table, session, step)
        if table.actions.count() != before:
            moved.append(table.number)
    if not moved:
        raise ServiceError("no_turn_due", _("No turn has run out of time."), status=409)
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return moved
