import os

import pytest

from tests.support import require_chromium, require_postgres, require_redis

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread for as long as its browser lives (STACK.md trap 5), and async tests collected after
    it could not start their own loop."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
