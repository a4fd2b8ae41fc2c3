"""Poleconomy's main button says, at every stage of a whole lesson, what pressing it does
(``tests/facilitator/main_button.py``): rolling the election (or only going on to the
Government once the game master's page rolled it), the round's start, the orders opened and
closed (with Parliament's consent counted), each beat of the replay, and the final result
after the last round's replay."""

from __future__ import annotations

import pytest

from facilitator import services
from facilitator.lessons.poleconomy import script
from facilitator.lessons.poleconomy import services as pol
from facilitator.lessons.poleconomy.lesson import LESSON
from facilitator.models import Bag, ClassSession
from games.poleconomy.elections import majority_bloc
from tests.facilitator.lesson import deterministic
from tests.facilitator.main_button import assert_labelled, walk
from tests.lessons.poleconomy.test_poleconomy_lesson import (
    coalition,
    propose_salary,
    seats_of,
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)


def table_(declare: bool):
    """One table at each stage: the game master declares a party before the first election
    (``declare``) and confirms a coalition where an election gave nobody a majority; the
    Prime Minister proposes a salary; every player consents."""
    def act(session: ClassSession) -> None:
        table = session.tables.get()
        state = state_of(table)
        if session.stage == script.PARTIES and declare:
            a, b, _c = table.config["players"]
            pol.master_parties(session=session, table=1, declared={"Blues": [a, b]})
        elif session.stage == script.GOVERNMENT and state.phase == "government" \
                and majority_bloc(state) is None:
            members = coalition(state)
            pol.master_government(session=session, table=1, members=members, pm=members[0])
        elif session.stage == script.PROPOSAL and state.phase == "orders":
            propose_salary(session, table)
        elif session.stage == script.ORDERS:
            bag = Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()
            for seat in seats_of(table) if bag is not None else []:
                services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option="yes",
                                     expected=session.stage_id)
    return act


@pytest.mark.parametrize(("declare", "first"), [(False, "Roll the election"),
                                                 (True, "On to the Government")])
def test_every_label_of_a_whole_lesson_says_what_the_press_does(declare: bool,
                                                                 first: str) -> None:
    session = started(3, rounds=2)
    presses = walk(session, table_(declare))
    assert_labelled(LESSON, presses)
    assert presses[0].label == first
    said = {p.label for p in presses}
    assert {"Start the round", "Open the orders", "Close the orders", "Next", "Next round",
            "Final result"} <= said
    assert any(p.left[0] == script.ORDERS and p.votes for p in presses)  # consent counted
    assert presses[-1].finished and presses[-1].left[0] == script.REPLAY
