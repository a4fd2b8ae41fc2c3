"""Motions: a student raises one from their phone (only what the engine can decide now),
classmates support it in public, a ready motion is opened by the teacher as a secret table
ballot, and a carried motion is applied; an impossible one is dropped with its reason."""

from __future__ import annotations

import pytest

from facilitator import messages, selectors, services
from facilitator.lessons.austerity import modes, motions
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.austerity.models import Motion, Support
from facilitator.models import ClassSession, Seat
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    advance,
    log_of,
    minister_answers,
    open_bag,
    seats_of,
    started,
    state_of,
    to_the_year,
    vote,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def raise_(session: ClassSession, seat: Seat, kind: str, target: str) -> str:
    return motions.motion_raise(seat_id=seat.pk, kind=kind, target=target,
                                expected=fresh(session).stage_id)


def support(session: ClassSession, seat: Seat, motion: str) -> None:
    motions.motion_support(seat_id=seat.pk, motion=motion, expected=fresh(session).stage_id)


def open_(session: ClassSession, motion: str, table: int = 1) -> None:
    motions.motion_open(session=fresh(session), table=table, motion=motion,
                        expected=fresh(session).stage_id)


def refused(code: str, call, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(services.ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message


def seat(n: int, bot: bool = False) -> Seat:
    return Seat(is_bot=bot, position=n)


def test_a_quarter_of_the_table_rounded_up_at_least_two_never_more_than_its_students() -> None:
    assert motions.support_needed([seat(n) for n in range(5)]) == 2
    assert motions.support_needed([seat(n) for n in range(8)]) == 2
    assert motions.support_needed([seat(n) for n in range(9)]) == 3
    assert motions.support_needed([seat(n) for n in range(30)]) == 8
    assert motions.support_needed([seat(0), *[seat(n, bot=True) for n in (1, 2, 3)]]) == 1


def test_a_supported_motion_is_opened_as_a_secret_ballot_and_carried() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *others = seats_of(table)
    motion = raise_(session, ana, motions.ACTION, "borrow")
    assert motion == "y1.motion1"
    refused("not_ready", open_, session, motion)
    support(session, ben, motion)
    shown = selectors.seat_view(others[0])["seat"]["motions"][0]
    assert (shown["supporters"], shown["support"], shown["needed"], shown["ready"]) == (
        sorted([ana.nickname, ben.nickname]), 2, 2, True)
    assert selectors.projector_view(session)["tables"][0]["motions"][0]["ready"]
    open_(session, motion)
    bag = open_bag(table)
    assert bag is not None and (bag.decision, bag.options) == ("y1.motion1", ["no", "yes"])
    assert selectors.seat_view(ana)["seat"]["motions"][0]["status"] == "voting"
    vote(session, table, ["yes", "yes", "no", "yes", "no"])
    assert log_of(table) == [("teacher", {"type": "action", "choice": "borrow"})]
    assert Motion.objects.get().status == Motion.Status.CARRIED


def test_a_motion_not_carried_changes_nothing_and_a_tie_is_not_carried() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = raise_(session, ana, motions.ACTION, "borrow")
    support(session, ben, motion)
    open_(session, motion)
    vote(session, table, ["yes", "no", "yes", "no"])
    aus_services.ballot_close(confirm=True, session=fresh(session), table=1)
    found = Motion.objects.get()
    assert (found.status, found.tie) == (Motion.Status.REJECTED, True)
    assert log_of(table) == []


def test_a_carried_motion_takes_a_kind_to_a_table_ballot_for_the_rest_of_the_year() -> None:
    session = started(5, seating="class")  # raised in the budget session
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = raise_(session, ana, motions.BALLOT, modes.EVENT)
    support(session, ben, motion)
    refused("not_now", open_, session, motion)  # its ballot opens in the year
    session = to_the_year(session)
    open_(session, motion)
    vote(session, table, ["yes"] * 5)
    assert selectors.seat_view(ana)["seat"]["modes"][modes.EVENT] == modes.BALLOT
    minister_answers(session, table)
    bag = open_bag(table)
    assert bag is not None and bag.decision.endswith(".event")
    assert modes.mode_in(table.austerity.modes, modes.EVENT, 2) == modes.MINISTER


def test_what_a_student_may_raise_is_what_the_engine_can_decide_now() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana = seats_of(table)[0]
    offered = {(m["kind"], m["target"]) for m in selectors.seat_view(ana)["can"]["raise"]}
    assert ("action", "borrow") in offered and ("ballot", "cuts") in offered
    assert not any(t.endswith((":current", ":treasury")) for _k, t in offered)
    refused("not_possible", raise_, session, ana, motions.POLICY_MOTION, "turn:trade")
    refused("bad_motion", raise_, session, ana, "coup", "now")
    assert not Motion.objects.exists()


def test_a_student_may_not_raise_twice_nor_the_same_motion_nor_support_twice() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = raise_(session, ana, motions.ACTION, "borrow")
    refused("one_motion", raise_, session, ana, motions.BALLOT, modes.CUTS)
    refused("already_raised", raise_, session, ben, motions.ACTION, "borrow")
    refused("already_supported", support, session, ana, motion)
    refused("no_motion", support, session, ben, "y1.motion9")
    assert Support.objects.count() == 1


def test_a_motion_ballot_opens_only_when_no_other_bag_is_open_at_the_table() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = raise_(session, ana, motions.BALLOT, modes.CUTS)
    support(session, ben, motion)
    aus_services.mode_switch(session=fresh(session), kind=modes.EVENT, mode=modes.BALLOT)
    minister_answers(session, table)
    busy = open_bag(table)
    assert busy is not None and busy.decision.endswith(".event")
    refused("table_voting", open_, session, motion)
    assert open_bag(table) == busy and Motion.objects.get().status == Motion.Status.OPEN


def test_a_motion_that_became_impossible_is_dropped_with_its_reason() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    ana, ben, *_rest = seats_of(table)
    motion = raise_(session, ana, motions.BALLOT, modes.CUTS)
    support(session, ben, motion)
    aus_services.mode_switch(session=fresh(session), kind=modes.CUTS, mode=modes.BALLOT)
    shown = selectors.seat_view(ana)["seat"]["motions"][0]
    assert shown["status"] == "dropped" and shown["reason"]
    refused("motion_closed", open_, session, motion)


def test_last_years_open_motions_are_dropped_when_the_year_is_over() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    raise_(session, seats_of(table)[0], motions.BALLOT, modes.INCOME)
    minister_answers(session, table)
    session = advance(advance(session))  # Year End, then year 2's budget session
    found = Motion.objects.get()
    assert (found.status, found.reason) == (Motion.Status.DROPPED, motions.YEAR_OVER)


def test_a_policy_motion_at_year_end_turns_the_card() -> None:
    session = to_the_year(started(5, seating="class", policies=True))
    table = session.tables.get()
    minister_answers(session, table)
    session = advance(session)
    assert session.stage == "year_end" and state_of(table).stage == "policy"
    ana, ben, *_rest = seats_of(table)
    target = next(m["target"] for m in selectors.seat_view(ana)["can"]["raise"]
                  if m["kind"] == motions.POLICY_MOTION)
    motion = raise_(session, ana, motions.POLICY_MOTION, target)
    support(session, ben, motion)
    open_(session, motion)
    refused("tables_voting", advance, session)  # the vote is counted first
    vote(session, table, ["yes"] * 5)
    assert log_of(table)[-1] == ("teacher", {"type": "policy", "choice": target})
    session = advance(session)
    assert session.stage == "budget_policy" and open_bag(table) is None  # turned already


def test_the_motion_messages_are_the_phones_and_the_consoles() -> None:
    seat_adapter = messages.seat_messages(LESSON)
    raised = messages.parse(seat_adapter, {"type": "motion_raise", "kind": "action",
                                           "target": "borrow"})
    assert (raised.kind, raised.target) == ("action", "borrow")
    assert messages.parse(seat_adapter, {"type": "motion_support",
                                         "motion": "y1.motion1"}).motion == "y1.motion1"
    teacher = messages.teacher_messages(LESSON)
    opened = messages.parse(teacher, {"type": "motion_open", "table": 2,
                                      "motion": "y1.motion1"})
    assert opened.table == 2
    for frame in ({"type": "mode", "kind": "cuts", "mode": "ballot", "table": "all"},
                  {"type": "timer_set", "kind": "event", "seconds": "40"},
                  {"type": "decide", "table": 1, "decision": "y1.d1.draw", "choice": "draw"},
                  {"type": "ballot_close", "table": 1}, {"type": "expire", "table": 1},
                  {"type": "end_now"}):
        messages.parse(teacher, frame)
    with pytest.raises(services.ServiceError):
        messages.parse(teacher, {"type": "motion_open", "table": 0, "motion": "y1.motion1"})
