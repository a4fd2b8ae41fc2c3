"""A whole Austerity lesson in real browsers, in Spanish: the teacher's projector and ten
phones at two tables of five, through the real pages and websockets, to each country's end
(a year limit of 3 makes the lesson end on time: a country that has not won by then has lost).

Every year: everyone votes on each budget item in secret (raise taxes once, borrow nothing,
pay a loan when the country can), then each table's Finance Minister taps the engine's
decisions on their phone (the first option each time) while the others see who is deciding.
Along the way: every stage fits one projector screen at 1920×1080 and 1280×720, axe finds no
serious problem on any kind of screen, a reloaded phone resumes where it was, and
screenshots of every kind of screen are saved in artifacts/austerity/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from tests.e2e import ui
from tests.e2e.fit import fits
from tests.e2e.live import PHONE, PROJECTOR

NICKNAMES = ["Ana", "Bruno", "Chen", "Dara", "Emil", "Fatou", "Goran", "Hana", "Iker", "Zoé"]
# The budget session's choice of the class, by item: the option's index on the ballot.
VOTES = {"budget_taxes": 1, "budget_borrow": 0, "budget_loan": 1, "budget_policy": 0,
         "budget_institution": 0}
SHOTS = ui.ARTIFACTS / "austerity"
COUNT_NOW = "Contar ya la votación de esta mesa"


def shot(target: Page, name: str, *, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ui.shot(target, name, full_page=full_page, prefix="austerity/aus")


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def open_lesson(teacher: Page, *, students: int, title: str, extras: bool = False,
                portfolios: bool = False) -> str:
    """New lesson → Austerity, in Spanish, tables of 4 to 8, a 3-year limit (``extras``: with
    the policy cards and the extra institutions); the lobby's join address."""
    teacher.get_by_role("link", name="New lesson").click()
    teacher.get_by_role("link", name="Austerity: Governing a Country in Debt").click()
    teacher.wait_for_url("**/lessons/new/?game=austerity")
    teacher.get_by_label("Lesson title").fill(title)
    teacher.get_by_label("Language", exact=True).select_option("es")
    teacher.get_by_label("Class size").fill(str(max(students, 6)))
    teacher.get_by_label("Year limit").select_option("3")
    # Screenshots and axe pause the test for seconds at a time; a timer (4 s before a draw by
    # default) would answer for the minister meanwhile, so each wait gets 2 minutes.
    teacher.get_by_label("Seconds for each of the minister's decisions").fill("120")
    teacher.get_by_label("Seconds for each table vote").fill("120")
    if portfolios:
        teacher.get_by_label("Cabinet portfolios").check()
    if extras:
        teacher.get_by_label("Policy cards").check()
        teacher.get_by_label("Extra institutions").check()
    teacher.get_by_role("button", name="Create and open the projector view").click()
    teacher.wait_for_url(re.compile(r"/teacher/lessons/\d+/$"))
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "lobby")
    return ui.join_address(teacher)


def join_es(phone: Page, address: str, nickname: str) -> None:
    phone.goto(ui.local_path(address))
    phone.get_by_label("Tu apodo").fill(nickname)
    phone.get_by_role("button", name="Entrar").click()
    expect(phone.get_by_role("heading", name=f"¡Ya estás dentro, {nickname}!")).to_be_visible()


def phase(teacher: Page) -> str:
    return ui.topbar(teacher).get_attribute("data-phase") or ""


def on_phase(phones: list[Page], now: str) -> None:
    """Every phone shows the lesson's current moment."""
    for phone in phones:
        expect(phone.locator("#now")).to_have_attribute("data-phase", now)


def vote_item(teacher: Page, phones: list[Page], stage: str, audit: ui.Audit,
              seen: set[str]) -> None:
    """Every phone with a ballot votes; the projector counts up, then holds the result back
    until the teacher moves on."""
    ballots = [p for p in phones if p.locator('#now form[data-action="ballot"]').count()]
    idle = [p for p in phones if p not in ballots]
    if idle and "no-vote" not in seen:  # the item cannot apply at that table
        seen.add("no-vote")
        expect(idle[0].locator("#now")).to_contain_text("Nada que votar aquí")
        shot(idle[0], "phone-nothing-to-vote")
    for i, phone in enumerate(ballots):
        phone.locator("#now input[name=option]").nth(VOTES[stage]).check()
        if "ballot" not in seen:
            shot(phone, "phone-ballot")
            audit.check(phone, "phone ballot")
        phone.get_by_role("button", name="Meter mi ficha en la bolsa").click()
        # The last token fills the bag: that phone may already say everyone has voted.
        expect(phone.locator("#now h1:visible")).to_have_text(
            re.compile("Tu ficha está en la bolsa|Ya ha votado todo el mundo"))
        expect(phone.get_by_text("Un empate se resuelve")).to_be_hidden()  # the ballot's own
        if "ballot" not in seen:
            seen.add("ballot")
            shot(phone, "phone-voted")
            ui.reload(phone)  # a reloaded phone shows its token in the bag, not the ballot
            expect(ui.heading(phone, "Tu ficha está en la bolsa")).to_be_visible()
            expect(phone.locator('#now form[data-action="ballot"]')).to_have_count(0)
        if i == 2 and "projector-vote" not in seen:
            seen.add("projector-vote")
            expect(teacher.locator("[data-progress][data-voted]").first).to_be_visible()
            shot(teacher, "projector-vote")
            audit.projector(teacher, "projector during a ballot")
    if ballots:  # every bag counted: no table still counts up
        expect(teacher.locator(".aus-now [data-progress][data-voted]")).to_have_count(0)
        expect(teacher.locator(".aus-now").get_by_text("Ya ha votado todo el mundo.").first
               ).to_be_visible()
        # Carried out by the counts' frames, no screen rendered: every voter's heading, and
        # no table's "count now" button left.
        for phone in ballots:
            expect(phone.locator("#now h1:visible")).to_have_text("Ya ha votado todo el mundo")
        expect(teacher.get_by_role("button", name=COUNT_NOW)).to_have_count(0)
        if "projector-counted" not in seen:
            seen.add("projector-counted")
            shot(teacher, "projector-counted-held")


def play_year(teacher: Page, phones: list[Page], audit: ui.Audit, seen: set[str]) -> list[str]:
    """Each table's minister taps the first option of each decision until every table has
    finished its year; the others see who decides. Returns where the projector overflowed
    (checked when an event is on the board)."""
    wrong: list[str] = []
    next_button = teacher.locator("#live button[data-key=next]")
    for _tap in range(600):
        if next_button.is_enabled():
            return wrong
        tapped = False
        for phone in phones:
            form = phone.locator("#now form.decide").first
            if not form.count():
                continue
            decision = form.locator("input[name=decision]").get_attribute("value")
            if "minister" not in seen:
                seen.add("minister")
                shot(phone, "phone-minister", full_page=True)
                audit.check(phone, "phone: the minister's decision")
                waiting = next(p for p in phones if p is not phone
                               and p.locator("#now h1", has_text="está decidiendo").count())
                shot(waiting, "phone-waiting")
                audit.check(waiting, "phone: another student waits")
                ui.reload(phone)  # the minister's reloaded phone still has the decision
                form = phone.locator("#now form.decide").first
                expect(form.locator("input[name=decision]")).to_have_attribute(
                    "value", decision or "")
            if "event" not in seen and phone.locator("#now .event-name").count():
                seen.add("event")
                shot(phone, "phone-minister-event")
                audit.check(phone, "phone: the minister's event")
                shot(teacher, "projector-event")
                wrong += fits(teacher, "the year, an event on the board", audit)
                teacher.set_viewport_size(PROJECTOR["viewport"])
            form.locator("button").first.click()
            expect(phone.locator(
                f'#now form.decide input[name=decision][value="{decision}"]')).to_have_count(0)
            tapped = True
        if not tapped:
            teacher.wait_for_timeout(100)
    raise AssertionError("the year did not end")


def motion_at_a_table(teacher: Page, phones: list[Page], audit: ui.Audit) -> None:
    """A student raises a motion (the table votes on Income for the rest of the year), a
    tablemate supports it (public), the teacher's controls open by themselves and put it to a
    secret vote; the table votes no, and every phone there says it was not carried."""
    raiser = next(p for p in phones if p.locator('form[data-action="motion_raise"]').count())
    shot(raiser, "phone-motions", full_page=True)
    audit.check(raiser, "phone: motions")
    raiser.locator("details.raise summary").click()  # the motions to raise are folded
    raiser.locator('form[data-action="motion_raise"] input[value="income"]').check()
    raiser.get_by_role("button", name="Presentar esta moción").click()
    expect(raiser.locator(".motion")).to_have_count(1)
    mates = [p for p in phones if p is not raiser
             and p.locator('form[data-action="motion_support"]').count()]
    assert mates, "nobody at the raiser's table is offered the motion"
    mates[0].locator('form[data-action="motion_support"] button').click()
    expect(mates[0].get_by_text("Apoyas esta moción.")).to_be_visible()
    controls = teacher.locator("details.aus-teacher")
    expect(controls).to_have_attribute("open", "")  # a motion is ready: the controls open
    shot(teacher, "projector-motion-ready")
    audit.projector(teacher, "projector: the teacher's controls with a ready motion")
    controls.get_by_role("button", name="Someterla a votación secreta").click()
    voters = [raiser, *[p for p in phones if p is not raiser
                        and p.locator(".motion").count()]]
    for voter in voters:
        expect(voter.locator('#now form[data-action="ballot"]')).to_be_visible()
        voter.locator("#now input[name=option]").nth(0).check()  # no
        voter.get_by_role("button", name="Meter mi ficha en la bolsa").click()
    for voter in voters:
        expect(voter.locator(".motion .status")).to_contain_text("Rechazada.")
    shot(raiser, "phone-motion-not-carried", full_page=True)


@pytest.mark.e2e
@pytest.mark.slow
def test_a_whole_austerity_lesson_in_spanish_with_ten_phones(
        browser: Browser, austerity_server: str, contexts: list[BrowserContext]) -> None:
    teacher_context = browser.new_context(base_url=austerity_server, **PROJECTOR)
    contexts.append(teacher_context)
    teacher = teacher_context.new_page()
    ui.log_in(teacher)
    address = open_lesson(teacher, students=len(NICKNAMES), title="Austeridad 3B",
                          portfolios=True)
    phones = []
    for name in NICKNAMES:
        context = browser.new_context(base_url=austerity_server, locale="es-ES", **PHONE)
        contexts.append(context)
        phone = context.new_page()
        join_es(phone, address, name)
        if not phones:
            shot(phone, "phone-lobby")
        phones.append(phone)
    audit = ui.Audit("austerity")
    audit.check(phones[0], "phone lobby")
    expect(teacher.locator(".lobby .count")).to_contain_text("10")
    shot(teacher, "projector-lobby")
    audit.projector(teacher, "projector lobby")
    seen: set[str] = set()
    wrong: list[str] = []

    ui.press_next(teacher, "click")  # Empezar: two tables of five
    expect(teacher.locator(".aus-card")).to_have_count(2)
    # Each student defends a portfolio (by seat: the first Labour, the second Interior...).
    for phone in phones:
        expect(phone.locator("#portfolio h2")).to_contain_text("Tu cartera:")
    shot(phones[0], "phone-portfolio", full_page=True)
    audit.check(phones[0], "phone: portfolio")
    stages: list[str] = []
    for _step in range(40):
        stage, now = ui.stage(teacher), phase(teacher)
        stages.append(stage)
        on_phase(phones, now)
        # axe at both projector sizes, the first time the lesson is at each stage.
        wrong += fits(teacher, f"{now}", audit if stage not in stages[:-1] else None)
        teacher.set_viewport_size(PROJECTOR["viewport"])
        if stage == "final":
            break
        if stage.startswith("budget_"):
            vote_item(teacher, phones, stage, audit, seen)
        elif stage == "year":
            if "motion" not in seen:
                seen.add("motion")
                motion_at_a_table(teacher, phones, audit)
            wrong += play_year(teacher, phones, audit, seen)
            if "projector-year-done" not in seen:
                seen.add("projector-year-done")
                shot(teacher, "projector-year-done")
        elif stage == "year_end" and "year-end" not in seen:
            seen.add("year-end")
            shot(teacher, "projector-year-end")
            shot(phones[0], "phone-year-end", full_page=True)
            audit.check(phones[0], "phone: Year End")
        try:
            ui.press_next(teacher)
        except AssertionError:
            shot(teacher, "failure-projector")
            for i, p in enumerate(phones):
                shot(p, f"failure-phone-{i}")
            raise
    assert stages[-1] == "final", stages
    assert {"budget_taxes", "budget_borrow", "year", "year_end"} <= set(stages), stages

    # The end: each country won or lost, on the projector and on every phone, in Spanish.
    cards = teacher.locator(".aus-card .result")
    expect(cards).to_have_count(2)
    for text in cards.all_inner_texts():
        assert "El país ha ganado" in text or "El país ha perdido" in text, text
    for phone in phones:
        expect(phone.locator("#now h1")).to_have_text(
            re.compile("¡Tu país ha ganado!|Tu país ha perdido."))
    shot(teacher, "projector-final")
    shot(phones[0], "phone-final", full_page=True)
    audit.check(phones[0], "phone: final result")
    live = teacher.locator("#live").inner_text()
    for english in ("Budget session", "Finance Minister", "Raise taxes", "Year End", "Table 1"):
        assert english not in live, english
    lesson = re.search(r"/lessons/(\d+)/", teacher.url).group(1)
    teacher.goto(f"/teacher/lessons/{lesson}/reports/")
    shot(teacher, "debrief-page")
    audit.check(teacher, "debrief page")
    audit.assert_clean()
    assert not wrong, "\n".join(wrong)


class Replaying:
    """``page``'s socket to ``path``, routed through the test: the screens (``view``
    frames) the server sends, in order, and ``send`` to hand the page a frame again."""

    def __init__(self, page: Page, path: str) -> None:
        self.views: list[str] = []
        self.to_page: WebSocketRoute | None = None
        page.route_web_socket(re.compile(path), self._through)
        ui.reload(page)

    def _through(self, page_side: WebSocketRoute) -> None:
        server = page_side.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "view":
                self.views.append(message)
            page_side.send(message)

        server.on_message(from_server)
        self.to_page = page_side

    def send(self, message: str) -> None:
        assert self.to_page is not None, "the page's socket never opened"
        self.to_page.send(message)


@pytest.mark.e2e
def test_a_screen_rendered_before_a_held_count_shows_the_count_when_it_arrives_after_it(
        browser: Browser, austerity_server: str, contexts: list[BrowserContext]) -> None:
    """A budget item's count renders no screen: its frames turn the console's vote block
    and each phone's heading. A screen rendered just before the count can arrive after those
    frames; it shows the count too."""
    teacher_context = browser.new_context(base_url=austerity_server, **PROJECTOR)
    contexts.append(teacher_context)
    teacher = teacher_context.new_page()
    ui.log_in(teacher)
    address = open_lesson(teacher, students=4, title="Austeridad 4A")
    phones = []
    for name in NICKNAMES[:4]:
        context = browser.new_context(base_url=austerity_server, locale="es-ES", **PHONE)
        contexts.append(context)
        phones.append(context.new_page())
        join_es(phones[-1], address, name)
    ui.press_next(teacher, "click")  # one table of four, at the tax item
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "budget_taxes")
    for phone in phones[:3]:
        phone.locator("#now input[name=option]").nth(0).check()
        phone.get_by_role("button", name="Meter mi ficha en la bolsa").click()
        expect(phone.locator("#now h1:visible")).to_have_text("Tu ficha está en la bolsa")
    expect(teacher.locator("[data-progress]")).to_have_text("3 de 4 han votado")
    # Screens rendered before the count: the console's at 3 of 4, a voter's reloaded phone.
    console_socket = Replaying(teacher, r"/ws/lesson/")
    phone_socket = Replaying(phones[0], r"/ws/play/")
    console_views, phone_views = console_socket.views, phone_socket.views
    expect(phones[0].locator("#now h1:visible")).to_have_text("Tu ficha está en la bolsa")
    stale_console, stale_phone = console_views[-1], phone_views[-1]
    assert "data-until-counted" in stale_console and "data-until-counted" in stale_phone
    phones[3].locator("#now input[name=option]").nth(0).check()
    phones[3].get_by_role("button", name="Meter mi ficha en la bolsa").click()
    counted = teacher.locator(".aus-now [data-progress][data-counted]")
    expect(counted).to_have_text("Ya ha votado todo el mundo.")
    expect(teacher.get_by_role("button", name=COUNT_NOW)).to_have_count(0)
    for phone in phones:
        expect(phone.locator("#now h1:visible")).to_have_text("Ya ha votado todo el mundo")
    assert len(console_views) == 1 + console_views.index(stale_console)  # nothing rendered
    # The old screens arrive now, after the count's frames: they show the count as well.
    console_socket.send(stale_console)
    phone_socket.send(stale_phone)
    teacher.wait_for_timeout(300)
    expect(counted).to_have_text("Ya ha votado todo el mundo.")
    expect(teacher.locator(".aus-now h3")).to_have_text("Subir impuestos")
    expect(teacher.get_by_role("button", name=COUNT_NOW)).to_have_count(0)
    expect(phones[0].locator("#now h1:visible")).to_have_text("Ya ha votado todo el mundo")
    shot(teacher, "projector-held-count-after-an-old-screen")
    shot(phones[0], "phone-held-count-after-an-old-screen")
