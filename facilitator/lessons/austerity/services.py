"""Austerity's own actions: the Finance Minister's answer to the engine's decision (a
student), and the teacher's: answering a decision at a table, switching who decides a kind,
the timers, counting a table's vote, a timer that ran out, and ending the lesson at Year End.
Motions are in ``motions``."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.kit import (
    apply_action,
    bags,
    broadcast,
    check_can_drive,
    engine_of,
    last_step,
    load_state,
    locked_session,
    record_step,
    seat_turn,
    table_seats,
    table_settle,
    vote_close,
)
from facilitator.lessons.austerity import modes, pacing, script, turns
from facilitator.lessons.austerity import options as lesson_options
from facilitator.lessons.austerity.models import Motion
from facilitator.lessons.austerity.motions import locked_table
from facilitator.models import ClassSession, Table, TableAction

Actor = TableAction.Actor
How = TableAction.How
Status = ClassSession.Status


def _open_decision(table: Table, state: Any, decision: Any, choice: Any) -> Any:
    """The engine's open decision ``decision`` and its answer ``choice`` (checked)."""
    open_ = {d.id: d for d in engine_of(table).decisions(state)}
    if decision not in open_:
        raise ServiceError("stale_decision", _("That decision is no longer open; your screen "
                                               "has been updated."), status=409)
    wanted = open_[decision]
    if choice not in wanted.options:
        raise ServiceError("bad_choice", _("That is not one of the options."))
    return wanted


def _not_voting(table: Table) -> None:
    if bags.open_bag(table) is not None:
        raise ServiceError("table_voting", _("The table is voting: the game waits for the "
                                             "count."), status=409)


@transaction.atomic
def decide(*, seat_id: int, decision: Any, choice: Any, expected: str | None = None,
           token_hash: str | None = None) -> None:
    """The minister's answer to one of the engine's open decisions (``decision``: its id,
    ``choice``: one of its options). Refused for anyone but this year's minister, outside the
    year, while the table votes, for a kind the table votes on or the teacher took over, for
    a decision no longer open, and for an option it does not list."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    state = load_state(table)
    if not script.minister_may_act(session, state):
        raise ServiceError("not_now", _("The Finance Minister decides during the year only."),
                           status=409)
    year = script.year_of(session)
    if script.minister_acting(seats, year) != seat:
        raise ServiceError("not_minister", _("Only this year's Finance Minister decides this."),
                           status=403)
    minister = script.minister(seats, year)
    wanted = _open_decision(table, state, decision, choice)
    _not_voting(table)
    play = modes.play_of(table)
    who = modes.answered_by(play.modes, script.year_of(session), wanted)
    if who == modes.BALLOT:
        raise ServiceError("table_decides", _("The table votes on this decision this year."),
                           status=409)
    if who == modes.TEACHER:
        raise ServiceError("teacher_decides", _("Your teacher takes this decision."),
                           status=409)
    step = last_step(session)
    state, _e = apply_action(table, state, script.engine_action(wanted, choice),
                             actor=Actor.SEAT, seat=seat, step=step, on_behalf=minister,
                             how=How.CHOSE if minister == seat else How.STAND_IN)
    state = turns.follow(table, session, state, step)
    table_settle(table, session, step, state, seats)
    broadcast.refresh(session.pk, [s.pk for s in seats])


def _teacher_table(session: ClassSession, number: Any, expected: str | None
                   ) -> tuple[ClassSession, Table]:
    session = locked_session(session)
    check_can_drive(session, expected)
    if session.status != Status.RUNNING:
        raise ServiceError("read_only", _("This lesson is over."), status=409)
    return session, locked_table(session, number)


def _moved_on(session: ClassSession, table: Table, state: Any) -> None:
    """After the teacher's change at a table: it moves on to its next wait, bots act."""
    step = last_step(session)
    state = turns.follow(table, session, state, step)
    table_settle(table, session, step, state)
    broadcast.refresh(session.pk, table.seats.values_list("pk", flat=True))


@transaction.atomic
def teacher_decide(*, session: ClassSession, table: Any, decision: Any, choice: Any,
                   expected: str | None = None) -> None:
    """The teacher's console answers the engine's open decision at a table (a kind taken
    over, or for an absent minister). Refused outside the year and while the table votes."""
    session, found = _teacher_table(session, table, expected)
    state = load_state(found)
    if not script.minister_may_act(session, state):
        raise ServiceError("not_now", _("Table %(n)d is not playing its year now.")
                           % {"n": found.number}, status=409)
    wanted = _open_decision(found, state, decision, choice)
    _not_voting(found)
    state, _e = apply_action(found, state, script.engine_action(wanted, choice),
                             actor=Actor.TEACHER, step=last_step(session), how=How.TEACHER,
                             on_behalf=script.minister(table_seats(found),
                                                       script.year_of(session)))
    _moved_on(session, found, state)


@transaction.atomic
def mode_switch(*, session: ClassSession, kind: Any, mode: Any, table: Any = None,
                expected: str | None = None) -> None:
    """Who answers ``kind`` (event, cuts, income, actions) from now on at one table, or at
    every table (``table`` None): the minister, a table ballot, or the teacher's console.
    A decision of that kind already pending opens its ballot at once."""
    if kind not in modes.KINDS:
        raise ServiceError("bad_kind", _("Choose events, cuts, income or actions."))
    if mode not in modes.MODES:
        raise ServiceError("bad_mode", _("Choose the minister, a table vote or the teacher."))
    session = locked_session(session)
    check_can_drive(session, expected)
    if session.status != Status.RUNNING:
        raise ServiceError("read_only", _("This lesson is over."), status=409)
    tables = ([locked_table(session, table)] if table is not None
              else list(session.tables.select_for_update().order_by("number")))
    for found in tables:
        modes.set_mode(modes.play_of(found), kind, mode, None)
        _moved_on(session, found, load_state(found))


@transaction.atomic
def timer_set(*, session: ClassSession, kind: Any, seconds: Any,
              expected: str | None = None) -> None:
    """The teacher changes the seconds of one kind of wait (``options.TIMER_KINDS``) for
    the rest of the lesson; a timer already running keeps its start."""
    session = locked_session(session)
    check_can_drive(session, expected)
    if isinstance(seconds, str) and seconds.isascii() and seconds.isdigit():
        seconds = int(seconds)
    if kind not in lesson_options.TIMER_KINDS:
        raise ServiceError("bad_timer", _("Unknown timer."))
    timers = {**lesson_options.timers(session.options), kind: seconds}
    try:
        lesson_options.check_timers(timers)
    except ServiceError as exc:
        raise ServiceError("bad_timer", exc.message) from None
    session.options = {**session.options, "timers": timers}
    session.save(update_fields=["options"])
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))


@transaction.atomic
def ballot_close(*, session: ClassSession, table: Any, expected: str | None = None,
                 confirm: bool = False) -> None:
    """The teacher counts the vote open at a table now (absentees abstain); ``confirm``:
    the teacher confirmed counting with tokens missing (``vote_close``)."""
    session, found = _teacher_table(session, table, expected)
    bag = bags.open_bag(found)
    if bag is None:
        raise ServiceError("vote_closed", _("Table %(n)d has no vote open.")
                           % {"n": found.number}, status=409)
    state = vote_close(found, load_state(found), bag.decision, last_step(session),
                       Actor.TEACHER, confirmed=confirm)
    _moved_on(session, found, state)


def wait_expire(*, session: ClassSession, table: Any, expected: str | None = None) -> None:
    """A table's timer ran out (the console says so at its zero): its vote is counted, or
    the minister's decision takes its default (``turns.default_answer``). Refused before
    the server's clock says it ran out, and for a table whose wait has no timer. A wait
    whose timer never started (after an Undo) starts it now (committed), and says so."""
    with transaction.atomic():
        number = _expire(session, table, expected)
    if number is not None:  # raised after the commit: the timer's start stays
        raise ServiceError("not_yet", _("Table %(n)d's timer starts now.") % {"n": number},
                           status=409)


def _expire(session: ClassSession, table: Any, expected: str | None) -> int | None:
    """Run out the table's timer; the table's number if its timer only started now."""
    session, found = _teacher_table(session, table, expected)
    state = load_state(found)
    play = modes.play_of(found)
    wait = pacing.wait_now(found, session, state, play)
    if wait is None:
        raise ServiceError("no_timer", _("Table %(n)d is not waiting on a timer.")
                           % {"n": found.number}, status=409)
    left = pacing.seconds_left(session, play, wait)
    if left is None:
        pacing.mark(play, wait)
        return found.number
    if left > 0:
        raise ServiceError("not_yet", ngettext("Table %(n)d still has %(s)d second.",
                                               "Table %(n)d still has %(s)d seconds.", left)
                           % {"n": found.number, "s": left}, status=409)
    step = last_step(session)
    if wait[1] == "ballot":
        # the table's timer, shown on its screens, ran out: that is the count's confirmation
        state = vote_close(found, state, wait[0], step, Actor.TEACHER, confirmed=True)
    else:
        # the minister's timer ran out: its stated default is still the minister's decision
        state, _e = apply_action(found, state, turns.default_answer(found, state),
                                 actor=Actor.TEACHER, step=step, how=How.TIMER,
                                 on_behalf=script.minister(table_seats(found),
                                                           script.year_of(session)))
    _moved_on(session, found, state)
    return None


@transaction.atomic
def lesson_end_now(*, session: ClassSession, expected: str | None = None,
                   confirm: bool = False) -> ClassSession:
    """"End the lesson now", at a Year End: the lesson goes to its final result; a country
    whose game is not over is unfinished (``scoring.country_result``). Refused, changing
    nothing, without the teacher's confirmation (``confirm``), at any other moment and while
    a table votes."""
    session = locked_session(session)
    check_can_drive(session, expected)
    if not confirm:
        raise ServiceError("confirm_end", _("Ending the lesson needs your confirmation: press "
                                            "“Yes, end the lesson”."), status=409)
    if session.status != Status.RUNNING or session.stage != script.YEAR_END:
        raise ServiceError("not_year_end", _("The lesson can be ended at a Year End."),
                           status=409)
    tables = list(session.tables.select_for_update().order_by("number"))
    voting = [t.number for t in tables if bags.open_bag(t) is not None]
    if voting:
        raise ServiceError("tables_voting", _("Tables %(tables)s are still voting: count "
                                              "their votes first.")
                           % {"tables": ", ".join(map(str, voting))}, status=409)
    before = (session.stage, session.round)
    session.stage, session.undone, session.timer = script.FINAL, None, None
    session.status, session.finished_at = Status.FINISHED, kit.now()
    session.save(update_fields=["stage", "status", "finished_at", "undone", "timer"])
    record_step(session, "next", *before)
    Motion.objects.filter(table__session=session, status=Motion.Status.OPEN).update(
        status=Motion.Status.DROPPED, reason="year_over")
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session
