"""A motion's result reaches the projector from its count on (never before: while the table
votes the projector shows the ballot), and the class handout tells it as the class's motion,
with how many voted, instead of a plain "Action: Borrow Money"."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from facilitator import selectors, services
from facilitator.lessons.austerity import motions, presenters
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.debrief import story
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import ClassSession, Table
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    minister_of,
    pending,
    seats_of,
    started,
    to_the_year,
    vote,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def projector_card(session: ClassSession) -> str:
    view = selectors.projector_view(fresh(session))
    ctx = presenters.projector_context(view)
    html = render_to_string("austerity/projector/_now.html",
                            {**ctx, "table": ctx["tables"][0]})
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def last_token(session: ClassSession, table: Table, option: str) -> None:
    """The table's last student puts ``option`` in the open bag: it is counted at once."""
    bag = table.bags.get(status="open")
    services.ballot_cast(seat_id=seats_of(table)[-1].pk, decision=bag.decision, option=option,
                         expected=fresh(session).stage_id)


def borrow_by_motion(votes: list[str]) -> tuple[ClassSession, Table]:
    """Year 1, after the first draw: the class raises 'Borrow Money now', supports it, the
    teacher opens it and the table votes ``votes`` (every token but the last, then the last)."""
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    chair = minister_of(session, table)
    aus_services.decide(seat_id=chair.pk, decision=pending(table).id, choice="draw",
                        expected=fresh(session).stage_id)
    ana, ben, *_rest = seats_of(table)
    motion = motions.motion_raise(seat_id=ana.pk, kind=motions.ACTION, target="borrow")
    motions.motion_support(seat_id=ben.pk, motion=motion)
    motions.motion_open(session=fresh(session), table=1, motion=motion)
    vote(session, table, votes[:-1])
    assert "motion 1 is" not in projector_card(session)  # still voting: no result yet
    return session, table


def test_the_projector_announces_a_carried_motion_with_its_votes() -> None:
    session, table = borrow_by_motion(["yes", "yes", "no", "yes", "no"])
    last_token(session, table, "no")
    assert fresh(session).stage == "year"
    card = projector_card(session)
    # the whole board says it in full, a table's card in short (the stylesheet picks one)
    assert "The class's motion 1 is carried:" in card and "Motion 1 carried:" in card
    assert "Borrow Money now. (5 of 5 voted: 3 yes, 2 no)" in card


def test_the_class_handout_tells_the_motion_as_the_class_s() -> None:
    session, table = borrow_by_motion(["no", "yes", "no", "yes", "no"])
    last_token(session, table, "no")
    card = projector_card(session)
    assert "The class's motion 1 is not carried:" in card and "Borrow Money now." in card
    told = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
    assert [m.line for m in told.years[0].motions] == [
        "The class's motion 1 (Borrow Money now) was not carried (5 of 5 voted: 2 yes, 3 no)."]


def test_a_carried_motion_s_action_is_told_as_the_class_s_motion_in_its_draw() -> None:
    session, table = borrow_by_motion(["yes"] * 5)
    last_token(session, table, "yes")
    told = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
    year = told.years[0]
    decided = " ".join(year.draws[0].decisions)
    assert "The class's motion 1, carried in a secret vote: Borrow Money." in decided
    assert "Action: Borrow Money." not in decided
    page = render_to_string("austerity/reports/_year.html", {"y": year})
    assert "Motions:" in page and "was carried (5 of 5 voted: 5 yes, 0 no)" in page


def test_a_motion_ballot_states_the_motion_s_tie_rule_and_what_yes_does() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = motions.motion_raise(seat_id=ana.pk, kind=motions.ACTION, target="borrow")
    motions.motion_support(seat_id=ben.pk, motion=motion)
    motions.motion_open(session=fresh(session), table=1, motion=motion)
    ctx = presenters.phone_context(selectors.seat_view(ana))
    page = re.sub(r"\s+", " ", render_to_string("austerity/phone/_screen.html", ctx))
    assert "A tie is not carried: a motion needs more yes than no votes." in page
    assert "smaller change" not in page
    assert "Add 2 Income cubes to Used. Add 1 Debt cube to the bag." in page
