"""Small things a student's phone gets right: the "My role" tab leads somewhere during the
pact, and a phone's own error message replaces the browser's bubble."""

from __future__ import annotations

import re

from django.template.loader import render_to_string
from django.test import RequestFactory

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
