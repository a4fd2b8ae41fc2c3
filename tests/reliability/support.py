"""Small helpers shared by the reliability tests."""

from __future__ import annotations

from django.core.cache import cache


def cache_contents() -> list[str]:
    """Every key and value in the default cache (local memory, or Redis in CI), as text."""
    store = cache._cache  # type: ignore[attr-defined]
    if isinstance(store, dict):  # LocMemCache
        return [f"{key} {value!r}" for key, value in store.items()]
    client = store.get_client()  # RedisCache: the raw Redis keys (with the key prefix)
    return [f"{key!r} {client.get(key)!r}" for key in client.keys("*")]
