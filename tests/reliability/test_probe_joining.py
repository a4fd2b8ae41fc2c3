"""The security probe's findings about joining, each as the behaviour that holds now: blank
nicknames, a lesson's class size, repeated joins from one browser or one address, and the
"New phone" link that works once.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client

from facilitator import ratelimit, selectors, services
from facilitator.errors import ServiceError
from facilitator.models import BallotReceipt, Seat
from tests.facilitator.lesson import drive_to, fresh, make_session, make_teacher, seat, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def join_error(session, nickname: str) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        services.seat_join(code=session.join_code, nickname=nickname)
    return caught.value


# --------------------------------------------------------------------------- blank nicknames


BLANK_LOOKING = {
    "hangul filler": "\u3164",
    "three hangul fillers": "\u3164\u3164\u3164",
    "halfwidth hangul filler": "\uffa0",
    "choseong filler": "\u115f",
    "jungseong filler": "\u1160",
    "braille blank": "\u2800\u2800",
    "fillers and spaces": "\u3164 \u3164",
    "a combining accent alone": "\u0301",
    "grapheme joiner": "\u034f\u034f",
    "variation selector": "\ufe0f",
    "fillers in between": "\u3164\u2800\u3164",
}


@pytest.mark.parametrize("name", BLANK_LOOKING.values(), ids=BLANK_LOOKING.keys())
def test_a_nickname_with_nothing_visible_is_refused(name):
    session = make_session()
    error = join_error(session, name)
    assert error.code == "bad_nickname" and error.status == 400
    assert not Seat.objects.filter(session=session).exists()


def test_a_blank_looking_character_hidden_in_a_name_is_refused():
    """"Ana" + a filler would look like Ana on the projector but pass as a different name."""
    session = make_session()
    services.seat_join(code=session.join_code, nickname="Ana")
    for disguise in ("Ana\u3164", "\u2800Ana", "A\uffa0na"):
        assert join_error(session, disguise).code == "bad_nickname", repr(disguise)
    assert Seat.objects.filter(session=session).count() == 1


def test_the_join_page_explains_a_blank_nickname():
    session = make_session()
    response = Client().post("/join/", {"code": session.join_code, "nickname": "\u3164\u3164"})
    assert response.status_code == 400
    assert "at least one letter, number or symbol" in response.content.decode()


@pytest.mark.parametrize("name", ["Zoë", "김민준", "李娜", "Ana-María", "José 2", "ميلا",
                                  "नमस्ते", "😀", "❤️ Kim", "👍🏽", "O'Neil", "Åsa"])
def test_real_nicknames_in_any_script_still_get_in(name):
    session = make_session()
    seat, _token = services.seat_join(code=session.join_code, nickname=name)
    assert seat.nickname == name


# --------------------------------------------------------------------------- class size


def post_join(client: Client, code: str, nickname: str) -> object:
    return client.post("/join/", {"code": code, "nickname": nickname})


def test_a_flood_of_joins_from_one_client_stops_at_the_class_size():
    """The probe: 300 joins with a valid code from one client made 300 seats (38 tables)."""
    session = make_session()
    assert session.class_size == 32  # the default
    answers = [post_join(Client(), session.join_code, f"Bot {n}").status_code
               for n in range(45)]
    assert answers[:32] == [302] * 32
    assert set(answers[32:]) == {409}
    assert Seat.objects.filter(session=session).count() == 32
    full = post_join(Client(), session.join_code, "Late").content.decode()
    assert "This lesson is full: all 32 places are taken." in full
    assert 'role="alert"' in full
    services.session_start(session=fresh(session))
    assert fresh(session).tables.count() == 4


def test_a_whole_class_behind_one_school_address_gets_in_within_a_minute(monkeypatch):
    monkeypatch.setattr(ratelimit.time, "time", lambda: 3_000_000.0)  # one and the same minute
    session = make_session(class_size=40)
    for n in range(40):
        response = post_join(Client(REMOTE_ADDR="203.0.113.9"), session.join_code, f"S{n}")
        assert response.status_code == 302, n
    refused = post_join(Client(REMOTE_ADDR="203.0.113.9"), session.join_code, "S40")
    assert refused.status_code == 409
    assert "all 40 places are taken" in refused.content.decode()


def test_a_browser_that_holds_a_seat_gets_it_back_instead_of_a_new_one():
    session = make_session()
    phone = Client()
    assert post_join(phone, session.join_code, "Ana").status_code == 302
    for name in ("Ana", "Ana2", "Someone else"):
        response = post_join(phone, session.join_code, name)
        assert (response.status_code, response["Location"]) == (302, "/play/")
    assert list(Seat.objects.filter(session=session).values_list("nickname", flat=True)) \
        == ["Ana"]


def test_many_new_seats_from_one_address_in_a_minute_are_slowed(monkeypatch, settings):
    """Seats that the teacher removes free places; a script refilling them from one address
    is slowed at JOIN_NEW_SEATS_PER_MINUTE a minute (48: the largest class and a table)."""
    assert settings.JOIN_NEW_SEATS_PER_MINUTE == 48
    settings.JOIN_NEW_SEATS_PER_MINUTE = 5
    clock = [4_000_000.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: clock[0])
    session = make_session(class_size=6)
    for n in range(5):
        assert post_join(Client(REMOTE_ADDR="10.0.0.7"), session.join_code,
                         f"S{n}").status_code == 302
    slowed = post_join(Client(REMOTE_ADDR="10.0.0.7"), session.join_code, "S5")
    assert slowed.status_code == 429
    assert "Many phones have just joined this lesson from your network" in \
        slowed.content.decode()
    # Another address, another lesson, and the same address a minute later are not slowed.
    assert post_join(Client(REMOTE_ADDR="10.0.0.8"), session.join_code, "T").status_code == 302
    other = make_session(make_teacher("other"))
    assert post_join(Client(REMOTE_ADDR="10.0.0.7"), other.join_code, "U").status_code == 302
    services.seat_remove(session=fresh(session), seat=seat(session, "S0"))
    clock[0] += 61
    assert post_join(Client(REMOTE_ADDR="10.0.0.7"), session.join_code, "S5").status_code \
        == 302


@pytest.mark.parametrize("size", ["5", "41", "0", "-3", "many"])
def test_the_class_size_is_between_6_and_40(size):
    teacher = Client()
    teacher.force_login(make_teacher())
    response = teacher.post("/teacher/lessons/new/", {
        "game": "state-in-class", "language": "en", "debate_seconds": "120",
        "bot_policy": "civic", "class_size": size})
    assert response.status_code == 400
    assert not teacher.get("/teacher/").context["open_sessions"]


def test_the_teacher_sets_the_class_size_on_the_new_lesson_page():
    teacher = Client()
    teacher.force_login(make_teacher())
    page = teacher.get("/teacher/lessons/new/").content.decode()
    assert "Class size" in page and 'value="32"' in page
    response = teacher.post("/teacher/lessons/new/", {
        "game": "state-in-class", "language": "en", "debate_seconds": "120",
        "bot_policy": "civic", "class_size": "12"})
    assert response.status_code == 302
    session = teacher.get("/teacher/").context["open_sessions"][0]
    assert session.class_size == 12


# --------------------------------------------------------------------------- the "New phone" link


def new_phone_link(session, nickname: str) -> str:
    teacher = Client()
    teacher.force_login(session.owner)
    page = teacher.post(f"/teacher/lessons/{session.pk}/seats/{seat(session, nickname).pk}"
                        "/reseat/").content.decode()
    return re.search(r"/seat/[^/<\s]+/", page)[0]


def phone(token: str | None = None) -> Client:
    client = Client()
    if token:
        client.cookies["sic_seat"] = token
    return client


def vote(client: Client, session) -> int:
    return client.post("/play/act/", {"type": "ballot", "kind": "tax", "option": "A",
                                      "expected": fresh(session).stage_id}).status_code


def test_the_new_phone_link_works_once():
    session, _tokens = started(8)
    session = drive_to(session, "tax_vote", 1)
    link = new_phone_link(session, "Ana")
    new, late = phone(), phone()
    # Opening the link only asks (a link preview must not use it up).
    page = new.get(link)
    assert page.status_code == 200 and "Ana" in page.content.decode()
    assert "sic_seat" not in page.cookies
    assert late.get(link).status_code == 200
    claimed = new.post(link)
    assert (claimed.status_code, claimed["Location"]) == (302, "/play/")
    refused = late.post(link)
    assert refused.status_code == 410
    assert "already been used" in refused.content.decode()
    assert "sic_seat" not in late.cookies
    assert late.get(link).status_code == 410
    assert late.get("/play/")["Location"] == "/join/"
    # The new phone is Ana; the one that came second is nobody.
    assert vote(new, session) == 302
    assert BallotReceipt.objects.filter(seat=seat(session, "Ana")).count() == 1
    # Tapping it twice on the new phone just goes back to the game.
    assert new.post(link)["Location"] == "/play/"


def test_the_earlier_phone_is_signed_out_when_the_link_is_used_not_before():
    session, tokens = started(8)
    session = drive_to(session, "tax_vote", 1)
    old = phone(tokens["Ana"])
    link = new_phone_link(session, "Ana")
    # A "New phone" pressed by mistake changes nothing until the link is used.
    assert old.get("/play/").status_code == 200
    phone().post(link)
    assert old.get("/play/")["Location"] == "/join/"
    signed_out = old.get("/join/")
    assert ("You were removed from the lesson, or your seat moved to another phone"
            in signed_out.content.decode())
    assert signed_out.cookies["sic_seat"].value == ""  # the dead cookie is cleared
    assert vote(old, session) == 302 and not BallotReceipt.objects.exists()


def test_a_new_link_replaces_the_previous_one():
    session, _tokens = started(8)
    first = new_phone_link(session, "Ana")
    second = new_phone_link(session, "Ana")
    assert phone().post(first).status_code == 410
    assert phone().post(second).status_code == 302


def test_a_link_of_a_removed_seat_or_an_ended_lesson_does_not_work():
    session, _tokens = started(8)
    link = new_phone_link(session, "Ben")
    services.seat_remove(session=fresh(session), seat=seat(session, "Ben"))
    assert phone().post(link).status_code == 410
    link = new_phone_link(session, "Cai")
    type(session).objects.filter(pk=session.pk).update(status="finished")
    assert phone().post(link).status_code == 410
    assert selectors.seat_for_token(None) is None
