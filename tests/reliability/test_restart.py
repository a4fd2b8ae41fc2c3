"""Restarts in the middle of a round, with real browsers: the server, Redis, the projector tab.

Each test runs real daphne processes (subprocesses on loopback ports) and Debian's Chromium
driven by Playwright: the teacher's projector console and two students' phones are real pages,
so reconnecting is done by the product's own ``static/js/live.js``, not by the test. The lesson
(2 students and 4 bots at one table, at the tax vote) is prepared with ``manage.py shell``.

- Server restart: daphne is killed (SIGKILL, as a crash) while a vote is open; every page shows
  "Reconnecting…"; daphne starts again on the same port (same PostgreSQL + Redis); every page
  reconnects by itself, and a vote cast after the restart counts: no ballot lost or doubled.
- Redis restart: a private redis-server (never the shared one) is killed and started again on
  the same port mid-vote; the server recovers and the pages reconnect; nothing is lost.
- A phone's connection drops after its ballot (or pact) left but before the answer came
  back: after reconnecting by itself it sends it again, the copy is refused and counted
  nowhere, and the phone shows no error (the socket is cut by Playwright's websocket routing).
- The teacher's projector tab is closed and opened again: the console is exactly where it
  was, with the debate timer still running where it was (not started again).

Processes, databases and browsers are cleaned up in ``finally`` blocks; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.facilitator.test_two_daphne import HOST, free_port, scratch_database
from tests.support import require

BASE_DIR = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
RECONNECT = 45_000  # ms: live.js backs off up to 16 s between attempts

SETUP_SCRIPT = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from facilitator import services
from facilitator.models import ClassSession
from facilitator.lessons.state_in_class import services as sic_services

teacher = get_user_model().objects.create_user(username="teacher")
session = services.session_create(owner=teacher, title="Restarts", options={"debate_seconds": 120})
tokens = {}
for name in ["Ana", "Ben"]:
    seat, tokens[name] = services.seat_join(code=session.join_code, nickname=name)
services.session_start(session=session, fill="bots", seed=5)
target = "STAGE"
for seat in session.seats.filter(is_bot=False):
    if target != "pact":
        sic_services.pact_submit(seat_id=seat.pk, coins=1)
while ClassSession.objects.get(pk=session.pk).stage != target:
    services.session_advance(confirm=True, session=ClassSession.objects.get(pk=session.pk))
client = Client()
client.force_login(teacher)
print("SETUP " + json.dumps({
    "session": session.pk, "tokens": tokens,
    "sessionid": client.cookies[settings.SESSION_COOKIE_NAME].value,
}))
"""


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, f"manage.py {args[0]}:\n{done.stdout}\n{done.stderr[-3000:]}"
    return done.stdout


def prepare(env: dict[str, str], stage: str) -> dict[str, Any]:
    manage(env, "migrate", "--noinput", "-v", "0")
    out = manage(env, "shell", "-c", SETUP_SCRIPT.replace("STAGE", stage))
    return json.loads(out.split("SETUP ", 1)[1])


def wait_port(port: int, up: bool, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), 0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.1)
    raise AssertionError(f"{what} on port {port} did not {'start' if up else 'stop'}")


class Server:
    """daphne on a fixed loopback port; each start() is a new process, logged to its file."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs, self.port = env, logs, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = (self.logs / f"daphne-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [str(DAPHNE), "-b", HOST, "-p", str(self.port), "stateinclass.asgi:application"],
            cwd=BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
        log.close()
        wait_port(self.port, True, 60, "daphne")

    def kill(self) -> None:
        """A crash: no goodbye to the sockets, no cleanup."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return "\n".join(p.read_text(errors="replace")
                         for p in sorted(self.logs.glob("daphne-*.log")))

    def url(self, path: str = "") -> str:
        return f"http://{HOST}:{self.port}{path}"


class PrivateRedis:
    """A redis-server of this test's own (the shared one is never touched)."""

    def __init__(self, logs: Path) -> None:
        path = shutil.which("redis-server")
        require(path is not None, "needs redis-server (apt-get install redis-server)")
        self.binary, self.logs, self.port = str(path), logs, free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", HOST, "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=(self.logs / "redis.log").open("ab"), stderr=subprocess.STDOUT,
            start_new_session=True)
        wait_port(self.port, True, 20, "redis-server")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        wait_port(self.port, False, 10, "redis-server")


class Classroom:
    """The projector and two phones, as pages of one Chromium; console errors collected."""

    def __init__(self, b: Any, server: Server, setup: dict[str, Any]) -> None:
        self.server, self.setup, self.errors = server, setup, []
        self.contexts = []
        self.projector = self.page(b, {"viewport": {"width": 1600, "height": 900}},
                                   "sessionid", setup["sessionid"],
                                   f"/teacher/lessons/{setup['session']}/")
        self.phones = {name: self.page(b, PHONE, "sic_seat", token, "/play/")
                       for name, token in setup["tokens"].items()}

    def page(self, b: Any, options: dict[str, Any], cookie: str, value: str, path: str) -> Any:
        context = b.new_context(**options)
        context.add_cookies([{"name": cookie, "value": value, "url": self.server.url()}])
        self.contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and (
            "Content Security Policy" in m.text or "Uncaught" in m.text) else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(self.server.url(path))
        return page

    @property
    def pages(self) -> list[Any]:
        return [self.projector, *self.phones.values()]

    def close(self) -> None:
        for context in self.contexts:
            with contextlib.suppress(Exception):
                context.close()

    def online(self, *names: str, timeout: float = RECONNECT) -> None:
        """The console shows these phones connected: their sockets and the console's work."""
        from playwright.sync_api import expect

        for name in names:
            dot = self.projector.locator("li", has_text=name).first
            expect(dot).not_to_have_class(re.compile("offline"), timeout=timeout)

    def vote(self, name: str, option: str) -> None:
        from playwright.sync_api import expect

        self.tick(name, option)
        page = self.phones[name]
        expect(page.get_by_text("Your token is in the bag")).to_be_visible(timeout=15_000)

    def tick(self, name: str, option: str) -> None:
        """Tick a tax option and put the token in (phones send the option's index)."""
        page = self.phones[name]
        page.locator(f"input[name=option][value='{'ABCD'.index(option)}']").check()
        page.get_by_role("button", name="Put my token in the bag").click()


def banner(page: Any) -> Any:
    return page.locator("#connection")


def ballots(database_url: str) -> dict[str, Any]:
    """What the database holds for round 1's tax vote."""
    with psycopg.connect(database_url, connect_timeout=10) as con:
        receipts = con.execute(
            "SELECT s.nickname, count(*) FROM facilitator_ballotreceipt r JOIN facilitator_seat"
            " s ON s.id = r.seat_id JOIN facilitator_bag b ON b.id = r.bag_id"
            " WHERE b.decision = '1:tax' GROUP BY s.nickname").fetchall()
        sealed = con.execute("SELECT count(*) FROM facilitator_sealedballot").fetchone()[0]
        counts = [row[0] for row in con.execute(
            "SELECT payload FROM facilitator_tableaction WHERE payload->>'type' = 'count'")]
    return {"receipts": dict(receipts), "sealed": sealed, "counts": counts}


def assert_counted_once(result: dict[str, Any]) -> None:
    assert result["receipts"] == {"Ana": 1, "Ben": 1, **{f"Bot {n}": 1 for n in range(1, 5)}}
    assert result["sealed"] == 0  # opened into the tally, then deleted
    [count] = result["counts"]  # the bag was emptied once, with every ballot in it
    assert sum(count["tally"].values()) == 6


def assert_clean_log(log: str) -> None:
    assert "Traceback" not in log, log[-4000:]
    for secret in ("Ana", "Ben"):  # the log names no student
        assert secret not in log, log[-2000:]


# --------------------------------------------------------------------------- the tests

@pytest.mark.e2e
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_restart_of_the_server_mid_round_every_client_reconnects_and_nothing_is_lost(
        browser: Any, redis_url: str, tmp_path: Path):
    from playwright.sync_api import expect

    with scratch_database(os.environ["DATABASE_URL"]) as database_url:
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
               "ALLOWED_HOSTS": HOST, "PYTHONUNBUFFERED": "1"}
        setup = prepare(env, "tax_vote")
        server = Server(env, tmp_path)
        room = None
        try:
            server.start()
            room = Classroom(browser, server, setup)  # the suite's one Chromium
            room.online("Ana", "Ben", timeout=30_000)
            progress = room.projector.locator("[data-progress='1']")
            expect(progress).to_have_text("4 of 6 have voted")  # the bots voted at once
            room.vote("Ana", "C")
            expect(progress).to_have_text("5 of 6 have voted", timeout=15_000)

            server.kill()  # the laptop's server dies mid-vote
            for page in room.pages:
                expect(banner(page)).to_be_visible(timeout=15_000)
                expect(banner(page)).to_have_text("Reconnecting…")
            server.start()  # the teacher starts it again: same database, same Redis
            for page in room.pages:
                expect(banner(page)).to_be_hidden(timeout=RECONNECT)
            room.online("Ana", "Ben")
            # Ana's ballot survived the crash; Ben, who had not voted, votes now.
            expect(room.phones["Ana"].get_by_text("Your token is in the bag")).to_be_visible()
            expect(progress).to_have_text("5 of 6 have voted")
            room.vote("Ben", "D")
            expect(progress).to_have_text("The bag has been counted.", timeout=15_000)
            assert room.errors == []
        finally:
            if room is not None:
                room.close()
            server.stop()
        assert_counted_once(ballots(database_url))
        # The first process was killed mid-flight; the second one ran clean.
        assert_clean_log((tmp_path / "daphne-2.log").read_text(errors="replace"))


@pytest.mark.e2e
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_restart_of_redis_mid_round_the_server_recovers_and_nothing_is_lost(browser: Any,
                                                                           tmp_path: Path):
    from playwright.sync_api import expect

    redis = PrivateRedis(tmp_path)
    with scratch_database(os.environ["DATABASE_URL"]) as database_url:
        redis.start()
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis.url,
               "ALLOWED_HOSTS": HOST, "PYTHONUNBUFFERED": "1"}
        server = Server(env, tmp_path)
        room = None
        try:
            setup = prepare(env, "tax_vote")
            server.start()
            room = Classroom(browser, server, setup)  # the suite's one Chromium
            room.online("Ana", "Ben", timeout=30_000)
            progress = room.projector.locator("[data-progress='1']")
            room.vote("Ana", "A")
            expect(progress).to_have_text("5 of 6 have voted", timeout=15_000)

            redis.kill()  # Redis dies, and with it every group membership and ballot key
            for page in room.pages:  # the sockets close: every page says so
                expect(banner(page)).to_be_visible(timeout=15_000)
            # Meanwhile Ben votes: with no socket, his phone posts the form instead. With no
            # ballot key to seal it under, it is clearly refused (no error page).
            room.tick("Ben", "B")
            expect(room.phones["Ben"].get_by_text("Votes cannot be taken right now")
                   ).to_be_visible(timeout=15_000)
            # A latecomer typing a wrong code still gets a clear answer (the join rate
            # limit's counter lives in Redis too).
            stranger = browser.new_context(**PHONE)
            join = stranger.new_page()
            join.goto(server.url("/join/"))
            join.get_by_label("Lesson code").fill("WRONG1")
            join.get_by_label("Your nickname").fill("Zoe")
            join.get_by_role("button", name="Join").click()
            expect(join.get_by_text("There is no lesson with that code")).to_be_visible()
            stranger.close()

            redis.start()  # Redis comes back, empty: the bag's key is gone
            for page in room.pages:
                expect(banner(page)).to_be_hidden(timeout=RECONNECT)
            room.online("Ana", "Ben")
            # The bag is emptied and asked again (never a wrong tally, never a link): the
            # console says why, the bots vote again, and so do Ana and Ben.
            # (on the board: #announcer, the screen reader's copy, says it too)
            expect(room.projector.locator("#live").get_by_text(
                "The votes were lost when the server restarted")).to_be_visible(timeout=RECONNECT)
            # Ana's token was in the lost bag: she is asked again, and the count starts again
            # from the bots' tokens (never the lost bag's 5).
            expect(room.phones["Ana"].locator("#live").get_by_text("vote again")
                   ).to_be_visible(timeout=15_000)
            expect(progress).to_have_text("4 of 6 have voted", timeout=15_000)
            room.vote("Ana", "A")
            room.vote("Ben", "B")  # his refused ballot was never counted: he votes now
            expect(progress).to_have_text("The bag has been counted.", timeout=15_000)
            # And the live updates flow again through the new Redis: the teacher pauses,
            # the phones are told.
            room.projector.get_by_role("button", name="Pause").click()
            for page in room.phones.values():
                expect(page.get_by_text("Your teacher has paused the game.")).to_be_visible(
                    timeout=15_000)
            assert room.errors == []
        finally:
            if room is not None:
                room.close()
            server.stop()
            redis.kill()
        assert_counted_once(ballots(database_url))
        log = (tmp_path / "daphne-1.log").read_text(errors="replace")
        assert "Internal Server Error" not in log, log[-3000:]  # no request failed (500)
        assert '"POST /play/act/"' in log  # Ben's vote went through the form


@pytest.mark.e2e
@pytest.mark.slow
def test_restart_of_the_projector_tab_shows_the_console_exactly_where_it_was(browser: Any,
                                                                           tmp_path: Path):
    from playwright.sync_api import expect

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'console.sqlite3'}", ALLOWED_HOSTS=HOST,
               PYTHONUNBUFFERED="1")
    setup = prepare(env, "debate")
    server = Server(env, tmp_path)
    room = None
    try:
        server.start()
        room = Classroom(browser, server, setup)  # the suite's one Chromium
        console = room.projector
        timer = console.locator("[data-time]")
        expect(timer).to_have_text(re.compile(r"1:5\d"), timeout=15_000)
        console.get_by_role("button", name="+30 s").click()
        time.sleep(2)
        before = seconds(timer.inner_text())
        where = console_position(console)
        # The lid is closed on the projector tab, a moment passes, the tab is opened again.
        context = console.context
        console.close()
        time.sleep(3)
        reopened = context.new_page()
        reopened.goto(server.url(f"/teacher/lessons/{setup['session']}/"))
        timer = reopened.locator("[data-time]")
        expect(timer).not_to_have_text("--:--")
        after = seconds(timer.inner_text())
        # The debate timer ran on while the tab was closed (it did not start again).
        assert before - 8 <= after <= before - 2, (before, after)
        assert console_position(reopened) == where
        assert room.errors == []
    finally:
        if room is not None:
            room.close()
        server.stop()
    assert "Traceback" not in server.output()


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.parametrize("stage", ["tax_vote", "pact"])
def test_restart_of_a_phones_connection_after_sending_resends_once_and_shows_no_error(
        browser: Any, stage: str, tmp_path: Path):
    """The wifi drops after the phone's action left but before the server's answer came back:
    live.js cannot know it arrived, so after reconnecting it sends it again; the server
    refuses the copy and the phone shows no error (found: a resent pact showed one)."""
    from playwright.sync_api import expect

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'lost.sqlite3'}", ALLOWED_HOSTS=HOST,
               PYTHONUNBUFFERED="1")
    setup = prepare(env, stage)
    server = Server(env, tmp_path)
    seen: list[str] = []
    room = None
    try:
        server.start()
        room = Classroom(browser, server, {**setup, "tokens": {}})  # the suite's Chromium
        context = browser.new_context(**PHONE)
        context.add_cookies([{"name": "sic_seat", "value": setup["tokens"]["Ana"],
                              "url": server.url()}])
        room.contexts.append(context)
        phone = context.new_page()
        # Every error the phone shows, even for a moment (the next view replaces it).
        phone.add_init_script("""
            window.shownErrors = [];
            new MutationObserver(() => {
              for (const box of document.querySelectorAll("[data-error]")) {
                const text = box.textContent.trim();
                if (!box.hidden && text && !window.shownErrors.includes(text)) {
                  window.shownErrors.push(text);
                }
              }
            }).observe(document, {subtree: true, childList: true, attributes: true,
                                  characterData: true});
        """)
        dropped: list[bool] = []

        def route(ws: Any) -> None:
            upstream = ws.connect_to_server()

            def from_page(message: str | bytes) -> None:
                seen.append(str(message))
                upstream.send(message)
                if not dropped and '"type":"tie_break"' not in str(message) and (
                        '"type":"ballot"' in str(message) or '"type":"pact"' in str(
                            message)):
                    dropped.append(True)  # the answer will never reach the phone
                    ws.close()
                    upstream.close()

            def from_server(message: str | bytes) -> None:
                views.append(str(message)[:20])
                ws.send(message)

            ws.on_message(from_page)
            upstream.on_message(from_server)

        views: list[str] = []
        phone.route_web_socket(re.compile(r".*/ws/play/$"), route)
        phone.goto(server.url("/play/"))
        # The socket is up (its first view came through) before the phone acts: on a busy
        # machine a click before that is a form post, which never crosses the socket.
        for _ in range(300):
            if views:
                break
            phone.wait_for_timeout(100)
        assert views, "the phone's socket never opened"
        if stage == "pact":
            phone.locator("input[name=coins][value='2']").check()
            phone.get_by_role("button", name="Give these coins").click()
            done = phone.get_by_text("Thank you. Your choice is secret.")
        else:
            phone.locator("input[name=option][value='2']").check()  # C: phones send indices
            phone.get_by_role("button", name="Put my token in the bag").click()
            done = phone.get_by_text("Your token is in the bag")
        expect(done).to_be_visible(timeout=RECONNECT)
        expect(phone.locator("#connection")).to_be_hidden(timeout=RECONNECT)
        phone.wait_for_timeout(1500)
        expect(phone.locator("[data-error]")).to_be_hidden()
        assert phone.evaluate("window.shownErrors") == []  # not even for a moment
        assert room.errors == []
    finally:
        if room is not None:
            room.close()
        server.stop()
    sent = [m for m in seen if '"type":"ballot"' in m or '"type":"pact"' in m]
    assert len(sent) == 2 and sent[0] == sent[1], seen  # sent, then sent again once
    with contextlib.closing(__import__("sqlite3").connect(tmp_path / "lost.sqlite3")) as con:
        if stage == "pact":
            [(snapshot,)] = con.execute("SELECT snapshot FROM facilitator_table")
            pacts = {p["name"]: p["pact"] for p in json.loads(snapshot)["players"]}
            assert pacts["Ana"] == 2
            [(n,)] = con.execute("SELECT count(*) FROM facilitator_tableaction WHERE "
                                 "json_extract(payload, '$.type') = 'pact' AND "
                                 "json_extract(payload, '$.player') = 'Ana'")
            assert n == 1
        else:
            [(n,)] = con.execute("SELECT count(*) FROM facilitator_ballotreceipt r JOIN "
                                 "facilitator_seat s ON s.id = r.seat_id WHERE "
                                 "s.nickname = 'Ana'")
            assert n == 1
    assert "Traceback" not in server.output()


def console_position(page: Any) -> dict[str, Any]:
    """Where the console is: round, phase, the event on the board, the buttons offered."""
    return {"round": page.locator("ol.rounds li.current").inner_text(),
            "phase": page.locator("ol.phases li.current").inner_text(),
            "event": page.locator(".event-card").first.inner_text(),
            "buttons": page.locator("form.controls button").all_inner_texts()}


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)
