"""Helpers for the websocket tests: a phone or projector socket that remembers what it saw.

``Socket`` wraps channels' ``WebsocketCommunicator`` (the whole ASGI application: origin check,
cookies, session auth, routing). Every frame received is kept in ``frames``; the last ``view``
in ``view``. Waiting is always bounded, and a timeout fails with the frames seen so far.

Note: ``WebsocketCommunicator.receive_output`` *cancels the application* when it times out, so
"is there anything?" must use ``receive_nothing`` (which does not), never a short receive.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from facilitator.consumers import SEAT_COOKIE
from stateinclass.asgi import application

ORIGIN = (b"origin", b"http://localhost")
WAIT = 10.0  # seconds: the longest any single expectation may take
Frame = dict[str, Any]
_ids = itertools.count(1)


def cookie_header(cookies: dict[str, str]) -> tuple[bytes, bytes]:
    return b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()


@database_sync_to_async
def login_cookie(user: Any) -> dict[str, str]:
    """The session cookie of ``user``, logged in the way the console page would be."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return {name: client.cookies[name].value}


def seat_cookie(token: str) -> dict[str, str]:
    return {SEAT_COOKIE: token}


async def try_connect(path: str, cookies: dict[str, str] | None = None, *,
                      origin: bool = True, timeout: float = WAIT
                      ) -> tuple[bool, Any, WebsocketCommunicator]:
    """Open a socket: (True, subprotocol, comm) or, if refused, (False, close code, comm)."""
    headers = [ORIGIN] if origin else []
    if cookies:
        headers.append(cookie_header(cookies))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, detail = await comm.connect(timeout=timeout)
    if not connected:  # let the refused consumer finish, so no task outlives the test
        await shut(comm)
    return connected, detail, comm


async def shut(comm: WebsocketCommunicator, timeout: float = 1.0) -> None:
    """The client goes away: the consumer runs its disconnect, then is stopped (bounded).

    With channels-redis 4.3 + redis-py 8 the first cancellation of a consumer's channel
    receive can be swallowed while a BZPOPMIN is in flight, so the consumer may outlive its
    socket; after ``timeout`` the communicator cancels it again (as daphne does after its
    application_close_timeout). The disconnect handler itself has run by then.
    """
    with contextlib.suppress(TimeoutError):
        await comm.disconnect(timeout=timeout)


class Socket:
    """One connected client (a phone or the projector/console)."""

    def __init__(self, comm: WebsocketCommunicator, name: str) -> None:
        self.comm = comm
        self.name = name
        self.frames: list[Frame] = []
        self.view: dict[str, Any] | None = None
        self.closed_code: int | None = None

    @classmethod
    async def open(cls, path: str, cookies: dict[str, str], name: str = "") -> Socket:
        connected, detail, comm = await try_connect(path, cookies)
        assert connected, f"{name or path}: refused with code {detail}"
        sock = cls(comm, name or path)
        await sock.until(lambda f: f["type"] == "view")  # every socket starts with its view
        return sock

    @classmethod
    async def phone(cls, token: str, name: str = "") -> Socket:
        return await cls.open("/ws/play/", seat_cookie(token), name or "phone")

    @classmethod
    async def projector(cls, session_id: int, cookies: dict[str, str]) -> Socket:
        return await cls.open(f"/ws/lesson/{session_id}/", cookies, "projector")

    # ---- receiving

    async def next(self, timeout: float = WAIT) -> Frame:
        try:
            output = await self.comm.receive_output(timeout)
        except TimeoutError:
            raise AssertionError(f"{self.name}: nothing within {timeout} s; last frames "
                                 f"{self.brief(self.frames[-5:])}") from None
        if output["type"] == "websocket.close":
            self.closed_code = output.get("code", 1000)
            frame: Frame = {"type": "closed", "code": self.closed_code}
        else:
            assert output["type"] == "websocket.send", output
            frame = json.loads(output["text"])
        self.frames.append(frame)
        if frame["type"] == "view":
            self.view = frame["view"]
        elif frame["type"] == "presence" and self.view is not None:
            self.view = present(self.view, frame["seat"], frame["connected"])
        return frame

    async def until(self, predicate: Callable[[Frame], bool], timeout: float = WAIT,
                    what: str = "") -> Frame:
        """Read frames until one satisfies ``predicate``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no frame {what or predicate} within "
                                     f"{timeout} s; last frames "
                                     f"{self.brief(self.frames[-5:])}")
            frame = await self.next(left)
            if predicate(frame):
                return frame

    async def view_until(self, predicate: Callable[[dict[str, Any]], bool],
                         timeout: float = WAIT, what: str = "") -> dict[str, Any]:
        """The current view if it satisfies ``predicate``, else the next view that does."""
        if self.view is not None and predicate(self.view):
            return self.view
        await self.until(lambda f: f["type"] in ("view", "presence")
                                 and self.view is not None and predicate(self.view),
                                 timeout, what)
        assert self.view is not None
        return self.view

    async def answer(self, message_id: Any, timeout: float = WAIT) -> Frame:
        """The ``ack`` or ``error`` that answers the message with this id."""
        return await self.until(lambda f: f["type"] in ("ack", "error")
                                and f.get("id") == message_id, timeout,
                                f"answering id {message_id!r}")

    async def quiet(self, timeout: float = 0.3) -> bool:
        """True if nothing arrives within ``timeout`` (does not disturb the application)."""
        return bool(await self.comm.receive_nothing(timeout=timeout))

    async def drain(self, settle: float = 0.05) -> list[Frame]:
        """Read whatever has arrived until the socket has been quiet for ``settle`` s."""
        got = []
        while not await self.comm.receive_nothing(timeout=settle):
            got.append(await self.next())
        return got

    # ---- sending

    async def send(self, message: dict[str, Any]) -> None:
        await self.comm.send_json_to(message)

    async def send_text(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def do(self, type_: str, **fields: Any) -> Frame:
        """Send one message with a fresh id and return its answer (ack or error)."""
        message_id = f"{self.name}-{next(_ids)}"
        await self.send({"type": type_, "id": message_id, **fields})
        return await self.answer(message_id)

    async def ok(self, type_: str, **fields: Any) -> Frame:
        answer = await self.do(type_, **fields)
        assert answer["type"] == "ack", f"{self.name} {type_} {fields}: {answer}"
        return answer

    async def close(self) -> None:
        await shut(self.comm)

    @staticmethod
    def brief(frames: list[Frame]) -> str:
        out = []
        for f in frames:
            if f["type"] == "view":
                session = f["view"]["session"]
                game = f["view"].get("game") or {}
                out.append(f"view({session['stage_id']}, game {game.get('round')}:"
                           f"{game.get('phase')})")
            else:
                out.append(json.dumps(f)[:160])
        return "[" + ", ".join(out) + "]"


def present(view: dict[str, Any], seat: int, connected: bool) -> dict[str, Any]:
    """The console's view after a ``presence`` frame (what static/js/live.js does to the
    page: that seat's connection dot)."""
    def mark(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**s, "connected": connected} if s["seat"] == seat else s for s in seats]

    out = {**view, "tables": [{**t, "seats": mark(t["seats"])} for t in view.get("tables", [])]}
    if "lobby" in view:
        out["lobby"] = mark(view["lobby"])
    return out


async def wait_all(coros: list[Any], timeout: float = 30) -> list[Any]:
    return await asyncio.wait_for(asyncio.gather(*coros), timeout)


def public_game(view: dict[str, Any]) -> dict[str, Any]:
    return view.get("game") or {}
