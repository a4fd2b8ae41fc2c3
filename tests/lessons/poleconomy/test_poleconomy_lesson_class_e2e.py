"""A whole Poleconomy lesson in Spanish, in a real browser, as a class plays it: the teacher
creates it on the new-lesson page (4 players per table, teams of up to 2, one bot player);
four phones join; the table seats one team of two phones, two students alone and a bot. The
election leaves no majority, so a coalition is asked from a phone and confirmed on the game
master's page; the Prime Minister (the team) proposes salaries and a Treasury payment with a
press release, approved for the projector; Parliament consents in secret from the phones;
orders go in from the phones (the teammate suggests); round 2 has an auction; the game ends
after the 2 rounds and the debrief page opens.

Every kind of screen is photographed under ``artifacts/pol-e2e/`` (the projector at 1920×1080
and 1280×720 at every beat), checked with axe-core (no serious or critical finding), for
English left over, and the projector for what it must not show (orders, an unapproved press
release, who consented). The in-process live server serves no sockets: the pages post their
forms, as phones on a network that blocks sockets do.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from facilitator import ballot_keys
from facilitator.log import load_state
from facilitator.models import ClassSession, Seat, Table
from tests.e2e import ui
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.e2e.live import PHONE
from tests.facilitator.lesson import deterministic
from tests.i18n.conftest import compile_catalogue
from tests.i18n.text import english_left, page_text

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "pol-e2e"
SIZES = {"1920": (1920, 1080), "1280": (1280, 720)}
PASSWORD = "pol-clase-2026"
NICKNAMES = ["Lucía", "Mateo", "Sofía", "Hugo"]
SEED = 3  # this seed's election leaves no majority (asserted below)
SPANISH = {"locale": "es-ES", "extra_http_headers": {"Accept-Language": "es-ES,es;q=0.9"}}


@pytest.fixture(autouse=True)
def spanish_and_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    compile_catalogue()
    deterministic(monkeypatch, SEED)
    ballot_keys.serve()


class Room:
    """The screens of the room: two projector sizes and the game master's page on the
    teacher's laptop, the phones; every screenshot is also an axe and a language check."""

    def __init__(self, browser: Browser, base: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        for old in SHOTS.glob("*.png"):
            old.unlink()
        self.browser, self.base = browser, base
        self.audit = ui.Audit("pol-e2e")
        self.english: dict[str, list[str]] = {}
        self.too_big: list[str] = []
        self.session_id = 0
        self.laptop = self.context(viewport={"width": 1920, "height": 1080})
        self.console = self.laptop.new_page()
        self.master = self.laptop.new_page()
        self.small = self.laptop.new_page()
        self.small.set_viewport_size({"width": 1280, "height": 720})
        self.phones: dict[str, Page] = {}

    def context(self, **kwargs: Any) -> BrowserContext:
        return self.browser.new_context(base_url=self.base, bypass_csp=True, **SPANISH,
                                        **kwargs)

    def check(self, page: Page, name: str, *, full_page: bool = False) -> None:
        page.add_style_tag(content="#connection { display: none !important; }")
        for _ in range(30):  # as the room sees it: once the CSS animations have run
            if page.evaluate("document.getAnimations().every(a => a.playState !== 'running')"):
                break
            page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page,
                        animations="disabled")
        self.audit.check(page, name)
        assert page.locator("html").get_attribute("lang") == "es", name
        if left := english_left(page_text(page.content())):
            self.english[name] = left

    def projector(self, beat: str) -> Page:
        """The projector at both sizes: one screen each, photographed and checked."""
        for size, page in (("1920", self.console), ("1280", self.small)):
            page.goto(f"/teacher/lessons/{self.session_id}/")
            self.check(page, f"projector-{beat}-{size}")
            width, inner_w, height, inner_h = page.evaluate(
                "() => [document.documentElement.scrollWidth, innerWidth,"
                " document.documentElement.scrollHeight, innerHeight]")
            if width > inner_w or height > inner_h:
                self.too_big.append(f"{beat} at {size}: {width}×{height}")
        return self.console

    def gm(self, label: str | None = None) -> Page:
        self.master.goto(f"/teacher/lessons/{self.session_id}/poleconomy/master/")
        if label:
            self.check(self.master, f"master-{label}", full_page=True)
        return self.master

    def phone(self, nickname: str, label: str | None = None) -> Page:
        page = self.phones[nickname]
        page.goto("/play/")
        if label:
            self.check(page, f"phone-{label}", full_page=True)
        return page

    def next(self) -> None:
        """The teacher's Next (▶); a close with orders or votes missing asks once more."""
        self.console.goto(f"/teacher/lessons/{self.session_id}/")
        self.console.locator("button[data-key=next]").click()
        if self.console.locator("[data-confirm-box]:not([hidden])").count():
            self.console.locator("button[data-key=next]").click()
        self.console.wait_for_load_state()


def test_a_spanish_lesson_with_a_team_two_students_alone_and_a_bot_to_the_debrief(
        django_db_setup: Any, live_server: Any, browser: Browser) -> None:
    from django.contrib.auth import get_user_model

    started = time.monotonic()
    teacher = db(lambda: get_user_model().objects.create_user("profe-pol", password=PASSWORD))
    room = Room(browser, live_server.url)
    console = room.console
    console.goto("/accounts/login/")
    console.get_by_label("Usuario").fill(teacher.username)
    console.get_by_label("Contraseña").fill(PASSWORD)
    console.get_by_role("button", name="Entrar").click()
    console.wait_for_url("**/teacher/")

    # The new-lesson page offers Poleconomy; the teacher sets up a mixed table.
    console.goto("/teacher/lessons/new/?game=poleconomy")
    room.check(console, "new-lesson", full_page=True)
    console.get_by_label("Título de la sesión").fill("Poleconomía 3.º B")
    console.locator("#id_language").select_option("es")
    console.locator("#id_rounds").select_option("2")
    console.locator("#id_players").select_option("4")
    console.locator("#id_bot_players").select_option("1")
    console.locator("#id_team_size").select_option("2")
    console.get_by_role("button", name="Crear y abrir la vista del proyector").click()
    console.wait_for_url("**/teacher/lessons/*/")
    room.session_id = int(console.url.rstrip("/").rsplit("/", 1)[1])
    session = db(ClassSession.objects.get, pk=room.session_id)
    assert session.options["players"] == 4 and session.options["bot_players"] == 1

    # Four phones join in Spanish.
    code = session.join_code
    for nickname in NICKNAMES:
        phone = room.context(**PHONE).new_page()
        phone.goto(f"/join/{code}/")
        if nickname == NICKNAMES[0]:
            room.check(phone, "phone-join")
        phone.get_by_label("Tu apodo").fill(nickname)
        phone.get_by_role("button", name="Entrar").click()
        expect(phone.get_by_role("heading", name=f"¡Ya estás dentro, {nickname}!")
               ).to_be_visible()
        room.phones[nickname] = phone
    room.check(room.phones["Lucía"], "phone-lobby")
    projector = room.projector("lobby")
    expect(projector.locator(".lobby .plan")).to_contain_text("2 + 1 + 1 + bot")
    room.next()  # Empezar

    def seating() -> dict[str, list[Seat]]:
        table = Table.objects.get(session_id=room.session_id)
        out: dict[str, list[Seat]] = {}
        for seat in table.seats.order_by("position"):
            out.setdefault(seat.player_name, []).append(seat)
        return out

    parties = db(seating)
    team_name = next(name for name, seats in parties.items() if len(seats) == 2)
    captain, mate = (s.nickname for s in parties[team_name])
    alone = [seats[0].nickname for seats in parties.values()
             if len(seats) == 1 and not seats[0].is_bot]
    bot = next(seats[0].nickname for seats in parties.values() if seats[0].is_bot)
    assert team_name == "Equipo 1" and len(alone) == 2 and len(parties) == 4
    names = list(parties)
    # Parties: nobody forms one; the election is rolled.
    expect(room.phone(captain, "party").get_by_role("heading", name="¿Formas un partido?")
           ).to_be_visible()
    room.projector("parties")
    room.gm("parties")
    room.next()

    def state() -> Any:
        return load_state(Table.objects.get(session_id=room.session_id))

    election = db(state)
    assert election.phase == "government" and not election.election["majority"], \
        f"seed {SEED}'s election must leave no majority"
    room.projector("election")
    # A coalition of the team and the fewest players it needs, asked from the captain's phone.
    votes = {p.name: p.votes for p in election.players}
    members = [team_name]
    for name in sorted((n for n in names if n != team_name), key=lambda n: -votes[n]):
        if 2 * sum(votes[m] for m in members) > election.total_votes:
            break
        members.append(name)
    ask = room.phone(captain, "coalition")
    ask.get_by_label("Coalición con").select_option(members[1])  # the GM may add more
    ask.get_by_label("Primer Ministro").select_option(team_name)
    ask.get_by_role("button", name="Pedírselo a tu profe").click()
    master = room.gm("coalition")
    expect(master.get_by_text(f"{team_name} pide una coalición", exact=False)).to_be_visible()
    for name in members:
        master.locator(f"input[type=checkbox][name=members][value='{name}']").check()
    master.locator("select[name=pm]").select_option(team_name)
    master.get_by_role("button", name="Confirmar este Gobierno").click()
    assert db(state).pm == team_name
    room.projector("government")
    room.next()

    # The PM's powers: salaries, a Treasury payment and its press release.
    pm = room.phone(captain, "pm-proposal")
    pm.locator("input[name=salary_pm]").fill("14")
    pm.locator("select[name=pay_to]").first.select_option(alone[0])
    pm.locator("input[name=pay_amount]").first.fill("4")
    pm.locator("textarea[name=press_release]").fill("Ayudas para las granjas lecheras")
    pm.get_by_role("button", name="Guardar mi propuesta").click()
    expect(pm.get_by_text(f"El Tesoro paga $4 a {alone[0]}", exact=False)).to_be_visible()
    room.projector("proposal")
    room.next()

    # Parliament's secret consent and the sealed orders, from the phones.
    projector = room.projector("orders-open")
    expect(projector.get_by_text("Ayudas para las granjas lecheras")).to_have_count(0)
    player_of = {captain: team_name, alone[0]: alone[0], alone[1]: alone[1]}
    for nickname in (captain, *alone):  # the coalition consents, the opposition does not
        consent = 0 if player_of[nickname] in members else 1
        voter = room.phone(nickname, "consent" if nickname == captain else None)
        voter.locator(f"#now input[name=option][value='{consent}']").check()
        voter.get_by_role("button", name="Meter mi ficha en la bolsa").click()
        expect(room.phone(nickname).get_by_text("Tu ficha está en la bolsa del Parlamento")
               ).to_be_visible()
        orders = room.phone(nickname, "orders" if nickname == alone[0] else None)
        orders.locator("input[name=buy][value=none]").check()
        orders.get_by_role("button", name="Enviar mis órdenes").click()
        expect(room.phone(nickname, "orders-sent" if nickname == alone[0] else None)
               .get_by_text("Tus órdenes están enviadas")).to_be_visible()
    teammate = room.phone(mate, "teammate")
    teammate.locator("input[name=buy][value=companies]").check()
    teammate.get_by_role("button", name="Proponer estas órdenes a quien capitanea").click()
    expect(room.phone(captain, "captain-suggestion").get_by_text(f"{mate} propone:",
                                                                 exact=False)).to_be_visible()
    master = room.gm("orders")
    expect(master.get_by_text("pide una coalición", exact=False)).to_have_count(0)  # handled
    expect(master.get_by_text("No comprar nada donde caigas.").first).to_be_visible()
    master.get_by_role("button", name="Aprobar el comunicado de prensa para el proyector"
                       ).click()
    projector = room.projector("orders-approved")
    expect(projector.get_by_text("Ayudas para las granjas lecheras")).to_be_visible()
    expect(projector.get_by_text("No comprar nada donde caigas.")).to_have_count(0)
    room.next()  # close the orders: the consent is counted, the round applied

    beat = 1
    while db(lambda: ClassSession.objects.get(pk=room.session_id).stage) == "replay":
        room.projector(f"r1-replay-{beat}")
        if beat == 1:
            room.phone(alone[1], "replay")
        room.next()
        beat += 1
    played = db(state)
    consent = [e for r in played.history if r["round"] == 1 for e in r["events"]
               if e["type"] == "consent"]
    assert consent and all(e["carried"] for e in consent)  # the coalition holds a majority
    assert played.auction, "nobody left a firm for round 2's auction"

    # Round 2: the captain's turn has passed to the teammate; a sealed bid at the auction.
    room.projector("r2-proposal")
    room.next()
    firm = played.auction[0]
    bidder = room.phone(alone[1], "auction")
    bidder.locator(f"input[name=bid_{firm}]").fill("9")
    bidder.get_by_role("button", name="Enviar mis órdenes").click()
    expect(room.phone(alone[1]).get_by_text("Pujar $9 por", exact=False)).to_be_visible()
    chief = room.phone(mate, "r2-captain")  # the PM's powers, from the round's captain
    chief.get_by_text("Invertir el Índice de Inflación").click()
    chief.get_by_role("button", name="Enviar mis órdenes").click()
    expect(room.phone(mate).get_by_text("Tus órdenes están enviadas")).to_be_visible()
    room.gm("r2-orders")
    room.projector("r2-orders")
    room.next()
    beat = 1
    while db(lambda: ClassSession.objects.get(pk=room.session_id).stage) == "replay":
        room.projector(f"r2-replay-{beat}")
        room.next()
        beat += 1
    final = db(state)
    auctions = [e for r in final.history if r["round"] == 2 for e in r["events"]
                if e["type"] == "auction" and e["firm"] == firm]
    assert auctions and auctions[0]["winner"] in (alone[1], bot, team_name, alone[0])
    assert db(lambda: ClassSession.objects.get(pk=room.session_id).stage) == "final"
    room.projector("final")
    room.phone(captain, "final")
    room.gm("final")
    console.goto(f"/teacher/lessons/{room.session_id}/reports/")
    room.check(console, "debrief", full_page=True)

    assert room.too_big == []
    assert room.english == {}, room.english
    room.audit.assert_clean()
    headless = [name for name, found in room.audit.minor.items() if name.startswith("phone")
                and any(line.startswith("page-has-heading-one") for line in found)]
    assert headless == [], f"phone screens without a level-one heading: {headless}"
    assert time.monotonic() - started < 240
