"""Browser tests that drive a lesson's database from their own thread.

Playwright's sync API runs an event loop in the test's thread, where Django refuses database
calls. The lesson is driven from one thread of its own (``db``), and the module's test
database is emptied afterwards in the test's thread, told that it is safe there
(``database_after_the_browser``: import it into the test module, where it applies itself).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

T = TypeVar("T")
DB = ThreadPoolExecutor(max_workers=1)  # the lesson's database calls, off Playwright's loop


def db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the lesson's own database thread."""
    return DB.submit(fn, *args, **kwargs).result()


@pytest.fixture(scope="module", autouse=True)
def database_after_the_browser() -> Iterator[None]:
    """The test database is emptied in the test's thread, where Playwright's loop runs."""
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "1"
    yield
    if before is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before
