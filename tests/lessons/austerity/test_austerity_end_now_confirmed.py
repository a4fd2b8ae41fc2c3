""""End the lesson now" asks first: the console shows the question with a "Yes, end the
lesson" button, and a request without that confirmation is refused with a clear message and
changes nothing."""

from __future__ import annotations

import pytest

from facilitator import messages
from facilitator.errors import ServiceError
from facilitator.lessons.austerity import messages as aus_messages
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import ClassSession
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import advance, minister_answers, started, to_the_year

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def at_year_end() -> ClassSession:
    session = to_the_year(started(5))
    minister_answers(session, session.tables.get())
    session = advance(session)
    assert session.stage == script.YEAR_END
    return session


def test_ending_without_confirmation_is_refused_and_changes_nothing() -> None:
    session = at_year_end()
    with pytest.raises(ServiceError) as refused:
        aus_services.lesson_end_now(session=session, expected=session.stage_id)
    assert refused.value.code == "confirm_end"
    assert "Yes, end the lesson" in refused.value.message
    after = fresh(session)
    assert (after.stage, after.status) == (script.YEAR_END, ClassSession.Status.RUNNING)


def test_the_message_without_confirm_is_refused_and_with_it_ends_the_lesson() -> None:
    session = at_year_end()
    adapter = messages.teacher_messages(LESSON)
    plain = messages.parse(adapter, {"type": "end_now", "expected": session.stage_id})
    with pytest.raises(ServiceError):
        aus_messages.teacher_act(session, plain)
    assert fresh(session).stage == script.YEAR_END
    confirmed = messages.parse(adapter, {"type": "end_now", "confirm": True,
                                             "expected": session.stage_id})
    aus_messages.teacher_act(fresh(session), confirmed)
    assert fresh(session).stage == script.FINAL


def test_the_console_asks_before_ending_the_lesson() -> None:
    from django.template.loader import render_to_string

    from facilitator import selectors

    view = selectors.projector_view(at_year_end())
    html = render_to_string("austerity/console/_controls.html",
                            {"session": view["session"], "tables": view["tables"]})
    asked = html.split('class="end-now"', 1)[1]
    assert "End the lesson for every table now?" in asked
    assert 'name="confirm" value="1"' in asked and "Yes, end the lesson" in asked
    # the only way to send end_now is from inside the question
    assert html.count('value="end_now"') == 1 and 'value="end_now"' in asked


def test_the_support_button_is_named_by_its_visible_words() -> None:
    """WCAG 2.5.3 (label in name): a screen-reader user says "Support it" and reaches it."""
    import re

    from django.template.loader import render_to_string

    from facilitator import selectors
    from facilitator.lessons.austerity import motions
    from tests.lessons.austerity.austerity_lesson import seats_of

    session = to_the_year(started(5, seating="class"))
    ana, ben, *_rest = seats_of(session.tables.get())
    motions.motion_raise(seat_id=ana.pk, kind=motions.ACTION, target="borrow")
    view = selectors.seat_view(ben)
    html = render_to_string("austerity/phone/_motions.html", {
        "session": view["session"], "seat": view["seat"], "can": view["can"],
        "game": view["game"]})
    button = re.search(r'<button[^>]*>(.*?)</button>', html.split('value="motion_support"')[1],
                       re.S)
    assert button is not None and "aria-label" not in button.group(0)
    name = re.sub(r"<[^>]+>", "", button.group(1)).strip()
    assert name.startswith("Support it") and "Motion 1" in name
