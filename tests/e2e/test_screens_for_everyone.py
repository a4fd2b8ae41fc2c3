"""Every module's screens can be read and used by every student, in the browser
(docs/accessibility.md):

- the marks on a board and a phone (cubes, tokens, team badges, track segments, a service's
  level, chart bars) stand out at 3:1 from what is behind them, by their fill or their border
  (WCAG 1.4.11), and no two kinds of mark differ by colour alone: a letter, an icon, a
  pattern or a 3:1 difference in lightness tells them apart (1.4.1);
- a phone's screens reflow at 320 px wide and at 200 % zoom, with the text spacing of 1.4.12
  forced on them: no sideways scrolling, nothing outside the screen, no text cut off in its
  box; and what a thumb taps is at least 24×24 px (2.5.8);
- with "reduce motion" set, nothing on the projector or a phone moves (2.3.3).

Each module's lesson is started through the services (bots fill the tables) and taken to a
moment with a full board: State in Class at its first count (the tax vote's bars), Austerity
at its first budget item, Crisis at the first Event, Poleconomy at its parties. The pages are
served by the in-process live server (pages only, no sockets: the "Reconnecting…" banner is
hidden). Screenshots in ``artifacts/everyone/``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from facilitator import ballot_keys, services
from facilitator.consumers import SEAT_COOKIE
from facilitator.models import ClassSession
from tests.e2e import ui
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.e2e.live import PHONE
from tests.facilitator.lesson import deterministic, drive_to, fresh, join
from tests.lessons.whatif_support import GAMES, playable

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = ui.ARTIFACTS / "everyone"
PASSWORD = "everyone-2026"
# The marks of each module that carry meaning by colour: (a CSS selector, the kind's name
# from its class, e.g. "cube-debt"). Each kind must differ from the others of its set.
MARKS = {
    "state-in-class": [".svc", ".klass", ".pip", ".track li", ".token", ".bars .bar-fill",
                       ".tax-option .letter"],
    "austerity": [".cube", ".track-cells li", ".inst-cuts .step", ".meter .fill"],
    "crisis": [".team", ".zone", ".track45 li"],
    "poleconomy": [".pol-badge", ".pol-mark"],
}
# A phone at 320 CSS px (1.4.10), and a 640-px-wide screen at 200 % zoom (as a 1280-px
# laptop zoomed in: the same CSS width, twice the pixels).
PHONE_SIZES = [({"width": 320, "height": 640}, 2), ({"width": 640, "height": 400}, 2)]
TEXT_SPACING = ("* { line-height: 1.5 !important; letter-spacing: 0.12em !important;"
                " word-spacing: 0.16em !important; }"
                " p, li, dd, dt, h1, h2, h3, label { margin-bottom: 2em !important; }")
HIDE_BANNER = "#connection { display: none !important; }"


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)
    ballot_keys.serve()


def _lesson(game: str) -> tuple[Any, int, str]:
    """A lesson of ``game`` at a moment with a full board; (teacher, lesson id, a phone's
    seat token)."""
    from django.contrib.auth import get_user_model

    teacher = get_user_model().objects.create_user(f"everyone-{game}", password=PASSWORD)
    options = {"team_size": 2} if game == "crisis" else {}
    with playable(game):
        session = services.session_create(owner=teacher, game=game, options=options,
                                           title="3B")
        tokens = join(session, 6 if game != "poleconomy" else 4)
        services.session_start(session=fresh(session), fill="bots", seed=7)
    session = fresh(session)
    if game == "state-in-class":
        session = drive_to(session, "pay", 1, rng=random.Random(3))
    elif game == "poleconomy":  # the election rolled: the parties' badges
        session = services.session_advance(confirm=True, session=session,
                                           expected=session.stage_id)
    return teacher, session.pk, next(iter(tokens.values()))


class Room:
    """The lesson's projector and one phone, each its own browser context."""

    def __init__(self, browser: Browser, base: str, game: str, **device: Any) -> None:
        self.teacher, self.lesson, token = db(_lesson, game)
        self.contexts: list[BrowserContext] = []
        self.browser, self.base, self.device = browser, base, device
        self.projector = self._context(viewport={"width": 1920, "height": 1080}).new_page()
        self.projector.goto("/accounts/login/")
        self.projector.get_by_label("Username").fill(self.teacher.username)
        self.projector.get_by_label("Password").fill(PASSWORD)
        self.projector.get_by_role("button", name="Log in").click()
        self.projector.wait_for_url("**/teacher/")
        phone = self._context(**PHONE)
        phone.add_cookies([{"name": SEAT_COOKIE, "value": token, "url": base}])
        self.phone = phone.new_page()

    def _context(self, **kwargs: Any) -> BrowserContext:
        context = self.browser.new_context(base_url=self.base, bypass_csp=True,
                                           **{**kwargs, **self.device})
        self.contexts.append(context)
        return context

    def open(self, page: Page, path: str) -> Page:
        page.goto(path)
        page.add_style_tag(content=HIDE_BANNER)
        return page

    def board(self) -> Page:
        return self.open(self.projector, f"/teacher/lessons/{self.lesson}/")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def room(request: pytest.FixtureRequest, browser: Browser, live_server: Any,
         ) -> Iterator[Room]:
    made = Room(browser, live_server.url, request.node.callspec.params["game"],
                **getattr(request, "param", {}))
    yield made
    made.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


# --------------------------------------------------------------------------- colour

# For each mark: its colour and its border's against the nearest background behind it, and a
# signature of what, besides hue, tells its kind apart (text, a pattern, its lightness).
MARKS_JS = """(selectors) => {
  const rgb = c => { const m = c.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; };
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
                            return (x + 0.05) / (y + 0.05); };
  const opaque = c => rgb(c).length < 4 || rgb(c)[3] > 0;
  const behind = el => { for (let p = el.parentElement; p; p = p.parentElement) {
      const c = getComputedStyle(p).backgroundColor; if (opaque(c)) return rgb(c); }
    return [255, 255, 255]; };
  const found = [];
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      const style = getComputedStyle(el);
      const svg = el instanceof SVGElement;
      const fill = rgb(svg ? style.fill : style.backgroundColor);
      const hasFill = svg ? style.fill !== 'none' : opaque(style.backgroundColor);
      const back = behind(el);
      // A glyph with no fill of its own (Poleconomy's ↻ arrow) is seen by its ink.
      const glyph = !svg && !hasFill && el.textContent.trim() !== '';
      const border = svg
        ? (style.stroke !== 'none' && parseFloat(style.strokeWidth) >= 1
           ? ratio(rgb(style.stroke), back) : 0)
        : (parseFloat(style.borderTopWidth) >= 1 && style.borderTopStyle !== 'none'
           ? ratio(rgb(style.borderTopColor), back) : 0);
      // An SVG shape's sign is its group's text (a chart bar's letter beside it).
      const sign = svg && el.parentElement ? el.parentElement.textContent : el.textContent;
      // Its kind: its classes but a value's (fill-5), and whether it is in danger.
      const kind = [...(el.classList.length ? el.classList : el.parentElement.classList)]
        .filter(c => !/\\d$/.test(c)).join('.') + (el.closest('.danger') ? ' (danger)' : '');
      found.push({selector, kind, where: el.outerHTML.slice(0, 90),
                  fill: hasFill ? ratio(fill, back)
                    : glyph ? ratio(rgb(style.color), back) : 0, border,
                  lightness: hasFill ? lum(fill) : lum(back),
                  text: (sign || '').replace(/\\d+/g, '#').trim(), pattern: style.backgroundImage});
    }
  }
  return found;
}"""


def mark_problems(page: Page, game: str) -> tuple[list[str], int]:
    """The marks that do not stand out at 3:1, and the kinds of a set told apart by colour
    alone; and how many marks were looked at."""
    marks = page.evaluate(MARKS_JS, MARKS[game])
    wrong = [f"{m['kind']} at {m['fill']:.2f}:1 (fill), {m['border']:.2f}:1 (border): "
             f"{m['where']}" for m in marks if max(m["fill"], m["border"]) < 3]
    by_set: dict[str, dict[str, dict[str, Any]]] = {}
    for m in marks:
        by_set.setdefault(m["selector"], {}).setdefault(m["kind"], m)
    for selector, kinds in by_set.items():
        seen = list(kinds.values())
        for i, a in enumerate(seen):
            for b in seen[i + 1:]:
                light = max(a["lightness"], b["lightness"]) + 0.05
                dark = min(a["lightness"], b["lightness"]) + 0.05
                if (a["text"] == b["text"] and a["pattern"] == b["pattern"]
                        and light / dark < 3):
                    wrong.append(f"{selector}: {a['kind']} and {b['kind']} differ only by "
                                 f"colour")
    return sorted(set(wrong)), len(marks)


@pytest.mark.parametrize("game", GAMES)
def test_every_mark_on_a_board_and_a_phone_stands_out_and_is_told_apart_without_colour(
        game: str, room: Room) -> None:
    wrong, looked = [], 0
    for page, name in ((room.board(), "projector"), (room.open(room.phone, "/play/"), "phone")):
        shot(page, f"{game}-{name}")
        found, count = mark_problems(page, game)
        wrong += [f"{name}: {line}" for line in found]
        looked += count
    # Poleconomy's boards are words and numbers: its one mark is the Index's arrow.
    assert looked >= (1 if game == "poleconomy" else 3), f"only {looked} marks: stale selectors"
    assert wrong == [], "\n".join(wrong)


# --------------------------------------------------------------------------- reflow

REFLOW_JS = """() => {
  const found = [], width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1)
    found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px`
               + ` in ${width}`);
  const where = el => el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined
    ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '');
  const hidden = el => { for (let p = el; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.display === 'none' || s.visibility === 'hidden' || p.hidden) return true;
      if (p.classList.contains('sr-only') || s.clip !== 'auto') return true;  // for readers
    } return false; };
  // Moved off the screen on purpose until it has the focus (the "Skip to" link).
  const parked = (el, box) => getComputedStyle(el).position === 'absolute' && box.right <= 0;
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || hidden(el) || parked(el, box)) continue;
    if (box.right > width + 1 || box.left < -1)
      found.push(`${where(el)} lies outside the screen (${Math.round(box.left)}`
                 + `–${Math.round(box.right)} px)`);
    const s = getComputedStyle(el);
    if (s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && el.clientWidth)
      found.push(`${where(el)} cuts its content off: ${el.scrollWidth} px in`
                 + ` ${el.clientWidth}`);
  }
  return found;
}"""

TARGETS_JS = """() => {
  const found = [];
  const targets = document.querySelectorAll(
    'button, summary, select, textarea, a.button, nav a, .tabs a,'
    + ' input:not([type=hidden]):not([type=radio]):not([type=checkbox]),'
    + ' label:has(input[type=radio]), label:has(input[type=checkbox])');
  for (const el of targets) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || el.closest('[hidden]')) continue;
    if (box.width < 24 || box.height < 24)
      found.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.value || '').trim()
        .slice(0, 30)}" is ${Math.round(box.width)}×${Math.round(box.height)} px`);
  }
  return found;
}"""


def reflow_problems(page: Page, label: str) -> list[str]:
    wrong = [f"{label}: {line}" for line in page.evaluate(REFLOW_JS)]
    wrong += [f"{label}: {line}" for line in page.evaluate(TARGETS_JS)]
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_reflows_at_320_px_and_200_percent_zoom_with_wide_text_spacing(
        game: str, room: Room) -> None:
    wrong: list[str] = []
    screens = {"join": f"/join/{db(lambda: ClassSession.objects.get(pk=room.lesson).join_code)}/",
               "game": "/play/"}
    joiner = room._context(**PHONE).new_page()  # a phone that has not joined
    for (size, scale), (name, path) in [(s, p) for s in PHONE_SIZES for p in screens.items()]:
        page = joiner if name == "join" else room.phone
        page.set_viewport_size(size)
        room.open(page, path)
        label = f"{name} at {size['width']} px (×{scale})"
        wrong += reflow_problems(page, label)
        page.add_style_tag(content=TEXT_SPACING)
        page.wait_for_timeout(50)
        wrong += reflow_problems(page, f"{label}, text spaced")
        shot(page, f"{game}-{name}-{size['width']}-spaced")
    assert wrong == [], "\n".join(sorted(set(wrong)))


# --------------------------------------------------------------------------- motion

RUNNING = "document.getAnimations().filter(a => a.playState === 'running').length"


@pytest.mark.parametrize("room", [{"reduced_motion": "reduce"}], indirect=True)
@pytest.mark.parametrize("game", GAMES)
def test_with_reduced_motion_nothing_moves_on_the_projector_or_a_phone(
        game: str, room: Room) -> None:
    moving = {}
    for page, name in ((room.board(), "projector"), (room.open(room.phone, "/play/"), "phone")):
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
        moving[name] = page.evaluate(RUNNING)
    assert moving == {"projector": 0, "phone": 0}
