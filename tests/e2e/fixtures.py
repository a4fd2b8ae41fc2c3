"""Browser tests: a real daphne server (a subprocess with its own SQLite file, see live.py) and
Debian's Chromium driven by Playwright. Everything a test does goes through the pages, as a
teacher or a student would: clicks, typing, keys.

Registered once, by tests/conftest.py (``pytest_plugins``), and shared by tests/e2e and
tests/i18n: a second registration would start a second Playwright inside the first one's loop.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.e2e import ui
from tests.e2e.live import CHROMIUM_FLAGS, PHONE, PROJECTOR, running_server

# The lesson reacts within a second; the slack is for a 2-core machine running 20 browsers.
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def chromium_session() -> str:
    from tests.support import require_chromium

    return require_chromium()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_session: str) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("e2e")) as url:
        yield url


@pytest.fixture(scope="session")
def austerity_server(tmp_path_factory: pytest.TempPathFactory,
                     chromium_session: str) -> Iterator[str]:
    """A server of the Austerity runs' own (their lessons do not crowd the other tests')."""
    with running_server(tmp_path_factory.mktemp("e2e-austerity")) as url:
        yield url


@pytest.fixture(scope="session")
def browser(chromium_session: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_session,
                                             args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


def watch_offsite(context: BrowserContext, offsite: list[str]) -> None:
    """Note every request (and websocket) that would leave 127.0.0.1: there must be none."""

    def note(url: str) -> None:
        if urlsplit(url).hostname not in ("127.0.0.1", None):
            offsite.append(url)

    context.on("request", lambda request: note(request.url))
    context.on("page", lambda page: page.on("websocket", lambda socket: note(socket.url)))


@pytest.fixture
def offsite() -> list[str]:
    """Requests of this test's browsers to anywhere but the test server (tests assert: none)."""
    return []


@pytest.fixture
def teacher(browser: Browser, server: str, offsite: list[str]) -> Iterator[Page]:
    """The teacher's laptop on the projector (1600×900), logged in, on the dashboard."""
    context = browser.new_context(base_url=server, **PROJECTOR)
    watch_offsite(context, offsite)
    page = context.new_page()
    ui.log_in(page)
    yield page
    context.close()


class Phones:
    """Phone-sized browser contexts; each is one student's phone with its own cookies."""

    def __init__(self, browser: Browser, server: str, offsite: list[str]) -> None:
        self.browser, self.server, self.offsite = browser, server, offsite
        self.contexts: list[BrowserContext] = []

    def new(self) -> Page:
        context = self.browser.new_context(base_url=self.server, **PHONE)
        watch_offsite(context, self.offsite)
        self.contexts.append(context)
        return context.new_page()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def phones(browser: Browser, server: str, offsite: list[str]) -> Iterator[Phones]:
    factory = Phones(browser, server, offsite)
    yield factory
    factory.close()
