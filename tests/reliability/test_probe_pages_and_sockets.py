"""The security probe's findings about pages and sockets, each as the behaviour that holds now:
unknown socket paths, caching of private pages, teacher login throttling and a teacher's
socket after logout.
"""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client

from facilitator import ratelimit, services
from facilitator.models import ClassSession
from stateinclass.asgi import application
from tests.facilitator.lesson import make_teacher, seat, started
from tests.facilitator.wsclient import ORIGIN, Socket, login_cookie, shut

db = pytest.mark.django_db(transaction=True)


# --------------------------------------------------------------------------- unknown sockets


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/ws/lesson/abc/", "/ws/nowhere/", "/", "/ws/play/x/"])
async def test_an_unknown_socket_path_is_refused_quietly(path, caplog):
    caplog.set_level(logging.WARNING)
    comm = WebsocketCommunicator(application, path, headers=[ORIGIN])
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4404, path
    await shut(comm)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


# --------------------------------------------------------------------------- caching


NO_STORE = "no-store"


@pytest.mark.django_db
def test_private_pages_are_never_stored_by_a_browser_or_a_proxy(settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    owner = make_teacher("owner")
    session, tokens = started(8, teacher=owner)
    student = Client()
    student.cookies["sic_seat"] = tokens["Ana"]
    teacher = Client()
    teacher.force_login(owner)
    base = f"/teacher/lessons/{session.pk}"
    responses = {
        "/play/": student.get("/play/"),
        "/play/act/ (refused)": student.post("/play/act/", {"type": "pact", "coins": 99}),
        "console": teacher.get(f"{base}/"),
        "students": teacher.get(f"{base}/students/"),
        "record.json": teacher.get(f"{base}/tables/1/record.json"),
        "reseat": teacher.post(f"{base}/seats/{seat(session, 'Ben').pk}/reseat/"),
    }
    for name, response in responses.items():
        assert response.status_code in (200, 400), (name, response.status_code)
        assert NO_STORE in response.get("Cache-Control", ""), name
    assert "private" in responses["record.json"]["Cache-Control"]
    # Static files (served before Django's views) keep their own caching.
    assert NO_STORE not in Client().get("/static/js/live.js").get("Cache-Control", "")


# --------------------------------------------------------------------------- teacher login


def log_in(client: Client, password: str) -> object:
    return client.post("/accounts/login/", {"username": "owner", "password": password})


@pytest.mark.django_db
def test_teacher_login_is_throttled_per_address_with_a_clear_message(monkeypatch, settings):
    cache.clear()
    make_teacher("owner")  # password "x-owner"
    clock = [2_000_000.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: clock[0])
    guesser = Client(REMOTE_ADDR="10.9.8.7")
    for n in range(settings.LOGIN_FAILURES_PER_MINUTE):
        response = log_in(guesser, f"guess-{n}")
        assert response.status_code == 200, n
        assert "correct username and password" in response.content.decode()
    refused = log_in(guesser, "x-owner")  # even the right password waits
    assert refused.status_code == 429
    html = refused.content.decode()
    assert "Too many failed logins from this network. Wait a minute" in html
    assert 'role="alert"' in html
    assert "_auth_user_id" not in guesser.session
    # The admin's login shares the counter (it would be a way around it).
    admin = guesser.post("/admin/login/", {"username": "owner", "password": "x-owner"})
    assert "Too many failed logins from this network" in admin.content.decode()
    # The teacher's laptop (another address) logs in; the guesser may try again a minute later.
    assert log_in(Client(REMOTE_ADDR="127.0.0.1"), "x-owner").status_code == 302
    clock[0] += 61
    assert log_in(guesser, "x-owner").status_code == 302
    # The counter is keyed by a keyed hash: no address is stored.
    from tests.reliability.support import cache_contents

    assert all("10.9.8.7" not in entry for entry in cache_contents())


# --------------------------------------------------------------------------- logout


@database_sync_to_async
def lesson_of(username: str) -> tuple[object, int]:
    owner = make_teacher(username)
    return owner, started(8, teacher=owner)[0].pk


@database_sync_to_async
def paused(session_id: int) -> bool:
    return ClassSession.objects.get(pk=session_id).paused


@database_sync_to_async
def log_out(cookies: dict[str, str]) -> None:
    """The teacher logs out in the browser whose session the socket was opened with."""
    client = Client()
    client.cookies["sessionid"] = cookies["sessionid"]
    assert client.post("/accounts/logout/").status_code == 302


@db
async def test_a_teachers_socket_loses_control_at_logout_and_is_closed():
    owner, session_id = await lesson_of("owner")
    cookies = await login_cookie(owner)
    console = await Socket.projector(session_id, cookies)
    await console.ok("pause")
    assert await paused(session_id)
    await log_out(cookies)
    sent = len(console.frames)
    answer = await console.do("resume")
    assert (answer["type"], answer["code"]) == ("error", "logged_out")
    assert "Log in again" in answer["message"]
    # The pause's screen, rendered after the logout, may close the socket before the refusal
    # or after it (a screen whose render began before the logout may also still arrive).
    closed = next((f for f in console.frames[sent:] if f["type"] == "closed"), None)
    if closed is None:
        closed = await console.until(lambda f: f["type"] == "closed")
    assert closed == {"type": "closed", "code": 4403}
    assert await paused(session_id)  # nothing changed


@db
async def test_a_logged_out_console_is_closed_at_its_next_screen_and_sees_nothing_new():
    owner, session_id = await lesson_of("owner")
    cookies = await login_cookie(owner)
    console = await Socket.projector(session_id, cookies)
    await log_out(cookies)
    await console.send({"type": "refresh", "id": "r1"})
    assert await console.next() == {"type": "closed", "code": 4403}


# --------------------------------------------------------------------------- the "New phone" link


@db
async def test_the_earlier_phones_socket_is_closed_when_the_new_phone_link_is_used():
    @database_sync_to_async
    def lesson() -> tuple[object, dict[str, str]]:
        return started(8)

    session, tokens = await lesson()
    old = await Socket.phone(tokens["Ana"], "old phone")
    link = await database_sync_to_async(services.seat_reseat)(session=session,
                                                              seat=await ana_of(session))
    assert await old.quiet()  # a link made is not a link used: the old phone plays on
    claimed = await database_sync_to_async(Client().post)(f"/seat/{link}/")
    assert claimed.status_code == 302
    assert (await old.until(lambda f: f["type"] == "removed"))["message"]
    assert await old.next() == {"type": "closed", "code": 4403}
    # Its cookie opens no socket any more; the new phone's does.
    new = await Socket.phone(claimed.cookies["sic_seat"].value, "new phone")
    assert new.view["seat"]["nickname"] == "Ana"
    await new.close()


@database_sync_to_async
def ana_of(session: ClassSession) -> object:
    return seat(session, "Ana")
