"""The teacher's main button ("next"): its label says what pressing it will do, for every stage
of every module, written once.

The label is not guessed from the stage the lesson is at: the platform asks the module where
"next" goes from here (``Lesson.plan_step``: the very call the step makes, on the same states,
here changing nothing) and how many ballots the step counts, and the module says that step in
its words (``Lesson.step_label``). So a stage a module skips (nothing to do there), a game
that ends mid-round, or a step with nothing to vote on is named as what it is. Where the
module refuses the step for now (a table has something left to do first), the button is
disabled with the reason beside it, and says what the module's own presenters say.

Ballots: those in the bags open at the lesson's tables (the step closes them), and those of a
bag counted by its last token whose result the class has not seen yet
(``Lesson.count_only_marks_the_bag``: the step shows it). A bag of fewer than three tokens,
not every party's, is closed unopened (docs/secrecy.md): its ballots are not counted. Ballots
come in between two renders of the console (a ``progress`` frame, not a new screen), so where
the bags hold none yet the button also carries the label it takes once one of them will be
counted (``static/js/live.js``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from facilitator.errors import ServiceError
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Table
from facilitator.privacy import FEWEST_TO_OPEN
from facilitator.services.ballots import voters
from facilitator.services.sessions import last_step
from facilitator.services.turns import table_seats


def votes_counted(session: ClassSession, tables: list[Table]) -> int | None:
    """The ballots the next step opens and counts: in the bags open at ``tables`` (a bag of
    fewer than ``FEWEST_TO_OPEN`` tokens, not every party's, is closed unopened: none of its
    ballots is counted), and in the bags the last step opened that their last token counted
    and whose count the step shows; None when the step closes no bag, 0 when it counts no
    ballot in those it closes."""
    step = last_step(session)
    held = Q(status=Bag.Status.COUNTED, step=step) if step is not None else Q(pk__in=[])
    found = (Bag.objects.filter(table__in=tables).filter(Q(status=Bag.Status.OPEN) | held)
             .annotate(ballots=Count("receipts"))
             .values_list("table_id", "status", "decision", "ballots"))
    lesson = session.lesson
    by_pk = {t.pk: t for t in tables}
    counted: list[int] = []
    for table_id, status, decision, ballots in found:
        if status == Bag.Status.OPEN:
            full = ballots >= voters(table_seats(by_pk[table_id]))
            counted.append(ballots if full or ballots >= FEWEST_TO_OPEN else 0)
        elif lesson.count_only_marks_the_bag(session, decision):
            counted.append(ballots)
    return sum(counted) if counted else None


def next_button(session: ClassSession) -> dict[str, str] | None:
    """What the main button says now (``label``), and once a ballot is in (``voted``: only
    where that differs); None where the module refuses the step for now, or the button is not
    shown (the lesson is not running, or paused)."""
    if session.status != ClassSession.Status.RUNNING or session.paused:
        return None
    lesson = session.lesson
    tables = list(session.tables.order_by("number"))
    states = {t.pk: load_state(t) for t in tables}
    try:
        plan = lesson.plan_step(session, tables, states)
    except ServiceError:
        return None
    votes = votes_counted(session, tables)
    label = str(lesson.step_label(session, plan, votes=votes, states=states))
    button: dict[str, Any] = {"label": label}
    if votes == 0:
        voted = str(lesson.step_label(session, plan, votes=FEWEST_TO_OPEN, states=states))
        if voted != label:
            button["voted"] = voted
    return button
