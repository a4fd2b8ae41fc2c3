"""Undoing a count tells each table what happened to its own bag: the table whose bag had
counted itself keeps its result, the table counted by the teacher votes again."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from facilitator import services
from facilitator.screens import phone_context, projector_context
from facilitator.selectors import projector_view, seat_view
from tests.facilitator.lesson import all_pacts, fresh, humans, started

pytestmark = pytest.mark.django_db


def test_each_table_is_told_what_the_undo_did_to_its_own_bag():
    session, _tokens = started(14)  # two tables of 7
    all_pacts(session)
    for _ in range(3):
        session = services.session_advance(session=fresh(session), confirm=True,
                                           expected=fresh(session).stage_id)
    first, second = fresh(session).tables.order_by("number")
    for seat in humans(first):  # every token in: the bag counts itself
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="B",
                             expected=fresh(session).stage_id)
    for seat in humans(second)[:6]:  # six of seven: the teacher counts
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="C",
                             expected=fresh(session).stage_id)
    services.session_advance(session=fresh(session), confirm=True,
                             expected=fresh(session).stage_id)
    services.session_undo(session=fresh(session))
    assert fresh(session).undone["discarded_at"] == [2]
    console = projector_context(projector_view(fresh(session)))["undone"]
    assert "At table 2 the votes cast were discarded: it votes again." in console
    assert "their results stand" in console
    told = {}
    for table in (first, second):
        seat = humans(table)[0]
        html = render_to_string("play/_screen.html", phone_context(seat_view(seat)))
        told[table.number] = html
    assert "votes cast were discarded" not in told[1]
    assert "vote again" in told[2]
