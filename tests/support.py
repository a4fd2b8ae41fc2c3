"""Services some tests need: they FAIL when CI=true and are missing, and skip elsewhere.

Use the markers (see conftest.py) or call the helpers at the top of a test:

    @pytest.mark.redis
    def test_something(redis_url: str) -> None: ...

    def test_other() -> None:
        chromium = require_chromium()

Parallel workers (pytest-xdist, docs/testing.md): each worker gets its own Redis database
(``worker_redis_url``) and its own range of loopback ports (``free_port``), set up by
``isolate_worker`` from tests/conftest.py before any test runs.
"""

import os
import random
import shutil
import socket
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

# Test servers listen on ports below Linux's ephemeral range (32768-60999), so the kernel never
# hands one of them to another socket; each worker owns its own slice of them.
PORTS_START = 20000
PORTS_PER_WORKER = 400
REDIS_DATABASES = 16  # redis-server's default `databases`


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require(available: bool, reason: str) -> None:
    """Skip the running test with `reason`, or fail it under CI=true, unless `available`."""
    if available:
        return
    if in_ci():
        pytest.fail(f"{reason} (required when CI=true)", pytrace=False)
    pytest.skip(reason)


def require_postgres() -> None:
    url = os.environ.get("DATABASE_URL", "")
    require(
        url.startswith(("postgres://", "postgresql://")),
        "needs PostgreSQL: set DATABASE_URL=postgres://...",
    )


def require_redis() -> str:
    """The reachable REDIS_URL."""
    url = os.environ.get("REDIS_URL", "")
    require(bool(url), "needs Redis: set REDIS_URL=redis://...")
    try:
        with redis.Redis.from_url(url, socket_timeout=3) as client:
            client.ping()
    except redis.RedisError as error:
        require(False, f"needs Redis: {url} does not answer ({error})")
    return url


def require_chromium() -> str:
    """The path of the Chromium binary (CHROMIUM, or `chromium` on PATH)."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium")
    require(path is not None, "needs Chromium: apt-get install chromium")
    assert path is not None
    return path


def xdist_worker() -> int | None:
    """This process's pytest-xdist worker number (``gw3`` → 3); None outside xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else None


def worker_redis_url(url: str, worker: int) -> str:
    """``url`` with the Redis database of worker ``worker``: database ``worker + 1`` (a run
    without workers keeps the URL's own, usually 0), so two workers never share a channel
    group, a message or a cache key."""
    database = worker + 1
    if database >= REDIS_DATABASES:
        raise pytest.UsageError(
            f"At most {REDIS_DATABASES - 1} test workers can each have a Redis database of "
            f"their own: run with fewer (make test TEST_WORKERS={REDIS_DATABASES - 1}).")
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


def worker_ports(worker: int | None) -> range:
    """The loopback ports that test servers of this worker (or of a run without workers) use."""
    start = PORTS_START + (worker or 0) * PORTS_PER_WORKER
    return range(start, start + PORTS_PER_WORKER)


_port_offset = random.SystemRandom().randrange(PORTS_PER_WORKER)


def free_port(host: str = "127.0.0.1") -> int:
    """A port of this worker's range that nothing listens on now (the next one each call,
    starting at a random one, so that two test runs side by side rarely try the same)."""
    global _port_offset
    ports = worker_ports(xdist_worker())
    for _ in ports:
        port = ports[_port_offset % len(ports)]
        _port_offset += 1
        with socket.socket() as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1} on {host}")


def isolate_worker(settings: Any) -> None:
    """Point this worker's Redis settings, and the environment its subprocesses inherit, at
    its own Redis database. Runs before any channel layer or cache is created; anything that
    talks to Redis must take its address from these settings or from ``REDIS_URL``."""
    worker = xdist_worker()
    shared = os.environ.get("REDIS_URL", "")
    if worker is None or not shared:
        return
    own = worker_redis_url(shared, worker)
    os.environ["REDIS_URL"] = own
    settings.REDIS_URL = own
    for layer in settings.CHANNEL_LAYERS.values():
        for host in layer.get("CONFIG", {}).get("hosts", []):
            if isinstance(host, dict) and host.get("address") == shared:
                host["address"] = own
    for cache in settings.CACHES.values():
        if cache.get("LOCATION") == shared:
            cache["LOCATION"] = own
