"""Who is told what after a change. Messages leave only after the transaction commits.

A message is a hint ("refresh", or a vote's progress), never private data: every socket
rebuilds its own view from the database for its own audience (see ``consumers``).
A ballot's progress (counts only) reaches the projector; the voter's own phone learns it from
its ``ack``; no other phone is told.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def projector_group(session_id: int) -> str:
    return f"session.{session_id}.projector"


def seat_group(seat_id: int) -> str:
    return f"seat.{seat_id}"


def _send(groups: Iterable[str], message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group in groups:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception as exc:  # any failure of the layer (Redis down or restarting)
            # This runs after the commit: an exception here must not report a saved action as
            # failed (a 500, or the socket closed with 1011). A message is
            # only a hint: screens catch up when they reconnect. Log it, and do not try the
            # other groups (they would wait for the same dead server).
            logger.warning("could not tell %s about a change: %r", group, exc)
            return


def after_commit(groups: Iterable[str], message: dict[str, Any]) -> None:
    groups = list(groups)
    transaction.on_commit(lambda: _send(groups, message))


def refresh(session_id: int, seat_ids: Iterable[int] = ()) -> None:
    """The projector (and these seats) should fetch their view again."""
    after_commit([projector_group(session_id), *map(seat_group, seat_ids)],
                 {"type": "lesson.refresh"})


def progress(session_id: int, table_number: int, what: dict[str, Any],
             seat_id: int | None = None) -> None:
    """A vote or the pact moved on at one table: counts only, for the projector;
    ``seat_id``'s phone re-renders.

    The other phones at the table are not told (performance): sending every ballot's count to
    every phone of its table cost a quarter of a ballot's server CPU in the school benchmark
    (13.7 → 10.3 ms without it; docs/performance.md). The projector shows the count live; a
    phone shows it only as it was when its own ballot went in (its ``ack``).
    """
    after_commit([projector_group(session_id)],
                 {"type": "lesson.progress", "table": table_number, **what})
    if seat_id is not None:
        after_commit([seat_group(seat_id)], {"type": "lesson.refresh"})


def seat_removed(seat_id: int) -> None:
    after_commit([seat_group(seat_id)], {"type": "lesson.removed"})
