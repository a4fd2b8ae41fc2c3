"""Small things a student's phone gets right: the "My role" tab leads somewhere during the
pact, and a phone whose lesson has ended is told so, in the lesson's language."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from facilitator.consumers import SEAT_COOKIE
from facilitator.models import ClassSession
from tests.facilitator.lesson import join, make_session

PACT = {"session": {"stage": "pact", "stage_id": "pact-0", "round": 0},
        "seat": {"nickname": "Hugo", "table": 1}, "can": {"pact": True},
        "table": {"pact": {"done": 0, "of": 7, "total": None}},
        "me": {"coins": 3, "pact": None, "statement": []}}


def phone(**context: object) -> str:
    request = RequestFactory().get("/play/")
    return render_to_string("state_in_class/phone/_screen.html", {**PACT, **context},
                            request=request)


def test_the_my_role_tab_leads_to_a_section_during_the_pact():
    html = phone()
    assert 'href="#role"' in html
    section = re.search(r'<section id="role".*?</section>', html, re.S)
    assert section, "the tab's target is missing"
    assert "Role cards are dealt after the opening pact" in section.group(0)


@pytest.mark.django_db
def test_a_phone_whose_lesson_ended_is_told_so_in_the_lessons_language(client):
    session = make_session(language="es")
    tokens = join(session, 1)
    ClassSession.objects.filter(pk=session.pk).update(status=ClassSession.Status.FINISHED)
    client.cookies[SEAT_COOKIE] = next(iter(tokens.values()))
    page = client.get("/join/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "ha terminado" in page  # Spanish, as the lesson was
    assert "already in a lesson" not in page and "ya está en una sesión" not in page
