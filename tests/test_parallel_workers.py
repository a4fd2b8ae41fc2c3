"""Parallel test workers (pytest-xdist) never share Redis data or a server port (tests/support.py).

Their SQLite and PostgreSQL test databases are separate already: pytest-django suffixes the
test database's name with the worker (``_gw0``), and the SQLite file's name carries the pid.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection

from tests import support


def test_each_worker_has_a_redis_database_of_its_own():
    url = "redis://:secret@cache.local:6380/0?socket_timeout=5"
    assert support.worker_redis_url(url, 0) == "redis://:secret@cache.local:6380/1?socket_timeout=5"
    assert support.worker_redis_url(url, 3) == "redis://:secret@cache.local:6380/4?socket_timeout=5"
    assert support.worker_redis_url("redis://127.0.0.1:6379", 1) == "redis://127.0.0.1:6379/2"
    with pytest.raises(pytest.UsageError, match="At most 15 test workers"):
        support.worker_redis_url(url, 15)


def test_workers_own_disjoint_port_ranges_below_the_kernels_ephemeral_ports():
    ranges = [support.worker_ports(n) for n in (None, 0, 1, 2)]
    assert ranges[0] == ranges[1]  # a run without workers uses worker 0's
    assert set(ranges[1]).isdisjoint(ranges[2]) and set(ranges[2]).isdisjoint(ranges[3])
    ephemeral = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    low = int(ephemeral[0])
    assert max(ranges[3]) < low


def test_free_port_gives_a_different_port_of_this_workers_range_each_time():
    ports = [support.free_port() for _ in range(5)]
    assert len(set(ports)) == 5
    assert set(ports) <= set(support.worker_ports(support.xdist_worker()))
    own = support.worker_ports(support.xdist_worker())
    following = own[support._port_offset % len(own)]  # the one the next call would try first
    with socket.socket() as taken:  # a port something listens on is never given
        taken.bind(("127.0.0.1", following))
        taken.listen()
        assert following not in [support.free_port() for _ in range(3)]


@pytest.mark.redis
def test_this_worker_sends_everything_redis_to_its_own_database(redis_url: str):
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"]
    cache = settings.CACHES["default"]["LOCATION"]
    assert layer == cache == settings.REDIS_URL == os.environ["REDIS_URL"] == redis_url
    worker = support.xdist_worker()
    if worker is not None:
        assert urlsplit(redis_url).path == f"/{worker + 1}"


@pytest.mark.django_db
def test_this_worker_has_a_test_database_of_its_own():
    name = str(connection.settings_dict["NAME"])
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    assert name.endswith(f"_{worker}") if worker else "_gw" not in name
