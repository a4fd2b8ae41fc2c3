"""Motions: a student asks the table to decide something the minister would otherwise
decide, from their phone; classmates support it in public; once enough do, the teacher may
open it as a secret table ballot (``y<year>.motion<n>``, options ``no``/``yes``).

A motion asks only what the engine can decide at that moment:

- ``action``: an Action now legal (Raise Taxes, Borrow Money, Pay Loan, Feed the War, ...),
  during the year; ``institution``: bringing in an extra institution (an Action too);
- ``policy``: turning a policy card, while the table waits at Year End for its policy turn;
- ``ballot``: taking a kind of decision (``event``, ``cuts``, ``income``, ``actions``) from
  the minister to a table ballot for the rest of the year (from the year's budget session to
  its end).

**Support.** The student who raises a motion supports it. It is *ready* when
``support_needed`` students support it: a quarter of the table's seats rounded up, at least
2 (one student alone never calls a table vote), but never more than the students at the table
(a student seated with bots can still bring one). Supporting is public; the ballot is secret.

**Carried** (more ``yes`` than ``no``; a tie is not carried): the Action or the policy turn
is applied in the teacher's name, or the kind becomes a table ballot for the rest of the year.
A motion that became impossible (the Action is no longer legal, the year is over) is dropped
with its reason, and so is one carried when its Action is no longer legal at the count.
The platform holds one open bag per table: a motion's ballot opens only when none is open.
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.kit import (
    Ballot,
    apply_action,
    bags,
    broadcast,
    check_can_drive,
    last_step,
    load_state,
    locked_session,
    seat_turn,
    table_seats,
    table_settle,
)
from facilitator.lessons.austerity import modes, pacing, script
from facilitator.lessons.austerity.models import Motion, Support, TablePlay
from facilitator.models import ClassSession, Seat, Table, TableAction, TeacherStep
from games.austerity import data
from games.austerity.choices import action_options, policy_options
from games.austerity.state import POLICY, GameState

Actor = TableAction.Actor
ACTION, INSTITUTION, POLICY_MOTION, BALLOT = "action", "institution", "policy", "ballot"
MOTION_KINDS = (ACTION, INSTITUTION, POLICY_MOTION, BALLOT)
NO, YES = script.NO, script.YES
OPTIONS = [NO, YES]  # "no" first: a tie is not carried (the first listed wins)
YEAR_OVER, IMPOSSIBLE = "year_over", "impossible"
REASONS = {YEAR_OVER: gettext_lazy("The year it was for is over."),
           IMPOSSIBLE: gettext_lazy("The game can no longer do what it asks.")}
VARIANTS = (":current", ":treasury")  # how an option pays: a motion names the plain option


def decision_id(year: int, number: int) -> str:
    return f"y{year}.motion{number}"


def parse_id(decision: Any) -> tuple[int, int] | None:
    """``"y3.motion2"`` → (3, 2); anything else: None."""
    if not isinstance(decision, str) or ".motion" not in decision:
        return None
    year, _sep, number = decision.partition(".motion")
    if not (year[:1] == "y" and year[1:].isdigit() and number.isdigit()):
        return None
    return int(year[1:]), int(number)


def kind_of(target: str) -> str:
    """The kind of motion a target names (targets of different kinds never coincide)."""
    if target in modes.KINDS:
        return BALLOT
    if target.startswith(f"{data.OPEN}:"):
        return INSTITUTION
    return POLICY_MOTION if target.startswith("turn:") else ACTION


def support_needed(seats: list[Seat]) -> int:
    """Supporters that make a motion ready (see the module docstring)."""
    voting = [s for s in seats if s.shares_id is None and not s.removed]
    students = sum(1 for s in voting if not s.is_bot)
    return max(1, min(students, max(2, math.ceil(len(voting) / 4))))


def choices_now(session: ClassSession, state: GameState, play_modes: dict[str, Any]
                ) -> list[tuple[str, str]]:
    """Every (kind, target) a student may raise at this table now."""
    if session.status != ClassSession.Status.RUNNING:
        return []
    year = script.year_of(session)
    out: list[tuple[str, str]] = []
    if script.minister_may_act(session, state):
        for name in action_options(state):
            if not name.endswith(VARIANTS):
                out.append((INSTITUTION if name.startswith(f"{data.OPEN}:") else ACTION, name))
    if (session.stage in (script.YEAR, script.YEAR_END) and state.stage == POLICY
            and state.year == year):
        out += [(POLICY_MOTION, name) for name in policy_options(state) if name != script.KEEP]
    if (session.stage in script.STAGE_ITEMS or session.stage == script.YEAR) \
            and not script.year_done(state, year):
        out += [(BALLOT, kind) for kind in modes.KINDS
                if modes.mode_in(play_modes, kind, year) != modes.BALLOT]
    return out


def label(kind: str, target: str) -> str:
    """What the motion asks, in a sentence for the screens."""
    if kind == BALLOT:
        return _("The table votes on %(kind)s for the rest of the year.") % {
            "kind": str(modes.KIND_NAMES.get(target, target)).lower()}
    if kind == INSTITUTION:
        inst = data.INSTITUTIONS.get(target.split(":", 1)[1])
        return _("Bring in %(institution)s.") % {
            "institution": _(inst.name) if inst else target}
    if kind == POLICY_MOTION:
        card = data.POLICY_CARDS.get(target.split(":", 1)[1])
        return _("Turn the %(card)s card.") % {"card": _(card.name) if card else target}
    name = data.ACTION_NAMES.get(target)
    return _("%(action)s now.") % {"action": _(name) if name else target}


def possible(motion: Motion, session: ClassSession, state: GameState,
             play_modes: dict[str, Any]) -> str | None:
    """None if the motion can still be decided; else why not (a ``REASONS`` key)."""
    if motion.year != script.year_of(session) or (
            motion.kind != POLICY_MOTION and script.year_done(state, motion.year)):
        return YEAR_OVER
    if (motion.kind, motion.target) not in choices_now(session, state, play_modes):
        return IMPOSSIBLE
    return None


def _voting_ids(table: Table) -> set[str]:
    bag = bags.open_bag(table)
    return {bag.decision} if bag is not None else set()


def review(table: Table, session: ClassSession, state: GameState, play: TablePlay) -> None:
    """Drop every open motion of the table that became impossible (not one being voted)."""
    voting = _voting_ids(table)
    for motion in Motion.objects.filter(table=table, status=Motion.Status.OPEN):
        if decision_id(motion.year, motion.number) in voting:
            continue
        reason = possible(motion, session, state, play.modes)
        if reason is not None:
            motion.status, motion.reason = Motion.Status.DROPPED, reason
            motion.save(update_fields=["status", "reason"])


def counted(table: Table, state: GameState, decision: str, choice: str, tie: bool,
            step: TeacherStep | None) -> GameState:
    """The motion's ballot was counted: carried, not carried, or dropped (its Action is no
    longer legal)."""
    parsed = parse_id(decision)
    assert parsed is not None
    motion = Motion.objects.get(table=table, year=parsed[0], number=parsed[1])
    motion.tie = tie
    motion.status = Motion.Status.CARRIED if choice == YES else Motion.Status.REJECTED
    if choice == YES:
        action: dict[str, Any] | None = None
        if motion.kind in (ACTION, INSTITUTION) and motion.target in action_options(state):
            action = {"type": "action", "choice": motion.target}
        elif motion.kind == POLICY_MOTION and motion.target in policy_options(state):
            action = {"type": "policy", "choice": motion.target}
        if action is not None:
            # the class's motion: the table's secret vote decided it, not the teacher
            state, _e = apply_action(table, state, action, actor=Actor.TEACHER, step=step,
                                     how=TableAction.How.VOTE)
        elif motion.kind == BALLOT:
            modes.set_mode(modes.play_of(table), motion.target, modes.BALLOT, motion.year)
        else:
            motion.status, motion.reason = Motion.Status.DROPPED, IMPOSSIBLE
    motion.save(update_fields=["tie", "status", "reason"])
    return state


# ------------------------------------------------------------------ for the screens


def motions_info(table: Table, session: ClassSession, state: GameState,
                 play_modes: dict[str, Any], seats: list[Seat],
                 seat: Seat | None = None, voting: set[str] | None = None
                 ) -> list[dict[str, Any]]:
    """This year's motions at the table, in order (``voting``: the open bag's decision,
    if the caller has read it)."""
    year = script.year_of(session)
    needed = support_needed(seats)
    voting = _voting_ids(table) if voting is None else voting
    names = {s.pk: s.nickname for s in seats}
    out = []
    for motion in kit.remembered(  # read once for the phones rendered together
            ("austerity.motions", table.pk, year),
            lambda: list(Motion.objects.filter(table=table, year=year).order_by("number")
                         .prefetch_related("supports"))):
        backers = sorted(names.get(s.seat_id, "") for s in motion.supports.all())
        decision = decision_id(motion.year, motion.number)
        status = "voting" if decision in voting else motion.status
        reason = possible(motion, session, state, play_modes) \
            if status == Motion.Status.OPEN else (motion.reason or None)
        out.append({
            "decision": decision, "number": motion.number, "kind": motion.kind,
            "target": motion.target, "label": label(motion.kind, motion.target),
            "raised_by": names.get(motion.raised_by_id or 0, ""),
            "raised_by_seat": motion.raised_by_id,
            "supporters": backers, "support": len(backers), "needed": needed,
            "ready": status == Motion.Status.OPEN and reason is None
            and len(backers) >= needed,
            "status": status, "possible": reason is None,
            "reason": str(REASONS[reason]) if reason else "",
            "tie": motion.tie,
            "supported": seat is not None and any(s.seat_id == seat.pk
                                                  for s in motion.supports.all()),
        })
    return out


# ------------------------------------------------------------------ services


def _motion_of(table: Table, decision: Any) -> Motion:
    parsed = parse_id(decision)
    motion = (Motion.objects.filter(table=table, year=parsed[0], number=parsed[1]).first()
              if parsed else None)
    if motion is None:
        raise ServiceError("no_motion", _("There is no such motion at this table."),
                           status=404)
    return motion


def _check_possible(motion: Motion, session: ClassSession, state: GameState,
                    play: TablePlay) -> None:
    reason = possible(motion, session, state, play.modes)
    if reason is not None:
        motion.status, motion.reason = Motion.Status.DROPPED, reason
        motion.save(update_fields=["status", "reason"])
        raise ServiceError("motion_dropped", _("This motion was dropped: %(why)s")
                           % {"why": REASONS[reason]}, status=409)


def motion_raise(*, seat_id: int, kind: Any, target: Any, expected: str | None = None,
                 token_hash: str | None = None) -> str:
    """A student raises a motion (and supports it); returns its decision id. Refused for
    what the engine cannot decide now, for a motion already open at the table (support it
    instead), and for a second open motion of the same student."""
    with transaction.atomic():
        seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
        if seat.is_bot:
            raise ServiceError("not_a_student", _("Bots raise no motions."), status=403)
        state = load_state(table)
        play = modes.play_of(table)
        if kind not in MOTION_KINDS:
            raise ServiceError("bad_motion", _("Unknown kind of motion."))
        if (kind, target) not in choices_now(session, state, play.modes):
            raise ServiceError("not_possible", _(
                "The game cannot decide that now; your screen lists what you may raise."),
                status=409)
        review(table, session, state, play)
        open_ = Motion.objects.filter(table=table, status=Motion.Status.OPEN)
        same = open_.filter(kind=kind, target=target).first()
        if same is not None:
            raise ServiceError("already_raised", _(
                "Motion %(n)d already asks this: support it instead.") % {"n": same.number},
                status=409)
        if open_.filter(raised_by=seat).exists():
            raise ServiceError("one_motion", _(
                "You already have a motion open: wait until it is decided."), status=409)
        year = script.year_of(session)
        number = Motion.objects.filter(table=table, year=year).count() + 1
        motion = Motion.objects.create(table=table, year=year, number=number, kind=kind,
                                       target=target, raised_by=seat,
                                       created_at=kit.now())
        Support.objects.create(motion=motion, seat=seat)
        broadcast.refresh(session.pk, [s.pk for s in seats])
    return decision_id(year, number)


@transaction.atomic
def motion_support(*, seat_id: int, motion: Any, expected: str | None = None,
                   token_hash: str | None = None) -> None:
    """A student supports a motion of their table (public). Refused twice, and for a motion
    decided, being voted on, or no longer possible (then it is dropped)."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    if seat.is_bot:
        raise ServiceError("not_a_student", _("Bots support no motions."), status=403)
    found = _motion_of(table, motion)
    if found.status != Motion.Status.OPEN or decision_id(found.year, found.number) in \
            _voting_ids(table):
        raise ServiceError("motion_closed", _("This motion is no longer gathering support."),
                           status=409)
    _check_possible(found, session, load_state(table), modes.play_of(table))
    if Support.objects.filter(motion=found, seat=seat).exists():
        raise ServiceError("already_supported", _("You already support this motion."),
                           status=409)
    Support.objects.create(motion=found, seat=seat)
    broadcast.refresh(session.pk, [s.pk for s in seats])


@transaction.atomic
def motion_open(*, session: ClassSession, table: Any, motion: Any,
                expected: str | None = None) -> None:
    """The teacher opens a ready motion as a secret table ballot. Refused while another
    bag is open at the table (one open bag per table), before it is ready, and for a motion
    no longer possible (then it is dropped)."""
    session = locked_session(session)
    check_can_drive(session, expected)
    found_table = locked_table(session, table)
    if session.stage not in (script.YEAR, script.YEAR_END):
        raise ServiceError("not_now", _("Motions are voted on during the year and at Year "
                                        "End."), status=409)
    found = _motion_of(found_table, motion)
    if found.status != Motion.Status.OPEN:
        raise ServiceError("motion_closed", _("This motion has been decided already."),
                           status=409)
    bag = bags.open_bag(found_table)
    if bag is not None:
        raise ServiceError("table_voting", _(
            "Table %(n)d is already voting: count that vote first (one vote at a time at a "
            "table).") % {"n": found_table.number}, status=409)
    state = load_state(found_table)
    play = modes.play_of(found_table)
    _check_possible(found, session, state, play)
    seats = table_seats(found_table)
    supporters = Support.objects.filter(motion=found).count()
    needed = support_needed(seats)
    if supporters < needed:
        raise ServiceError("not_ready", _(
            "This motion needs %(needed)d supporters; it has %(have)d.")
            % {"needed": needed, "have": supporters}, status=409)
    step = last_step(session)
    kit.vote_open(found_table, Ballot(decision_id(found.year, found.number), OPTIONS),
                       step)  # type: ignore[arg-type]
    pacing.mark(play, pacing.wait_now(found_table, session, state, play))
    table_settle(found_table, session, step, state, seats)
    broadcast.refresh(session.pk, [s.pk for s in seats])


def locked_table(session: ClassSession, number: Any) -> Table:
    """The session's table ``number``, locked for the teacher's change."""
    found = (Table.objects.select_for_update().filter(session=session, number=number).first()
             if isinstance(number, int) and not isinstance(number, bool) else None)
    if found is None:
        raise ServiceError("not_found", _("There is no such table."), status=404)
    return found

