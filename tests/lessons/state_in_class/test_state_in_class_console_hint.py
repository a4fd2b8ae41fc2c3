"""The "count anyway?" box on the console names the button the teacher presses again, as the
button reads at that moment ("Count the votes"), not a generic "Next"."""

from __future__ import annotations

import html

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from facilitator import services
from facilitator.screens import projector_context
from facilitator.selectors import projector_view
from tests.facilitator.lesson import all_pacts, fresh, humans, started

pytestmark = pytest.mark.django_db


def test_the_count_anyway_hint_names_the_buttons_label():
    session, _tokens = started(7)
    all_pacts(session)
    for _ in range(3):  # event, debate, tax vote
        session = services.session_advance(session=fresh(session), confirm=True,
                                           expected=fresh(session).stage_id)
    assert fresh(session).stage == "tax_vote"
    for seat in humans(session.tables.get())[:3]:  # three tokens: the count will open them
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="C",
                             expected=fresh(session).stage_id)
    with translation.override("en"):
        page = html.unescape(render_to_string(
            "facilitator/_console_live.html",
            {**projector_context(projector_view(fresh(session))), "csrf_token": "x"}))
    assert "Count the votes ▶" in page
    assert "Press the same button again (for “Count the votes”: space or →)" in page
    assert "for Next:" not in page
