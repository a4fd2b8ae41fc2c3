"""Per-client counters in the cache, without storing the client's address.

A counter's key is a keyed hash of the address, what is counted and the current minute; it
lives in the cache for two minutes and nowhere else (nothing about a student's device is
written to the database). Counted (limits in settings, reasons in docs/architecture.md):

- ``join-fail``: wrong join codes (guessing), ``JOIN_ATTEMPTS_PER_MINUTE``;
- ``login-fail``: failed teacher logins, ``LOGIN_FAILURES_PER_MINUTE``;
- ``join-new:<lesson>``: seats one address made in one lesson, the lesson's class size plus
  ``JOIN_NEW_SEATS_MARGIN`` a minute.

The limits are brakes, not locks: when the cache is down (Redis restarting) nothing is
counted and nobody is refused.
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
WINDOW = 60  # seconds a counter counts for
LIFETIME = 120  # seconds a counter stays in the cache


def client_key(request: HttpRequest) -> str:
    address = request.META.get("REMOTE_ADDR", "")
    digest = hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _key(request: HttpRequest, what: str) -> str:
    return f"{what}:{client_key(request)}:{int(time.time() // WINDOW)}"


def reached(request: HttpRequest, what: str, limit: int) -> bool:
    """True if this client has been counted ``limit`` times for ``what`` this minute."""
    try:
        return (cache.get(_key(request, what)) or 0) >= limit
    except Exception as exc:  # the cache (Redis) is down or restarting
        # A join during a Redis restart is not refused: without its counter, the request goes
        # on (the code, the password, the class size are still checked).
        logger.warning("rate limit unavailable: %r", exc)
        return False


def count(request: HttpRequest, what: str) -> None:
    key = _key(request, what)
    try:
        if not cache.add(key, 1, timeout=LIFETIME):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=LIFETIME)
    except Exception as exc:  # see reached
        logger.warning("rate limit unavailable: %r", exc)


def too_many_failures(request: HttpRequest) -> bool:
    """Wrong join codes: too many from this address this minute."""
    return reached(request, "join-fail", settings.JOIN_ATTEMPTS_PER_MINUTE)


def record_failure(request: HttpRequest) -> None:
    count(request, "join-fail")
