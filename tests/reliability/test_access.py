"""Secrets and access: seat tokens, teachers, anonymous visitors, join-code guessing,
cookies, CSRF, the websocket Origin and the Content-Security-Policy.

Already covered elsewhere (not repeated here): anonymous, forged and foreign sockets refused
(``tests/facilitator/test_websockets.py``: ``test_a_phone_socket_needs_a_valid_seat_cookie``,
``test_the_lesson_socket_is_for_the_owner_only``), a removed seat's socket closed and its cookie
refused (``test_a_removed_seat_is_told_and_its_socket_closed``), the production settings'
cookie flags and ``manage.py check --deploy`` clean in production
(``tests/test_settings.py``: ``test_production_uses_https_settings``,
``test_check_deploy_is_clean_in_production``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from facilitator import ratelimit, selectors, services
from facilitator.middleware import CONTENT_SECURITY_POLICY
from facilitator.models import BallotReceipt, ClassSession, SealedBallot, Seat
from stateinclass.asgi import application
from tests.facilitator.lesson import (
    drive_to,
    fresh,
    humans,
    join,
    make_session,
    make_teacher,
    seat,
    started,
)
from tests.facilitator.test_websockets import assert_no_other_coins
from tests.reliability.support import cache_contents

BASE_DIR = Path(__file__).resolve().parents[2]


def phone(token: str | None) -> Client:
    client = Client()
    if token:
        client.cookies["sic_seat"] = token
    return client


def routes() -> Iterator[tuple[str, Any]]:
    """Every URL pattern of the site (admin aside), as (route, callback)."""
    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, Any]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p.callback
    for route, callback in walk(get_resolver().url_patterns, "/"):
        if not route.startswith("/admin/"):
            yield route, callback


def fill(route: str, **values: Any) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m[1]]), route)


# --------------------------------------------------------------------------- seat tokens


@pytest.fixture
def two_lessons(db, settings):
    """Lesson A (16 students, two tables) at the tax vote; lesson B
    of another teacher (8 students) at its tax vote."""
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    a, a_tokens = started(16)
    a = drive_to(a, "tax_vote", 1)
    b, b_tokens = started(8, teacher=make_teacher("other"))
    b = drive_to(b, "tax_vote", 1)
    return a, a_tokens, b, b_tokens


def receipts_and_counters() -> tuple[list[Any], list[Any]]:
    return (sorted(BallotReceipt.objects.values_list("seat_id", "bag__decision")),
            sorted(bytes(b) for b in SealedBallot.objects.values_list("sealed", flat=True)))


def test_token_cannot_act_for_another_seat(two_lessons):
    a, tokens, _b, _ = two_lessons
    ben = seat(a, "Ben")
    before = receipts_and_counters()
    # The phone's messages never name a seat; naming one anyway is refused, over HTTP too.
    for extra in ({"seat": ben.pk}, {"player": "Ben"}, {"seat_id": ben.pk}, {"token": "x"}):
        response = phone(tokens["Ana"]).post("/play/act/", {
            "type": "ballot", "kind": "tax", "option": "A", **extra})
        assert response.status_code == 400, extra
        assert "Bad message" in response.content.decode()
    assert receipts_and_counters() == before
    # A vote cast with Ana's token is Ana's, whatever else the post says.
    phone(tokens["Ana"]).post("/play/act/", {"type": "ballot", "kind": "tax", "option": "A",
                                             "expected": a.stage_id})
    assert BallotReceipt.objects.filter(seat=seat(a, "Ana")).count() == 1
    assert not BallotReceipt.objects.filter(seat=ben).exists()


def live_part(html: str) -> str:
    """The phone's screen (what the socket would push), CSRF tokens and the server's clock
    (``data-now``, which the countdown reads) masked."""
    html = html.split('<div id="live"', 1)[1].split('<p id="connection"', 1)[0]
    html = re.sub(r'data-now="[^"]+"', "", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def test_token_cannot_read_another_seats_view(two_lessons):
    a, tokens, _b, _ = two_lessons
    ana, ben = seat(a, "Ana"), seat(a, "Ben")
    pages = [live_part(phone(tokens["Ana"]).get(url).content.decode())
             for url in ("/play/", f"/play/?seat={ben.pk}", f"/play/?token={tokens['Ben']}")]
    assert pages[0] == pages[1] == pages[2]  # parameters choose nothing: the cookie does
    assert '<span class="who">Ana' in pages[0] and '<span class="who">Ben' not in pages[0]
    # Ana's view holds her own wallet and nobody else's.
    view = selectors.seat_view(ana)
    assert view["seat"]["id"] == ana.pk and view["game"]["me"]["name"] == "Ana"
    assert_no_other_coins(view, "Ana")
    # The console is the teacher's, not a student's.
    assert phone(tokens["Ana"]).get(f"/teacher/lessons/{a.pk}/").status_code == 302


def counters_by_table() -> dict[int, int]:
    """Sealed ballots in each table's bags."""
    out: dict[int, int] = {}
    for table_id in SealedBallot.objects.values_list("bag__table_id", flat=True):
        out[table_id] = out.get(table_id, 0) + 1
    return out


def test_token_cannot_act_at_another_table_or_in_another_session(two_lessons):
    a, a_tokens, b, _b_tokens = two_lessons
    before = receipts_and_counters()
    # The teacher's tie-break names a table: a phone cannot send it (no such phone message).
    response = phone(a_tokens["Ana"]).post("/play/act/", {
        "type": "tie_break", "table": 2, "choice": "A"})
    assert response.status_code == 400
    # Nor can Ana post to a console, of her lesson or another one.
    for lesson in (a, b):
        response = phone(a_tokens["Ana"]).post(f"/teacher/lessons/{lesson.pk}/act/",
                                               {"type": "next"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert receipts_and_counters() == before
    # Ana's ballot lands in her own table's bag, and in no other table of any lesson.
    totals = counters_by_table()
    response = phone(a_tokens["Ana"]).post("/play/act/", {
        "type": "ballot", "kind": "tax", "option": "A", "expected": a.stage_id})
    assert response.status_code == 302
    after = counters_by_table()
    assert {t for t in after if after[t] != totals.get(t, 0)} == {seat(a, "Ana").table_id}
    assert BallotReceipt.objects.filter(bag__table__session=b).count() == 0
    # Ana's token on the other lesson's join page does not seat her there.
    assert "already in a lesson as" in phone(a_tokens["Ana"]).get(
        f"/join/{b.join_code}/").content.decode()
    assert Seat.objects.filter(session=b).count() == 8


def test_token_cannot_act_after_being_removed_or_reseated(two_lessons):
    a, tokens, _b, _ = two_lessons
    services.seat_remove(session=fresh(a), seat=seat(a, "Cai"))
    link = services.seat_reseat(session=fresh(a), seat=seat(a, "Dee"))
    _dee, new_token = services.seat_claim(token=link)
    for name in ("Cai", "Dee"):
        client = phone(tokens[name])
        response = client.post("/play/act/", {"type": "ballot", "kind": "tax", "option": "A"})
        assert response.status_code == 302 and response["Location"] == "/join/"
        assert client.get("/play/")["Location"] == "/join/"
        assert client.get(f"/seat/{tokens[name]}/").status_code == 410
    assert not BallotReceipt.objects.filter(seat__nickname__in=["Cai", "Dee"]).exists()
    assert phone(new_token).post("/play/act/", {"type": "ballot", "kind": "tax",
                                                "option": "A"}).status_code == 302
    assert BallotReceipt.objects.filter(seat=seat(a, "Dee")).count() == 1


def test_token_cannot_act_after_the_lesson_is_over(db, settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session, tokens = started(8)
    session = drive_to(session, "final", 8)
    assert session.status == "finished"
    response = phone(tokens["Ana"]).post("/play/act/", {
        "type": "ballot", "kind": "tax", "option": "A", "expected": session.stage_id})
    assert response.status_code == 409 and "over" in response.content.decode()
    services.session_archive(session=fresh(session))
    response = phone(tokens["Ana"]).post("/play/act/", {"type": "pact", "coins": 1})
    assert response.status_code == 409


# --------------------------------------------------------------------------- teachers


@pytest.fixture
def owned_lesson(db):
    owner = make_teacher("owner")
    session, _tokens = started(8, teacher=owner)
    session = drive_to(session, "final", 8)
    return owner, session


def teacher_urls(session: ClassSession) -> list[tuple[str, Any]]:
    a_seat = humans(session.tables.first())[0]
    return [(fill(route, session_id=session.pk, seat_id=a_seat.pk, number=1, what="class"),
             callback)
            for route, callback in routes() if route.startswith("/teacher/lessons/<")]


def test_teacher_cannot_see_or_drive_another_teachers_session(owned_lesson):
    owner, session = owned_lesson
    intruder = Client()
    intruder.force_login(make_teacher("intruder"))
    urls = teacher_urls(session)
    assert len(urls) >= 12
    before = dict(ClassSession.objects.filter(pk=session.pk).values()[0])
    for url, _callback in urls:
        for method in ("get", "post"):
            response = getattr(intruder, method)(url, {"type": "undo"})
            assert response.status_code in (404, 405), (method, url, response.status_code)
    assert dict(ClassSession.objects.filter(pk=session.pk).values()[0]) == before
    assert f"/teacher/lessons/{session.pk}/" not in intruder.get("/teacher/").content.decode()
    # The owner does see them.
    owner_client = Client()
    owner_client.force_login(owner)
    assert owner_client.get(f"/teacher/lessons/{session.pk}/").status_code == 200


def test_unauthenticated_pages_are_refused(owned_lesson):
    _owner, session = owned_lesson
    anonymous = Client()
    for url, _callback in [*teacher_urls(session), ("/teacher/", None),
                           ("/teacher/lessons/new/", None)]:
        for method in ("get", "post"):
            response = getattr(anonymous, method)(url)
            assert response.status_code in (302, 405), (method, url)
            if response.status_code == 302:
                assert response["Location"].startswith("/accounts/login/"), url
    assert anonymous.get("/play/")["Location"] == "/join/"
    assert anonymous.post("/play/act/", {"type": "refresh"})["Location"] == "/join/"
    assert anonymous.get(f"/seat/{secrets.token_urlsafe(32)}/").status_code == 410
    assert anonymous.get("/admin/").status_code == 302


async def test_unauthenticated_sockets_are_refused_on_every_route(db):
    for path in ("/ws/play/", "/ws/lesson/1/"):
        comm = WebsocketCommunicator(application, path, headers=[(b"origin",
                                                                  b"http://localhost")])
        connected, code = await comm.connect(timeout=5)
        assert not connected and code == 4403, path
        await comm.disconnect()


# --------------------------------------------------------------------------- join codes


def post_join(client: Client, code: str, nickname: str = "Zed") -> Any:
    return client.post("/join/", {"code": code, "nickname": nickname})


@pytest.mark.django_db
def test_rate_limit_join_code_guessing_per_address_429_with_a_clear_message(monkeypatch):
    cache.clear()
    session = make_session()
    clock = [1_000_000.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: clock[0])
    guesser = Client(REMOTE_ADDR="10.1.2.3")
    for n in range(20):
        response = post_join(guesser, f"XXXX{n:02d}"[-6:].replace("0", "A"))
        assert response.status_code == 404, n
        assert "no lesson with that code" in response.content.decode()
    refused = post_join(guesser, "AAAAAA")
    assert refused.status_code == 429
    html = refused.content.decode()
    assert "Too many wrong codes from this network. Wait a minute" in html
    assert 'role="alert"' in html
    # Even the right code waits: guessing must not pay off.
    assert post_join(guesser, session.join_code).status_code == 429
    # Another address (another phone on the wifi) is not affected.
    assert post_join(Client(REMOTE_ADDR="10.1.2.4"), session.join_code, "Amy").status_code == 302
    # Right codes do not count as failures; a minute later the guesser may try again.
    clock[0] += 61
    assert post_join(guesser, session.join_code).status_code == 302
    # The counter's key is a keyed hash: the address itself is nowhere in the cache.
    assert all("10.1.2.3" not in entry for entry in cache_contents())


@pytest.mark.django_db
def test_rate_limit_of_join_codes_is_shared_by_every_daphne_process_with_redis(settings):
    """In production the counter lives in the shared cache (Redis) - see settings."""
    from stateinclass import settings as project

    source = Path(project.__file__).read_text()
    assert "django.core.cache.backends.redis.RedisCache" in source
    assert settings.JOIN_ATTEMPTS_PER_MINUTE == 20


@pytest.mark.django_db
@pytest.mark.parametrize("status", ["finished", "archived"])
def test_codes_of_finished_sessions_stop_working(status, settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session = make_session(make_teacher("a"))
    join(session, 2)
    ClassSession.objects.filter(pk=session.pk).update(status=status)
    response = post_join(Client(), session.join_code, "Late")
    assert response.status_code == 410
    assert "That lesson has ended." in response.content.decode()
    assert Seat.objects.filter(session=session).count() == 2
    # A running lesson's code stops working for newcomers as well (they ask the teacher).
    running = make_session(make_teacher("b"))
    join(running, 6)
    services.session_start(session=running)
    response = post_join(Client(), running.join_code, "Late")
    assert response.status_code == 409 and "already started" in response.content.decode()


# --------------------------------------------------------------------------- cookies


def test_cookies_are_httponly_samesite_and_secure_in_production(tmp_path):
    """Production settings, end to end: the cookies a phone and a teacher get."""
    script = """
import json
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from facilitator import services
# Everything as in production but the hashed static files, which need collectstatic.
override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}).enable()
teacher = get_user_model().objects.create_user("t", password="a-long-password-42")
session = services.session_create(owner=teacher)
out = {}
phone = Client()
phone.get("/join/", secure=True)
response = phone.post("/join/", {"code": session.join_code, "nickname": "Ana"}, secure=True)
out["status"] = response.status_code
out["sic_seat"] = dict(response.cookies["sic_seat"])
out["csrftoken"] = dict(phone.cookies["csrftoken"])
teacher_client = Client()
teacher_client.get("/accounts/login/", secure=True)
response = teacher_client.post("/accounts/login/", {"username": "t",
    "password": "a-long-password-42"}, secure=True)
out["sessionid"] = dict(response.cookies["sessionid"])
out["plain_http"] = Client().get("/join/").status_code
print("COOKIES " + json.dumps(out))
"""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_PRODUCTION="1", SECRET_KEY=secrets.token_urlsafe(50),
               ALLOWED_HOSTS="testserver", DATABASE_URL=f"sqlite:///{tmp_path / 'p.sqlite3'}",
               DJANGO_SETTINGS_MODULE="stateinclass.settings")
    for args in (["migrate", "--noinput", "-v", "0"], ["shell", "-c", script]):
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                              capture_output=True, text=True, timeout=180, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.split("COOKIES ", 1)[1])
    assert out["status"] == 302
    for name in ("sic_seat", "csrftoken", "sessionid"):
        cookie = out[name]
        assert cookie["httponly"] is True, (name, cookie)
        assert cookie["secure"] is True, (name, cookie)
        assert cookie["samesite"] == "Lax", (name, cookie)
    assert out["plain_http"] == 301  # plain HTTP is sent to HTTPS


@pytest.mark.django_db
def test_cookies_in_classroom_mode_are_httponly_and_samesite(settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session = make_session()
    client = Client()
    client.get("/join/")
    response = post_join(client, session.join_code, "Ana")
    for name, cookie in (("sic_seat", response.cookies["sic_seat"]),
                         ("csrftoken", client.cookies["csrftoken"])):
        assert cookie["httponly"] and cookie["samesite"] == "Lax", name
        assert not cookie["secure"], name  # plain HTTP on the school wifi


# --------------------------------------------------------------------------- CSRF


def test_csrf_on_every_form_a_post_without_the_token_is_refused(owned_lesson, settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    owner, session = owned_lesson
    urls = [fill(route, session_id=session.pk, seat_id=humans(session.tables.first())[0].pk,
                 number=1, code=session.join_code, token="x" * 43, what="class")
            for route, _cb in routes()]
    urls.append("/admin/login/")
    for logged_in in (False, True):
        client = Client(enforce_csrf_checks=True)
        if logged_in:
            client.force_login(owner)
        for url in urls:
            response = client.post(url, {"type": "next", "code": "AAAAAA", "nickname": "x"})
            assert response.status_code == 403, (url, response.status_code)
            assert "CSRF" in response.content.decode()


class Forms(HTMLParser):
    """The POST forms of a page and the hidden fields each holds."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"method": (a.get("method") or "get").lower(),
                               "action": a.get("action"), "fields": {}})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["fields"][a["name"]] = a.get("value")


def post_forms(html: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(html)
    return [f for f in parser.forms if f["method"] == "post"]


def pages_of_a_whole_lesson(settings: Any) -> Iterator[tuple[str, str, Client]]:
    """(name, html, client) for every page a teacher or a student sees, at every stage."""
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    owner = make_teacher("pages")
    teacher = Client()
    teacher.force_login(owner)
    for url in ("/", "/about/", "/join/", "/accounts/login/"):
        yield url, Client().get(url).content.decode(), Client()
    for url in ("/teacher/", "/teacher/lessons/new/", "/accounts/password/"):
        yield url, teacher.get(url).content.decode(), teacher
    session = make_session(owner)
    tokens = join(session, 8)
    yield "console lobby", teacher.get(f"/teacher/lessons/{session.pk}/").content.decode(), \
        teacher
    yield "phone lobby", phone(tokens["Ana"]).get("/play/").content.decode(), \
        phone(tokens["Ana"])
    link = services.seat_reseat(session=session, seat=seat(session, "Hal"))
    new_phone = Client()
    yield "new phone", new_phone.get(f"/seat/{link}/").content.decode(), new_phone
    services.session_start(session=session)
    session = fresh(session)
    stages = [("pact", 0), ("event", 1), ("debate", 1), ("tax_vote", 1), ("pay", 1),
              ("budget_vote", 1), ("end_of_round", 1), ("midlife", 4), ("final", 8)]
    for stage, rnd in stages:
        if (session.stage, session.round) != (stage, rnd):
            session = drive_to(session, stage, rnd)
        base = f"/teacher/lessons/{session.pk}"
        for url in (f"{base}/", f"{base}/students/"):
            yield f"{stage} {url}", teacher.get(url).content.decode(), teacher
        for name in ("Ana", "Hal"):
            client = phone(tokens[name])
            yield f"{stage} phone {name}", client.get("/play/").content.decode(), client
    yield "reports", teacher.get(f"/teacher/lessons/{session.pk}/reports/").content.decode(), \
        teacher
    response = teacher.post(f"/teacher/lessons/{session.pk}/seats/"
                            f"{seat(session, 'Ana').pk}/reseat/")
    yield "reseat", response.content.decode(), teacher


@pytest.mark.django_db
def test_csrf_every_post_form_on_every_page_carries_a_working_token(settings):
    checked = 0
    for name, html, client in pages_of_a_whole_lesson(settings):
        for form in post_forms(html):
            token = form["fields"].get("csrfmiddlewaretoken")
            assert token, (name, form)
            checked += 1
        # The page's token is accepted for a post by the same browser (cookie + field).
        if post_forms(html) and "csrftoken" in client.cookies:
            strict = Client(enforce_csrf_checks=True)
            strict.cookies = client.cookies
            token = post_forms(html)[0]["fields"]["csrfmiddlewaretoken"]
            response = strict.post("/play/act/", {"csrfmiddlewaretoken": token,
                                                  "type": "refresh"})
            assert response.status_code != 403, name
    assert checked > 40


# --------------------------------------------------------------------------- websocket Origin


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [b"http://evil.example", b"null", b"http://192.168.1.20.evil",
                                    None])
async def test_websocket_origin_from_another_site_is_refused_even_in_classroom_mode(
        origin, settings):
    """Found here: ALLOWED_HOSTS is "*" in classroom mode, so the Origin check let any
    site's page open a socket with the visitor's cookies (see SameOriginWebsocketMiddleware)."""
    from channels.db import database_sync_to_async

    assert "*" in settings.ALLOWED_HOSTS  # classroom mode: any host name
    def seated() -> str:
        session = make_session()
        return services.seat_join(code=session.join_code, nickname="Ana")[1]

    token = await database_sync_to_async(seated)()
    headers = [(b"host", b"192.168.1.20:8000"), (b"cookie", f"sic_seat={token}".encode())]
    if origin is not None:
        headers.append((b"origin", origin))
    comm = WebsocketCommunicator(application, "/ws/play/", headers=headers)
    connected, _code = await comm.connect(timeout=5)
    assert not connected, origin
    await comm.disconnect()
    # The same phone, from the laptop's own page, gets in.
    comm = WebsocketCommunicator(application, "/ws/play/", headers=[
        *headers[:2], (b"origin", b"http://192.168.1.20:8000")])
    connected, _code = await comm.connect(timeout=5)
    assert connected
    await comm.disconnect()


# --------------------------------------------------------------------------- CSP


class Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and not a.get("src"):
            self.problems.append("an inline <script>")
        if tag == "style":
            self.problems.append("an inline <style>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"an inline handler {name}= on <{tag}>")
            if name == "style":
                self.problems.append(f"a style attribute on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"a javascript: URL on <{tag}>")


@pytest.mark.django_db
def test_csp_every_page_has_a_policy_with_no_inline_script(settings):
    policy = dict(p.split(" ", 1) for p in CONTENT_SECURITY_POLICY.split("; "))
    assert policy["script-src"] == "'self'" and policy["object-src"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'self'"
    pages = 0
    for name, html, _client in pages_of_a_whole_lesson(settings):
        parser = Scripts()
        parser.feed(html)
        assert parser.problems == [], (name, parser.problems)
        pages += 1
    assert pages > 30
    for url in ("/", "/join/", "/play/", "/accounts/login/", "/about/", "/no-such-page/"):
        response = Client().get(url)
        assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, url
        assert response["X-Frame-Options"] == "DENY", url
        assert response["Referrer-Policy"] == "same-origin", url
