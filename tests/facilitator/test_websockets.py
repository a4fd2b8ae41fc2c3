"""The real-time layer: the websocket protocol (facilitator/consumers.py) end to end.

Every test talks to ``stateinclass.asgi.application`` (origin check, cookies, session auth,
routing) through channels' ``WebsocketCommunicator``. The database and the channel layer are
whatever the settings select: SQLite + the in-memory layer locally, PostgreSQL + Redis in CI
(DATABASE_URL / REDIS_URL). Sockets that go through ``AuthMiddlewareStack`` need
``django_db(transaction=True)``: the middleware reads the session from another thread, which
does not see a test's own transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.db import connection, connections

from facilitator import broadcast, services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.log import engine_of, game_record, load_state, verify_table
from facilitator.models import (
    BallotReceipt,
    ClassSession,
    SealedBallot,
    Seat,
    Table,
    TableAction,
)
from games.state_in_class import data as sic_data
from tests.facilitator.lesson import deterministic, join, make_session, make_teacher
from tests.facilitator.wsclient import (
    Socket,
    login_cookie,
    seat_cookie,
    shut,
    try_connect,
    wait_all,
)

db = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def _close_worker_connections():
    """Close the database connections the sockets opened on the sync worker thread.

    Left open, one of them kept PostgreSQL from dropping the test database at the end.
    """
    yield
    await database_sync_to_async(connections.close_all)()


SERVICES = list(sic_data.SERVICES)


# --------------------------------------------------------------------------- set-ups


def _lesson(stage: str = "tax_vote", students: int = 8, teacher: str = "teacher"
            ) -> dict[str, Any]:
    """A teacher's lesson with ``students`` joined, moved on to ``stage`` through services.

    Pacts differ per seat (coins = position % 4) so that players' wallets differ.
    """
    teacher = make_teacher(teacher)
    session = make_session(teacher)
    tokens = join(session, students)
    if stage != "lobby":
        services.session_start(session=session)
        for seat in Seat.objects.filter(session=session, is_bot=False).order_by("position"):
            if stage != "pact":
                sic_services.pact_submit(seat_id=seat.pk, coins=seat.position % 4)
    while stage not in ("lobby", "pact") and _fresh(session).stage != stage:
        services.session_advance(confirm=True, session=_fresh(session))
    seats = {s.nickname: s.pk for s in Seat.objects.filter(session=session)}
    return {"teacher": teacher, "session": session.pk, "tokens": tokens, "seats": seats,
            "code": session.join_code}


def _fresh(session: ClassSession | int) -> ClassSession:
    return ClassSession.objects.get(pk=getattr(session, "pk", session))


lesson = database_sync_to_async(_lesson)


@database_sync_to_async
def table_fingerprint(session_id: int) -> dict[str, Any]:
    """Everything a refused message must leave untouched."""
    session = _fresh(session_id)
    tables = list(Table.objects.filter(session=session).order_by("number"))
    return {
        "session": (session.status, session.stage, session.round, session.paused),
        "seats": list(Seat.objects.filter(session=session).order_by("pk").values_list(
            "pk", "removed", "table_id")),
        "snapshots": [t.snapshot for t in tables],
        "actions": TableAction.objects.filter(table__session=session).count(),
        "receipts": BallotReceipt.objects.filter(bag__table__session=session).count(),
        "sealed": sorted(bytes(b) for b in SealedBallot.objects.filter(
            bag__table__session=session).values_list("sealed", flat=True)),
    }


async def open_lesson(setup: dict[str, Any]) -> tuple[Socket, dict[str, Socket]]:
    cookies = await login_cookie(setup["teacher"])
    projector = await Socket.projector(setup["session"], cookies)
    phones = {}
    for name, token in setup["tokens"].items():
        phones[name] = await Socket.phone(token, name)
    # Each phone that connects refreshes the console (its "connected" dot): let that settle.
    await projector.view_until(lambda v: all(
        s["connected"] for s in (v.get("lobby") or v["tables"][0]["seats"])))
    await projector.drain(0.1)
    return projector, phones


async def close_all(*sockets: Socket) -> None:
    for sock in sockets:
        if sock.closed_code is None:
            await sock.close()


def game_of(view: dict[str, Any]) -> dict[str, Any]:
    """The (public part of the) game in a phone's or the projector's view (one table)."""
    if "tables" in view:
        return view["tables"][0]["game"] if view["tables"] else {}
    return view.get("game") or {}


def ties_decided(game: dict[str, Any]) -> int:
    return sum(len(h.get("tie_breaks", [])) for h in game.get("history") or [])


def stage_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """What every socket of the lesson must agree on once a change has been pushed."""
    game = game_of(view)
    return (view["session"]["stage_id"], view["session"]["paused"], game.get("round"),
            game.get("phase"), ties_decided(game))


async def in_step(projector: Socket, phones: dict[str, Socket]) -> tuple[Any, ...]:
    """Wait until every phone shows the moment the projector shows."""
    target = stage_key(projector.view)
    await wait_all([p.view_until(lambda v: stage_key(v) == target, what=f"moment {target}")
                    for p in phones.values()])
    return target


def assert_no_other_coins(view: dict[str, Any], me: str | None) -> None:
    """No part of a phone's view pairs another player with coins (or a pact)."""
    game = view.get("game") or {}
    if game.get("over"):
        return  # the final count reveals everyone's coins (the rules say so)

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            who = node.get("name", node.get("player"))
            if path != ".game.me" and isinstance(who, str) and who != me:
                assert not {"coins", "pact", "balance", "statement"} & set(node), (path, node)
            for key, value in node.items():
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for item in node:
                walk(item, path + "[]")

    walk(view, "")
    for player in game.get("players", []):
        assert "coins" not in player and "pact" not in player, player


# --------------------------------------------------------------------------- authentication


@db
async def test_a_phone_socket_needs_a_valid_seat_cookie():
    setup = await lesson("pact")
    for cookies in (None, seat_cookie(""), seat_cookie("not-a-token"), seat_cookie("x" * 300),
                    {"sessionid": "whatever"}):
        connected, code, _comm = await try_connect("/ws/play/", cookies)
        assert not connected, cookies
        assert code == 4403
    token = next(iter(setup["tokens"].values()))
    phone = await Socket.phone(token)
    await phone.close()


@db
async def test_the_lesson_socket_is_for_the_owner_only():
    setup = await lesson("lobby")
    other = await database_sync_to_async(make_teacher)("other")
    other_cookies = await login_cookie(other)
    owner_cookies = await login_cookie(setup["teacher"])
    path = f"/ws/lesson/{setup['session']}/"
    refused = [
        (path, None),  # anonymous
        (path, {"sessionid": "forged"}),
        (path, other_cookies),  # another teacher
        (f"/ws/lesson/{setup['session'] + 1000}/", owner_cookies),  # no such lesson
        (path, seat_cookie(next(iter(setup["tokens"].values())))),  # a student's phone
    ]
    for where, cookies in refused:
        connected, code, _comm = await try_connect(where, cookies)
        assert not connected and code == 4403, (where, cookies)
    # An unknown path never opens (refused quietly: UnknownPathConsumer).
    assert (await try_connect("/ws/other/", owner_cookies))[:2] == (False, 4404)
    projector = await Socket.projector(setup["session"], owner_cookies)
    assert projector.view["session"]["id"] == setup["session"]
    await projector.close()


@db
async def test_every_socket_gets_its_full_view_on_connect():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    view = projector.view
    assert view["session"]["stage"] == "tax_vote"
    assert view["session"]["join_code"] == setup["code"]
    [table] = view["tables"]
    assert len(table["seats"]) == 8 and table["game"]["vote"] == {"kind": "tax", "voted": 0,
                                                                   "of": 8}
    for name, phone in phones.items():
        view = phone.view
        assert view["seat"]["nickname"] == name and view["seat"]["table"] == 1
        assert view["game"]["me"]["name"] == name and view["game"]["me"]["role"]
        assert view["can"] == {"pact": False, "vote": "tax", "decision": "1:tax",
                               "tie_break": []}
        assert isinstance(view["game"]["me"]["coins"], int)  # its own wallet, and no other
        assert_no_other_coins(view, name)
    await close_all(projector, *phones.values())


@db
async def test_every_view_frame_carries_its_screen_rendered_by_the_page_templates():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    console = projector.frames[0]
    assert console["phase"] == console["view"]["session"]["stage_id"]
    assert "Tax vote" in console["html"] and "0 of 8 have voted" in console["html"]
    for name, phone in phones.items():
        screen = phone.frames[0]
        assert screen["phase"] == console["phase"]
        assert name in screen["html"] and 'data-action="ballot"' in screen["html"]
        assert 'name="expected" value="{}"'.format(console["phase"]) in screen["html"]
    await close_all(projector, *phones.values())


@db
async def test_a_phone_in_the_lobby_gets_its_view_and_the_projector_lists_it():
    setup = await lesson("lobby", students=3)
    projector, phones = await open_lesson(setup)
    assert [s["nickname"] for s in projector.view["lobby"]] == list(setup["tokens"])
    for name, phone in phones.items():
        assert phone.view["seat"] == {"id": setup["seats"][name], "nickname": name,
                                      "table": None, "shares_with": None}
        assert "game" not in phone.view
    await close_all(projector, *phones.values())


# --------------------------------------------------------------------------- bad input

BAD_PHONE_FRAMES: list[Any] = [
    "not json",
    "{",
    "[" * 3000,  # nested too deep for the JSON parser, yet under 4 KB
    "[1, 2]",
    '"pact"',
    "null",
    "42",
    {},
    {"type": "dance"},
    {"type": None},
    {"type": ["pact"]},
    {"type": "pact"},
    {"type": "pact", "coins": 2, "extra": 1},
    {"type": "pact", "coins": "2"},
    {"type": "pact", "coins": 4},
    {"type": "pact", "coins": -1},
    {"type": "pact", "coins": True},
    {"type": "pact", "coins": 2.0},
    {"type": "pact", "coins": None},
    {"type": "pact", "coins": 10**40},
    {"type": "ballot", "kind": "tax"},
    {"type": "ballot", "option": "A"},
    {"type": "ballot", "kind": "tax", "option": ["A"]},
    {"type": "ballot", "kind": "tax", "option": 256},
    {"type": "ballot", "kind": "tax", "decision": "1:tax", "option": 0},
    {"type": "ballot", "kind": "tax", "option": -1},
    {"type": "ballot", "kind": "tax", "option": True},
    {"type": "ballot", "kind": "tax", "option": 1.0},
    {"type": "ballot", "kind": "tax", "option": "A" * 21},
    {"type": "ballot", "kind": "tax", "option": "A", "seat": 1},
    {"type": "ballot", "kind": "tax", "option": "A", "player": "Ben"},
    {"type": "ballot", "kind": "tax", "option": "A", "expected": 3},
    {"type": "ballot", "kind": "tax", "option": "A", "id": {"n": 1}},
    {"type": "ballot", "kind": "tax", "option": "A", "id": 1.5},
    {"type": "ballot", "kind": "tax", "option": "A", "id": "i" * 65},
    {"type": "tie_break", "choice": 5},
    {"type": "tie_break"},
    {"type": "refresh", "id": True},
    {"type": "start"},  # a teacher message on a phone
    {"type": "next"},
    {"type": "pact", "coins": 2, "id": "x" * 5000},  # a frame over 4 KB
    '{"type": "ballot", "kind": "tax", "option": "%s"}' % ("é" * 3000),  # 6 KB in UTF-8
]
# Well-formed, but the lesson refuses them: an error frame, then the phone's view again.
REFUSED_PHONE_MESSAGES: list[tuple[dict[str, Any], str]] = [
    ({"type": "ballot", "kind": "tax", "option": "E"}, "bad_option"),
    ({"type": "ballot", "kind": "tax", "option": 10}, "bad_option"),
    ({"type": "ballot", "kind": "lottery", "option": "A"}, "bad_kind"),
    ({"type": "ballot", "decision": "1:budget", "option": 0}, "vote_closed"),
    ({"type": "ballot", "kind": "budget", "option": "health"}, "vote_closed"),
    ({"type": "ballot", "kind": "tax", "option": "health"}, "bad_option"),
    ({"type": "ballot", "kind": "tax", "option": "A", "expected": "1:debate"}, "stale"),
    ({"type": "pact", "coins": 1}, "wrong_phase"),
    # At the tax vote: refused the same way whether the table tied or not.
    ({"type": "tie_break", "choice": "A"}, "count_not_shown"),
    ({"type": "tie_break", "choice": None}, "count_not_shown"),
]


def encode(frame: Any) -> str:
    return frame if isinstance(frame, str) else json.dumps(frame)


async def assert_still_usable(sock: Socket, label: Any) -> None:
    answer = await sock.do("refresh")
    assert answer["type"] == "ack", (label, answer)
    assert sock.frames[-2]["type"] == "view", (label, sock.frames[-3:])


@db
async def test_bad_frames_from_a_phone_get_an_error_change_nothing_and_keep_the_socket():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    phone, *others = phones.values()
    before = await table_fingerprint(setup["session"])
    for frame in BAD_PHONE_FRAMES:
        text = encode(frame)
        await phone.send_text(text)
        error = await phone.next()
        assert error["type"] == "error" and error["code"] == "bad_message", (frame, error)
        assert error["message"], frame
        if len(text.encode()) > 4096:  # the limit counts bytes on the wire, not characters
            assert "4 KB" in error["message"], (frame[:40], error)
        assert await phone.quiet(0.02), (frame, phone.frames[-2:])  # nothing else follows
        await assert_still_usable(phone, frame)
    await phone.comm.send_to(bytes_data=b'{"type": "refresh"}')  # binary frames are refused
    assert (await phone.next())["code"] == "bad_message"
    for message, code in REFUSED_PHONE_MESSAGES:
        fields = dict(message)
        answer = await phone.do(fields.pop("type"), **fields)
        assert answer["type"] == "error" and answer["code"] == code, (message, answer)
        assert (await phone.next())["type"] == "view"  # the phone is shown where it is
        await assert_still_usable(phone, message)
    assert await table_fingerprint(setup["session"]) == before
    assert phone.view["game"]["me"]["has_voted"] is False
    # Nobody else heard about any of it.
    for sock in (projector, *others):
        assert await sock.quiet(0.05), sock.frames[-1:]
    await close_all(projector, *phones.values())


BAD_TEACHER_MESSAGES: list[Any] = [
    "{]",
    {"type": "start", "fill": "robots"},
    {"type": "start", "fill": 1},
    {"type": "next", "extra": True},
    {"type": "pause", "paused": True},
    {"type": "remove"},
    {"type": "remove", "seat": "3"},
    {"type": "remove", "seat": True},
    {"type": "tie_break", "table": 0, "choice": "A"},
    {"type": "tie_break", "table": "1", "choice": "A"},
    {"type": "tie_break", "choice": "A"},
    {"type": "ballot", "kind": "tax", "option": "A"},  # a phone message on the console
    {"type": "next", "expected": "y" * 5000},
]
REFUSED_TEACHER_MESSAGES: list[tuple[dict[str, Any], str]] = [
    ({"type": "start"}, "already_started"),
    ({"type": "next", "expected": "0:lobby"}, "stale"),
    ({"type": "undo", "expected": "1:pact"}, "stale"),
    ({"type": "remove", "seat": 10**12}, "not_found"),
    ({"type": "remove", "seat": 2**63 - 1}, "not_found"),
    ({"type": "remove", "seat": 10**30}, "not_found"),  # beyond any integer column
    ({"type": "remove", "seat": -(10**30)}, "not_found"),
    ({"type": "tie_break", "table": 10**30, "choice": "A"}, "not_found"),
    ({"type": "tie_break", "table": 1, "choice": "A"}, "count_not_shown"),  # at the vote
    ({"type": "tie_break", "table": 30000, "choice": "A"}, "not_found"),
]


@db
async def test_bad_frames_from_the_console_get_an_error_change_nothing_and_keep_the_socket():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    other_lesson = await lesson("lobby", students=1, teacher="other")
    before = await table_fingerprint(setup["session"])
    for frame in BAD_TEACHER_MESSAGES:
        await projector.send_text(encode(frame))
        error = await projector.next()
        assert error["type"] == "error" and error["code"] == "bad_message", (frame, error)
        await assert_still_usable(projector, frame)
    refused = [*REFUSED_TEACHER_MESSAGES,
               # a seat of another teacher's lesson is "not found", not removed
               ({"type": "remove", "seat": next(iter(other_lesson["seats"].values()))},
                "not_found")]
    for message, code in refused:
        fields = dict(message)
        answer = await projector.do(fields.pop("type"), **fields)
        assert answer["type"] == "error" and answer["code"] == code, (message, answer)
        assert (await projector.next())["type"] == "view"
        await assert_still_usable(projector, message)
    assert await table_fingerprint(setup["session"]) == before
    for phone in phones.values():
        assert await phone.quiet(0.02)
    await close_all(projector, *phones.values())


@db
async def test_ack_echoes_the_message_id():
    setup = await lesson("pact")
    projector, phones = await open_lesson(setup)
    phone = phones["Ana"]
    for message_id in ("abc", 7, 0, -3, "", "i" * 64, None):
        await phone.send({"type": "refresh", "id": message_id})
        assert (await phone.next())["type"] == "view"
        assert await phone.next() == {"type": "ack", "id": message_id}
    await phone.send({"type": "pact", "coins": 3, "id": "my-pact"})
    assert await phone.until(lambda f: f["type"] == "ack") == {"type": "ack", "id": "my-pact"}
    view = await phone.view_until(lambda v: v["game"]["me"]["pact"] == 3)
    assert view["can"]["pact"] is False
    # The console learns how many have chosen (never how much: the total comes at the end).
    console = await projector.view_until(lambda v: game_of(v)["pact"]["done"] == 1)
    assert game_of(console)["pact"] == {"done": 1, "of": 8, "total": None}
    # A refused message carries its id in the error, so a phone can tell which one failed.
    await phone.send({"type": "pact", "coins": 3, "id": 99})
    error = await phone.until(lambda f: f["type"] == "error")
    assert error["id"] == 99 and error["code"] != "bad_message"  # refused by the lesson
    # So does a malformed one, when its id is readable.
    await phone.send({"type": "pact", "coins": "3", "id": "m1"})
    error = await phone.until(lambda f: f["type"] == "error")
    assert (error["id"], error["code"]) == ("m1", "bad_message")
    await phone.send({"type": "pact", "coins": "3", "id": ["m2"]})
    error = await phone.until(lambda f: f["type"] == "error")
    assert "id" not in error and error["code"] == "bad_message"
    await projector.send({"type": "refresh", "id": "p1"})
    assert await projector.until(lambda f: f["type"] == "ack") == {"type": "ack", "id": "p1"}
    await close_all(projector, *phones.values())


# --------------------------------------------------------------------------- votes


@db
async def test_a_ballot_reaches_the_projector_as_counts_and_no_phone_gets_a_new_screen():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    names = list(phones)
    for number, name in enumerate(names[:3], start=1):
        await wait_all([sock.drain() for sock in (projector, *phones.values())])
        phone = phones[name]
        text = f"{number} of 8 {'has' if number == 1 else 'have'} voted"
        ack = await phone.ok("ballot", kind="tax", option="C",
                             expected=phone.view["session"]["stage_id"])
        # The voter's ack says how full the bag is; the phone shows "your token is in the bag"
        # by itself: the server renders no new screen for it.
        assert ack["progress"] == {"voted": number, "of": 8, "text": f"When your token went "
                                   f"in, {number} of 8 had voted."}
        progress = await projector.until(lambda f: f["type"] == "progress")
        assert re.fullmatch(r"[0-9a-f]{8}", progress.pop("bag"))  # the bag's generation
        assert progress == {"type": "progress", "table": 1, "what": "vote", "decision": "1:tax",
                            "voted": number, "of": 8, "text": text}
        quiet = await wait_all([sock.quiet(0.3) for sock in phones.values()])
        assert all(quiet), [(o.name, o.frames[-1:]) for o, q in zip(phones.values(), quiet,
                                                                   strict=True) if not q]
        assert not [f for f in phone.frames if f["type"] == "view"
                    and f["view"]["game"]["me"]["has_voted"]]
        assert await projector.quiet(0.05), projector.frames[-1:]
        # Its screen, fetched again (a reload), is "your token is in the bag", and nothing
        # about which token.
        await phone.ok("refresh")
        mine = phone.view
        assert mine["can"]["vote"] is None and mine["game"]["me"]["has_voted"] is True
        assert not {"vote", "option", "ballot", "choice"} & set(mine["game"]["me"])
        assert "Your token is in the bag" in phone.frames[-2]["html"]
    # A second ballot from the same phone is refused and counted nowhere.
    answer = await phones[names[0]].do("ballot", kind="tax", option="A")
    assert answer["code"] == "already_voted"
    assert await projector.quiet(0.2)
    # The projector's view shows how many, never who or what.
    await projector.ok("refresh")
    game = game_of(projector.view)
    assert game["vote"] == {"kind": "tax", "voted": 3, "of": 8}
    assert all(p["name"] not in json.dumps(game["vote"]) for p in game["players"])
    await close_all(projector, *phones.values())


@db
async def test_eight_phones_voting_at_once_are_counted_exactly_once():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    await wait_all([sock.drain() for sock in (projector, *phones.values())])
    start = len(projector.frames)
    phase = projector.view["session"]["stage_id"]
    options = ["C", "C", "C", "C", "C", "D", "D", "B"]
    answers = await wait_all([phone.do("ballot", kind="tax", option=option, expected=phase)
                              for phone, option in zip(phones.values(), options, strict=True)])
    assert [a["type"] for a in answers] == ["ack"] * 8, answers
    await projector.until(lambda f: bool(f.get("counted")))
    assert await projector.quiet(0.2)
    frames = projector.frames[start:]
    # Every ballot's count, the last one's too; the count itself is only "The bag has been
    # counted." on the console until the teacher reveals it, so no screen is rendered for it.
    assert {f["type"] for f in frames} == {"progress"}, projector.brief(frames)
    assert sorted(f["voted"] for f in frames) == list(range(1, 9))
    assert all(f["of"] == 8 for f in frames)
    assert [f["text"] for f in frames if f.get("counted")] == ["The bag has been counted."]
    await projector.ok("refresh")  # fetched again, the console's view has the engine on
    game = game_of(projector.view)
    assert game["phase"] != "tax_vote"
    [this_round] = [h for h in game["history"] if h["round"] == game["round"]]
    assert this_round["tax"]["tally"] == {"A": 0, "B": 1, "C": 5, "D": 2}
    assert sum(this_round["tax"]["tally"].values()) == 8 == this_round["tax"]["voters"]
    assert this_round["tax"]["winner"] == "C"

    @database_sync_to_async
    def counts() -> list[Any]:
        return [a.payload for a in TableAction.objects.filter(table__session=setup["session"])
                if a.payload["type"] == "count"]

    assert (await counts()) == [{"type": "count", "kind": "tax",
                                 "tally": {"B": 1, "C": 5, "D": 2}}]
    # No phone is re-rendered at the count: their screens show the vote until the teacher
    # reveals it (and there is no tie to decide). Fetched again, a view has the engine on.
    assert all(await wait_all([phone.quiet(0.2) for phone in phones.values()]))
    for phone in phones.values():
        await phone.ok("refresh")
        assert phone.view["game"]["vote"] == {"kind": "budget", "voted": 0, "of": 8}
    await close_all(projector, *phones.values())


@db
async def test_each_socket_answers_in_its_own_language_at_once():
    """A Spanish lesson: one phone kept the lesson's language, one chose English. Their
    refusals, acks and the console's counts, sent at the same time, each come in the
    socket's own language."""
    setup = await lesson("tax_vote")
    await database_sync_to_async(
        ClassSession.objects.filter(pk=setup["session"]).update)(language="es")
    spanish_token, english_token = list(setup["tokens"].values())[:2]
    cookies = await login_cookie(setup["teacher"])
    projector = await Socket.projector(setup["session"], cookies)
    spanish = await Socket.phone(spanish_token, "es")
    english = await Socket.open("/ws/play/", {**seat_cookie(english_token), "sic_lang": "en"},
                                "en")
    phase = spanish.view["session"]["stage_id"]
    for _round in range(3):
        await wait_all([spanish.send_text("{"), english.send_text("{")])
        refusals = await wait_all([sock.until(lambda f: f["type"] == "error")
                                   for sock in (spanish, english)])
        assert [r["message"] for r in refusals] == ["Ese mensaje no es JSON válido.",
                                                    "That message is not valid JSON."]
    refused = await wait_all([sock.do("ballot", kind="tax", option="Z", expected=phase)
                              for sock in (spanish, english)])
    assert [r["message"] for r in refused] == ["Esa no es una de las opciones.",
                                               "That is not one of the options."]
    acks = await wait_all([sock.ok("ballot", kind="tax", option="A", expected=phase)
                           for sock in (spanish, english)])
    assert [a["progress"]["text"][:4] for a in acks] == ["Cuan", "When"]
    counts = [f["text"] for f in await projector.drain(0.2) if f["type"] == "progress"]
    assert counts and all("votado" in text for text in counts), counts
    await close_all(projector, spanish, english)


@db
async def test_a_removed_seat_is_told_and_its_socket_closed():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    gone = phones["Cai"]
    await projector.ok("remove", seat=setup["seats"]["Cai"])
    assert (await gone.until(lambda f: f["type"] == "removed"))["message"]
    assert (await gone.next()) == {"type": "closed", "code": 4403}
    # Its cookie no longer opens a socket; the others play on, one voter fewer.
    connected, code, _comm = await try_connect("/ws/play/", seat_cookie(setup["tokens"]["Cai"]))
    assert (connected, code) == (False, 4403)
    view = await projector.view_until(
        lambda v: any(s["removed"] for s in v["tables"][0]["seats"]))
    assert [s["nickname"] for s in view["tables"][0]["seats"] if s["removed"]] == ["Cai"]
    for name, phone in phones.items():
        if name != "Cai":
            assert phone.closed_code is None
    answer = await phones["Ana"].do("ballot", kind="tax", option="A")
    assert answer["type"] == "ack"
    progress = await projector.until(lambda f: f["type"] == "progress")
    assert (progress["voted"], progress["of"]) == (1, 7)
    await close_all(projector, *phones.values())


@db
async def test_a_student_removed_from_the_lobby_is_told_and_closed():
    setup = await lesson("lobby", students=3)
    projector, phones = await open_lesson(setup)
    await projector.ok("remove", seat=setup["seats"]["Ben"])
    assert (await phones["Ben"].until(lambda f: f["type"] == "removed"))["type"] == "removed"
    assert (await phones["Ben"].next())["type"] == "closed"
    view = await projector.view_until(lambda v: len(v["lobby"]) == 2)
    assert [s["nickname"] for s in view["lobby"]] == ["Ana", "Cai"]
    await close_all(projector, *phones.values())


@db
async def test_the_console_shows_who_is_connected():
    setup = await lesson("lobby", students=2)
    cookies = await login_cookie(setup["teacher"])
    projector = await Socket.projector(setup["session"], cookies)
    assert [s["connected"] for s in projector.view["lobby"]] == [False, False]
    ana = await Socket.phone(setup["tokens"]["Ana"], "Ana")
    await projector.view_until(lambda v: [s["connected"] for s in v["lobby"]] == [True, False])
    await ana.close()
    await projector.view_until(lambda v: [s["connected"] for s in v["lobby"]] == [False, False])
    await projector.close()


# --------------------------------------------------------------------------- the whole game

TIE_ROUND = 2  # the tax vote engineered to tie 4 A against 4 C
DROP_ROUND = 2  # the tax vote in which one phone drops and comes back before voting


def budget_choice(view: dict[str, Any]) -> str:
    """The weakest service (lowest level, then emptiest fund), seats rotating on equals."""
    game = view["game"]
    seat, rnd = game["me"]["seat"], game["round"]
    return min(SERVICES, key=lambda s: (game["services"][s]["level"],
                                        game["services"][s]["fund"],
                                        (SERVICES.index(s) - seat - rnd) % 3))


def tax_choice(index: int, rnd: int) -> str:
    if rnd == TIE_ROUND:
        return "A" if index < 4 else "C"
    return "D"


LINKED_OPTION_VALUES = {*sic_data.TAX_OPTIONS, *sic_data.SERVICES}


def _dump_database() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, as {column: value} with JSON columns parsed."""
    dump: dict[str, list[dict[str, Any]]] = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            columns = [c[0] for c in cursor.description]
            rows = []
            for raw in cursor.fetchall():
                row = {}
                for column, value in zip(columns, raw, strict=True):
                    if isinstance(value, str) and value[:1] in "{[":
                        with contextlib.suppress(ValueError):
                            value = json.loads(value)
                    row[column] = value
                rows.append(row)
            dump[table] = rows
    return dump


def ballot_links(dump: dict[str, list[dict[str, Any]]], seats: list[Seat],
                 taxes_in_force: dict[int, str]) -> list[tuple[str, Any]]:
    """Records that hold both a seat's identity and a vote option (public decisions aside).

    A record is a row (with the top level of its JSON columns) or any object nested in a JSON
    column. Identity: a seat-id column, a nickname, a player name, ``player:<name>`` or a
    token hash. Allowed, because the rules make them public: a tie-break decision (player +
    choice), a Midlife card (the service it measures) and a tax payment (the tax in force).
    """
    names = {s.nickname for s in seats} | {s.player_name for s in seats if s.player_name}
    identities = names | {f"player:{n}" for n in names} | {
        s.token_hash for s in seats if s.token_hash}
    seat_ids = {s.pk for s in seats}
    found = []

    def scalars(obj: dict[str, Any]) -> list[tuple[str, Any]]:
        out = []
        for key, value in obj.items():
            if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
                out.extend((key, v) for v in value)
            elif not isinstance(value, dict | list):
                out.append((key, value))
        return out

    def public(obj: dict[str, Any]) -> bool:
        if any(isinstance(v, dict) and public(v) for v in obj.values()):
            return True  # a row whose JSON column holds a public decision
        if obj.get("type") == "tie_break" or {"choice", "options"} <= set(obj):
            return True  # a tie-break decision: public (docs/engine.md)
        if "card" in obj and "measures" in obj:
            return True  # a Midlife draw names the service its card measures
        details = obj.get("details")
        return (obj.get("reason") == "tax" and isinstance(details, dict)
                and details.get("option") == taxes_in_force.get(obj.get("round")))

    def check(where: str, obj: dict[str, Any]) -> None:
        pairs = scalars(obj)
        who = [(k, v) for k, v in pairs
               if (isinstance(v, str) and v in identities)
               or (k.endswith("seat_id") and v in seat_ids)
               or (k == "shares_id" and v in seat_ids)]
        what = [(k, v) for k, v in pairs if isinstance(v, str) and v in LINKED_OPTION_VALUES]
        if who and what and not public(obj):
            found.append((where, obj))

    def nested(where: str, node: Any) -> None:
        if isinstance(node, dict):
            check(where, node)
            for value in node.values():
                nested(where, value)
        elif isinstance(node, list):
            for item in node:
                nested(where, item)

    for table, rows in dump.items():
        for row in rows:
            flat = dict(row)
            for column, value in row.items():
                if isinstance(value, dict):  # a JSON column's top level belongs to the row
                    flat.update({f"{column}.{k}": v for k, v in value.items()
                                 if not isinstance(v, dict | list)})
                    nested(f"{table}.{column}", value)
                elif isinstance(value, list):
                    nested(f"{table}.{column}", value)
            check(table, flat)
    return found


def test_the_ballot_link_detector_finds_a_link():
    seat = Seat(pk=5, nickname="Ana", player_name="Ana", token_hash="h" * 64)
    clean = {"facilitator_ballotreceipt": [{"id": "u", "seat_id": 5, "round": 1,
                                            "kind": "tax"}],
             "facilitator_votecounter": [{"id": 1, "option": "C", "votes": 1}]}
    assert ballot_links(clean, [seat], {}) == []
    for leak in ({"seat_id": 5, "option": "C"}, {"payload": {"player": "Ana", "vote": "C"}},
                 {"blob": [{"who": "player:Ana", "x": ["shield"]}]},
                 {"token": "h" * 64, "picked": "D"}):
        assert ballot_links({"t": [leak]}, [seat], {}), leak


async def play_tie_break(projector: Socket, phones: dict[str, Socket]) -> dict[str, Any]:
    tie = game_of(projector.view)["tie_break"]
    decider = phones[tie["decider"]]
    view = await decider.view_until(lambda v: v["can"]["tie_break"])
    assert view["can"]["tie_break"] == tie["options"] + ([None] if tie["kind"] == "tax" else [])
    for name, phone in phones.items():
        if name != tie["decider"]:
            assert phone.view["can"]["tie_break"] == [], name
            assert phone.view["game"]["tie_break"] == tie  # everyone sees who decides
    bystander = next(p for n, p in phones.items() if n != tie["decider"])
    assert (await bystander.do("tie_break", choice=tie["options"][0]))["code"] == "not_your_turn"
    before = ties_decided(game_of(projector.view))
    await decider.ok("tie_break", choice=tie["options"][-1],
                     expected=view["session"]["stage_id"])
    await projector.view_until(lambda v: ties_decided(game_of(v)) > before)
    await in_step(projector, phones)
    return tie


async def play_vote(projector: Socket, phones: dict[str, Socket], kind: str,
                    reconnect: Any) -> None:
    game = game_of(projector.view)
    rnd = game["round"]
    order = list(phones)
    dropper = order[5] if kind == "tax" and rnd == DROP_ROUND else None
    if dropper:  # this phone loses its connection before voting
        await phones[dropper].close()
    for index, name in enumerate(order):
        if name == dropper:
            continue
        phone = phones[name]
        view = phone.view
        assert view["can"]["vote"] == kind and not view["game"]["me"]["has_voted"], name
        option = tax_choice(index, rnd) if kind == "tax" else budget_choice(view)
        await phone.ok("ballot", kind=kind, option=option, expected=view["session"]["stage_id"])
        if dropper and index == 0:
            # A phone that voted and reloads: it sees its token in the bag and cannot vote
            # again (the ballot is refused, not counted twice).
            await phone.close()
            phones[name] = phone = await reconnect(name)
            assert phone.view["game"]["me"]["has_voted"] and phone.view["can"]["vote"] is None
            assert (await phone.do("ballot", kind=kind, option=option))["code"] == \
                "already_voted"
    if dropper:
        assert game_of(projector.view)["phase"] == f"{kind}_vote"
        phones[dropper] = phone = await reconnect(dropper)
        view = phone.view  # the phone that came back is asked to vote, once
        assert view["can"]["vote"] == kind and not view["game"]["me"]["has_voted"]
        await phone.ok("ballot", kind=kind, option=tax_choice(5, rnd),
                       expected=view["session"]["stage_id"])
        assert (await phone.do("ballot", kind=kind, option="A"))["code"] == "already_voted"
    # The console is told the bag was counted (nothing else changes on it until the teacher
    # reveals the count); fetched again, its view has the engine past the vote.
    await projector.until(lambda f: bool(f.get("counted")), what="the count")
    await projector.ok("refresh")
    counted = projector.view
    assert not (game_of(counted)["phase"] == f"{kind}_vote" and game_of(counted)["round"] == rnd)
    [entry] = [h for h in game_of(counted)["history"] if h["round"] == rnd]
    assert sum(entry[kind]["tally"].values()) == entry[kind]["voters"] == 8
    # A count re-renders no phone but a tie's decider (the others show the vote until the
    # teacher reveals it); fetch every view again, as a reload would, for the checks after.
    tie = game_of(counted).get("tie_break")
    reloaded = {order[0], dropper} if dropper else set()  # their refused re-votes got views
    others = [p for n, p in phones.items()
              if (not tie or n != tie["decider"]) and n not in reloaded]
    assert all(await wait_all([p.quiet(0.2) for p in others])), "a phone was re-rendered"
    for phone in phones.values():
        await phone.ok("refresh")
    await in_step(projector, phones)


@db
async def test_full_game_over_websockets_from_join_to_final_count(monkeypatch, tmp_path: Path):
    deterministic(monkeypatch, 11)
    started_at = time.monotonic()

    @database_sync_to_async
    def create() -> tuple[Any, int, str]:
        teacher = make_teacher()
        session = make_session(teacher, title="Websockets")
        return teacher, session.pk, session.join_code

    teacher, session_id, code = await create()
    projector = await Socket.projector(session_id, await login_cookie(teacher))
    names = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]
    tokens: dict[str, str] = {}
    phones: dict[str, Socket] = {}
    for name in names:
        # The join page is HTTP; the phone then keeps its seat token in the sic_seat cookie.
        _seat, tokens[name] = await database_sync_to_async(services.seat_join)(
            code=code, nickname=name)
        phones[name] = await Socket.phone(tokens[name], name)
    await projector.view_until(lambda v: len(v.get("lobby", [])) == 8)

    async def reconnect(name: str) -> Socket:
        return await Socket.phone(tokens[name], name)

    stages_seen: list[tuple[str, int]] = []

    async def advance(type_: str, **fields: Any) -> None:
        before = projector.view["session"]["stage_id"]
        await projector.ok(type_, expected=before, **fields)
        view = await projector.view_until(lambda v: v["session"]["stage_id"] != before)
        stages_seen.append((view["session"]["stage"], view["session"]["round"]))
        await in_step(projector, phones)

    await projector.ok("start")
    await projector.view_until(lambda v: v["session"]["stage"] == "pact" and v["tables"])
    await in_step(projector, phones)
    for name, phone in phones.items():
        assert phone.view["can"]["pact"] is True, name
        await phone.ok("pact", coins=2, expected=phone.view["session"]["stage_id"])
    await projector.view_until(lambda v: game_of(v)["round"] == 1)  # roles dealt, round 1
    await in_step(projector, phones)

    ties: list[dict[str, Any]] = []
    while projector.view["session"]["stage"] != "final":
        assert time.monotonic() - started_at < 50, stages_seen
        session = projector.view["session"]
        game = game_of(projector.view)
        for name, phone in phones.items():
            assert_no_other_coins(phone.view, name)
        if game["phase"] == "tie_break" and session["stage"] in ("tax_vote", "budget_vote"):
            # Counted with the last token, but the class still sees the vote: nobody is
            # asked to break the tie until the teacher shows the count.
            for name, phone in phones.items():
                assert phone.view["can"]["tie_break"] == [], name
            await advance("next")
        elif game["phase"] == "tie_break":
            ties.append(await play_tie_break(projector, phones))
        elif session["stage"] in ("tax_vote", "budget_vote") and game["phase"] == session[
                "stage"]:
            await play_vote(projector, phones, session["stage"].removesuffix("_vote"), reconnect)
        else:
            await advance("next")

    # ---- what the sockets saw
    assert ("midlife", 4) in stages_seen
    assert [r for s, r in stages_seen if s == "event"] == list(range(1, 9))
    assert any(t["kind"] == "tax" and t["options"] == ["A", "C"] for t in ties), ties
    final = game_of(projector.view)["final"]
    assert projector.view["session"]["status"] == "finished"
    assert not final["failed"] and game_of(projector.view)["round"] == 8
    for name, phone in phones.items():
        view = await phone.view_until(lambda v: v["game"]["over"])
        assert view["game"]["final"] == final and view["can"]["vote"] is None, name
    history = game_of(projector.view)["history"]
    [tied] = [h for h in history if h["round"] == TIE_ROUND]
    assert tied["tax"]["tally"] == {"A": 4, "B": 0, "C": 4, "D": 0}
    assert tied["tax"]["decided_by"] == "tie_break" and tied["tax"]["winner"] == "C"
    await close_all(projector, *phones.values())

    # ---- what the database keeps
    @database_sync_to_async
    def audit() -> dict[str, Any]:
        table = Table.objects.select_related("session").get(session_id=session_id)
        path = tmp_path / "record.json"
        path.write_text(json.dumps(game_record(table)), encoding="utf-8")
        out = io.StringIO()
        call_command("replay", str(path), stdout=out)
        replayed = json.loads(out.getvalue())
        live = json.loads(json.dumps(engine_of(table).summary(load_state(table))))
        ledger = io.StringIO()
        call_command("verify_ledger", "--session", str(session_id), stdout=ledger)
        seats = list(Seat.objects.filter(session_id=session_id))
        dropper = next(s for s in seats if s.nickname == names[5])
        return {
            "replayed": replayed, "live": live, "ledger": ledger.getvalue(),
            "problems": verify_table(table),
            "dropper_ballots": BallotReceipt.objects.filter(
                seat=dropper, bag__decision=f"{DROP_ROUND}:tax").count(),
            "ballots": Counter(tuple(d.split(":")) for d in BallotReceipt.objects.filter(
                bag__table=table).values_list("bag__decision", flat=True)),
            "links": ballot_links(_dump_database(), seats, {
                h["round"]: h["tax"]["winner"] for h in history if h.get("tax")}),
        }

    result = await audit()
    assert result["replayed"] == result["live"]
    assert {n: p["score"] for n, p in result["replayed"]["players"].items()} == {
        n: p["score"] for n, p in final["players"].items()}
    assert result["replayed"]["phase"] == "over" and result["replayed"]["round"] == 8
    assert result["problems"] == [] and "agree" in result["ledger"]
    assert result["dropper_ballots"] == 1
    assert set(result["ballots"].values()) == {8}  # every vote: one token per player
    assert len(result["ballots"]) == 14  # 8 rounds x 2 votes, but none in the Midlife round
    assert result["links"] == [], result["links"][:3]


# --------------------------------------------------------------------------- channel layer


@db
async def test_a_burst_of_group_messages_reaches_the_projector_in_full():
    """300 messages to one consumer: none dropped (a full channel drops silently: capacity)."""
    setup = await lesson("lobby", students=1)
    projector = await Socket.projector(setup["session"], await login_cookie(setup["teacher"]))
    layer = get_channel_layer()
    group = broadcast.projector_group(setup["session"])
    for n in range(300):
        await layer.group_send(group, {"type": "lesson.progress", "table": 1, "what": "vote",
                                       "kind": "tax", "voted": n, "of": 300})
    got = [(await projector.until(lambda f: f["type"] == "progress"))["voted"]
           for _ in range(300)]
    assert got == list(range(300))
    assert await projector.quiet(0.1)
    await projector.close()


@pytest.mark.redis
@pytest.mark.slow
@db
async def test_an_idle_projector_still_gets_the_next_ballot_over_redis():
    """A socket idle for more than 5 s must not die (redis-py's 5 s read timeout)."""
    from facilitator.channel_layer import PubSubChannelLayer

    assert isinstance(get_channel_layer(), PubSubChannelLayer)
    setup = await lesson("tax_vote")
    cookies = await login_cookie(setup["teacher"])
    projector = await Socket.projector(setup["session"], cookies)
    phone = await Socket.phone(setup["tokens"]["Ana"], "Ana")
    await projector.view_until(lambda v: v["tables"][0]["seats"][0]["connected"] or any(
        s["connected"] for s in v["tables"][0]["seats"]))  # the phone's arrival, then quiet
    await projector.drain(0.1)
    await asyncio.sleep(6)
    assert projector.closed_code is None and await projector.quiet(0.01)
    await phone.ok("ballot", kind="tax", option="B")
    progress = await projector.until(lambda f: f["type"] == "progress", timeout=5)
    assert (progress["voted"], progress["of"]) == (1, 8)
    await projector.ok("refresh")  # and the socket still answers
    await close_all(projector, phone)


@db
async def test_a_phone_coming_and_going_reaches_the_console_as_presence_not_a_new_screen():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    await wait_all([sock.drain() for sock in (projector, *phones.values())])
    ana = phones["Ana"]
    seat = next(s["seat"] for s in projector.view["tables"][0]["seats"] if s["name"] ==
                ana.view["game"]["me"]["name"])
    await ana.close()
    gone = await projector.until(lambda f: f["type"] == "presence")
    assert gone == {"type": "presence", "seat": seat, "connected": False}
    assert await projector.quiet(0.2), projector.frames[-1:]
    back = await Socket.phone(setup["tokens"]["Ana"], "Ana")
    assert await projector.until(lambda f: f["type"] == "presence") == {
        "type": "presence", "seat": seat, "connected": True}
    assert not [f for f in projector.frames[-3:] if f["type"] == "view"]
    # The data behind the console agrees (what a reload would show).
    await projector.ok("refresh")
    assert next(s for s in projector.view["tables"][0]["seats"] if s["seat"] == seat
                )["connected"] is True
    await close_all(projector, back, *[p for n, p in phones.items() if n != "Ana"])


@db
async def test_outside_the_tests_a_screen_frame_carries_only_its_html_and_phase(settings):
    """The data behind a screen is not paced to the teacher's stage (a count's result would
    be in it before the class sees it) and outweighs the HTML: it is sent only where
    settings.LIVE_VIEW_DATA asks for it, as this suite does."""
    settings.LIVE_VIEW_DATA = False
    setup = await lesson("tax_vote")
    cookies = await login_cookie(setup["teacher"])
    connected, _, projector = await try_connect(f"/ws/lesson/{setup['session']}/", cookies)
    connected_phone, _, phone = await try_connect("/ws/play/", seat_cookie(setup["tokens"]["Ana"]))
    assert connected and connected_phone
    for comm in (projector, phone):
        frame = json.loads((await comm.receive_output(10))["text"])
        assert set(frame) == {"type", "phase", "html", "now"}, set(frame)  # now: countdowns
        assert frame["type"] == "view" and "Tax vote" in frame["html"]
        await shut(comm)


@db
async def test_a_seat_with_two_tabs_stays_online_when_one_closes():
    setup = await lesson("tax_vote")
    projector, phones = await open_lesson(setup)
    await wait_all([sock.drain() for sock in (projector, *phones.values())])
    ana = phones["Ana"]
    seat = next(s["seat"] for s in projector.view["tables"][0]["seats"] if s["name"] ==
                ana.view["game"]["me"]["name"])
    second = await Socket.phone(setup["tokens"]["Ana"], "Ana, second tab")
    await projector.drain(0.2)
    await ana.close()
    assert await projector.until(lambda f: f["type"] == "presence") == {
        "type": "presence", "seat": seat, "connected": True}
    await projector.ok("refresh")
    assert next(s for s in projector.view["tables"][0]["seats"] if s["seat"] == seat
                )["connected"] is True
    await second.close()
    assert await projector.until(lambda f: f["type"] == "presence") == {
        "type": "presence", "seat": seat, "connected": False}
    await close_all(projector, *[p for n, p in phones.items() if n != "Ana"])
