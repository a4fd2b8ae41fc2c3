"""Join-code guessing is rate-limited per client address, without storing the address.

The counter key is a keyed hash of the address and the current minute; it lives in the cache
for two minutes and nowhere else (nothing about a student's device is written to the database).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger(__name__)


def client_key(request: HttpRequest) -> str:
    address = request.META.get("REMOTE_ADDR", "")
    digest = hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _key(request: HttpRequest) -> str:
    return f"join-fail:{client_key(request)}:{int(time.time() // 60)}"


def too_many_failures(request: HttpRequest) -> bool:
    try:
        return (cache.get(_key(request)) or 0) >= settings.JOIN_ATTEMPTS_PER_MINUTE
    except Exception as exc:  # the cache (Redis) is down or restarting
        # Fix: a join during a Redis restart answered 500. The limit is a brake on guessing,
        # not a lock: without its counter, let the join go on (the code is still checked).
        logger.warning("join rate limit unavailable: %r", exc)
        return False


def record_failure(request: HttpRequest) -> None:
    key = _key(request)
    try:
        if not cache.add(key, 1, timeout=120):
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, timeout=120)
    except Exception as exc:  # see too_many_failures
        logger.warning("join rate limit unavailable: %r", exc)
