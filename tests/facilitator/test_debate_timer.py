"""The debate timer is the server's: the console and every phone count down together."""


import pytest
from django.template.loader import render_to_string

from facilitator import selectors, services
from facilitator.errors import ServiceError
from facilitator.screens import phone_context
from tests.facilitator.lesson import at_debate, fresh, humans, started

pytestmark = pytest.mark.django_db


def test_the_timer_starts_with_the_debate_and_phones_show_it(at):
    session = at_debate(debate_seconds=90)
    assert session.stage == "debate"
    at(30)
    info = selectors.session_info(fresh(session))
    assert (info["timer_left"], info["timer_running"]) == (60, True)
    phone = humans(session.tables.get())[0]
    html = render_to_string("play/_screen.html", phone_context(selectors.seat_view(phone)))
    assert 'data-left="60" data-running' in html and "1:00" in html


def test_the_teacher_pauses_resumes_and_adds_thirty_seconds(at):
    session = at_debate(debate_seconds=120)
    at(20)
    services.timer_change(session=session, action="toggle")  # paused with 100 s left
    at(80)
    info = selectors.session_info(fresh(session))
    assert (info["timer_left"], info["timer_running"]) == (100, False)
    services.timer_change(session=session, action="add")
    services.timer_change(session=session, action="toggle")  # running again: 130 s
    at(90)
    assert selectors.session_info(fresh(session))["timer_left"] == 120


def test_the_timer_answers_only_during_the_debate():
    session, _tokens = started(8)
    with pytest.raises(ServiceError) as caught:
        services.timer_change(session=session, action="add")
    assert caught.value.code == "no_timer"


def test_pausing_the_lesson_freezes_the_debate_clock_and_resuming_goes_on(at):
    session = at_debate(debate_seconds=120)
    at(14)
    services.session_pause(session=fresh(session), paused=True)  # 106 s left
    at(24)
    info = selectors.session_info(fresh(session))
    assert (info["timer_left"], info["timer_running"]) == (106, False)
    at(200)
    services.session_pause(session=fresh(session), paused=False)
    at(210)
    info = selectors.session_info(fresh(session))
    assert (info["timer_left"], info["timer_running"]) == (96, True)


def test_a_clock_the_teacher_paused_stays_paused_after_the_lesson_resumes(at):
    session = at_debate(debate_seconds=120)
    at(20)
    services.timer_change(session=fresh(session), action="toggle")  # 100 s, paused
    services.session_pause(session=fresh(session), paused=True)
    at(50)
    services.session_pause(session=fresh(session), paused=False)
    at(70)
    info = selectors.session_info(fresh(session))
    assert (info["timer_left"], info["timer_running"]) == (100, False)
