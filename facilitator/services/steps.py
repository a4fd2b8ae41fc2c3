"""The teacher's steps: "next" (every table moves on together) and "undo"."""

from __future__ import annotations

import dataclasses

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import bags, broadcast, clock
from facilitator.errors import ServiceError
from facilitator.log import load_state, replay_table, save_state
from facilitator.models import Bag, BallotReceipt, ClassSession, Table
from facilitator.services.sessions import (
    check_can_drive,
    last_step,
    locked_session,
    record_step,
)
from facilitator.services.settle import table_settle

Status = ClassSession.Status


def session_advance(*, session: ClassSession, expected: str | None = None,
                    confirm: bool = False) -> ClassSession:
    """The teacher's one "next": every table moves on together (lock-step). ``confirm``: the
    teacher confirmed counting a bag that misses tokens ("count anyway?"); without it such a
    count is refused and nothing changes (``services.ballots.vote_close``).

    A vote whose ballot key was lost (the server restarted mid-vote) cannot be counted: its
    bag is emptied and asked again first (committed), and the teacher is told why.
    """
    lost = bags_recover(session=session)
    if lost:
        raise ServiceError("votes_lost", ngettext(
            "The votes at table %(tables)s were lost when the server restarted: its students "
            "are asked to vote again.",
            "The votes at tables %(tables)s were lost when the server restarted: their "
            "students are asked to vote again.", len(lost)) % {
                "tables": ", ".join(map(str, lost))}, status=409)
    return _advance(session=session, expected=expected, confirm=confirm)


@transaction.atomic
def bags_recover(*, session: ClassSession) -> list[int]:
    """Reopen, empty, every open bag of the lesson whose key is lost; the table numbers.

    Run when the teacher's console connects and before a count, so that after a restart the
    phones are asked again at once. A process that cannot tell a lost key from a key held by
    another process (a shell, with the in-memory key store) changes nothing.
    """
    lost = []
    for bag in Bag.objects.filter(table__session=session, status=Bag.Status.OPEN
                                  ).select_related("table").order_by("table__number"):
        if bags.key_lost(bag):
            table = Table.objects.select_for_update().get(pk=bag.table_id)
            bags.bag_reopen(bag=bag, reason=bags.LOST)
            table_settle(table, session, last_step(session))  # the bots vote again
            lost.append(table.number)
    if lost:
        broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return lost


@transaction.atomic
def _advance(*, session: ClassSession, expected: str | None = None,
             confirm: bool = False) -> ClassSession:
    session = locked_session(session)
    check_can_drive(session, expected)
    if session.status == Status.LOBBY:
        raise ServiceError("not_started", _("Start the lesson first."))
    lesson = session.lesson
    tables = list(session.tables.select_for_update().order_by("number"))
    states = {t.pk: load_state(t) for t in tables}
    before = (session.stage, session.round)
    plan = lesson.plan_step(session, tables, states)  # may refuse: nothing has changed
    plan = dataclasses.replace(plan, confirmed=confirm)
    if plan.kind != "next":  # a step of the script alone (no table changes)
        record_step(session, plan.kind, *before)
        broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
        return session
    session.stage, session.round, session.undone = plan.stage, plan.round, None
    session.set_aside = {}
    session.timer = ({"ends_at": clock.now().timestamp() + plan.timer, "left": None}
                     if plan.timer else None)
    if plan.finished:
        session.status, session.finished_at = Status.FINISHED, clock.now()
    session.save(update_fields=["stage", "round", "status", "finished_at", "undone", "timer",
                                "set_aside"])
    step = record_step(session, "next", *before)
    for table in tables:
        state = states[table.pk]
        if not lesson.live(state):
            continue
        state = lesson.on_step(table, state, before=before[0], plan=plan, step=step)
        table_settle(table, session, step, state)
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session


@transaction.atomic
def session_undo(*, session: ClassSession, expected: str | None = None) -> ClassSession:
    """Undo the teacher's last step and every student decision made after it."""
    session = locked_session(session)
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    if expected is not None and expected != session.stage_id:
        raise ServiceError("stale", _("The lesson has already moved on; the screen has been "
                                      "updated."), status=409)
    step = last_step(session)
    if step is None:
        raise ServiceError("nothing_to_undo", _("There is nothing to undo."))
    tables = list(session.tables.select_for_update().order_by("number"))
    seat_ids = list(session.seats.values_list("pk", flat=True))
    # A bag this step counted is reopened empty: its ballots were published in a tally and
    # must never be counted again (count, undo, one more ballot, count would reveal it).
    counted_bags = list(Bag.objects.filter(counted_by=step).select_related("table"))
    counted = [b.pk for b in counted_bags]
    # Students' ballots in a bag this step opened are discarded with it. Each table is told
    # what happened to its own bag (``undone["discarded_at"]``).
    discarded_at = sorted({b.table.number for b in counted_bags} | set(
        BallotReceipt.objects.filter(bag__step=step, seat__is_bot=False)
        .values_list("bag__table__number", flat=True)))
    bags.bags_destroyed(list(Bag.objects.filter(step=step, status=Bag.Status.OPEN)))
    bags.counts_remembered(list(Bag.objects.filter(step=step)))
    if step.kind == "start":
        session.tables.all().delete()
        session.seats.filter(is_bot=True).delete()
        session.seats.update(table=None, position=None, shares=None, player_name="")
        session.status, session.started_at = Status.LOBBY, None
    step.delete()  # cascades to the actions, ledger rows and bags it led to
    session.stage, session.round, session.set_aside = step.stage_before, step.round_before, {}
    session.save(update_fields=["stage", "round", "status", "started_at", "set_aside"])
    for bag in Bag.objects.filter(pk__in=counted):
        bags.bag_reopen(bag=bag, reason=bags.UNDONE)
    session.undone = {"kind": step.kind, "stage": step.stage_after, "round": step.round_after,
                      "from": step.stage_before, "discarded": bool(discarded_at),
                      "discarded_at": discarded_at, "tables": len(tables)}
    session.save(update_fields=["undone"])
    if step.kind != "start":
        for table in tables:
            save_state(table, replay_table(table, open_bags=False))
        reopened = {b.table_id for b in Bag.objects.filter(pk__in=counted)}
        for table in tables:
            if table.pk in reopened:
                table_settle(table, session, last_step(session))  # the bots vote again
    broadcast.refresh(session.pk, seat_ids)
    return session
