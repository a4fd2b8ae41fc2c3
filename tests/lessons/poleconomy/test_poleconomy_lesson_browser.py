"""Poleconomy's projector fits one screen at 1920×1080 and 1280×720 at every stage of a round
(six players, the most a table holds), in a real browser; the phone's screens and the game
master's page are photographed too (``artifacts/poleconomy/``, looked at by hand).

The lesson is driven through the services and served by the in-process live server: pages
only, no sockets, so the screenshots hide the "Reconnecting…" banner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from facilitator import ballot_keys, services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.poleconomy import script
from facilitator.lessons.poleconomy import services as pol
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Table
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.e2e.live import PHONE
from tests.facilitator.lesson import deterministic, fresh, join

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "poleconomy"
SIZES = {"1920": (1920, 1080), "1280": (1280, 720)}
PASSWORD = "pol-browser-2026"


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)
    ballot_keys.serve()


def fits(page: Page) -> tuple[int, int, int, int]:
    return page.evaluate("() => [document.documentElement.scrollWidth, innerWidth,"
                         " document.documentElement.scrollHeight, innerHeight]")


class Shots:
    def __init__(self, browser: Browser, base: str, session: ClassSession, teacher: Any,
                 tokens: dict[str, str]) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.browser, self.base, self.session, self.tokens = browser, base, session, tokens
        self.pages: dict[str, Page] = {}
        for name, (w, h) in SIZES.items():
            context = browser.new_context(base_url=base, viewport={"width": w, "height": h},
                                          bypass_csp=True)
            page = context.new_page()
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill(teacher.username)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url("**/teacher/")
            self.pages[name] = page
        self.too_big: list[str] = []

    def projector(self, label: str) -> None:
        for name, page in self.pages.items():
            page.goto(f"/teacher/lessons/{self.session.pk}/")
            assert "/accounts/login" not in page.url
            page.add_style_tag(content="#connection { display: none !important; }")
            page.screenshot(path=str(SHOTS / f"projector-{label}-{name}.png"))
            width, inner_w, height, inner_h = fits(page)
            if width > inner_w or height > inner_h:
                self.too_big.append(f"{label} at {name}: {width}×{height}")

    def master(self, label: str) -> None:
        page = self.pages["1920"]
        page.goto(f"/teacher/lessons/{self.session.pk}/poleconomy/master/")
        page.screenshot(path=str(SHOTS / f"master-{label}.png"), full_page=True)

    def phone(self, nickname: str, label: str) -> Page:
        context = self.browser.new_context(base_url=self.base, bypass_csp=True, **PHONE)
        context.add_cookies([{"name": SEAT_COOKIE, "value": self.tokens[nickname],
                              "url": self.base}])
        page = context.new_page()
        page.goto("/play/")
        page.add_style_tag(content="#connection { display: none !important; }")
        page.screenshot(path=str(SHOTS / f"phone-{label}.png"), full_page=True)
        return page


def test_the_projector_fits_one_screen_at_every_stage_of_a_round(
        django_db_setup: Any, live_server: Any, browser: Browser) -> None:
    from django.contrib.auth import get_user_model

    def create() -> tuple[Any, ClassSession, dict[str, str]]:
        teacher = get_user_model().objects.create_user("pol-teacher", password=PASSWORD)
        session = services.session_create(owner=teacher, game="poleconomy", options={})
        return teacher, session, join(session, 5)

    teacher, session, tokens = db(create)
    shots = Shots(browser, live_server.url, session, teacher, tokens)
    shots.projector("lobby")
    db(lambda: services.session_start(session=fresh(session), fill="bots", seed=5))
    table = db(Table.objects.get, session=session)
    names = table.config["players"]

    def advance() -> None:
        db(lambda: services.session_advance(confirm=True, session=fresh(session),
                                            expected=fresh(session).stage_id))

    shots.projector("parties")
    shots.phone(next(n for n in names if n in tokens), "parties")
    db(lambda: pol.master_parties(session=fresh(session), table=1,
                                  declared={"Blues": names[:2], "Reds": names[2:4]}))
    shots.master("parties")
    advance()
    shots.projector("government")

    def government() -> None:
        state = load_state(Table.objects.get(pk=table.pk))
        if state.phase == "government" and not state.election["majority"]:
            ranked = sorted(state.election["blocs"], key=lambda b: -b["votes"])
            members = ranked[0]["members"] + ranked[1]["members"]
            pol.master_government(session=fresh(session), table=1, members=members,
                                  pm=members[0])

    db(government)
    shots.master("government")
    advance()
    assert db(fresh, session).stage == script.PROPOSAL

    def propose() -> tuple[Any, bool]:
        state = load_state(Table.objects.get(pk=table.pk))
        pm_seat = table.seats.get(player_name=state.pm)
        others = [n for n in names if n != state.pm]
        if not pm_seat.is_bot:
            pol.proposal_write(seat_id=pm_seat.pk, items={
                "salaries": {"pm": 15}, "tax": {"per_company": 3, "companies_at_least": 2},
                "payments": [{"to": others[0], "amount": 5}]},
                press_release="Better roads for every town",
                expected=fresh(session).stage_id)
        return pm_seat, pm_seat.is_bot

    pm_seat, pm_is_bot = db(propose)
    if not pm_is_bot:
        shots.phone(pm_seat.nickname, "proposal")
    shots.projector("proposal")
    advance()

    def student_of() -> Any:
        return next(s for s in table.seats.filter(is_bot=False).order_by("position")
                    if s.player_name != pm_seat.player_name)

    student = db(student_of)
    shots.phone(student.nickname, "orders")

    def send() -> None:
        pol.orders_send(seat_id=student.pk, orders={"move": {"corner": "bonds", "act": True},
                                                    "corners": {"bonds": 2},
                                                    "buy": {"companies": True}},
                        expected=fresh(session).stage_id)
        bag = Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()
        if bag is not None:
            services.ballot_cast(seat_id=student.pk, decision=bag.decision, option="yes",
                                 expected=fresh(session).stage_id)
            pol.master_press(session=fresh(session), table=1)

    db(send)
    shots.phone(student.nickname, "orders-sent").close()
    shots.projector("orders")
    shots.master("orders")
    advance()
    beats = db(lambda: len(script.beats(load_state(Table.objects.get(pk=table.pk)), 1)))
    shots.projector("replay-1")
    for n in range(2, beats + 1):
        advance()
        shots.projector(f"replay-{n}")
    advance()
    shots.projector("next-round")
    assert shots.too_big == []


@pytest.mark.parametrize("students", [12, 14])
def test_two_tables_of_six_or_three_tables_fit_one_screen_at_every_stage(
        students: int, django_db_setup: Any, live_server: Any, browser: Browser) -> None:
    from django.contrib.auth import get_user_model

    def create() -> tuple[Any, ClassSession, dict[str, str]]:
        teacher = get_user_model().objects.create_user(f"pol-teacher-{students}",
                                                       password=PASSWORD)
        session = services.session_create(owner=teacher, game="poleconomy", options={})
        tokens = join(session, students)
        services.session_start(session=fresh(session), seed=9)
        return teacher, session, tokens

    teacher, session, tokens = db(create)
    shots = Shots(browser, live_server.url, session, teacher, tokens)

    def advance() -> None:
        services.session_advance(confirm=True,
                                 session=fresh(session), expected=fresh(session).stage_id)

    def governments() -> None:
        for table in Table.objects.filter(session=session):
            state = load_state(table)
            if state.phase == "government" and not state.election["majority"]:
                ranked = sorted(state.players, key=lambda p: -p.votes)
                members, total = [], 0
                for p in ranked:
                    members.append(p.name)
                    total += p.votes
                    if 2 * total > state.total_votes:
                        break
                pol.master_government(session=fresh(session), table=table.number,
                                      members=members, pm=members[0])

    tables = db(Table.objects.filter(session=session).count)
    assert tables == (2 if students == 12 else 3)
    label = f"{tables}-tables"
    shots.projector(f"{label}-parties")
    advance()
    shots.projector(f"{label}-government")
    db(governments)
    advance()
    assert db(fresh, session).stage == script.PROPOSAL
    shots.projector(f"{label}-proposal")
    advance()
    shots.projector(f"{label}-orders")
    advance()
    shots.projector(f"{label}-replay-1")
    advance()
    shots.projector(f"{label}-replay-2")
    assert shots.too_big == []
