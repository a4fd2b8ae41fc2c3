"""``manage.py check --deploy``: the Redis that holds ballot keys must keep them off disk."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Warning, register

from facilitator import ballot_keys


@register(deploy=True)
def ballot_keys_stay_in_memory(app_configs: Any = None, **kwargs: Any) -> list[Any]:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return []
    import redis  # noqa: PLC0415  (loaded only by a deploy check with REDIS_URL)

    try:
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        problems = ballot_keys.redis_persistence_problems(client)
    except (redis.RedisError, OSError) as exc:
        return [Warning(f"Cannot reach Redis to check it keeps ballot keys off disk: {exc}",
                        id="facilitator.W001")]
    return [Error(f"Ballot keys would not stay in memory: {p}.",
                  hint="See README, Production, and docs/secrecy.md.", id="facilitator.E001")
            for p in problems]
