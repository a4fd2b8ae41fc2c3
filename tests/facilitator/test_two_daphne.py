"""Two real daphne processes behind one PostgreSQL database and one Redis: a class served by
several processes (README, "Production"; docs/architecture.md) still works as one.

The test makes its own database (``sic_two_daphne_<random>``), migrates it, prepares a lesson
at the tax vote with ``manage.py shell``, starts two daphne processes on loopback ports, and
talks to them with the ``websockets`` client: a phone on process A votes, the projector on
process B sees the progress; the teacher on B pauses, the phone on A sees it. Processes and
database are removed in ``finally`` blocks; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql
from websockets.asyncio.client import ClientConnection, connect

from tests import support

BASE_DIR = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")
HOST = "127.0.0.1"

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

# Run by ``manage.py shell -c`` against the new database: a lesson of 8 at the tax vote.
SETUP_SCRIPT = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from facilitator import services
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.models import ClassSession

teacher = get_user_model().objects.create_user(username="teacher")
session = services.session_create(owner=teacher, title="Two processes")
tokens = {}
for name in ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]:
    seat, tokens[name] = services.seat_join(code=session.join_code, nickname=name)
services.session_start(session=session)
for seat in session.seats.all():
    sic_services.pact_submit(seat_id=seat.pk, coins=2)
while ClassSession.objects.get(pk=session.pk).stage != "tax_vote":
    services.session_advance(confirm=True, session=ClassSession.objects.get(pk=session.pk))
client = Client()
client.force_login(teacher)
print("SETUP " + json.dumps({
    "session": session.pk, "tokens": tokens,
    "sessionid": client.cookies[settings.SESSION_COOKIE_NAME].value,
}))
"""


def free_port() -> int:
    return support.free_port(HOST)  # this worker's own range (parallel runs)


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextlib.contextmanager
def scratch_database(url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the server of ``url``; dropped afterwards."""
    name = f"sic_two_daphne_{secrets.token_hex(4)}"
    admin_url = with_database(url, "postgres")  # the maintenance database, as Django uses
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield with_database(url, name)
    finally:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


def manage(env: dict[str, str], *args: str, timeout: float = 120) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


class Daphne:
    """One daphne process on a loopback port, its output kept in a file."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.log = log
        self._out = log.open("wb")
        self.process = subprocess.Popen(
            [str(DAPHNE), "-b", HOST, "-p", str(self.port), "stateinclass.asgi:application"],
            cwd=BASE_DIR, env=env, stdout=self._out, stderr=subprocess.STDOUT,
            start_new_session=True)

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"daphne exited:\n{self.output()}"
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.5):
                return
            time.sleep(0.1)
        raise AssertionError(f"daphne did not listen on {self.port}:\n{self.output()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._out.close()

    def output(self) -> str:
        if not self._out.closed:
            self._out.flush()
        return self.log.read_text(errors="replace")

    def url(self, path: str) -> str:
        return f"ws://{HOST}:{self.port}{path}"

    def origin(self) -> Any:
        return f"http://{HOST}:{self.port}"


async def open_socket(server: Daphne, path: str, cookie: str) -> ClientConnection:
    return await connect(server.url(path), origin=server.origin(),
                         additional_headers={"Cookie": cookie}, proxy=None, open_timeout=10,
                         close_timeout=5)


async def frame_until(ws: ClientConnection, predicate: Callable[[dict[str, Any]], bool],
                      timeout: float = 10) -> dict[str, Any]:
    seen: list[str] = []
    try:
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await ws.recv())
                seen.append(frame["type"])
                if predicate(frame):
                    return frame
    except TimeoutError:
        raise AssertionError(f"no matching frame within {timeout} s; saw {seen}") from None


async def play_across(a: Daphne, b: Daphne, setup: dict[str, Any]) -> None:
    projector = await open_socket(b, f"/ws/lesson/{setup['session']}/",
                                  f"sessionid={setup['sessionid']}")
    phone = await open_socket(a, "/ws/play/", f"sic_seat={setup['tokens']['Ana']}")
    try:
        first = await frame_until(projector, lambda f: f["type"] == "view")
        assert first["view"]["session"]["stage"] == "tax_vote"
        mine = await frame_until(phone, lambda f: f["type"] == "view")
        assert mine["view"]["can"]["vote"] == "tax"
        phase = mine["view"]["session"]["stage_id"]
        # The phone's arrival on A reaches the console on B (through Redis) ...
        [ana] = [s["seat"] for s in first["view"]["tables"][0]["seats"]
                 if s["nickname"] == "Ana"]
        await frame_until(projector, lambda f: f == {"type": "presence", "seat": ana,
                                                     "connected": True})
        # ... and so does its ballot, as progress.
        await phone.send(json.dumps({"type": "ballot", "kind": "tax", "option": "C",
                                     "expected": phase, "id": "a1"}))
        answer = await frame_until(phone, lambda f: f["type"] in ("ack", "error"))
        assert answer == {"type": "ack", "id": "a1",
                          "progress": {"voted": 1, "of": 8,
                                       "text": "When your token went in, 1 of 8 had voted."}}
        progress = await frame_until(projector, lambda f: f["type"] == "progress")
        bag = progress.pop("bag")  # the bag's generation: 8 hex digits, nothing about a vote
        assert re.fullmatch(r"[0-9a-f]{8}", bag)
        assert progress == {"type": "progress", "table": 1, "what": "vote", "decision": "1:tax",
                            "voted": 1, "of": 8, "text": "1 of 8 has voted"}
        # The other way round: the teacher on B pauses, the phone on A is told.
        await projector.send(json.dumps({"type": "pause", "id": "t1"}))
        assert (await frame_until(projector, lambda f: f["type"] in ("ack", "error"))) == {
            "type": "ack", "id": "t1"}
        paused = await frame_until(phone, lambda f: f["type"] == "view"
                                   and f["view"]["session"]["paused"])
        assert paused["view"]["can"]["vote"] is None
    finally:
        await phone.close()
        await projector.close()


def test_two_daphne_processes_share_redis_and_postgres(redis_url: str, tmp_path: Path):
    database_url = os.environ["DATABASE_URL"]
    with scratch_database(database_url) as url:
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_url,
               "ALLOWED_HOSTS": f"{HOST},localhost", "DJANGO_SETTINGS_MODULE":
               "stateinclass.settings", "PYTHONUNBUFFERED": "1"}
        manage(env, "migrate", "--noinput")
        out = manage(env, "shell", "-c", SETUP_SCRIPT)
        setup = json.loads(out.split("SETUP ", 1)[1])
        servers: list[Daphne] = []
        try:
            for name in ("a", "b"):
                servers.append(Daphne(env, tmp_path / f"daphne-{name}.log"))
            for server in servers:
                server.wait_ready()
            asyncio.run(asyncio.wait_for(play_across(*servers, setup), 60))
        finally:
            for server in servers:
                server.stop()
        for server in servers:
            log = server.output()
            assert "Traceback" not in log, log
