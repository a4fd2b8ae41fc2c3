"""The memory floor of a connected phone: what daphne and Channels cost per socket by themselves.

    python bench/floor.py                 # 1,000 sockets to each server below, one at a time
    python bench/floor.py --sockets 300

Each server is a daphne process on loopback, started with the same options as ours:

- ``asgi``: a bare ASGI application that accepts a websocket and holds it (daphne's own cost:
  twisted, autobahn, the ASGI queue of every connection);
- ``channels``: a Channels consumer that accepts and joins one group, under the
  in-memory channel layer (what Channels adds: the consumer, its channel, its group);
- ``phone``: our own phone socket is measured by ``bench/live.py`` (memory per phone).

For each, the growth of the server's resident memory while the sockets connect, divided by
the sockets (``/proc``, as ``bench/live.py`` measures it). Writes ``bench/results/floor.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
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


async def bare(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept a websocket and hold it until it closes."""
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.disconnect":
            return


def _consumer() -> Any:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stateinclass.settings")
    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer

    class Holder(AsyncWebsocketConsumer):
        async def connect(self) -> None:
            await self.channel_layer.group_add("floor", self.channel_name)
            await self.accept()

    return Holder.as_asgi()


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--name", default="floor", help="result file name")
    args = parser.parse_args(argv)
    harness.raise_open_files(args.sockets * 2 + 100)
    results: dict[str, Any] = {"benchmark": "floor", **harness.machine()}
    with tempfile.TemporaryDirectory(prefix="sic-floor-") as tmp:
        for name, app in APPS.items():
            port = harness.free_port()
            env = {**os.environ, "FLOOR_APP": name, "PYTHONPATH": str(ROOT),
                   "DJANGO_SETTINGS_MODULE": "stateinclass.settings",
                   "SECRET_KEY": "floor", "ALLOWED_HOSTS": HOST, "LOG_LEVEL": "WARNING"}
            env.pop("REDIS_URL", None)  # the in-memory layer: what one process holds
            server = Server([str(DAPHNE), "-b", HOST, "-p", str(port), app], port=port,
                            env=env, cwd=ROOT, log=Path(tmp) / f"{name}.log")
            try:
                server.wait_ready()
                results[name] = asyncio.run(measure(server, args.sockets))
            finally:
                server.stop()
    print(harness.table(["server", "sockets", "KiB per socket", "connect (s)"],
                        [[name, results[name]["sockets"], results[name]["kib_per_socket"],
                          results[name]["connect_seconds"]] for name in APPS]))
    path = harness.write_result(args.name, results)
    print(f"wrote {path.relative_to(harness.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
