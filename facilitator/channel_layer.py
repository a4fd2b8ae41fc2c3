"""The channel layer of several daphne processes: channels-redis' Pub/Sub layer, which has
Redis push every message to the processes that listen (the core layer made each process pop
its messages one at a time: the school's queue, docs/performance.md), made safe for a Redis
restart.

Pub/Sub keeps nothing for a listener that is away: a message published while a process is cut
off from Redis is lost, and a screen would stay as it was. So when a process loses its
connection to Redis (an error while listening) or finds it made again (a reconnection between
two polls), every socket it serves is told ``layer.lost`` and closes (code 1012, "service
restart"): its page says "Reconnecting…" and reconnects by itself, and a socket's connect joins
its groups again and sends a fresh view, which is the full refresh. While Redis is away a
socket cannot join its groups, so its connect fails and the page tries again. The shard forgets
its client and subscriptions at the loss: the next subscription opens a new connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, create_pool
from redis import asyncio as aioredis
from redis.asyncio.client import PubSub

logger = logging.getLogger(__name__)

LOST: dict[str, Any] = {"type": "layer.lost"}
POLL = 0.1  # seconds a listening shard waits for a message before it polls again


class WatchedPubSub(PubSub):
    """redis-py's listening connection, which tells its shard when it is made again: redis-py
    reconnects by itself and subscribes again, but what was published meanwhile is lost. (Its
    connect callback is registered once the first connection is made, so every call of it is
    a reconnection.)"""

    def __init__(self, pool: Any, *, shard: Shard) -> None:
        super().__init__(pool)
        self.shard = shard

    async def on_connect(self, connection: Any) -> None:
        self.shard.lose("reconnected")
        await super().on_connect(connection)


class Shard(RedisSingleShardConnection):
    """One Redis server's connection, listening; on a loss it tells every local channel."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self.closing: set[asyncio.Future[None]] = set()

    def _ensure_redis(self) -> None:
        if self._redis is None:
            pool = create_pool(self.host)
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = WatchedPubSub(pool, shard=self)

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub is not None and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True,
                                                             timeout=POLL)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(POLL)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:  # the connection to Redis is gone
                self.lose(repr(exc))
                await asyncio.sleep(POLL)

    def lose(self, why: str) -> None:
        """Forget the connection and its subscriptions, and close every local socket."""
        logger.warning("lost Redis (%s): every socket of this process reconnects", why)
        old, self._redis, self._pubsub, self._subscribed_to = self._redis, None, None, set()
        if old is not None:
            closing = asyncio.ensure_future(_close_quietly(old))
            self.closing.add(closing)
            closing.add_done_callback(self.closing.discard)
        self.channel_layer.tell_every_channel(LOST)


async def _close_quietly(client: Any) -> None:
    with contextlib.suppress(Exception):
        await client.aclose(close_connection_pool=True)


class LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [Shard(shard.host, self) for shard in self._shards]

    def tell_every_channel(self, message: dict[str, Any]) -> None:
        data = self.channel_layer.serialize(message)
        for queue in self.channels.values():
            queue.put_nowait(data)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` whose per-loop layer is :class:`LoopLayer`."""

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        if loop not in self._layers:
            self._layers[loop] = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return self._layers[loop]
