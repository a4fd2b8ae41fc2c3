"""A bag closed unopened counted nobody's token: a student who voted is never told they did
not vote, every phone at the table reads the platform's notice instead, and the handout says
how many tokens were set aside."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from facilitator import services
from facilitator.screens import phone_context
from facilitator.selectors import seat_view
from tests.facilitator.lesson import all_pacts, fresh, humans, started

pytestmark = pytest.mark.django_db


def test_a_voter_whose_token_was_set_aside_is_not_told_they_did_not_vote():
    session, _tokens = started(6)
    all_pacts(session)
    for _ in range(3):
        session = services.session_advance(session=fresh(session), confirm=True,
                                           expected=fresh(session).stage_id)
    voter, other = humans(fresh(session).tables.get())[:2]
    services.ballot_cast(seat_id=voter.pk, kind="tax", option="C",
                         expected=fresh(session).stage_id)
    services.session_advance(session=fresh(session), confirm=True,
                             expected=fresh(session).stage_id)
    for seat in (voter, other):
        html = render_to_string("play/_screen.html", phone_context(seat_view(seat)))
        assert "You did not vote this time" not in html
        assert "so none was opened" in html


def test_the_handout_tells_the_bag_closed_unopened_with_its_tokens():
    from facilitator.lessons.state_in_class.debrief.story import table_story

    session, _tokens = started(6)
    all_pacts(session)
    for _ in range(3):
        session = services.session_advance(session=fresh(session), confirm=True,
                                           expected=fresh(session).stage_id)
    for seat in humans(fresh(session).tables.get())[:2]:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="C",
                             expected=fresh(session).stage_id)
    services.session_advance(session=fresh(session), confirm=True,
                             expected=fresh(session).stage_id)
    story = table_story(fresh(session).tables.get(), with_charts=False)
    html = render_to_string("state_in_class/reports/_round.html", {"r": story.rounds[0]})
    assert "2 of 6 voted: fewer than 3, so the bag was not opened" in html
    assert "0 of 6 voted" not in html
