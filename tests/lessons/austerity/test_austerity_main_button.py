"""Austerity's main button says, at every stage of a whole lesson, what pressing it does
(``tests/facilitator/main_button.py``): each budget item's count, an item nobody voted on, a
bag of one token closed unopened, an item no table can take (nothing to vote on), the year,
Year End, the next year's budget; and the final result, whether the country's game ended by
itself (won or lost) or at the lesson's year limit."""

from __future__ import annotations

import pytest

from facilitator import services
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.base import CLOSE_VOTE, COUNT_VOTES
from facilitator.models import ClassSession
from tests.facilitator.lesson import deterministic, fresh
from tests.facilitator.main_button import assert_labelled, walk
from tests.lessons.austerity.austerity_lesson import (
    minister_answers,
    minister_of,
    open_bag,
    seats_of,
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def class_(votes: dict[tuple[int, str], str]):
    """The class at each stage: on a budget item, the students vote as ``votes`` says for its
    year and stage ("none", "one"; else every student for its first option); in the year, a
    student minister answers each decision with its first option (bots play themselves)."""
    def act(session: ClassSession) -> None:
        for table in session.tables.all():
            bag = open_bag(table)
            if session.stage in script.STAGE_ITEMS and bag is not None:
                how = votes.get((script.year_of(session), session.stage), "all")
                students = [s for s in seats_of(table) if not s.is_bot]
                students = {"none": [], "one": students[:1]}.get(how, students)
                for seat in students:
                    services.ballot_cast(seat_id=seat.pk, decision=bag.decision,
                                         option=bag.options[0], expected=session.stage_id)
            elif session.stage == script.YEAR and not minister_of(session, table).is_bot:
                minister_answers(session, table)
    return act


def test_a_lesson_to_its_year_limit_says_what_every_press_does() -> None:
    session = started(5, seating="class", year_limit=2, min_years=None)
    votes = {(1, "budget_taxes"): "none", (1, "budget_borrow"): "one"}
    presses = walk(session, class_(votes))
    assert_labelled(LESSON, presses)
    said = {p.label for p in presses}
    assert {str(COUNT_VOTES), str(CLOSE_VOTE), "Start the year", "Year End",
            "Next year's budget", "Final result"} <= said
    assert any(p.left[0] in script.STAGE_ITEMS and p.votes is None for p in presses), \
        "no budget item without anything to vote on"
    assert presses[-1].finished and presses[-1].left[0] == script.YEAR_END


def test_a_country_whose_game_ends_by_itself_gets_the_final_result() -> None:
    session = started(1, fill="bots", min_years=None)
    presses = walk(session, class_({}))
    assert_labelled(LESSON, presses)
    table = fresh(session).tables.get()
    assert state_of(table).stage == "over"
    assert presses[-1].finished and presses[-1].label == "Final result"
