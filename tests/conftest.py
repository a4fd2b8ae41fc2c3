import os
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from facilitator import clock
from tests.support import isolate_worker, require_chromium, require_postgres, require_redis

# The browser fixtures (server, browser, teacher, phones) live in one module, registered once.
pytest_plugins = ["tests.e2e.fixtures"]

# A test carrying one of these markers needs the service: skipped without it, failed under CI.
MARKER_REQUIREMENTS = {
    "postgres": require_postgres,
    "redis": require_redis,
    "e2e": require_chromium,
}


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, requirement in MARKER_REQUIREMENTS.items():
        if item.get_closest_marker(marker):
            requirement()


@pytest.fixture
def redis_url() -> str:
    return require_redis()


@pytest.fixture
def chromium_path() -> str:
    return require_chromium()


def pytest_configure(config: pytest.Config) -> None:
    """No persistent database connections in tests (the server keeps them, see settings):
    a connection left open in a worker thread would keep the test database busy when it is
    dropped at the end. (Before any connection is made; the dicts are the connections'.)"""
    from django.conf import settings

    for database in settings.DATABASES.values():
        database["CONN_MAX_AGE"] = 0
    # The suite reads the data behind every pushed screen (``view`` frames' ``view``), in
    # this process and in the servers it starts (they inherit the environment).
    settings.LIVE_VIEW_DATA = True
    os.environ["LIVE_VIEW_DATA"] = "1"
    # The tests drive lessons through the services in this process: it serves them, and
    # holds their ballot keys (with the in-memory key store).
    from facilitator import ballot_keys

    ballot_keys.serve()
    # Under pytest-xdist each worker has its own Redis database (tests/support.py); its
    # SQLite and PostgreSQL test databases are its own already (pytest-django adds _gw0...).
    isolate_worker(settings)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread for as long as its browser lives (docs/architecture.md, "Traps in the stack"), and
    async tests collected after it could not start their own loop.

    Under pytest-xdist (``make test``: ``--dist loadscope --no-loadscope-reorder``) a worker
    takes whole modules, in this order, so it runs its share in this order too; the tests of
    a module share its module-scoped fixtures (and their state) as in a serial run. There:

    - the slow tests that are not browser tests go first, so that the longest (1,000 random
      games, minutes) does not start last and run alone at the end;
    - a module that held both browser and other tests would leave a worker running other
      tests after its browser tests: it is refused (split the module)."""
    parallel = hasattr(config, "workerinput")

    def order(item: pytest.Item) -> tuple[bool, bool]:
        e2e = item.get_closest_marker("e2e") is not None
        return e2e, not (parallel and item.get_closest_marker("slow") is not None)

    items.sort(key=order)
    kinds: dict[str, set[bool]] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        kinds.setdefault(module, set()).add(item.get_closest_marker("e2e") is not None)
    mixed = sorted(module for module, seen in kinds.items() if len(seen) > 1)
    if mixed:
        raise pytest.UsageError(f"{', '.join(mixed)}: a module holds either browser (e2e) "
                                "tests or none, so that parallel workers run them last.")


@pytest.fixture(autouse=True)
def english_unless_a_test_says_otherwise() -> Any:
    """Every test starts in the site's default language: a test (or a service it runs) that
    activated Spanish in this thread must not leave it on for the next test."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move the server's clock: ``at(seconds)`` puts it that many seconds after the test's
    start (a module that also moves what its record stores overrides this fixture)."""
    start = clock.now()

    def move(seconds: float) -> None:
        monkeypatch.setattr("facilitator.clock.now", lambda: start + timedelta(seconds=seconds))
    move(0)
    return move
