"""Ending an Austerity lesson at a Year End ("End the lesson now"), the unfinished country's
result, and a lesson paused one day and carried on another."""

from __future__ import annotations

import pytest

from facilitator import selectors, services
from facilitator.lessons.austerity import motions, scoring
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.austerity.models import Motion
from facilitator.log import verify_table
from facilitator.models import ClassSession, Seat, Table
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher
from tests.lessons.austerity.austerity_lesson import (
    advance,
    minister_answers,
    minister_of,
    seats_of,
    started,
    state_of,
    to_the_year,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def end_now(session: ClassSession) -> ClassSession:
    return aus_services.lesson_end_now(session=fresh(session), expected=fresh(session).stage_id,
                                       confirm=True)


def test_the_teacher_ends_the_lesson_at_a_year_end_and_the_country_is_unfinished() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    assert not selectors.projector_view(session)["session"]["can_end_now"]
    with pytest.raises(services.ServiceError) as caught:
        end_now(session)
    assert caught.value.code == "not_year_end"
    minister_answers(session, table)
    session = advance(session)
    assert selectors.projector_view(session)["session"]["can_end_now"]
    session = end_now(session)
    assert (session.stage, session.status) == ("final", ClassSession.Status.FINISHED)
    state = state_of(table)
    assert state.stage != "over"
    result = scoring.country_result(state)
    assert result.kind == scoring.UNFINISHED and result.score is not None
    with pytest.raises(services.ServiceError):
        advance(session)  # the lesson is over


def test_the_lesson_cannot_end_while_a_table_votes() -> None:
    session = to_the_year(started(5, seating="class", policies=True))
    table = session.tables.get()
    minister_answers(session, table)
    session = advance(session)
    ana, ben, *_rest = seats_of(table)
    target = next(m["target"] for m in selectors.seat_view(ana)["can"]["raise"]
                  if m["kind"] == motions.POLICY_MOTION)
    motion = motions.motion_raise(seat_id=ana.pk, kind=motions.POLICY_MOTION, target=target)
    motions.motion_support(seat_id=ben.pk, motion=motion)
    motions.motion_open(session=fresh(session), table=1, motion=motion)
    with pytest.raises(services.ServiceError) as caught:
        end_now(session)
    assert caught.value.code == "tables_voting"
    assert fresh(session).status == ClassSession.Status.RUNNING
    aus_services.ballot_close(confirm=True, session=fresh(session), table=1)
    end_now(session)
    assert Motion.objects.get().status != Motion.Status.OPEN


def test_a_lesson_left_at_year_end_goes_on_another_day() -> None:
    teacher = make_teacher("day-one")
    session = services.session_create(owner=teacher, game="austerity",
                                       options={"seating": "class"})
    tokens = join(session, 5)
    services.session_start(session=fresh(session), seed=5)
    session = to_the_year(fresh(session))
    table = session.tables.get()
    first = minister_of(session, table)
    minister_answers(session, table)
    session = advance(session)
    services.session_pause(session=fresh(session), paused=True)
    year_one = state_of(table)

    # Another day: nothing is held in memory but the database; the phones come back.
    again = ClassSession.objects.get(pk=session.pk)
    assert again.paused and again.stage == "year_end"
    services.session_pause(session=again, paused=False)
    for name, token in tokens.items():
        seat = selectors.seat_for_token(token)
        assert seat is not None and seat.nickname == name
        assert selectors.seat_view(seat)["game"]["year"] == year_one.year
    again = advance(fresh(again))
    assert (again.stage, again.round) == ("budget_taxes", 2)
    back = Table.objects.get(pk=table.pk)
    assert minister_of(again, back).position == first.position + 1
    student = Seat.objects.get(pk=selectors.seat_for_token(tokens["Ana"]).pk)
    services.ballot_cast(seat_id=student.pk, kind="taxes", option="0",
                         expected=again.stage_id)
    assert verify_table(back) == []
