"""The teacher's other pages by keyboard only (WCAG 2.1.1, 2.4.7, 2.4.11): Tab reaches every
link, button and field of Poleconomy's game-master page, Austerity's console with its
teacher's controls opened from the keyboard (a drawer fixed at the bottom of the projector),
and a finished lesson's debrief page; each focused element shows its ring, and nothing fixed
or sticky covers it.

Pages are served by the in-process live server (no sockets: the "Reconnecting…" banner, which
a real console shows only while its connection is down, is hidden)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from facilitator import ballot_keys, services
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.e2e.test_keyboard_teacher import hidden_rings, tab_through
from tests.facilitator.lesson import deterministic, fresh, join
from tests.lessons.whatif_support import playable

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "keyboard-2026"
HIDE_BANNER = "#connection { display: none !important; }"
TABBABLE = """() => [...document.querySelectorAll(
  'a[href], button:not(:disabled), input:not([type=hidden]):not(:disabled), select, textarea,'
  + ' summary, [tabindex]:not([tabindex="-1"])')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden"
                 && !e.closest("[hidden], details:not([open]) > :not(summary)")).length"""


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)
    ballot_keys.serve()


def _lessons() -> dict[str, int]:
    teacher = get_user_model().objects.create_user("keyboard", password=PASSWORD)
    ids = {}
    with playable("poleconomy"):
        pol = services.session_create(owner=teacher, game="poleconomy", options={"rounds": 1})
        join(pol, 3)
        services.session_start(session=fresh(pol), seed=5)
    ids["poleconomy"] = pol.pk
    with playable("austerity"):
        aus = services.session_create(owner=teacher, game="austerity", options={})
        join(aus, 4)
        services.session_start(session=fresh(aus), seed=5)
    ids["austerity"] = aus.pk
    with playable("crisis"):
        crisis = services.session_create(owner=teacher, game="crisis",
                                         options={"team_size": 2, "rounds": 5,
                                                  "difficulty": "easy"})
        join(crisis, 4)
        services.session_start(session=fresh(crisis), fill="bots", seed=5)
        crisis = fresh(crisis)
        for _n in range(60):
            if crisis.stage == "final":
                break
            services.session_advance(confirm=True, session=crisis, expected=crisis.stage_id)
            crisis = fresh(crisis)
    ids["crisis"] = crisis.pk
    return ids


@pytest.fixture
def desk(browser: Browser, live_server: Any) -> Iterator[tuple[Page, dict[str, int]]]:
    ids = db(_lessons)
    context = browser.new_context(base_url=live_server.url, bypass_csp=True,
                                  viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("keyboard")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/teacher/")
    yield page, ids
    context.close()


def every_stop(page: Page) -> list[dict]:
    """Tab from the top of the page through every element it reaches (and one more)."""
    page.add_style_tag(content=HIDE_BANNER)
    page.locator("body").focus()
    count = page.evaluate(TABBABLE)
    seen = tab_through(page, count + 1)
    assert len({s["what"] for s in seen}) >= min(count, 3), (count, seen)
    return seen


def test_the_gm_page_the_austerity_drawer_and_the_debrief_by_keyboard(desk) -> None:
    page, ids = desk
    page.goto(f"/teacher/lessons/{ids['poleconomy']}/poleconomy/master/")
    expect(page.get_by_text("Game master only")).to_be_visible()
    assert hidden_rings(every_stop(page)) == []

    page.goto(f"/teacher/lessons/{ids['austerity']}/")
    drawer = page.locator("details.aus-teacher > summary")
    assert hidden_rings(every_stop(page)) == []
    drawer.focus()
    page.keyboard.press("Enter")
    expect(page.locator("details.aus-teacher")).to_have_attribute("open", "")
    seen = tab_through(page, page.evaluate(TABBABLE))
    assert len(seen) >= 5
    assert hidden_rings(seen) == []
    page.screenshot(path="artifacts/a11y-keyboard-austerity-drawer.png")

    page.goto(f"/teacher/lessons/{ids['crisis']}/reports/")
    assert hidden_rings(every_stop(page)) == []
    page.screenshot(path="artifacts/a11y-keyboard-debrief.png")
