"""Who is told what after a change. Messages leave only after the transaction commits.

A message is a hint ("refresh", or a vote's progress), never private data: every socket
rebuilds its own view from the database for its own audience (see ``consumers``).

A socket's message handled in the database thread (``deliver_after``) collects the messages its
transactions commit and sends them from the event loop once the thread is done, in the order
they were committed, before the socket's answer; anywhere else (an HTTP view, a command) a
message is sent from the thread that committed it.
A ballot's progress (counts only) reaches the projector; the voter's own phone learns it from
its ``ack``; no other phone is told.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)
T = TypeVar("T")
Outbox = list[tuple[list[str], dict[str, Any]]]
# The messages committed while a socket's message is handled (None: send at once).
_outbox: ContextVar[Outbox | None] = ContextVar("broadcast_outbox", default=None)


def projector_group(session_id: int) -> str:
    return f"session.{session_id}.projector"


def seat_group(seat_id: int) -> str:
    return f"seat.{seat_id}"


def _failed(group: str, exc: Exception) -> None:
    # This runs after the commit: an exception here must not report a saved action as failed
    # (a 500, or the socket closed with 1011). A message is only a hint: screens catch up when
    # they reconnect. Log it, and do not try the other groups (they would wait for the same
    # dead server).
    logger.warning("could not tell %s about a change: %r", group, exc)


def _send(groups: Iterable[str], message: dict[str, Any]) -> None:
    box = _outbox.get()
    if box is not None:
        box.append((list(groups), message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    for group in groups:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception as exc:  # any failure of the layer (Redis down or restarting)
            _failed(group, exc)
            return


async def deliver_after(work: Callable[[], Awaitable[T]]) -> T:
    """Await ``work`` (a socket's message handled in the database thread), then send the
    messages its transactions committed, from the event loop: no hop back from the thread to
    the loop for every message, and the thread is free for the next ballot sooner."""
    box: Outbox = []
    token = _outbox.set(box)
    try:
        return await work()
    finally:
        _outbox.reset(token)
        await _deliver(box)


async def _deliver(box: Outbox) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for groups, message in box:
        for group in groups:
            try:
                await layer.group_send(group, message)
            except Exception as exc:  # any failure of the layer (Redis down or restarting)
                _failed(group, exc)
                return


def after_commit(groups: Iterable[str], message: dict[str, Any]) -> None:
    groups = list(groups)
    transaction.on_commit(lambda: _send(groups, message))


def refresh(session_id: int, seat_ids: Iterable[int] = (), *, projector: bool = True) -> None:
    """The projector (unless ``projector`` is False) and these seats should fetch their view
    again."""
    groups = [*([projector_group(session_id)] if projector else []), *map(seat_group, seat_ids)]
    if groups:
        after_commit(groups, {"type": "lesson.refresh"})


def progress(session_id: int, table_number: int, what: dict[str, Any],
             seat_id: int | None = None) -> None:
    """A vote or a round of choices moved on at one table: counts only, for the projector;
    ``seat_id``'s phone re-renders.

    The other phones at the table are not told, so a ballot costs one frame to the projector
    and one to the voter whatever the table's size (sending every count to every phone was a
    large share of a ballot's CPU: docs/performance.md, "What was changed, before and after").
    The projector shows the count live; a phone shows it only as it was when its own ballot
    went in (its ``ack``).
    """
    after_commit([projector_group(session_id)],
                 {"type": "lesson.progress", "table": table_number, **what})
    if seat_id is not None:
        after_commit([seat_group(seat_id)], {"type": "lesson.refresh"})


def counted(table_number: int, bag: str, seat_ids: Iterable[int]) -> None:
    """A held count at one table: these phones turn what their screen marks as lasting
    until bag ``bag`` is counted into what follows it (``data-until-counted``,
    static/js/live.js), without rendering a screen."""
    groups = [seat_group(s) for s in seat_ids]
    if groups:
        after_commit(groups, {"type": "lesson.counted", "table": table_number, "bag": bag})


def seat_removed(seat_id: int) -> None:
    after_commit([seat_group(seat_id)], {"type": "lesson.removed"})
