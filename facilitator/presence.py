"""Which phones are online: sockets counted per seat and per server process, with expiry.

Each daphne process counts its own sockets for each seat (two tabs of one phone are two
sockets; closing one leaves the seat online). A process proves it is alive by refreshing its
rows every ``BEAT``; rows not refreshed for ``EXPIRY`` (the process was killed, or the machine
restarted) no longer count. So the console is right with several daphne processes and after a
crash, with nothing to clean up by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Iterable
from datetime import timedelta

from channels.db import database_sync_to_async
from django.db import IntegrityError, transaction
from django.db.models import F

from facilitator.clock import now
from facilitator.kept_reads import kept_online
from facilitator.models import Presence

PROCESS = secrets.token_hex(8)
BEAT = 30.0  # seconds between a process's refreshes
EXPIRY = timedelta(seconds=95)  # three beats missed: the process is gone

_local = {"sockets": 0}
_beats: dict[int, asyncio.Task[None]] = {}


def presence_join(*, seat_id: int) -> None:
    """One more socket of this process for the seat."""
    if Presence.objects.filter(seat_id=seat_id, process=PROCESS).update(
            sockets=F("sockets") + 1, seen_at=now()):
        return
    try:
        with transaction.atomic():
            Presence.objects.create(seat_id=seat_id, process=PROCESS, sockets=1, seen_at=now())
    except IntegrityError:  # another socket of this seat got there first
        Presence.objects.filter(seat_id=seat_id, process=PROCESS).update(
            sockets=F("sockets") + 1, seen_at=now())


def presence_leave(*, seat_id: int) -> None:
    """One socket fewer; the row goes with the seat's last socket in this process."""
    Presence.objects.filter(seat_id=seat_id, process=PROCESS).update(sockets=F("sockets") - 1)
    Presence.objects.filter(seat_id=seat_id, process=PROCESS, sockets__lte=0).delete()


def presence_beat() -> None:
    Presence.objects.filter(process=PROCESS).update(seen_at=now())


def online(seat_ids: Iterable[int]) -> set[int]:
    """The seats (of these) with a socket in a live process."""
    ids = list(seat_ids)
    if not ids:
        return set()
    kept = kept_online(ids)  # read with the tables, for the screen being rendered
    if kept is not None:
        return kept
    return set(Presence.objects.filter(seat_id__in=ids, sockets__gt=0,
                                       seen_at__gte=now() - EXPIRY)
               .values_list("seat_id", flat=True))


def socket_opened() -> None:
    """A phone's socket opened in this process: keep the heartbeat going while any is open."""
    _local["sockets"] += 1
    loop = asyncio.get_running_loop()
    task = _beats.get(id(loop))
    if task is None or task.done():
        _beats[id(loop)] = loop.create_task(_heartbeat())


def socket_closed() -> None:
    _local["sockets"] = max(0, _local["sockets"] - 1)
    if _local["sockets"] == 0:
        for task in _beats.values():
            task.cancel()
        _beats.clear()


async def _heartbeat() -> None:
    with contextlib.suppress(asyncio.CancelledError):
        while _local["sockets"] > 0:
            await asyncio.sleep(BEAT)
            await database_sync_to_async(presence_beat)()
