"""The debrief's "¿Y si hubiéramos…?" in Spanish, in the browser, for each module: from the
debrief page the teacher opens a finished lesson's what-if, picks a decision and another
answer with the page's own selects (no script), and sees both lines side by side on the
module's charts, the differences in sentences and the turning points with a question each,
all in Spanish, axe-clean, one screen at 1920×1080 and 1280×720.

The lessons are built through the services (tests/lessons/whatif_support.py) and served by
the in-process live server (pages only). Screenshots in ``artifacts/whatif-es/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from facilitator.reports import whatif as whatifs
from tests.e2e import ui
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.i18n.conftest import compile_catalogue
from tests.lessons.whatif_support import GAMES, finished

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "whatif-es"
SIZES = {"1920": (1920, 1080), "1280": (1280, 720)}
PASSWORD = "whatif-es-2026"
# English a Spanish page must not show (the game's words are each module's own).
ENGLISH = re.compile(r"\b(What if|As played|Turning points|would have|instead of|Round|Year|"
                     r"Team|Wealth|Health|level|fund|Show|Debrief)\b")


def _lesson(game: str) -> tuple[Any, int, dict[str, Any]]:
    """A finished Spanish lesson and its first turning point (a decision whose other answer
    changes the end, so the page has differences to tell)."""
    from django.contrib.auth import get_user_model

    teacher = get_user_model().objects.create_user(f"whatif-es-{game}", password=PASSWORD)
    session = finished(game, teacher=teacher, language="es", title="¿Y si…?")
    side = whatifs.side_of(session)
    assert side is not None
    points = whatifs.table_turning_points(side, session.tables.get(number=1))
    assert points, f"the {game} lesson has turning points"
    return teacher, session.pk, points[0]


def _fits(page: Page, label: str) -> list[str]:
    wrong = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{label}-{size}.png"))
        w, h = page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        if w > width or h > height:
            wrong.append(f"{label} at {width}×{height}: {w}×{h} px")
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_lessons_what_if_and_turning_points_in_spanish_fit_the_projector(
        game: str, django_db_setup: Any, live_server: Any, browser: Browser) -> None:
    compile_catalogue()
    teacher, session_id, point = db(_lesson, game)
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280,
                                                                      "height": 720},
                                  locale="es", extra_http_headers={"Accept-Language": "es"})
    page = context.new_page()
    missing: list[str] = []  # what the page itself loads (axe's own fetches left out)
    page.on("response", lambda r: missing.append(r.url)
            if r.status >= 400 and r.request.resource_type != "xhr" else None)
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(teacher.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit].button").click()
    page.wait_for_url("**/teacher/")

    page.goto(f"/teacher/lessons/{session_id}/reports/")
    page.get_by_role("link", name="¿Y si…?").first.click()
    page.wait_for_url("**/what-if/?table=1")
    # The teacher picks the decision, shows it, then picks the other answer (a plain GET form:
    # the page has no script).
    assert page.locator("script").count() == 0
    page.get_by_label("La decisión").select_option(str(point["choice"]["index"]))
    page.get_by_role("button", name="Mostrar").click()
    page.wait_for_url(re.compile(rf"decision={point['choice']['index']}"))
    page.get_by_label("En su lugar").select_option(point["alternative"])
    page.get_by_role("button", name="Mostrar").click()
    page.wait_for_load_state()
    assert page.get_by_label("En su lugar").input_value() == point["alternative"]

    main = page.locator("main")
    headline = main.locator(".headline").inner_text()
    assert "Como se jugó:" in headline and "¿Y si…?" in headline
    charts = main.locator(".whatif-charts figure")
    assert 1 <= charts.count() <= 8
    for i in range(charts.count()):  # both lines on every chart
        chart = charts.nth(i).locator("svg")
        assert chart.locator("polyline:not([stroke-dasharray])").count() <= 1
        assert chart.locator("polyline[stroke-dasharray='7 4'], circle, polygon").count() >= 1
    sentences = main.locator(".differences li")
    assert sentences.count() >= 1
    assert "Qué habría sido distinto" in main.inner_text()
    text = main.inner_text()
    assert not ENGLISH.search(text), ENGLISH.search(text)
    assert ui.axe(page) == []
    too_big = _fits(page, f"{game}-whatif")

    page.get_by_role("link", name="Momentos decisivos").click()
    page.wait_for_url("**/turning-points/?table=1")
    points = page.locator("li.point")
    assert 1 <= points.count() <= 3
    for i in range(points.count()):
        assert "¿" in points.nth(i).locator(".question").inner_text()
    text = page.locator("main").inner_text()
    assert not ENGLISH.search(text), ENGLISH.search(text)
    assert ui.axe(page) == []
    too_big += _fits(page, f"{game}-turning")
    # A turning point's link opens its what-if side by side.
    points.first.get_by_role("link", name="Verlo lado a lado").click()
    page.wait_for_url(re.compile(r"what-if/\?table=1&decision="))
    assert page.locator(".whatif-charts figure").count() >= 1
    context.close()
    assert too_big == []
    assert missing == []
