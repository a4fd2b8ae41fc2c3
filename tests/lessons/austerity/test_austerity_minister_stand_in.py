"""A minister whose phone is asleep: a connected table-mate decides for them, the screens say
so while still naming the minister, and the record credits the minister's year."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from facilitator import presence
from facilitator.lessons.austerity import services as aus_services
from facilitator.log import record_acted, record_actions
from facilitator.screens import phone_context, projector_context
from facilitator.selectors import projector_view, seat_view
from facilitator.services import ServiceError
from tests.facilitator.lesson import fresh
from tests.lessons.austerity.austerity_lesson import (
    minister_of,
    pending,
    seats_of,
    started,
    to_the_year,
)

pytestmark = pytest.mark.django_db


def test_a_connected_table_mate_stands_in_for_an_asleep_minister():
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    minister = minister_of(session, table)
    mates = [s for s in seats_of(table) if s != minister and not s.is_bot]
    for mate in mates:  # every phone but the minister's has a socket open
        presence.presence_join(seat_id=mate.pk)
    stand_in = next(s for s in seats_of(table)[seats_of(table).index(minister) + 1:]
                    + seats_of(table) if s in mates)
    decision = pending(table)
    with pytest.raises(ServiceError):  # the others only watch
        other = next(s for s in mates if s != stand_in)
        aus_services.decide(seat_id=other.pk, decision=decision.id,
                            choice=decision.options[0], expected=fresh(session).stage_id)
    console = render_to_string("facilitator/_console_live.html",
                               {**projector_context(projector_view(fresh(session))),
                                "csrf_token": "x"})
    assert minister.nickname in console and f"{stand_in.nickname} acts now" in console
    phone = render_to_string("play/_screen.html", phone_context(seat_view(stand_in)))
    assert f"{minister.nickname}'s phone is asleep: you decide for the Finance Minister" \
        in phone
    aus_services.decide(seat_id=stand_in.pk, decision=decision.id,
                        choice=decision.options[0], expected=fresh(session).stage_id)
    actions, acted = record_actions(table), record_acted(table)
    stood_in = [(a, x) for a, x in zip(actions, acted, strict=True) if x["how"] == "stand_in"]
    assert stood_in == [({"type": "draw"}, {"how": "stand_in", "player": minister.player_name,
                                            "by": stand_in.nickname})]  # the minister's year
