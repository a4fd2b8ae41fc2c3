"""The Pub/Sub channel layer (facilitator/channel_layer.py) against a real redis-server of the
test's own: messages flow; when Redis goes away every local channel is told ``layer.lost``
(its socket closes and reconnects to a fresh view); when Redis is back, channels join and
receive again; a reconnection between two polls counts as a loss too."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from facilitator.channel_layer import LOST, PubSubChannelLayer
from tests.reliability.test_restart import PrivateRedis

pytestmark = pytest.mark.redis
WAIT = 10.0


def layer_for(url: str) -> PubSubChannelLayer:
    return PubSubChannelLayer(hosts=[{"address": url, "socket_timeout": None,
                                      "socket_connect_timeout": 2}])


async def joined(layer: PubSubChannelLayer, group: str) -> str:
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def test_a_group_message_reaches_its_members(tmp_path: Path, redis_url: str):
    layer = layer_for(redis_url)
    try:
        channel = await joined(layer, "lesson.layer-test")
        await layer.group_send("lesson.layer-test", {"type": "lesson.refresh"})
        assert await asyncio.wait_for(layer.receive(channel), WAIT) == {"type": "lesson.refresh"}
    finally:
        await layer.flush()


async def test_losing_redis_tells_every_channel_and_a_new_redis_works(tmp_path: Path,
                                                                      redis_url: str):
    redis = PrivateRedis(tmp_path)
    redis.start()
    layer = layer_for(redis.url)
    try:
        first = await joined(layer, "session.1.projector")
        second = await joined(layer, "seat.7")
        await asyncio.to_thread(redis.kill)
        assert await asyncio.wait_for(layer.receive(first), WAIT) == LOST
        assert await asyncio.wait_for(layer.receive(second), WAIT) == LOST
        with pytest.raises(Exception):  # noqa: B017 - while Redis is away, nobody can join
            await joined(layer, "seat.8")
        await asyncio.to_thread(redis.start)
        again = await joined(layer, "seat.7")
        await layer.group_send("seat.7", {"type": "lesson.refresh"})
        assert await asyncio.wait_for(layer.receive(again), WAIT) == {"type": "lesson.refresh"}
    finally:
        await layer.flush()
        redis.kill()


async def test_a_reconnection_between_two_polls_counts_as_a_loss(redis_url: str):
    layer = layer_for(redis_url)
    try:
        channel = await joined(layer, "seat.9")
        loop_layer: Any = layer._get_layer()
        [shard] = loop_layer._shards
        await shard._pubsub.on_connect(shard._pubsub.connection)  # as redis-py does on a reconnect
        assert await asyncio.wait_for(layer.receive(channel), WAIT) == LOST
    finally:
        await layer.flush()
