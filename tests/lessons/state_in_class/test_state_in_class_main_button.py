"""State in Class's main button says, at every stage of a whole lesson, what pressing it does
(``tests/facilitator/main_button.py``): through a count, a vote nobody voted in, a bag of one
token closed unopened, a budget tie broken by its decider, the Midlife cards, the final
count; and, in a lesson whose State fails, straight to the final count once the class has
seen it fail."""

from __future__ import annotations

import random

import pytest

from facilitator import services
from facilitator.lessons.base import CLOSE_VOTE, COUNT_VOTES
from facilitator.lessons.state_in_class.lesson import LESSON
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state, save_state
from facilitator.models import ClassSession, TableAction
from games.state_in_class import data
from tests.facilitator.lesson import (
    all_pacts,
    break_ties,
    deterministic,
    fresh,
    humans,
    started,
)
from tests.facilitator.main_button import assert_labelled, walk

pytestmark = pytest.mark.django_db

TAXES, SERVICES = list(data.TAX_OPTIONS), list(data.SERVICES)


def players(votes: dict[tuple[int, str], str], rng: random.Random, tax: str = "C"):
    """The class at each stage: every pact 1 coin; each vote as ``votes`` says for its round
    and kind ("none", "one", "tie": 4 and 4 for the first two services; else everyone for
    ``tax`` and the round's service, taking turns); every tie broken by its decider once the
    class sees it."""
    def act(session: ClassSession) -> None:
        if session.stage == Stage.PACT:
            all_pacts(session)
        kind = {Stage.TAX_VOTE: "tax", Stage.BUDGET_VOTE: "budget"}.get(session.stage)
        if kind is not None:
            how = votes.get((session.round, kind), "all")
            options = TAXES if kind == "tax" else SERVICES
            for table in session.tables.all():
                if load_state(table).phase == "over":
                    continue
                seats = humans(table)
                usual = tax if kind == "tax" else SERVICES[session.round % len(SERVICES)]
                chosen = {"none": [], "one": [rng.choice(options)],
                          "tie": [SERVICES[0], SERVICES[1]] * (len(seats) // 2)}.get(
                              how, [usual] * len(seats))
                for seat, option in zip(seats, chosen, strict=False):
                    services.ballot_cast(seat_id=seat.pk, kind=kind, option=option,
                                         expected=session.stage_id)
        break_ties(session, rng)
    return act


def test_every_label_of_a_whole_lesson_says_what_the_press_does(monkeypatch) -> None:
    deterministic(monkeypatch)
    session, _tokens = started(8)
    votes = {(1, "budget"): "tie", (2, "tax"): "none", (2, "budget"): "one"}
    presses = walk(session, players(votes, random.Random(4)))
    assert_labelled(LESSON, presses)
    said = {p.label for p in presses}
    assert {str(COUNT_VOTES), str(CLOSE_VOTE), "Next card", "Final count"} <= said
    assert any(p.left == (Stage.BUDGET_VOTE, 2) and p.votes == 0 for p in presses)  # unopened
    assert TableAction.objects.filter(table__session=session,
                                      payload__type="tie_break").exists(), "no tie was broken"
    assert presses[-1].left == (Stage.END_OF_ROUND, data.ROUNDS) and presses[-1].finished


def test_once_the_class_has_seen_the_state_fail_the_button_goes_to_the_final_count(
        monkeypatch) -> None:
    deterministic(monkeypatch)
    session, _tokens = started(8)
    table = session.tables.get()
    state = load_state(table)
    state.tension = data.FAIL_TENSION - 1  # one more step of Tension and the State fails
    save_state(table, state)
    presses = walk(session, players({}, random.Random(5), tax="A"))
    assert_labelled(LESSON, presses)
    assert load_state(fresh(session).tables.get()).failed
    assert presses[-1].finished and presses[-1].label == "Final count"
    assert presses[-1].left[1] < data.ROUNDS  # the lesson ended with the State, mid-lesson
