"""A whole Crisis lesson in Spanish, in real browsers: the teacher's projector and four phones
in two teams of two, and a third team played by a bot; the shorter game of 5 rounds with 30-
second turns, to the final ranking, the debrief page and its handouts (saved beside the
screenshots).

How the class gets a team of bots: five students join in teams of two, the lobby offers a bot
for the empty place (Start cannot seat five otherwise), and the teacher removes the student who
shares a team with it (the Students page), as for a student who has to leave: that team is
then its bot alone. The teams play through the phones' own buttons, reading only the page: the
captain places Managers (the cheapest Company first, then an Employee, a Loan in round 1 or
Domestic Industry later, Exports, Government Subsidy), takes each reserved space's first option
(Food or Minerals at Domestic Industry), plans Production
(the suggested plan, or none when it cannot run) and exports what a contract takes; a teammate
suggests the first Manager of each team in round 1 and the captain plays the suggestion; a
teammate builds a plan in the production planner; a captain repays a loan once. The teacher's
Next goes through every beat. If Axia goes bankrupt before round 5 (the test's captains are
no strategists), the lesson ends there, as in class, and the test checks the final ranking says
so.

At every beat of round 1 and at the end: screenshots under artifacts/crisis-e2e/, axe-core on
every kind of screen, the projector fits one screen at 1920×1080 and 1280×720, nothing is left
in English, and no Influence card a team holds is on the projector.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.e2e import ui
from tests.e2e.fixtures import watch_offsite
from tests.e2e.live import PASSWORD, PHONE, PROJECTOR, TEACHER, local_path
from tests.i18n.conftest import compile_catalogue
from tests.i18n.text import ENGLISH, english_left, page_text

NICKNAMES = ["Ana", "Bruno", "Chen", "Dara", "Emil"]
SIZES = [(1920, 1080), (1280, 720)]
SHOTS = ui.ARTIFACTS / "crisis-e2e"
# Crisis's own words that must not be left in English on a Spanish screen.
CRISIS_ENGLISH = (*ENGLISH, "worker", "farmer", "engineer", "banker", "Worker", "Engineer",
                  "energy", "food", "minerals", "chemicals", "Team", "credits", "Captain",
                  "Planning", "Production", "Exports", "Evaluation", "Loan", "Pass")


@pytest.fixture(scope="session", autouse=True)
def spanish_catalogue() -> None:
    """The Spanish catalogue compiled before the server starts (as ``make test`` does)."""
    compile_catalogue()


@pytest.fixture
def contexts() -> Iterator[list[BrowserContext]]:
    """The test's browser contexts (a Spanish laptop and Spanish phones), closed at the end."""
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def spanish(browser: Browser, server: str, offsite: list[str], made: list[BrowserContext],
            device: dict) -> Page:
    context = browser.new_context(base_url=server, locale="es-ES", **device)
    watch_offsite(context, offsite)
    made.append(context)
    return context.new_page()


def shot(target: Page | Locator, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return ui.shot(target, name, prefix="crisis-e2e/shot")


def no_english(page: Page, where: str, found: dict[str, list[str]]) -> None:
    assert page.locator("html").get_attribute("lang") == "es", where
    left = english_left(page_text(page.content()), CRISIS_ENGLISH)
    if left:
        found[where] = left


def fits(teacher: Page, where: str, wrong: list[str], *, keep: bool = False,
         audit: ui.Audit | None = None) -> None:
    """The projector's page at each size, where it overflows the screen (and, with
    ``audit``, axe's findings at each size)."""
    for width, height in SIZES:
        teacher.set_viewport_size({"width": width, "height": height})
        if audit is not None:
            audit.check(teacher, f"projector: {where} at {width}×{height}")
        size = teacher.evaluate("[document.documentElement.scrollWidth,"
                                " document.documentElement.scrollHeight]")
        if size[0] > width or size[1] > height:
            wrong.append(f"{where} at {width}×{height}: {size[0]}×{size[1]} px")
        if keep or size[0] > width or size[1] > height:
            shot(teacher, f"projector-{where}-{width}")
    teacher.set_viewport_size(PROJECTOR["viewport"])


class Team:
    """A team's two phones as the test reads them."""

    def __init__(self, letter: str, phones: list[Page]) -> None:
        self.letter, self.phones = letter, phones
        self.placed: dict[int, int] = {}  # round -> Managers placed by the team's captain
        self.exported: dict[int, int] = {}

    def captain(self) -> Page | None:
        for phone in self.phones:
            if phone.locator("#now .crisis-choice, #now .crisis-planner, .crisis-any").count() \
                    and phone.locator(".crisis-party strong").count():
                return phone
        return None

    def mate(self, captain: Page) -> Page:
        return next(p for p in self.phones if p is not captain)


def decision_of(phone: Page) -> str:
    """The open decision the phone's buttons answer ("" when none; the screen may be
    replaced while it is read)."""
    values = phone.locator("#now input[name=decision]").evaluate_all(
        "inputs => inputs.map(i => i.value)")
    return values[0] if values else ""


def buttons(phone: Page, kind: str) -> Locator:
    """The phone's move (or suggestion) buttons whose action is of ``kind``."""
    return phone.locator(f"#now button[name=action][value*='\"type\": \"{kind}\"']")


def action_of(button: Locator) -> dict:
    return json.loads(button.get_attribute("value") or "{}")


def cheapest_company(choices: Locator) -> Locator | None:
    best, price = None, 10**6
    for i in range(choices.count()):
        button = choices.nth(i)
        if not action_of(button)["space"].startswith("company-"):
            continue
        cost = re.search(r": (\d+) ", button.inner_text())
        if cost and int(cost.group(1)) < price:
            best, price = button, int(cost.group(1))
    return best


def place_choice(phone: Page, round_: int, n: int) -> Locator:
    """The n-th Manager of the round: a Company, an Employee, a Loan (round 1) or Exports,
    then Government Subsidy."""
    choices = buttons(phone, "place")
    spaces = [action_of(choices.nth(i))["space"] for i in range(choices.count())]
    folded = phone.locator("#now details.crisis-more:not([open]) > summary")
    if folded.count():  # the places after the likely ones: the captain opens the list
        folded.first.click()

    def space(*wanted: str) -> Locator | None:
        for name in spaces:
            if any(name == w or (w.endswith("-") and name.startswith(w)) for w in wanted):
                return choices.nth(spaces.index(name))
        return None

    picks = {0: [lambda: cheapest_company(choices)], 1: [lambda: space("employee-")],
             2: [lambda: space("loan") if round_ == 1 else space("domestic-industry")],
             3: [lambda: space("exports")]}.get(n, [])
    for pick in [*picks, lambda: space("government-subsidy")]:
        found = pick()
        if found is not None:
            return found
    return choices.first


def resolve_choice(phone: Page) -> Locator:
    """A reserved space's first option (it buys what it can), but Food or Minerals from
    Domestic Industry: goods a contract takes at Exports."""
    choices = buttons(phone, "resolve")
    for i in range(choices.count()):
        if action_of(choices.nth(i)).get("choice") in ("food", "minerals"):
            return choices.nth(i)
    return choices.first


def click_and_wait(phone: Page, button: Locator) -> None:
    """Tap a move; wait until the phone's screen has moved on from that decision."""
    before = decision_of(phone)
    value = button.get_attribute("value")
    button.click()
    for _ in range(200):
        if decision_of(phone) != before or not phone.locator(
                f"#now button[value='{value}']").count():
            return
        phone.wait_for_timeout(50)


@pytest.mark.e2e
@pytest.mark.slow
def test_a_whole_crisis_lesson_in_spanish(browser: Browser, server: str, offsite: list[str],
                                          contexts: list[BrowserContext]) -> None:
    started = time.monotonic()
    audit = ui.Audit("crisis")
    english: dict[str, list[str]] = {}
    wrong: list[str] = []

    # The teacher's laptop speaks Spanish: log in, new lesson, Crisis, its options.
    teacher = spanish(browser, server, offsite, contexts, PROJECTOR)
    teacher.goto("/accounts/login/")
    teacher.get_by_label("Usuario").fill(TEACHER)
    teacher.get_by_label("Contraseña").fill(PASSWORD)
    teacher.get_by_role("button", name="Entrar").click()
    teacher.wait_for_url("**/teacher/")
    teacher.get_by_role("link", name="Nueva sesión").click()
    teacher.wait_for_url("**/lessons/new/")
    teacher.get_by_role("link", name="Crisis: empresarios que mantienen a flote un país").click()
    teacher.wait_for_url("**/lessons/new/?game=crisis")
    expect(teacher.get_by_label("Idioma", exact=True)).to_have_value("es")
    teacher.get_by_label("Título de la sesión").fill("Economía 4.º B")
    teacher.get_by_label("Estudiantes por equipo").select_option("2")
    teacher.get_by_label("Dificultad").select_option("easy")
    teacher.get_by_label("Duración").select_option("5")
    teacher.get_by_label("Tiempo por turno").select_option("30")
    teacher.get_by_label("Tiempo para la Producción").select_option("60")
    shot(teacher, "new-lesson")
    audit.check(teacher, "new lesson page (Crisis)")
    no_english(teacher, "new lesson page", english)
    teacher.get_by_role("button", name="Crear y abrir la vista del proyector").click()
    teacher.wait_for_url(re.compile(r"/teacher/lessons/\d+/$"))
    lesson = re.search(r"/lessons/(\d+)/", teacher.url).group(1)
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "lobby")
    address = teacher.locator(".lobby .url").inner_text().strip()
    code = address.rstrip("/").rsplit("/", 1)[1]

    # Five students join from Spanish phones.
    phones: dict[str, Page] = {}
    for name in NICKNAMES:
        phone = spanish(browser, server, offsite, contexts, PHONE)
        phone.goto(local_path(address))
        expect(phone.get_by_label("Código de la sesión")).to_have_value(code)
        phone.get_by_label("Tu apodo").fill(name)
        phone.get_by_role("button", name="Entrar", exact=True).click()
        expect(ui.heading(phone, f"¡Ya estás dentro, {name}!")).to_be_visible()
        phones[name] = phone
    shot(phones["Ana"], "phone-lobby")
    audit.check(phones["Ana"], "phone lobby")
    no_english(phones["Ana"], "phone lobby", english)
    expect(teacher.locator(".lobby .count")).to_contain_text("5")
    fill = teacher.locator(".lobby .fill button[value=bots]")
    expect(fill).to_be_visible()
    shot(teacher, "projector-lobby")
    audit.projector(teacher, "projector lobby")
    no_english(teacher, "projector lobby", english)
    fill.click()  # "Add 1 bot and start"
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "event")

    # The student whose team is completed by the bot leaves: that team is its bot alone.
    letters: dict[str, str] = {}
    for name, phone in phones.items():
        badge = phone.locator(".bar .who .team")
        expect(badge).to_be_visible()
        letters[name] = badge.inner_text().strip()
    alone = next(n for n, letter in letters.items() if list(letters.values()).count(letter) == 1)
    bot_letter = letters[alone]
    students = teacher.context.new_page()
    students.goto(f"/teacher/lessons/{lesson}/students/")
    row = students.locator("tr", has_text=alone)
    row.get_by_role("button", name="Quitar").click()
    students.goto(f"/teacher/lessons/{lesson}/students/")
    expect(students.locator("tr", has_text=alone)).to_contain_text("quitad")
    shot(students, "students-page")
    audit.check(students, "students page")
    no_english(students, "students page", english)
    students.close()
    phones.pop(alone).context.close()
    teams: dict[str, Team] = {}
    for name, phone in phones.items():
        teams.setdefault(letters[name], Team(letters[name], []))
        teams[letters[name]].phones.append(phone)
    assert sorted(teams) == sorted(set("ABC") - {bot_letter})
    assert all(len(t.phones) == 2 for t in teams.values())

    seen: list[tuple[int, str]] = []
    suggested: set[str] = set()
    planner_used = repaid = False
    hands: set[str] = set()
    while (stage := ui.stage(teacher)) != "final":
        rnd = int(teacher.locator(".rounds li.current").inner_text())
        seen.append((rnd, stage))
        first_time = [s for _r, s in seen].count(stage) == 1
        if stage == "event":
            if rnd == 1:
                for team in teams.values():
                    for phone in team.phones:
                        expect(phone.locator("#now .kicker")).to_be_visible()
                phone = next(iter(teams.values())).phones[0]
                shot(phone, "phone-event")
                audit.check(phone, "phone: the Event")
                no_english(phone, "phone event", english)
        elif stage == "planning":
            play_planning(teacher, teams, rnd, suggested, audit, english, first_time)
        elif stage == "production":
            planner_used |= play_production(teams, rnd, audit, english, not planner_used)
            repaid |= repay_once(teams, repaid)
        elif stage == "exports":
            play_exports(teacher, teams, rnd, audit, english, first_time)
            repaid |= repay_once(teams, repaid)
        elif stage == "evaluation" and first_time:
            phone = next(iter(teams.values())).phones[1]
            expect(phone.locator("#now .crisis-goals")).to_be_visible()
            shot(phone, "phone-evaluation")
            audit.check(phone, "phone: Evaluation")
            no_english(phone, "phone evaluation", english)
        for team in teams.values():
            for phone in team.phones:
                hands |= set(phone.locator(".crisis-hand li strong").all_inner_texts())
        if first_time:
            fits(teacher, f"{stage}-r{rnd}", wrong, keep=True, audit=audit)
            no_english(teacher, f"projector {stage}", english)
        projector = teacher.locator("#live").inner_text()
        for card in hands:
            assert card not in projector, f"a team's Influence card on the projector: {card}"
        ui.press_next(teacher)

    # The final ranking: three teams, each with its letter; every phone says the game is over.
    ranking = teacher.locator("table.crisis-ranking")
    expect(ranking).to_be_visible()
    expect(ranking.locator("tbody tr")).to_have_count(3)
    fits(teacher, "final", wrong, keep=True, audit=audit)
    no_english(teacher, "projector final", english)
    for team in teams.values():
        expect(team.phones[0].locator("#now h1")).to_have_text("La partida ha terminado")
    phone = next(iter(teams.values())).phones[0]
    shot(phone, "phone-final")
    audit.check(phone, "phone: final")
    no_english(phone, "phone final", english)
    rounds = sorted({r for r, _s in seen})
    bankrupt = "bancarrota" in ranking.locator("caption").inner_text()
    assert rounds == [1, 2, 3, 4, 5] or bankrupt, seen
    assert suggested, "no captain played a teammate's suggestion"
    assert planner_used, "nobody used the production planner"

    # The debrief page prepares the handouts, then serves them.
    teacher.goto(f"/teacher/lessons/{lesson}/reports/")
    expect(teacher.locator(".preparing [data-status]")).to_have_text(
        "Las hojas están listas.", timeout=90_000)
    shot(teacher, "debrief-page")
    audit.check(teacher, "debrief page")
    no_english(teacher, "debrief page", english)
    for handout in ("class", "students"):  # kept beside the screenshots, to be looked at
        pdf = teacher.request.get(f"/teacher/lessons/{lesson}/reports/{handout}.pdf").body()
        assert pdf[:4] == b"%PDF", handout
        (SHOTS / f"{handout}.pdf").write_bytes(pdf)

    audit.assert_clean()
    assert not wrong, "\n".join(wrong)
    assert not english, json.dumps(english, ensure_ascii=False, indent=1)
    assert offsite == [], offsite
    print(f"crisis lesson: {time.monotonic() - started:.0f} s, beats {len(seen)}, "
          f"repaid={repaid}, bankrupt={bankrupt}, bot team {bot_letter}, exports on "
          f"contracts {sum(n for t in teams.values() for n in t.exported.values())}")


# --------------------------------------------------------------------------- the beats


def turn_letter(teacher: Page) -> str:
    """The team whose turn the console shows now, "" if none: read in one look, since the
    console's next screen may take the turn away between two."""
    shown = teacher.locator(".crisis-turn .team").all_inner_texts()
    return shown[0].strip() if shown else ""


def play_planning(teacher: Page, teams: dict[str, Team], rnd: int, suggested: set[str],
                  audit: ui.Audit, english: dict[str, list[str]], first_time: bool) -> None:
    """Every Manager and Operations choice of the round, turn by turn, until nobody waits."""
    shots: set[str] = set()
    for _ in range(400):
        letter = turn_letter(teacher)
        if not letter:
            teacher.wait_for_timeout(300)
            if not turn_letter(teacher):
                return
            continue
        team = teams.get(letter)
        if team is None:  # the bot's turn: it moves by itself
            teacher.wait_for_timeout(100)
            continue
        other = next(t for t in teams.values() if t is not team).phones[0]
        if first_time and "waiting" not in shots and other.locator(
                "#now h1", has_text=f"Esperando al equipo {letter}").count():
            shot(other, "phone-waiting")
            audit.check(other, "phone: another team's turn")
            no_english(other, "phone waiting", english)
            shots.add("waiting")
        captain = team.captain()
        if captain is None:
            teacher.wait_for_timeout(100)
            continue
        mate = team.mate(captain)
        if buttons(captain, "place").count():
            n = team.placed.get(rnd, 0)
            if first_time and "captain" not in shots:
                shot(captain, "phone-captain-place")
                audit.check(captain, "phone: captain places a Manager")
                no_english(captain, "phone captain place", english)
                shots.add("captain")
            if rnd == 1 and n == 0:  # the teammate suggests; the captain plays it
                choice = place_choice(mate, rnd, n)
                expect(choice).to_be_visible()
                if "mate" not in shots:
                    shot(mate, "phone-teammate-suggests")
                    audit.check(mate, "phone: teammate suggests")
                    no_english(mate, "phone teammate", english)
                    shots.add("mate")
                choice.click()
                play = captain.locator(".crisis-suggestions button[name=action]")
                expect(play).to_be_visible()
                if "suggestion" not in shots:
                    shot(captain, "phone-captain-suggestion")
                    audit.check(captain, "phone: captain sees a suggestion")
                    shots.add("suggestion")
                click_and_wait(captain, play.first)
                suggested.add(letter)
            else:
                click_and_wait(captain, place_choice(captain, rnd, n))
            team.placed[rnd] = n + 1
        elif buttons(captain, "resolve").count():
            if first_time and "resolve" not in shots:
                shot(captain, "phone-captain-resolve")
                audit.check(captain, "phone: captain resolves a space")
                no_english(captain, "phone resolve", english)
                shots.add("resolve")
            click_and_wait(captain, resolve_choice(captain))
        else:
            teacher.wait_for_timeout(100)
        if first_time and "projector" not in shots and team.placed.get(rnd, 0) == 2:
            shot(teacher, "projector-planning-turn")
            shots.add("projector")
    raise AssertionError("Planning never finished")


def play_production(teams: dict[str, Team], rnd: int, audit: ui.Audit,
                    english: dict[str, list[str]], show: bool) -> bool:
    """Each human team with a Company plans: the teammate taps the planner, the captain takes
    the suggested plan (or none, when it cannot run) and confirms. Whether the planner was
    used."""
    used = False
    for team in teams.values():
        captain = team.captain()
        if captain is None or not captain.locator("#now .crisis-planner").count():
            continue
        mate = team.mate(captain)
        company = mate.locator("#now .plan-company button[name=op][value=company]").first
        company.click()
        expect(mate.locator("#now .plan-company.active")).to_be_visible()
        staff = mate.locator("#now .plan-company.active button[name=op][value=staff]")
        if staff.count():
            staff.first.click()
            expect(mate.locator("#now .plan-company.active")).to_contain_text("Trabajan")
        if show:
            shot(mate, "phone-planner-teammate")
            audit.check(mate, "phone: teammate's production planner")
            no_english(mate, "phone planner", english)
        captain.locator("#now button[name=op][value=auto]").click()
        confirm = captain.locator("#now .plan-actions button[name=action]")
        expect(confirm).to_be_visible()
        captain.wait_for_timeout(300)
        if confirm.is_disabled():
            captain.locator("#now button[name=op][value=clear]").click()
            expect(confirm).to_be_enabled()
        if show:
            shot(captain, "phone-planner-captain")
            audit.check(captain, "phone: captain's production planner")
            show = False
        confirm.click()
        expect(captain.locator("#now .crisis-planner")).to_have_count(0)
        used = True
    return used


def repay_once(teams: dict[str, Team], done: bool) -> bool:
    """A captain whose phone offers to repay a loan does it, once in the lesson."""
    if done:
        return True
    for team in teams.values():
        for phone in team.phones:
            repay = phone.locator(".crisis-any button[value*='\"repay\"']")
            if repay.count():
                shot(phone, "phone-repay")
                credits_before = phone.locator("dl.facts dd").first.inner_text()
                repay.first.click()
                expect(phone.locator("dl.facts dd").first).not_to_have_text(credits_before)
                return True
    return False


def play_exports(teacher: Page, teams: dict[str, Team], rnd: int, audit: ui.Audit,
                 english: dict[str, list[str]], first_time: bool) -> None:
    """The Exports rotation: a human captain exports on a contract (twice a round at most),
    then passes."""
    shown = False
    for _ in range(300):
        letter = turn_letter(teacher)
        if not letter:
            teacher.wait_for_timeout(300)
            if not turn_letter(teacher):
                return
            continue
        team = teams.get(letter)
        captain = team.captain() if team else None
        if captain is None or not buttons(captain, "pass").count():
            teacher.wait_for_timeout(100)
            continue
        if first_time and not shown:
            shot(captain, "phone-captain-exports")
            audit.check(captain, "phone: captain's Exports turn")
            no_english(captain, "phone exports", english)
            shot(teacher, "projector-exports-turn")
            shown = True
        exports = buttons(captain, "export")
        if exports.count() and not sum(n for t in teams.values() for n in t.exported.values()):
            shot(captain, "phone-captain-export-contract")
            audit.check(captain, "phone: captain exports on a contract")
            no_english(captain, "phone export on a contract", english)
            shot(teacher, "projector-exports-contract")
        if exports.count() and team.exported.get(rnd, 0) < 2:
            team.exported[rnd] = team.exported.get(rnd, 0) + 1
            click_and_wait(captain, exports.first)
        else:
            click_and_wait(captain, buttons(captain, "pass").first)
    raise AssertionError("Exports never finished")
