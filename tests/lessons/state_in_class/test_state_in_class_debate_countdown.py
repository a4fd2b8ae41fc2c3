"""The debate's timer counts down on the projector and on every phone of the class, from the
server's end time; a paused lesson shows it standing still and says so."""

from __future__ import annotations

from datetime import timedelta

import pytest

from facilitator import clock, services
from tests.facilitator.countdowns import console_page, countdowns, phone_page
from tests.facilitator.lesson import advance, all_pacts, fresh, humans, started

pytestmark = pytest.mark.django_db


@pytest.fixture
def at(monkeypatch):
    """Move the server's clock to ``seconds`` after the test's start."""
    start = clock.now()

    def move(seconds: float) -> None:
        monkeypatch.setattr("facilitator.clock.now", lambda: start + timedelta(seconds=seconds))
    move(0)
    return move


def at_debate(**options):
    session, _tokens = started(8, options=options)
    all_pacts(session)
    return advance(advance(session))


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
