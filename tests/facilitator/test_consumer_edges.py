"""Consumer edge cases that need no lesson: a socket that closed under a frame."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.exception import Disconnected

from facilitator.consumers import SeatConsumer, TeacherConsumer


@pytest.mark.parametrize("consumer_class", [SeatConsumer, TeacherConsumer])
async def test_a_frame_for_a_socket_that_has_just_closed_is_dropped_quietly(consumer_class):
    """daphne refuses to send on a closed socket (the phone left while its screen was being
    rendered): the consumer must not die with a traceback; its goodbye follows."""
    consumer = consumer_class()

    async def closed(message: dict[str, Any]) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed
    await consumer.send_json({"type": "progress", "text": "3 of 8 have voted"})
    assert consumer.closing is True
