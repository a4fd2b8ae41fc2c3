"""Crisis's main button says, at every stage of a whole lesson, what pressing it does
(``tests/facilitator/main_button.py``): the stage it opens, Production and Exports skipped
when nobody has anything to do there (never "Open Exports" into Evaluation), the next round,
the final result; and after a bankruptcy, the final result, not another round."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from facilitator.lessons.crisis import script
from facilitator.lessons.crisis.lesson import LESSON
from facilitator.log import save_state
from facilitator.models import ClassSession
from tests.facilitator.lesson import deterministic, fresh
from tests.facilitator.main_button import assert_labelled, walk
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    busy_round,
    human_table,
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)
    with translation.override("en"):
        yield


def busy_first_round(session: ClassSession) -> None:
    """Round 1: a team invests in a Company and another goes to Exports, so Exports opens;
    later rounds are left to the defaults (a Manager on Government Subsidy), so nobody has
    anything to export and Exports is skipped."""
    if session.stage == script.PLAN and script.turns.round_of(session) == 1:
        busy_round(session, human_table(session))


def test_every_label_of_a_whole_lesson_names_the_stage_the_press_opens() -> None:
    session = started(4, team_size=2, rounds=5)
    presses = walk(session, busy_first_round)
    assert_labelled(LESSON, presses)
    opened = [p.reached[0] for p in presses if p.left[0] == script.PRODUCE]
    assert script.EXPORT in opened and script.EVALUATION in opened  # opened, then skipped
    said = {p.label for p in presses}
    assert {"Open Production", "Open Exports", "Next round", "Final result"} <= said
    assert presses[-1].finished and presses[-1].label == "Final result"


def test_after_a_bankruptcy_the_button_goes_to_the_final_result() -> None:
    session = advance(started(4, team_size=2, rounds=5))
    table = human_table(session)
    state = state_of(table)
    state.status, state.goals = 1, [60] * len(state.goals)  # a goal nobody reaches: bankrupt
    save_state(table, state)
    presses = walk(session, lambda _session: None)
    assert_labelled(LESSON, presses)
    assert state_of(table).status < 0
    assert presses[-1].left == (script.EVALUATION, 1)
    assert presses[-1].finished and presses[-1].label == "Final result"
    assert fresh(session).status == ClassSession.Status.FINISHED
