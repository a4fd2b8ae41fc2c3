"""The HTTP side of a lesson: joining sets the seat cookie, pages need the right owner, and
the plain form posts (used when a websocket cannot get through) act like the sockets."""

import json

import pytest
from django.test import Client

from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.models import BallotReceipt, ClassSession, Seat
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    deterministic,
    fresh,
    join,
    make_session,
    make_teacher,
    started,
)

pytestmark = pytest.mark.django_db


def test_joining_sets_an_httponly_samesite_seat_cookie_and_opens_the_phone_page():
    session = make_session()
    phone = Client()
    page = phone.get(f"/join/{session.join_code.lower()}/")
    assert page.status_code == 200 and session.join_code in page.content.decode()
    response = phone.post("/join/", {"code": session.join_code, "nickname": "  Ana  "})
    assert response.status_code == 302 and response["Location"] == "/play/"
    cookie = response.cookies[SEAT_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and len(cookie.value) >= 40
    seat = Seat.objects.get(session=session)
    assert seat.nickname == "Ana" and cookie.value not in str(Seat.objects.values().get())
    play = phone.get("/play/")
    assert play.status_code == 200 and "You're in, Ana!" in play.content.decode()


@pytest.mark.parametrize(("code", "nickname", "status", "text"), [
    ("ZZZZZZ", "Ana", 404, "There is no lesson with that code"),
    ("{code}", "", 400, "This field is required"),
    ("{code}", "x" * 21, 400, "at most 20 characters"),
    ("{code}", "Ben", 409, "Someone is already called Ben"),
])
def test_a_bad_join_shows_a_clear_message_and_sets_no_cookie(code, nickname, status, text):
    session = make_session()
    join(session, 2)  # Ana, Ben
    response = Client().post("/join/", {"code": code.format(code=session.join_code),
                                        "nickname": nickname})
    assert response.status_code == status
    assert text in response.content.decode()
    assert SEAT_COOKIE not in response.cookies


def test_a_phone_without_a_seat_is_sent_to_the_join_page():
    assert Client().get("/play/")["Location"] == "/join/"
    phone = Client()
    phone.cookies[SEAT_COOKIE] = "not-a-token"
    assert phone.get("/play/")["Location"] == "/join/"


def test_only_the_owner_opens_the_console_the_qr_code_and_the_records():
    owner, other = make_teacher("owner"), make_teacher("other")
    session = make_session(owner)
    mine, theirs, anonymous = Client(), Client(), Client()
    mine.force_login(owner)
    theirs.force_login(other)
    for path in (f"/teacher/lessons/{session.pk}/", f"/teacher/lessons/{session.pk}/qr.svg",
                 f"/teacher/lessons/{session.pk}/students/"):
        assert mine.get(path).status_code == 200
        assert theirs.get(path).status_code == 404
        assert anonymous.get(path).status_code == 302
    svg = mine.get(f"/teacher/lessons/{session.pk}/qr.svg")
    assert svg["Content-Type"] == "image/svg+xml" and b"<svg" in svg.content


def test_the_console_and_the_phone_play_through_plain_form_posts(monkeypatch):
    deterministic(monkeypatch)
    session, tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    assert session.stage == Stage.TAX_VOTE
    phone = Client()
    phone.cookies[SEAT_COOKIE] = tokens["Ana"]
    response = phone.post("/play/act/", {"type": "ballot", "kind": "tax", "option": "C",
                                         "expected": session.stage_id})
    assert response.status_code == 302
    assert BallotReceipt.objects.filter(seat__nickname="Ana").count() == 1
    again = phone.post("/play/act/", {"type": "ballot", "kind": "tax", "option": "C",
                                      "expected": session.stage_id})
    assert again.status_code == 409 and "already in the bag" in again.content.decode()
    console = Client()
    console.force_login(session.owner)
    stale = console.post(f"/teacher/lessons/{session.pk}/act/", {"type": "next",
                                                                  "expected": "0:pact"})
    assert stale.status_code == 409 and fresh(session).stage == "tax_vote"
    unconfirmed = console.post(f"/teacher/lessons/{session.pk}/act/",
                               {"type": "next", "expected": session.stage_id})
    assert unconfirmed.status_code == 409 and fresh(session).stage == "tax_vote"
    assert "Count anyway?" in unconfirmed.content.decode()
    moved = console.post(f"/teacher/lessons/{session.pk}/act/",
                         {"type": "next", "expected": session.stage_id, "confirm": "1"})
    assert moved.status_code == 302 and fresh(session).stage == "pay"


def test_a_tables_record_downloads_as_json(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    console = Client()
    console.force_login(session.owner)
    response = console.get(f"/teacher/lessons/{session.pk}/tables/1/record.json")
    record = json.loads(response.content)
    assert record["game"] == "state-in-class" and len(record["actions"]) == 8
    assert "attachment" in response["Content-Disposition"]


def test_a_new_lesson_form_creates_the_lesson_and_opens_its_projector_view():
    teacher = make_teacher()
    console = Client()
    console.force_login(teacher)
    assert console.get("/teacher/lessons/new/").status_code == 200
    response = console.post("/teacher/lessons/new/", {
        "title": "3B", "game": "state-in-class", "language": "es", "debate_seconds": "180",
        "bots_allowed": "on", "bot_policy": "civic"})
    session = ClassSession.objects.get(owner=teacher)
    assert response["Location"] == f"/teacher/lessons/{session.pk}/"
    assert session.language == "es" and session.options["debate_seconds"] == 180
    bad = console.post("/teacher/lessons/new/", {"game": "chess", "language": "xx",
                                                 "debate_seconds": "7"})
    assert bad.status_code == 400 and ClassSession.objects.count() == 1
