"""The teacher's main button over a whole lesson, for any module: at every stage the console's
label is read, the button is pressed (the services, as the console's socket would), and the
label is held to the step it actually made.

What a label must be, read through the module's own hooks (``Lesson.stage_names``,
``Lesson.step_label``, ``Lesson.count_only_marks_the_bag``), never a table kept here:

- the module's words for the step that was made: ``step_label`` of the stage and round
  reached (and whether that ended the lesson), with the ballots the press opened and counted;
- "Count the votes" only when the press counted ballots (a bag closed unopened, with fewer
  than three tokens, counts none);
- no stage named but the one left or the one reached (a skipped stage is never announced);
- once the lesson is over, not "next round", "next" or a count.

A module's test plays the lesson (``act``: its students and game master decide at each
stage, or leave it to the defaults), calls ``assert_labelled(lesson, presses)`` and checks that
the special paths it meant to walk were walked.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Count

from facilitator import services
from facilitator.lessons.base import CLOSE_VOTE, COUNT_VOTES, NEXT, NEXT_ROUND, Lesson, StepPlan
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession
from facilitator.services.sessions import last_step
from tests.facilitator.countdowns import console_page
from tests.facilitator.lesson import fresh

_NEXT = re.compile(r'<button type="submit" name="type" value="next"[^>]*>(.*?) ▶</button>', re.S)


@dataclass(frozen=True)
class Press:
    """One press of the main button: the label it had, where it went, what it counted."""

    left: tuple[str, int]  # (stage, round) before
    label: str
    reached: tuple[str, int]
    kind: str  # the step's kind: "next", or a step of the script alone ("card", "beat")
    finished: bool
    votes: int | None  # ballots the press opened and counted (None: it closed no bag)
    expected: str  # the module's words for the step made

    def __str__(self) -> str:
        return (f"{self.left[0]} (round {self.left[1]}) → {self.reached[0]} (round "
                f"{self.reached[1]}){' [finished]' if self.finished else ''}, "
                f"{self.votes} votes: “{self.label}”")


def main_label(session: ClassSession) -> str:
    """The console's main button label, as the projector shows it."""
    found = _NEXT.findall(console_page(fresh(session)))
    assert len(found) == 1, "the console shows no main button (or several)"
    return html.unescape(found[0]).strip()


def _bags(session: ClassSession) -> dict[int, tuple[str, str, int]]:
    return {pk: (status, decision, ballots) for pk, status, decision, ballots in
            Bag.objects.filter(table__session=session).annotate(ballots=Count("receipts"))
            .values_list("pk", "status", "decision", "ballots")}


def press(session: ClassSession) -> Press:
    """Read the label, press the button, and say what the press did."""
    before = fresh(session)
    label = main_label(before)
    tables = list(before.tables.order_by("number"))
    states = {t.pk: load_state(t) for t in tables}
    bags = _bags(before)
    step = last_step(before)
    held = {pk for pk, (status, decision, ballots) in bags.items()
            if status == Bag.Status.COUNTED and step is not None
            and Bag.objects.filter(pk=pk, step=step).exists()
            and before.lesson.count_only_marks_the_bag(before, decision)}
    services.session_advance(session=fresh(before), expected=before.stage_id, confirm=True)
    after = fresh(before)
    now = last_step(after)
    assert now is not None and now != step, "the press made no step"
    # Ballots counted: those of every bag this press closed (none of a bag it set aside
    # unopened), and those of the bags whose held count it shows.
    closed = {b.pk: b for b in Bag.objects.filter(pk__in=[pk for pk, (s, _d, _b) in bags.items()
                                                          if s == Bag.Status.OPEN])}
    counts = [0 if closed[pk].set_aside or closed[pk].status == Bag.Status.OPEN
              else bags[pk][2] for pk in closed]
    counts += [bags[pk][2] for pk in held]
    votes = sum(counts) if counts else None
    finished = after.status == ClassSession.Status.FINISHED
    plan = StepPlan(after.stage, after.round, kind=now.kind, finished=finished)
    expected = str(before.lesson.step_label(before, plan, votes=votes, states=states))
    return Press((before.stage, before.round), label, (after.stage, after.round), now.kind,
                 finished, votes, expected)


def walk(session: ClassSession, act: Callable[[ClassSession], None], *,
         most: int = 400) -> list[Press]:
    """Play the lesson to its end: at each stage ``act``, then press the main button."""
    presses: list[Press] = []
    for _n in range(most):
        if fresh(session).status != ClassSession.Status.RUNNING:
            return presses
        act(fresh(session))
        presses.append(press(session))
    raise AssertionError(f"the lesson did not end in {most} presses")


def assert_labelled(lesson: Lesson, presses: list[Press]) -> None:
    """Fail with every mislabel, one a line."""
    wrong = mislabels(lesson, presses)
    assert not wrong, "the main button said something else than it did:\n" + "\n".join(wrong)


def mislabels(lesson: Lesson, presses: list[Press]) -> list[str]:
    """Every press whose label did not say what the press did, and why."""
    names = {stage: str(name).casefold() for stage, name in lesson.stage_names.items()}
    wrong = []
    for p in presses:
        said = p.label.casefold()
        if p.label != p.expected:
            wrong.append(f"{p}: the step made is “{p.expected}”")
        if p.label == str(COUNT_VOTES) and not p.votes:
            wrong.append(f"{p}: no ballot was counted")
        others = [name for stage, name in names.items()
                  if stage not in (p.left[0], p.reached[0]) and name in said]
        if others:
            wrong.append(f"{p}: names {others}, where the step did not go")
        if p.finished and p.label in (str(NEXT_ROUND), str(NEXT), str(COUNT_VOTES),
                                      str(CLOSE_VOTE)):
            wrong.append(f"{p}: the lesson ended")
    return wrong
