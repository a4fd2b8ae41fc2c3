"""The debate's timer counts down on the projector and on every phone of the class, from the
server's end time; a paused lesson shows it standing still and says so."""

from __future__ import annotations

import pytest

from facilitator import services
from tests.facilitator.countdowns import console_page, countdowns, phone_page
from tests.facilitator.lesson import at_debate, fresh, humans, started

pytestmark = pytest.mark.django_db


def test_the_debate_counts_down_on_the_projector_and_every_phone(at) -> None:
    session = at_debate(debate_seconds=90)
    ends = session.timer["ends_at"]
    at(30)
    (shown,) = countdowns(console_page(fresh(session)))
    assert shown.ends_at == pytest.approx(ends) and (shown.left, shown.text) == (60, "1:00")
    phones = humans(session.tables.get())
    assert len(phones) == 8
    for seat in phones:
        (mine,) = countdowns(phone_page(seat))
        assert mine.ends_at == pytest.approx(ends) and mine.label == "Debate:"


def test_a_paused_lesson_shows_the_debate_standing_still(at) -> None:
    session = at_debate(debate_seconds=90)
    at(30)
    services.session_pause(session=fresh(session), paused=True)
    at(50)
    (shown,) = countdowns(console_page(fresh(session)))
    assert shown.paused and shown.ends_at is None and shown.left == 60
    (mine,) = countdowns(phone_page(humans(session.tables.get())[0]))
    assert mine.paused and mine.left == 60


def test_no_countdown_before_the_debate() -> None:
    session, _tokens = started(8)
    assert countdowns(console_page(session)) == []
    assert countdowns(phone_page(humans(session.tables.get())[0])) == []
