"""Services some tests need: they FAIL when CI=true and are missing, and skip elsewhere.

Use the markers (see conftest.py) or call the helpers at the top of a test:

    @pytest.mark.redis
    def test_something(redis_url: str) -> None: ...

    def test_other() -> None:
        chromium = require_chromium()
"""

import os
import shutil

import pytest
import redis


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
