"""Creating a lesson, joining it from a phone, removing and re-seating students."""

import base64
import hashlib
import itertools
import secrets
from datetime import UTC, datetime

import pytest
from django.apps import apps
from django.db import connection

from facilitator import clock, selectors, services
from facilitator.errors import ServiceError
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.lesson import LESSON
from facilitator.models import BallotReceipt, ClassSession, Seat
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    dump_facilitator,
    fresh,
    humans,
    join,
    make_session,
    make_teacher,
    seat,
    started,
    state_of,
)

pytestmark = pytest.mark.django_db

LOOK_ALIKES = set("0O1IL2Z5S6G8B")


def error(call, *args, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return caught.value


def codes_from(*codes: str):
    """A stand-in for secrets.choice that spells out ``codes``, one letter a call."""
    letters = iter(itertools.chain.from_iterable(codes))
    return lambda alphabet: next(letters)


# --------------------------------------------------------------------------- creating


def test_a_join_code_is_six_letters_without_look_alikes():
    teacher = make_teacher()
    for _ in range(30):
        code = make_session(teacher).join_code
        assert len(code) == 6
        assert set(code) <= set(services.JOIN_CODE_ALPHABET)
        assert not set(code) & LOOK_ALIKES
    assert not set(services.JOIN_CODE_ALPHABET) & LOOK_ALIKES


def test_a_code_taken_by_an_open_session_is_drawn_again(monkeypatch):
    teacher = make_teacher()
    monkeypatch.setattr(secrets, "choice", codes_from("ACDEFH"))
    first = make_session(teacher)
    assert first.join_code == "ACDEFH"
    monkeypatch.setattr(secrets, "choice", codes_from("ACDEFH", "ACDEFH", "JKMNPR"))
    second = make_session(teacher)
    assert second.join_code == "JKMNPR"
    assert ClassSession.objects.count() == 2


def test_a_finished_sessions_code_may_be_reused(monkeypatch):
    teacher = make_teacher()
    # Both sessions are created "at the same instant": the open one must still win the code.
    monkeypatch.setattr(clock, "now", lambda: datetime(2030, 1, 1, tzinfo=UTC))
    monkeypatch.setattr(secrets, "choice", codes_from("ACDEFH"))
    old = make_session(teacher)
    ClassSession.objects.filter(pk=old.pk).update(status=ClassSession.Status.FINISHED)
    monkeypatch.setattr(secrets, "choice", codes_from("ACDEFH"))
    new = make_session(teacher)
    assert new.join_code == old.join_code == "ACDEFH"
    seat_, _token = services.seat_join(code="acd-efh", nickname="Ana")
    assert seat_.session_id == new.pk


def test_when_every_draw_collides_the_teacher_is_asked_to_try_again(monkeypatch):
    teacher = make_teacher()
    monkeypatch.setattr(secrets, "choice", codes_from("ACDEFH"))
    make_session(teacher)
    monkeypatch.setattr(secrets, "choice", codes_from("ACDEFH" * 20))
    err = error(make_session, teacher)
    assert (err.code, err.status) == ("no_join_code", 503)
    assert ClassSession.objects.count() == 1


def test_a_new_session_is_a_lobby_with_the_default_options():
    session = make_session(title="  Civics 3B  ")
    assert session.status == "lobby" and session.stage == "lobby" and session.round == 0
    assert session.title == "Civics 3B"
    assert session.options == LESSON.default_options
    assert session.is_open


@pytest.mark.parametrize("options", [
    {"colour": "red"},
    {"bots_allowed": "yes"},
    {"bots_allowed": 1},
    {"debate_seconds": 29},
    {"debate_seconds": 901},
    {"debate_seconds": True},
    {"debate_seconds": "120"},
    {"debate_seconds": 120.0},
    {"bot_policy": "evil"},
    ["bots_allowed"],
    "bots_allowed",
])
def test_bad_options_are_refused_with_a_message(options):
    teacher = make_teacher()
    err = error(services.session_create, owner=teacher, options=options)
    assert err.code == "bad_options" and err.message
    assert not ClassSession.objects.exists()


def test_good_options_are_kept():
    session = make_session(options={"bots_allowed": False, "debate_seconds": 30,
                                    "bot_policy": "random"})
    assert session.options == {"bots_allowed": False, "debate_seconds": 30,
                               "bot_policy": "random"}


def test_unknown_game_or_language_is_refused():
    teacher = make_teacher()
    assert error(services.session_create, owner=teacher, game="chess").code == "unknown_game"
    assert error(services.session_create, owner=teacher, language="xx").code == \
        "unknown_language"
    assert not ClassSession.objects.exists()


# --------------------------------------------------------------------------- joining


@pytest.mark.parametrize(("typed", "kept"), [
    ("Ana", "Ana"),
    ("  Ana  ", "Ana"),
    ("Ana   Maria", "Ana Maria"),
    (" Ana \t  Maria ", "Ana Maria"),
    ("Ana\u00a0Maria", "Ana Maria"),
    ("e\u0301mile", "émile"),  # NFC: one visible character
    ("x" * 20, "x" * 20),
    ("Zoë 💡", "Zoë 💡"),
])
def test_a_nickname_is_trimmed_and_its_inner_spaces_collapsed(typed, kept):
    session = make_session()
    seat_, _token = services.seat_join(code=session.join_code, nickname=typed)
    assert seat_.nickname == kept
    assert Seat.objects.get(pk=seat_.pk).nickname == kept


@pytest.mark.parametrize("typed", [
    "", "   ", "\t\n", None,
    "x" * 21,
    " " + "y" * 21 + " ",
    "\u200b",  # zero-width space only
    "An\u200ba",  # zero-width space inside
    "Ana\u200d",  # zero-width joiner
    "\ufeffAna",  # byte-order mark
    "Ana\x07",  # bell
    "Ana\x00",
    "Ana\x1b[31m",  # terminal escape
    "\u202eanA",  # right-to-left override
])
def test_a_nickname_must_have_one_to_twenty_visible_characters(typed):
    session = make_session()
    err = error(services.seat_join, code=session.join_code, nickname=typed)
    assert err.code == "bad_nickname" and err.message
    assert not Seat.objects.exists()


@pytest.mark.parametrize(("first", "second"), [
    ("Ana", "Ana"), ("Ana", "ana"), ("Ana", "  ANA "), ("Ana Maria", "ana  maria"),
    ("Émile", "éMILE"), ("Straße", "STRASSE"),
])
def test_a_nickname_is_unique_in_its_session_whatever_the_case(first, second):
    session = make_session()
    services.seat_join(code=session.join_code, nickname=first)
    err = error(services.seat_join, code=session.join_code, nickname=second)
    assert (err.code, err.status) == ("nickname_taken", 409)
    assert session.seats.count() == 1


def test_the_same_nickname_may_join_another_session():
    teacher = make_teacher()
    one, two = make_session(teacher), make_session(teacher)
    services.seat_join(code=one.join_code, nickname="Ana")
    services.seat_join(code=two.join_code, nickname="Ana")
    assert Seat.objects.filter(nickname="Ana").count() == 2


@pytest.mark.parametrize("code", ["ZZZZZZ", "", "ACD", "ACDEFHJ", None, "??????"])
def test_a_wrong_code_says_so(code):
    make_session()
    err = error(services.seat_join, code=code, nickname="Ana")
    assert (err.code, err.status) == ("wrong_code", 404)
    assert "code" in err.message
    assert not Seat.objects.exists()


def test_the_code_is_read_loosely():
    session = make_session()
    code = session.join_code
    loose = f" {code[:3].lower()}-{code[3:].lower()} "
    seat_, _token = services.seat_join(code=loose, nickname="Ana")
    assert seat_.session_id == session.pk


@pytest.mark.parametrize("status", ["finished", "archived"])
def test_a_closed_lessons_code_says_it_has_ended(status):
    session = make_session()
    ClassSession.objects.filter(pk=session.pk).update(status=status)
    err = error(services.seat_join, code=session.join_code, nickname="Ana")
    assert (err.code, err.status) == ("closed_code", 410)
    assert err.message


def test_once_started_nobody_can_join():
    session, _tokens = started(8)
    err = error(services.seat_join, code=session.join_code, nickname="Late")
    assert (err.code, err.status) == ("already_started", 409)
    assert "teacher" in err.message
    assert session.seats.count() == 8


def test_a_seat_token_is_long_random_and_only_its_hash_is_stored():
    session = make_session()
    seat_, token = services.seat_join(code=session.join_code, nickname="Ana")
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert len(raw) * 8 >= 128
    assert seat_.token_hash == hashlib.sha256(token.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Seat._meta.db_table} WHERE id = %s", [seat_.pk])
        row = cursor.fetchone()
    assert row is not None
    assert not any(token in str(value) for value in row)
    # ... nor anywhere else in the facilitator's tables.
    for model in apps.get_app_config("facilitator").get_models():
        for values in model.objects.values_list():
            assert not any(token in str(v) for v in values)
    assert selectors.seat_for_token(token) == seat_
    assert selectors.seat_for_token(token[:-1]) is None


def test_every_seat_gets_its_own_token():
    session = make_session()
    tokens = join(session, 8)
    assert len(set(tokens.values())) == 8
    assert {selectors.seat_for_token(t).nickname for t in tokens.values()} == set(tokens)


# --------------------------------------------------------------------------- removing


def test_removing_a_student_from_the_lobby_deletes_the_seat():
    session = make_session()
    tokens = join(session, 3)
    services.seat_remove(session=session, seat=seat(session, "Ana"))
    assert not Seat.objects.filter(nickname="Ana").exists()
    assert selectors.seat_for_token(tokens["Ana"]) is None
    # The nickname is free again.
    services.seat_join(code=session.join_code, nickname="ana")


def test_removing_a_student_in_game_keeps_the_seat_but_takes_its_token():
    session, tokens = started(8)
    ana = seat(session, "Ana")
    services.seat_remove(session=session, seat=ana)
    ana.refresh_from_db()
    assert ana.removed and ana.token_hash is None and ana.table_id is not None
    assert selectors.seat_for_token(tokens["Ana"]) is None
    err = error(sic_services.pact_submit, seat_id=ana.pk, coins=1)
    assert (err.code, err.status) == ("removed", 403)


def test_a_removed_seat_abstains_and_the_vote_closes_when_everyone_else_voted():
    session, _tokens = started(8)
    session = advance(session)  # the pact: Ana will give nothing
    services.seat_remove(session=session, seat=seat(session, "Ana"))
    session = advance(session)  # the event -> the debate
    session = advance(session)  # the tax vote opens
    assert session.stage == "tax_vote"
    table = session.tables.get()
    assert state_of(table).player("Ana").pact == 0  # the teacher's close gave 0
    voters = [s for s in humans(table)]
    assert "Ana" not in {s.nickname for s in voters} and len(voters) == 7
    for s in voters:
        assert state_of(table).phase == "tax_vote"
        services.ballot_cast(seat_id=s.pk, kind="tax", option="C", expected=session.stage_id)
    state = state_of(table)
    assert state.phase != "tax_vote"
    count = table.actions.get(payload__type="count")
    assert count.payload["tally"] == {"C": 7}


def test_removing_the_last_missing_voter_closes_the_vote():
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    for s in humans(table):
        if s.nickname != "Ben":
            services.ballot_cast(seat_id=s.pk, kind="tax", option="D",
                                 expected=session.stage_id)
    assert state_of(table).phase == "tax_vote"
    services.seat_remove(session=session, seat=seat(session, "Ben"))
    assert state_of(table).phase != "tax_vote"
    assert table.actions.get(payload__type="count").payload["tally"] == {"D": 7}
    assert BallotReceipt.objects.filter(bag__table=table).count() == 7


def test_bots_cannot_be_removed_and_strangers_are_not_found():
    session, _tokens = started(4, fill="bots")
    bot = session.seats.filter(is_bot=True).first()
    assert error(services.seat_remove, session=session, seat=bot).code == "is_bot"
    other = make_session(make_teacher("other"))
    stranger, _token = services.seat_join(code=other.join_code, nickname="Zed")
    err = error(services.seat_remove, session=session, seat=stranger)
    assert (err.code, err.status) == ("not_found", 404)


# --------------------------------------------------------------------------- re-seating


def test_reseating_gives_a_one_time_link_and_the_old_phone_loses_the_seat_when_it_is_used():
    session, tokens = started(8)
    ana = seat(session, "Ana")
    link = services.seat_reseat(session=session, seat=ana)
    assert selectors.seat_for_token(link) is None  # the link is no seat token
    assert selectors.seat_for_token(tokens["Ana"]) == ana  # nothing changes until it is used
    claimed, new = services.seat_claim(token=link)
    assert claimed == ana and new not in (link, tokens["Ana"])
    assert selectors.seat_for_token(new) == ana
    assert selectors.seat_for_token(tokens["Ana"]) is None
    ana.refresh_from_db()
    assert ana.token_hash == hashlib.sha256(new.encode()).hexdigest()
    assert ana.claim_hash is None
    assert not ana.removed and ana.table_id is not None
    assert error(services.seat_claim, token=link).code == "claim_used"
    # The new phone can play the seat.
    sic_services.pact_submit(seat_id=selectors.seat_for_token(new).pk, coins=2)


def test_reseating_works_in_the_lobby_too():
    session = make_session()
    tokens = join(session, 2)
    link = services.seat_reseat(session=session, seat=seat(session, "Ben"))
    _seat, new = services.seat_claim(token=link)
    assert selectors.seat_for_token(new).nickname == "Ben"
    assert selectors.seat_for_token(tokens["Ben"]) is None


def test_removed_seats_bots_and_finished_lessons_cannot_be_reseated():
    session, _tokens = started(4, fill="bots")
    before = dump_facilitator()
    bot = session.seats.filter(is_bot=True).first()
    assert error(services.seat_reseat, session=session, seat=bot).code == "cannot_reseat"
    assert dump_facilitator() == before
    services.seat_remove(session=session, seat=seat(session, "Ana"))
    ana = seat(session, "Ana")
    before = dump_facilitator()
    assert error(services.seat_reseat, session=session, seat=ana).code == "cannot_reseat"
    ClassSession.objects.filter(pk=session.pk).update(status="finished")
    assert error(services.seat_reseat, session=fresh(session),
                 seat=seat(session, "Ben")).code == "read_only"
    assert error(services.seat_remove, session=fresh(session),
                 seat=seat(session, "Ben")).code == "read_only"
    ClassSession.objects.filter(pk=session.pk).update(status="running")
    assert dump_facilitator() == before
