"""Poleconomy's projector fits one screen at 1920×1080 and 1280×720, in English and Spanish,
when the Prime Minister plays last in a six-player round (their turn brings the consent, the
salaries, the Treasury's payment, the tax and the move), and the final scores show each
player's place.

Six students at one table with a stated situation (a Government, the PM seated last); the
lesson is driven through the services and served by the in-process live server (pages only).
Screenshots in ``artifacts/poleconomy-fit/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from facilitator import ballot_keys, services
from facilitator.lessons.poleconomy import options, script
from facilitator.lessons.poleconomy import services as pol
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Table
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.facilitator.lesson import deterministic, fresh, join
from tests.i18n.conftest import compile_catalogue

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "poleconomy-fit"
SIZES = {"1920": (1920, 1080), "1280": (1280, 720)}
PASSWORD = "pol-fit-2026"
WORDS = {"en": ("1st", "Final scores"), "es": ("1.º", "Puntuaciones finales")}


@pytest.fixture(autouse=True)
def pm_last(monkeypatch: pytest.MonkeyPatch) -> None:
    compile_catalogue()
    deterministic(monkeypatch)
    ballot_keys.serve()
    plain = options.table_config

    def staged(names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return {**plain(names, options_), "start": {
            "basic_incomes": dict.fromkeys(names, 6), "pm": names[-1], "first": names[0],
            "government": names[3:], "cabinet": [names[3]], "treasury": 60,
            "parties": {"Forward Together": names[3:]}}}

    monkeypatch.setattr(options, "table_config", staged)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_pms_last_turn_and_the_final_places_fit_the_projector(
        language: str, django_db_setup: Any, live_server: Any, browser: Browser) -> None:
    from django.contrib.auth import get_user_model

    def create() -> tuple[Any, ClassSession, dict[str, str]]:
        teacher = get_user_model().objects.create_user(f"pol-fit-{language}",
                                                       password=PASSWORD)
        session = services.session_create(owner=teacher, game="poleconomy",
                                           language=language, options={"rounds": 1})
        tokens = join(session, 6)
        services.session_start(session=fresh(session), seed=5)
        return teacher, session, tokens

    teacher, session, _tokens = db(create)
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = {}
    for size, (w, h) in SIZES.items():
        page = browser.new_context(
            base_url=live_server.url, viewport={"width": w, "height": h}, bypass_csp=True,
            locale=language, extra_http_headers={"Accept-Language": language}).new_page()
        page.goto("/accounts/login/")
        page.locator("input[name=username]").fill(teacher.username)
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("form button[type=submit].button").click()
        page.wait_for_url("**/teacher/")
        pages[size] = page
    too_big: list[str] = []

    def look(label: str) -> str:
        text = ""
        for size, page in pages.items():
            page.goto(f"/teacher/lessons/{session.pk}/")
            page.add_style_tag(content="#connection { display: none !important; }")
            page.screenshot(path=str(SHOTS / f"{label}-{language}-{size}.png"))
            width, inner_w, height, inner_h = page.evaluate(
                "() => [document.documentElement.scrollWidth, innerWidth,"
                " document.documentElement.scrollHeight, innerHeight]")
            if width > inner_w or height > inner_h:
                too_big.append(f"{label} at {size}: {width}×{height}")
            text = page.inner_text("main")
        return text

    def advance() -> None:
        db(lambda: services.session_advance(confirm=True, session=fresh(session),
                                            expected=fresh(session).stage_id))

    advance()  # a stated Government: no parties to form
    advance()
    assert db(fresh, session).stage == script.PROPOSAL

    def propose_and_order() -> None:
        table = Table.objects.get(session=session)
        names = table.config["players"]
        pm = table.seats.get(player_name=names[-1])
        pol.proposal_write(seat_id=pm.pk, items={
            "salaries": {"pm": 15, "ministers": {names[3]: 12}},
            "tax": {"per_company": 3, "companies_at_least": 2},
            "payments": [{"to": names[0], "amount": 5}, {"to": names[1], "amount": 5}]},
            press_release="Better roads for every town", expected=fresh(session).stage_id)
        services.session_advance(confirm=True, session=fresh(session),
                                 expected=fresh(session).stage_id)
        pol.master_press(session=fresh(session), table=1)
        bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
        for seat in table.seats.order_by("position"):
            pol.orders_send(seat_id=seat.pk, orders={
                "move": {"roll": True}, "buy": {"companies": True, "advertisers": True},
                **({"pm": {"reverse": True, "issue_bonds": 2}} if seat == pm else {})},
                expected=fresh(session).stage_id)
            services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option="yes",
                                 expected=fresh(session).stage_id)

    db(propose_and_order)
    look("orders")
    advance()  # the close: the replay's first step
    beats = db(lambda: len(script.beats(load_state(Table.objects.get(session=session)), 1)))
    for n in range(2, beats + 1):
        advance()
        look(f"replay-{n}")
    advance()
    final = look("final")
    place, heading = WORDS[language]
    assert place in final and heading in final
    assert too_big == []
