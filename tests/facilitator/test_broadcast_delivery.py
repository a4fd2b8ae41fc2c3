"""A socket's message handled in the database thread sends what it committed from the event
loop, after the thread is done, in commit order; elsewhere a message leaves at once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from facilitator import broadcast


class Layer:
    def __init__(self, fail_on: str | None = None) -> None:
        self.sent: list[tuple[str, str, bool]] = []
        self.fail_on = fail_on

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if group == self.fail_on:
            raise ConnectionError("the layer is down")
        self.sent.append((group, message["type"], threading.current_thread() is MAIN))


MAIN = threading.main_thread()


@pytest.fixture
def layer(monkeypatch: Any) -> Layer:
    layer = Layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    return layer


def no_hop_back(*_args: Any) -> Any:
    raise AssertionError("a message went back from the thread to the loop")


async def test_messages_committed_in_the_thread_leave_from_the_loop_in_order(layer, monkeypatch):
    monkeypatch.setattr(broadcast, "async_to_sync", no_hop_back)

    def work() -> int:
        assert threading.current_thread() is not MAIN
        broadcast._send(["session.1.projector", "seat.4"], {"type": "lesson.refresh"})
        broadcast._send(["session.1.projector"], {"type": "lesson.progress"})
        assert layer.sent == []  # nothing leaves while the thread works
        return 7

    assert await broadcast.deliver_after(lambda: sync_to_async(work)()) == 7
    assert layer.sent == [("session.1.projector", "lesson.refresh", True),
                          ("seat.4", "lesson.refresh", True),
                          ("session.1.projector", "lesson.progress", True)]


async def test_what_was_committed_before_a_refusal_is_still_sent(layer):
    def work() -> None:
        broadcast._send(["seat.4"], {"type": "lesson.refresh"})
        raise ValueError("refused after the commit")

    with pytest.raises(ValueError):
        await broadcast.deliver_after(lambda: sync_to_async(work)())
    assert layer.sent == [("seat.4", "lesson.refresh", True)]


async def test_a_layer_failure_is_logged_and_stops_the_rest(monkeypatch, caplog):
    layer = Layer(fail_on="seat.4")
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)

    def work() -> None:
        broadcast._send(["session.1.projector", "seat.4", "seat.5"], {"type": "lesson.refresh"})

    await broadcast.deliver_after(lambda: sync_to_async(work)())
    assert layer.sent == [("session.1.projector", "lesson.refresh", True)]
    assert "could not tell seat.4" in caplog.text


def test_outside_a_socket_message_a_message_leaves_at_once(layer):
    broadcast._send(["session.1.projector"], {"type": "lesson.refresh"})
    assert [(g, t) for g, t, _main in layer.sent] == [("session.1.projector", "lesson.refresh")]
