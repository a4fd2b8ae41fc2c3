"""The floor of a connected phone: what daphne and Channels cost by themselves, in memory per
socket and in CPU per vote.

    python bench/floor.py                 # 1,000 sockets to each server below, one at a time
    python bench/floor.py --sockets 300 --voters 32 --bursts 5

Each server is a daphne process on loopback, started with the same options as ours:

- ``asgi``: a bare ASGI application that accepts a websocket and holds it (daphne's own cost:
  twisted, autobahn, the ASGI queue of every connection);
- ``channels``: a Channels consumer that accepts and joins one group, under the
  in-memory channel layer (what Channels adds: the consumer, its channel, its group);
- ``phone``: our own phone socket is measured by ``bench/live.py`` (memory per phone).

For each, the growth of the server's resident memory while the sockets connect, divided by
the sockets (``/proc``, as ``bench/live.py`` measures it).

Then the CPU floor of a vote: ``--voters`` phones and one projector socket; in each of
``--bursts`` bursts every phone sends one ballot-sized JSON frame at a random instant within a
second, as ``bench/live.py``'s class scenario does. The ``asgi`` server answers the sender with
an ``ack`` and sends the projector a ``progress`` frame (the frames a ballot costs with no
framework at all); the ``channels`` server does the same through what our sockets go
through: our websocket middleware and URL router, a JSON consumer, and ``group_send`` to the
projector's group on the in-memory layer. No database, no template: the server's CPU over the
burst (and the half second after it, as ``bench/live.py`` counts it) divided by the ballots.
Writes ``bench/results/floor.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import harness  # noqa: E402
from bench.harness import HOST, Server  # noqa: E402

DAPHNE = Path(sys.executable).with_name("daphne")
APPS = {"asgi": "bench.floor:bare", "channels": "bench.floor:consumer"}


PROJECTOR_PATH = "/ws/lesson/1/"
_projectors: list[Any] = []  # the bare server's projector sockets (their ``send``)


def _ack(text: str) -> tuple[str, str]:
    """A ballot's answers: the voter's ack and the projector's progress (JSON texts)."""
    message = json.loads(text)
    return (json.dumps({"type": "ack", "id": message.get("id"),
                        "progress": {"voted": 1, "of": 8}}),
            json.dumps({"type": "progress", "table": 1, "voted": 1, "of": 8,
                        "text": "1 of 8 have voted"}))


async def bare(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept a websocket and hold it until it closes; a phone's text frame is answered with
    an ack, and the projector (the socket at ``PROJECTOR_PATH``) is sent a progress frame."""
    if scope["type"] != "websocket":
        return
    projector = scope["path"] == PROJECTOR_PATH
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            if projector:
                _projectors.append(send)
        elif message["type"] == "websocket.receive" and message.get("text"):
            ack, progress = _ack(message["text"])
            await send({"type": "websocket.send", "text": ack})
            for tell in list(_projectors):
                await tell({"type": "websocket.send", "text": progress})
        elif message["type"] == "websocket.disconnect":
            if send in _projectors:
                _projectors.remove(send)
            return


def _consumer() -> Any:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stateinclass.settings")
    django.setup()
    from channels.generic.websocket import AsyncJsonWebsocketConsumer
    from channels.routing import URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from django.urls import path

    from facilitator.middleware import SameOriginWebsocketMiddleware

    class Phone(AsyncJsonWebsocketConsumer):
        """In one group (joined and left with the socket), as a phone is in its seat's;
        answers a ballot."""

        groups = ["floor"]

        async def receive_json(self, content: Any, **kwargs: Any) -> None:
            await self.send_json({"type": "ack", "id": content.get("id"),
                                  "progress": {"voted": 1, "of": 8}})
            await self.channel_layer.group_send("projector", {
                "type": "lesson.progress", "table": 1, "voted": 1, "of": 8})

    class Projector(AsyncJsonWebsocketConsumer):
        groups = ["projector"]

        async def lesson_progress(self, event: dict[str, Any]) -> None:
            await self.send_json({"type": "progress", "text": "1 of 8 have voted",
                                  **{k: v for k, v in event.items() if k != "type"}})

    return AllowedHostsOriginValidator(SameOriginWebsocketMiddleware(URLRouter([
        path(PROJECTOR_PATH.lstrip("/"), Projector.as_asgi()),
        path("ws/", Phone.as_asgi()),
    ])))


consumer = _consumer() if os.environ.get("FLOOR_APP") == "channels" else None


async def hold(url: str, count: int, limit: int) -> list[Any]:
    sockets: list[Any] = []

    async def one() -> None:
        sockets.append(await harness.open_socket(url, origin=f"http://{HOST}"))

    await harness.gather_bounded([one for _ in range(count)], limit)
    return sockets


async def measure(server: Server, count: int) -> dict[str, Any]:
    await asyncio.sleep(1.0)
    before = harness.rss_bytes([server.pid])
    started = time.perf_counter()
    sockets = await hold(server.url("/ws/"), count, 100)
    seconds = time.perf_counter() - started
    await asyncio.sleep(1.0)
    after = harness.rss_bytes([server.pid])
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    return {"sockets": len(sockets), "kib_per_socket": round((after - before) / 1024
                                                            / max(1, len(sockets)), 1),
            "connect_seconds": round(seconds, 2)}


async def vote_cpu(server: Server, voters: int, bursts: int, seed: int = 1) -> dict[str, Any]:
    """The server's CPU per ballot over ``bursts`` bursts of ``voters`` ballots, each within a
    second, the projector seeing every ballot's progress (see the module's docstring)."""
    origin = f"http://{HOST}:{server.port}"
    projector = await harness.open_socket(server.url(PROJECTOR_PATH), origin=origin)
    phones = [await harness.open_socket(server.url("/ws/"), origin=origin)
              for _ in range(voters)]
    rng = random.Random(seed)
    payload = json.dumps({"type": "ballot", "kind": "tax", "option": 0,
                          "expected": "r1-tax_vote", "id": 1})
    seen = answered = 0

    async def watch() -> None:
        nonlocal seen
        async for _frame in projector:
            seen += 1

    watcher = asyncio.ensure_future(watch())
    cpu = 0.0
    try:
        for _ in range(bursts):
            await asyncio.sleep(0.5)
            before, expected = harness.cpu_seconds([server.pid]), seen + voters

            async def one(ws: Any, offset: float) -> None:
                nonlocal answered
                await asyncio.sleep(offset)
                await ws.send(payload)
                if json.loads(await ws.recv())["type"] == "ack":
                    answered += 1

            await asyncio.gather(*(one(ws, rng.uniform(0, 1.0)) for ws in phones))
            while seen < expected:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.5)  # as bench/live.py: the half second after the burst
            cpu += harness.cpu_seconds([server.pid]) - before
    finally:
        watcher.cancel()
        for ws in [projector, *phones]:
            with contextlib.suppress(Exception):
                await ws.close()
    return {"voters": voters, "bursts": bursts, "ballots_answered": answered,
            "cpu_ms_per_ballot": round(1000 * cpu / (voters * bursts), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--voters", type=int, default=32, help="phones voting in a burst")
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--name", default="floor", help="result file name")
    args = parser.parse_args(argv)
    harness.raise_open_files(args.sockets * 2 + 100)
    harness.pin_self(1)
    results: dict[str, Any] = {"benchmark": "floor", **harness.machine()}
    with tempfile.TemporaryDirectory(prefix="sic-floor-") as tmp:
        for name, app in APPS.items():
            port = harness.free_port()
            env = {**os.environ, "FLOOR_APP": name, "PYTHONPATH": str(ROOT),
                   "DJANGO_SETTINGS_MODULE": "stateinclass.settings",
                   "SECRET_KEY": "floor", "ALLOWED_HOSTS": HOST, "LOG_LEVEL": "WARNING"}
            env.pop("REDIS_URL", None)  # the in-memory layer: what one process holds
            # Pinned as bench/live.py's class scenario: the server on CPU 0, this client on 1.
            server = Server([*harness.pin(0), str(DAPHNE), "-b", HOST, "-p", str(port), app],
                            port=port,
                            env=env, cwd=ROOT, log=Path(tmp) / f"{name}.log")
            try:
                server.wait_ready()
                results[name] = asyncio.run(vote_cpu(server, args.voters, args.bursts))
                results[name].update(asyncio.run(measure(server, args.sockets)))
            finally:
                server.stop()
    print(harness.table(["server", "sockets", "KiB per socket", "connect (s)",
                         "CPU per ballot (ms)"],
                        [[name, results[name]["sockets"], results[name]["kib_per_socket"],
                          results[name]["connect_seconds"], results[name]["cpu_ms_per_ballot"]]
                         for name in APPS]))
    path = harness.write_result(args.name, results)
    print(f"wrote {path.relative_to(harness.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
