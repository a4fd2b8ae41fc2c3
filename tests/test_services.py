"""The database, Redis and channel layer the settings select actually work."""

import asyncio

import pytest
import redis
from channels.layers import BaseChannelLayer
from django.conf import settings
from django.db import connection
from django.utils.module_loading import import_string


def configured_layer() -> BaseChannelLayer:
    """A fresh instance of the channel layer the settings select."""
    config = settings.CHANNEL_LAYERS["default"]
    return import_string(config["BACKEND"])(**config.get("CONFIG", {}))


async def close(layer: BaseChannelLayer) -> None:
    if hasattr(layer, "close_pools"):
        await layer.flush()
        await layer.close_pools()
    elif settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("PubSubChannelLayer"):
        await layer.flush()


@pytest.mark.postgres
@pytest.mark.django_db
def test_tests_run_on_postgresql_when_configured():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone()[0].startswith("test_")


@pytest.mark.redis
def test_redis_answers(redis_url: str):
    with redis.Redis.from_url(redis_url) as client:
        assert client.ping()


@pytest.mark.redis
def test_redis_url_selects_the_redis_layer():
    assert (settings.CHANNEL_LAYERS["default"]["BACKEND"]
            == "facilitator.channel_layer.PubSubChannelLayer")


async def test_channel_layer_delivers_a_burst_without_dropping():
    """Both layers drop messages silently once a channel holds `capacity` of them."""
    layer = configured_layer()
    try:
        channel = await layer.new_channel()
        for number in range(500):
            await layer.send(channel, {"type": "burst", "n": number})
        received = [(await layer.receive(channel))["n"] for _ in range(500)]
        assert received == list(range(500))
    finally:
        await close(layer)


@pytest.mark.redis
@pytest.mark.slow
async def test_redis_layer_survives_a_receive_idle_longer_than_five_seconds():
    """redis-py's default 5 s socket timeout used to kill idle receivers."""
    layer = configured_layer()
    try:
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(6)
        assert not waiting.done(), waiting
        await layer.send(channel, {"type": "late"})
        assert (await asyncio.wait_for(waiting, 5))["type"] == "late"
    finally:
        await close(layer)
