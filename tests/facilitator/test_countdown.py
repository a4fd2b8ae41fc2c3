"""The platform's countdowns (``facilitator.countdown``): a module's timer counts lesson time
only, standing still while the lesson is paused; the stage's timer shows its end time while it
runs and its seconds while it stands still; the screens' include says which."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from facilitator import clock, consumers, countdown, services
from facilitator.models import ClassSession
from tests.facilitator.countdowns import countdowns
from tests.facilitator.lesson import fresh
from tests.fakegame.installed import coin_jar_installed, started


@pytest.fixture
def coin_jar(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with coin_jar_installed(monkeypatch):
        yield


def test_a_modules_timer_does_not_count_the_time_the_lesson_was_paused() -> None:
    session = ClassSession(pauses=[[100.0, 130.0]], paused=False)
    shown = countdown.countdown(session, since=90.0, seconds=60, now=150.0)
    assert shown == {"ends_at": 180.0, "left": 30, "paused": False}
    assert countdown.countdown(session, since=140.0, seconds=60, now=150.0)["left"] == 50


def test_a_modules_timer_stands_still_while_the_lesson_is_paused() -> None:
    session = ClassSession(pauses=[[100.0, None]], paused=True)
    for now in (120.0, 500.0):
        shown = countdown.countdown(session, since=90.0, seconds=60, now=now)
        assert shown == {"ends_at": None, "left": 50, "paused": True}


def test_a_timer_past_its_end_shows_zero() -> None:
    shown = countdown.countdown(ClassSession(), since=0.0, seconds=10, now=25.0)
    assert (shown["left"], shown["ends_at"]) == (0, 25.0)


def test_the_stage_timer_shows_its_end_while_it_runs_and_its_seconds_while_it_stands() -> None:
    running = ClassSession(timer={"ends_at": 200.0, "left": None})
    assert countdown.stage_countdown(running, now=110.5) == {
        "ends_at": 200.0, "left": 90, "paused": False}
    held = ClassSession(timer={"ends_at": None, "left": 42.2, "held": True})
    assert countdown.stage_countdown(held, now=110.0)["left"] == 43
    assert countdown.stage_countdown(held, now=110.0)["paused"]
    assert countdown.stage_countdown(ClassSession(timer=None)) is None


@pytest.mark.django_db
def test_pausing_and_resuming_the_lesson_marks_its_pauses(coin_jar, monkeypatch) -> None:
    session = started()
    start = clock.now()
    monkeypatch.setattr(clock, "now", lambda: start)
    services.session_pause(session=fresh(session), paused=True)
    services.session_pause(session=fresh(session), paused=True)  # already paused: no new one
    monkeypatch.setattr(clock, "now", lambda: start + timedelta(seconds=20))
    services.session_pause(session=fresh(session), paused=False)
    t = start.timestamp()
    assert fresh(session).pauses == [[t, t + 20]]


def test_the_screens_countdown_carries_the_server_end_time_or_says_it_is_paused() -> None:
    page = render_to_string("facilitator/_countdown.html", {
        "countdown": {"ends_at": 1000.25, "left": 11, "paused": False},
        "label": "Time left:"})
    (shown,) = countdowns(page)
    assert (shown.ends_at, shown.left, shown.text, shown.label, shown.paused) == (
        1000.25, 11, "0:11", "Time left:", False)
    assert 'role="timer" aria-live="off"' in page  # read when asked, never announced
    paused = render_to_string("facilitator/_countdown.html", {
        "countdown": {"ends_at": None, "left": 75, "paused": True}})
    (shown,) = countdowns(paused)
    assert (shown.ends_at, shown.left, shown.text, shown.paused) == (None, 75, "1:15", True)
    assert "paused" in paused
    with translation.override("es"):  # a decimal comma would be no number for the page
        page = render_to_string("facilitator/_countdown.html", {
            "countdown": {"ends_at": 1000.25, "left": 10, "paused": False}})
    assert 'data-ends-at="1000.25"' in page


def test_every_screen_tells_the_page_the_servers_time(monkeypatch) -> None:
    moment = clock.now()
    monkeypatch.setattr(clock, "now", lambda: moment)
    frame = consumers.view_frame({"session": {"stage_id": "1:vote"}}, "<p>a screen</p>")
    assert frame["now"] == moment.timestamp()
    assert f'data-now="{moment.timestamp()!r}"' in render_to_string(
        "play/phone.html", {"session": {"stage_id": "1:vote"}, "templates": {
            "phone": "facilitator/_countdown.html"}, "countdown": {
                "ends_at": None, "left": 1, "paused": True}})
