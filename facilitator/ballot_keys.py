"""Where a bag's key lives while the bag is open: in memory only, never on disk.

A bag's key is made when the bag opens and destroyed when it is counted (or discarded). The
database keeps only a *fingerprint* of it and the *store* that holds it, so nobody who copies
the database files can unseal a ballot (``facilitator.sealing``).

- ``MemoryKeyStore`` (classroom mode: one daphne process on the teacher's laptop): the keys
  live in this process. Only a serving process may declare a key lost: a shell, a management
  command or any other process has no keys, and must never reopen a bag for that reason.
  ``stateinclass.asgi`` marks the server's process as serving; the tests mark theirs.
- ``RedisKeyStore`` (several daphne processes, ``REDIS_URL``): the keys live in Redis, which
  must not save them to disk (no RDB ``save``, no AOF) nor evict them (``noeviction`` or a
  ``volatile-*`` policy: the keys have no expiry). Every process sees the same keys, so any
  of them may declare one lost. Redis' own ``store`` id (a random value set when the first key
  is made) changes when Redis restarts empty: keys made under another id are gone.

A key is lost when its store no longer has it: the server process (memory) or Redis was
restarted while the bag was open. The services then reopen that bag empty and ask its phones
to vote again (``facilitator.bags``): never a wrong tally, never a link.
"""

from __future__ import annotations

import logging
import secrets
import threading
from functools import lru_cache
from typing import Any, Protocol

from django.conf import settings

logger = logging.getLogger(__name__)
KEY_PREFIX = "sic:ballots:key:"
STORE_ID_KEY = "sic:ballots:store"


class UnsafeKeyStore(Exception):
    """The key store would write ballot keys to disk or evict them."""


class StoreDown(Exception):
    """The key store does not answer (Redis is down or restarting)."""


class KeyStore(Protocol):
    def store_id(self) -> str: ...

    def may_declare_lost(self) -> bool: ...

    def put(self, name: str, key: bytes) -> None: ...

    def get(self, name: str) -> bytes | None: ...

    def delete(self, name: str) -> None: ...


class MemoryKeyStore:
    """This process's keys. ``serving`` says whether this process serves the lesson."""

    def __init__(self) -> None:
        self._id = secrets.token_hex(8)
        self._keys: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self.serving = False

    def store_id(self) -> str:
        return f"memory:{self._id}"

    def may_declare_lost(self) -> bool:
        return self.serving

    def put(self, name: str, key: bytes) -> None:
        with self._lock:
            self._keys[name] = key

    def get(self, name: str) -> bytes | None:
        with self._lock:
            return self._keys.get(name)

    def delete(self, name: str) -> None:
        with self._lock:
            self._keys.pop(name, None)

    def forget_all(self) -> None:
        """As if this process had restarted (tests): every key gone, a new store id."""
        with self._lock:
            self._keys.clear()
            self._id = secrets.token_hex(8)


class RedisKeyStore:
    """Every call either answers or raises ``StoreDown``: never a key taken for lost because
    Redis did not answer."""

    def __init__(self, url: str) -> None:
        # Redis is loaded only where ballot keys live in it (REDIS_URL), never in a classroom.
        import redis  # noqa: PLC0415
        from redis.backoff import NoBackoff  # noqa: PLC0415
        from redis.retry import Retry  # noqa: PLC0415

        # One retry on a broken connection: after Redis restarts, the pool's first socket is
        # dead, and the second try reaches the new server (which may have lost the keys).
        self._client: Any = redis.Redis.from_url(
            url, socket_timeout=5, socket_connect_timeout=5, retry=Retry(NoBackoff(), 1),
            retry_on_error=[redis.ConnectionError, redis.TimeoutError])
        self._errors = (redis.RedisError, OSError)
        self._checked = False

    def store_id(self) -> str:
        try:
            self._check_safe()
            current = self._client.get(STORE_ID_KEY)
            if current is None:
                self._client.set(STORE_ID_KEY, secrets.token_hex(8), nx=True)
                current = self._client.get(STORE_ID_KEY)
        except self._errors as exc:
            raise StoreDown(str(exc)) from None
        return f"redis:{current.decode()}"

    def may_declare_lost(self) -> bool:
        return True

    def put(self, name: str, key: bytes) -> None:
        try:
            self._check_safe()
            self._client.set(KEY_PREFIX + name, key)
        except self._errors as exc:
            raise StoreDown(str(exc)) from None

    def get(self, name: str) -> bytes | None:
        try:
            value = self._client.get(KEY_PREFIX + name)
        except self._errors as exc:
            raise StoreDown(str(exc)) from None
        return bytes(value) if value is not None else None

    def delete(self, name: str) -> None:
        try:
            self._client.delete(KEY_PREFIX + name)
        except self._errors:
            # A key that could not be deleted names a bag that is counted or gone; it opens
            # nothing stored (its sealed ballots are deleted with the count).
            logger.warning("could not delete a counted bag's key from Redis")

    def _check_safe(self) -> None:
        if self._checked:
            return
        problems = redis_persistence_problems(self._client)
        if problems:
            raise UnsafeKeyStore("; ".join(problems))
        self._checked = True


def redis_persistence_problems(client: Any) -> list[str]:
    """Why this Redis would keep ballot keys on disk or drop them ([] when it is safe).

    A Redis that refuses CONFIG (some managed services do) cannot be checked: that is logged,
    and the operator's word (README, Production) is taken for it.
    """
    import redis  # noqa: PLC0415  (loaded only where ballot keys live in Redis)

    try:
        save = client.config_get("save").get("save", "")
        appendonly = client.config_get("appendonly").get("appendonly", "no")
        policy = client.config_get("maxmemory-policy").get("maxmemory-policy", "noeviction")
    except redis.ResponseError:
        logger.warning("Redis refuses CONFIG GET: cannot check that it keeps ballot keys off "
                       "disk (see README, Production)")
        return []
    problems = []
    if save.strip():
        problems.append(f"Redis saves snapshots to disk (save {save!r}); set save \"\"")
    if appendonly == "yes":
        problems.append("Redis writes an append-only file; set appendonly no")
    if policy.startswith("allkeys-"):
        problems.append(f"Redis may evict any key (maxmemory-policy {policy}); use "
                        "noeviction or a volatile-* policy")
    return problems


_memory = MemoryKeyStore()


@lru_cache(maxsize=4)
def _redis_store(url: str) -> RedisKeyStore:
    return RedisKeyStore(url)


def key_store() -> KeyStore:
    """The store of this deployment: Redis with ``REDIS_URL``, else this process's memory."""
    url = getattr(settings, "REDIS_URL", "")
    return _redis_store(url) if url else _memory


def memory_store() -> MemoryKeyStore:
    return _memory


def serve() -> None:
    """This process serves lessons: with the memory store, it may declare keys lost."""
    _memory.serving = True
