"""Every screen of a whole lesson renders, for the projector and for a phone."""

import random

import pytest
from django.test import Client

from facilitator import services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.stages import Stage
from tests.facilitator.lesson import (
    break_ties,
    fresh,
    humans,
    join,
    make_session,
    make_teacher,
    vote_all,
)


@pytest.mark.django_db
def test_every_stage_of_a_lesson_renders_on_the_projector_and_the_phone():
    teacher = make_teacher()
    session = make_session(teacher)
    tokens = join(session, 8)
    console = Client()
    console.force_login(teacher)
    phone = Client()
    phone.cookies[SEAT_COOKIE] = tokens["Ana"]
    pages = []

    def snap():
        page = console.get(f"/teacher/lessons/{session.pk}/")
        assert page.status_code == 200, page.content[:500]
        mine = phone.get("/play/")
        assert mine.status_code == 200
        pages.append((fresh(session).stage, page.content.decode(), mine.content.decode()))

    snap()
    services.session_start(session=session, seed=11)
    rng = random.Random(5)
    s = fresh(session)
    for table in s.tables.all():
        for seat in humans(table):
            sic_services.pact_submit(seat_id=seat.pk, coins=2, expected=s.stage_id)
    while fresh(session).stage != Stage.FINAL:
        snap()
        s = fresh(session)
        if s.stage == "tax_vote":
            vote_all(s, "tax", rng, ["C"])
        elif s.stage == "budget_vote":
            vote_all(s, "budget", rng, [["health", "education", "shield"][s.round % 3]])
        snap()
        break_ties(s, rng)
        services.session_advance(confirm=True, session=s, expected=fresh(session).stage_id)
    snap()
    stages = {stage for stage, _, _ in pages}
    assert stages >= {"lobby", "pact", "event", "debate", "tax_vote", "pay", "budget_vote",
                      "end_of_round", "midlife", "final"}
