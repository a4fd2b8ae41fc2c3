"""The phone's motions partial and the teacher's Austerity controls render from the views'
own keys: each offers only what the services would take now."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import selectors
from facilitator.lessons.austerity import modes, motions
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import Seat
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    advance,
    minister_answers,
    minister_of,
    seats_of,
    started,
    to_the_year,
)

pytestmark = pytest.mark.django_db
PHONE = "austerity/phone/_motions.html"
CONTROLS = "austerity/console/_controls.html"


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def phone(seat: Seat, **extra: Any) -> str:
    view = selectors.seat_view(seat)
    return render_to_string(PHONE, {"session": view["session"], "seat": view["seat"],
                                    "can": view["can"], "game": view["game"], **extra})


def console(session: Any) -> str:
    view = selectors.projector_view(fresh(session))
    return render_to_string(CONTROLS, {"session": view["session"], "tables": view["tables"]})


def test_the_phone_lists_motions_and_offers_support_and_raising() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, cai, *_rest = seats_of(table)
    assert "No motions yet this year." in phone(cai)
    motion = motions.motion_raise(seat_id=ana.pk, kind=motions.ACTION, target="borrow")
    html = phone(cai)
    assert "Motion 1" in html and "Borrow Money now." in html
    assert 'value="motion_support"' in html and f'value="{motion}"' in html
    assert 'value="motion_raise"' in html and 'value="cuts"' in html
    raiser = phone(ana)
    assert 'value="motion_support"' not in raiser  # the raiser supports it already
    assert 'value="motion_raise"' not in raiser  # one open motion per student
    motions.motion_support(seat_id=ben.pk, motion=motion)
    assert "Ready: your teacher may put it to the vote." in phone(cai)


def test_the_minister_gets_the_decision_form_only_when_asked_and_only_theirs() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    chair = minister_of(session, table)
    other = next(s for s in seats_of(table) if s != chair)
    assert 'value="decide"' in phone(chair, with_decide=True)
    assert 'value="decide"' not in phone(chair)
    assert 'value="decide"' not in phone(other, with_decide=True)


def test_the_console_opens_ready_motions_switches_kinds_sets_timers() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = motions.motion_raise(seat_id=ana.pk, kind=motions.ACTION, target="borrow")
    html = console(session)
    assert 'value="motion_open"' not in html  # not ready yet
    assert html.count('name="mode"') == 3 * len(modes.KINDS)
    assert 'value="timer_set"' in html and 'value="expire"' in html
    assert 'value="end_now"' not in html  # only at a Year End
    motions.motion_support(seat_id=ben.pk, motion=motion)
    html = console(session)
    assert 'value="motion_open"' in html and "Put it to a secret vote" in html
    motions.motion_open(session=fresh(session), table=1, motion=motion)
    assert 'value="ballot_close"' in console(session)


def test_the_console_answers_a_kind_it_took_over_and_ends_at_year_end() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    aus_services.mode_switch(session=fresh(session), kind=modes.ACTIONS, mode=modes.TEACHER)
    html = console(session)
    assert 'name="decision" value="y1.action1"' in html and 'aria-pressed="true"' in html
    minister_answers(session, table)
    session = advance(session)
    assert 'value="end_now"' in console(session)
