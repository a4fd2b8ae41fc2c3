import pytest

from tests.support import require_chromium, require_postgres, require_redis

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
