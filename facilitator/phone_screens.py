"""The phones' screens of one process, rendered together.

A count or a new stage asks for the screens of every phone at a table (eight phones after
each count of a table of eight) at the same moment. Rendered one by one, each screen read
the same table again: its seats, presence, open bag, game state and the bags and counts a
module's screens show (half of a ballot's CPU at a table that counts after every ballot,
docs/performance.md). Here the screens asked for while the render thread is busy, or within
the same few turns of the event loop, are rendered in one job, inside one
``kept_reads.screen_reads()``: what a screen reads of a table is read once for them all.

What this guarantees:

- Each phone still gets its own screen: its seat (and its token) is read for it, and every
  seat-specific part is computed for it. A read kept for the job is keyed by table (and by
  language where it holds words), never by seat.
- A screen is never older than a screen rendered alone at the job's start. Every change a
  phone must see asks for its screen again; a change made while the phone's screen is being
  rendered asks for one more render after it (``LessonConsumer``), which goes into a later
  job with fresh reads.
- Each screen is delivered as soon as it is rendered, not at the end of the job.
- A phone that leaves during the job is skipped or its screen dropped; a render that fails
  fails for its phone only.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.db import close_old_connections

from facilitator import kept_reads

# Turns of the event loop a new job waits for more phones: a count's refresh reaches each
# phone's consumer a few turns after the message (the layer's queue, then the consumer's
# dispatch), so the phones of one count join one job.
GATHER_TURNS = 4


class Screen(Protocol):
    def render(self) -> dict[str, Any]: ...


Deliver = Callable[[int, Any], None]


def render_together(screens: list[Screen], deliver: Deliver) -> None:
    """Render each screen in turn within one set of kept reads; ``deliver(i, frame)`` (or
    ``deliver(i, error)``) as each is done. Runs in the render thread."""
    try:
        with kept_reads.screen_reads():
            for i, screen in enumerate(screens):
                try:
                    frame: Any = screen.render()
                except Exception as exc:  # its phone's socket closes; the others go on
                    frame = exc
                deliver(i, frame)
    finally:
        close_old_connections()


class PhoneScreens:
    """One event loop's queue of phones waiting for a screen, drained one job at a time."""

    def __init__(self, executor: Callable[[], Any]) -> None:
        self.executor = executor
        self.waiting: list[tuple[Screen, asyncio.Future[dict[str, Any]]]] = []
        self.draining: asyncio.Future[None] | None = None

    async def render(self, screen: Screen) -> dict[str, Any]:
        """This phone's screen, rendered with the others waiting now. Cancelling the wait
        (the phone left) drops the screen."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting.append((screen, future))
        if self.draining is None or self.draining.done():
            self.draining = asyncio.ensure_future(self._drain())
        return await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        for _turn in range(GATHER_TURNS):
            waiting = len(self.waiting)
            await asyncio.sleep(0)
            if len(self.waiting) == waiting:
                break
        while self.waiting:
            job = [(s, f) for s, f in self.waiting if not f.done()]
            self.waiting = []
            if not job:
                continue
            futures = [f for _s, f in job]

            def deliver(i: int, frame: Any, futures: list[Any] = futures) -> None:
                loop.call_soon_threadsafe(_settle, futures[i], frame)

            try:
                await database_sync_to_async(render_together, thread_sensitive=False,
                                             executor=self.executor())(
                    [s for s, _f in job], deliver)
            except Exception as exc:  # the job itself failed: every phone in it is told
                for future in futures:
                    loop.call_soon(_settle, future, exc)


def _settle(future: asyncio.Future[Any], frame: Any) -> None:
    if future.done():  # the phone left while its screen was being rendered
        return
    if isinstance(frame, BaseException):
        future.set_exception(frame)
    else:
        future.set_result(frame)


_queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, PhoneScreens] = (
    weakref.WeakKeyDictionary())


def phone_screens(executor: Callable[[], Any]) -> PhoneScreens:
    """The running loop's queue (each loop its own: a test's loop, a forked process's)."""
    loop = asyncio.get_running_loop()
    queue = _queues.get(loop)
    if queue is None:
        queue = _queues[loop] = PhoneScreens(executor)
    return queue
