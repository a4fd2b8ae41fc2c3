"""The debrief tells the story of the class's Parliament: the class handout is dated and says
what happened (the election by party totals and the Government, the proposal and whether
consent carried, a payment the Treasury could not make, each round's purchases, rent and tax,
inflation against each player's wealth); each student's handout says what their player did
and asks about the political economy of the game."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import formats, timezone

from facilitator import services
from facilitator.kit.reports import DEFAULT_PAPER
from facilitator.lessons.poleconomy import debrief as reports
from facilitator.lessons.poleconomy import script
from facilitator.lessons.poleconomy import services as pol
from facilitator.models import Bag
from tests.lessons.poleconomy.test_poleconomy_lesson_screens import Lesson

pytestmark = pytest.mark.django_db


def played() -> tuple[Lesson, dict[str, Any]]:
    """One round: Ana, Ben and Cai declare a party; the PM proposes a salary and a payment
    the empty Treasury cannot make; everyone rolls and buys what they land on."""
    lesson = Lesson(rounds=1)
    lesson.start()
    pol.master_parties(session=lesson.now, table=1, declared={"Greens": ["Ana", "Ben"]})
    lesson.advance()
    state = lesson.state()
    if state.phase == "government" and not state.election["majority"]:
        pol.master_government(session=lesson.now, table=1, members=["Ana", "Ben", "Cai"],
                              pm="Ana")
    lesson.advance()
    assert lesson.now.stage == script.PROPOSAL
    pm = lesson.state().pm
    other = next(n for n in ("Ana", "Ben", "Cai") if n != pm)
    lesson.phone(pm).post("/play/act/", {
        "type": "propose_form", "salary_pm": "13", "pay_to": other, "pay_amount": "30",
        "press_release": "Roads", "expected": lesson.now.stage_id})
    lesson.advance()
    bag = Bag.objects.get(table=lesson.table, status=Bag.Status.OPEN)
    for seat in lesson.table.seats.all():  # Parliament consents
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option="yes",
                             expected=lesson.now.stage_id)
    for name in ("Ana", "Ben", "Cai"):
        lesson.phone(name).post("/play/act/", {"type": "order_form", "move": "roll:",
                                               "buy": "all", "expected": lesson.now.stage_id})
    lesson.advance()
    while lesson.now.stage == script.REPLAY:
        lesson.advance()
    return lesson, {"pm": pm, "other": other}


def test_the_class_handout_is_dated_and_tells_the_story_of_parliament() -> None:
    lesson, who = played()
    html = reports.DEBRIEF.class_html(lesson.now, paper=DEFAULT_PAPER)
    started = lesson.now.started_at
    assert formats.date_format(timezone.localtime(started), "DATE_FORMAT") in html
    assert "Parties, elections and Governments" in html
    assert "Greens (Ana, Ben)" in html  # the election by party totals
    assert f"{who['pm']} is Prime Minister" in html
    assert "The Treasury pays $30 to" in html  # the proposal
    assert "✔ salaries" in html  # consent, as its outcome only
    assert f"$30 to {who['other']} not paid: the Treasury was short" in html
    assert "Purchases" in html and " buys " in html
    assert "Inflation and each player's wealth" in html
    assert "Questions for the discussion" in html and "inflation" in html


def test_each_student_handout_says_what_their_player_did_and_asks_about_it() -> None:
    lesson, who = played()
    html = reports.DEBRIEF.students_html(lesson.now, paper=DEFAULT_PAPER)
    assert f"The Treasury cannot make its payment to {who['other']}." in html
    assert html.count("What you did, round by round") == 3
    assert "Prime Minister" in html and "Your wealth" in html
    assert "You were Prime Minister: whom did your proposals help" in html
    assert "did inflation help you or hurt you?" in html
    assert "Your score: $" in html


def test_the_handouts_print() -> None:
    lesson, _who = played()
    assert reports.DEBRIEF.class_handout(lesson.now).startswith(b"%PDF")
    assert reports.DEBRIEF.student_handouts(lesson.now).startswith(b"%PDF")
