"""What a teacher and a student do in the browser, as small steps the tests share.

Every step goes through the page (labels, buttons, keys); reading the page to decide what to do
next is fine, calling the server's code is not.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from tests.e2e.live import PASSWORD, ROOT, TEACHER, local_path

ARTIFACTS = ROOT / "artifacts"
AXE = Axe()
# What axe checks: WCAG 2.0, 2.1 and 2.2 at levels A and AA, every rule of them; a
# violation of any impact fails. The best practices run too, as advice.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
STRICT_RULES = ("label-content-name-mismatch",)
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": [*WCAG_TAGS, "best-practice"]},
               "rules": {rule: {"enabled": True} for rule in STRICT_RULES},
               "resultTypes": ["violations"]}
SIZES = ((1920, 1080), (1280, 720))  # the projector's two screens
# 1.3.1 and 4.1.2, which axe leaves "to review": an aria-describedby or aria-labelledby that
# names an id no element has (the description is lost), and an aria-label on an element whose
# role takes no name (a <p>, <div> or <span> without a role: screen readers skip the label).
NAMES_AND_REFERENCES = """() => {
  const found = [];
  const where = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.classList.length ? '.' + [...el.classList].join('.') : '');
  for (const el of document.querySelectorAll('[aria-describedby], [aria-labelledby]')) {
    for (const attr of ['aria-describedby', 'aria-labelledby']) {
      for (const id of (el.getAttribute(attr) || '').split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) {
          found.push(`aria-reference (serious): ${attr} names "${id}", which no element has,`
                     + ` at ${where(el)}`);
        }
      }
    }
  }
  const unnamed = new Set(['caption', 'code', 'deletion', 'emphasis', 'generic', 'insertion',
    'paragraph', 'presentation', 'none', 'strong', 'subscript', 'superscript']);
  const implicit = {div: 'generic', span: 'generic', p: 'paragraph', b: 'generic',
    i: 'generic', u: 'generic', s: 'generic', small: 'generic', code: 'code',
    em: 'emphasis', strong: 'strong', del: 'deletion', ins: 'insertion', sub: 'subscript',
    sup: 'superscript', caption: 'caption'};
  for (const el of document.querySelectorAll('[aria-label], [aria-labelledby]')) {
    const role = (el.getAttribute('role') || '').trim().split(/\\s+/)[0]
      || implicit[el.tagName.toLowerCase()] || '';
    if (unnamed.has(role)) {
      found.push(`aria-name-ignored (serious): a ${role} cannot be named, so its aria-label`
                 + ` is not read, at ${where(el)}`);
    }
  }
  return found;
}"""


# --------------------------------------------------------------------------- teacher


def log_in(page: Page) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(TEACHER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/teacher/")


def new_lesson(page: Page, title: str, *, class_size: int | None = None,
               language: str | None = None) -> str:
    """Dashboard → New lesson → the projector view; returns the join address it shows.
    ``language``: the lesson's (its projector and phones speak it)."""
    page.get_by_role("link", name="New lesson").click()
    page.wait_for_url("**/lessons/new/")
    page.get_by_label("Lesson title").fill(title)
    if language is not None:
        page.get_by_label("Language", exact=True).select_option(language)
    if class_size is not None:
        page.get_by_label("Class size").fill(str(class_size))
    page.get_by_role("button", name="Create and open the projector view").click()
    page.wait_for_url(re.compile(r"/teacher/lessons/\d+/$"))
    expect(topbar(page)).to_have_attribute("data-stage", "lobby")
    return join_address(page)


def join_address(page: Page) -> str:
    """The address printed under the QR code, checked against the QR's own description."""
    url = page.locator(".lobby .url").inner_text().strip()
    assert url in (page.locator(".lobby .qr img").get_attribute("alt") or "")
    code = page.locator(".lobby .code").inner_text().replace(" ", "")
    assert url.endswith(f"/join/{code}/"), (url, code)
    return url


def topbar(page: Page) -> Locator:
    return page.locator("#live header.topbar")


def stage(page: Page) -> str:
    return topbar(page).get_attribute("data-stage") or ""


def press_next(page: Page, how: str = "Space") -> str:
    """Move the lesson on with a key (a clicker sends Space, → or PageDown) or a click."""
    before = topbar(page).get_attribute("data-phase") or ""
    if how == "click":
        page.locator("#live button[data-key=next]").click()
    else:
        expect(page.locator("#live button[data-key=next]")).to_be_enabled()
        page.keyboard.press(how)
    expect(topbar(page)).not_to_have_attribute("data-phase", before)
    return stage(page)


def wait_connected(page: Page, names: list[str]) -> None:
    """Every student in the seat list shows as online."""
    for name in names:
        expect(page.locator(".seats li", has_text=name)).not_to_have_class(
            re.compile(r"\boffline\b"))


# --------------------------------------------------------------------------- phones


def join(phone: Page, address: str, nickname: str) -> None:
    """Open the projector's address; the code is filled in; type a nickname and join."""
    phone.goto(local_path(address))
    code = address.rstrip("/").rsplit("/", 1)[1]
    expect(phone.get_by_label("Lesson code")).to_have_value(code)
    phone.get_by_label("Your nickname").fill(nickname)
    phone.get_by_role("button", name="Join").click()
    expect(phone.get_by_role("heading", name=f"You're in, {nickname}!")).to_be_visible()


@contextlib.contextmanager
def next_view(phone: Page) -> Iterator[None]:
    """Wait, after the block, for the screen a newly opened socket of the phone sends."""
    frames: list[str] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(payload))

    phone.on("websocket", on_socket)
    try:
        yield
        for _ in range(300):
            if frames:
                break
            phone.wait_for_timeout(50)
        assert frames, "the phone did not reconnect"
    finally:
        phone.remove_listener("websocket", on_socket)


def reload(phone: Page) -> None:
    with next_view(phone):
        phone.reload()


def now(phone: Page) -> Locator:
    return phone.locator("#now")


def heading(phone: Page, name: str) -> Locator:
    return now(phone).get_by_role("heading", name=name, exact=True)


def make_pact(phone: Page, coins: int) -> None:
    expect(heading(phone, "The opening pact")).to_be_visible()
    phone.locator(f"#now input[name=coins][value='{coins}']").check()
    phone.get_by_role("button", name="Give these coins").click()
    expect(now(phone).get_by_text("Thank you. Your choice is secret.")).to_be_visible()


def choose(phone: Page, kind: str, option: str | int) -> None:
    """Tick one option of the open ballot (a tax letter, or the n-th service). The radios'
    values are the options' indices (what the phone sends)."""
    expect(heading(phone, "Tax vote" if kind == "tax" else "Budget vote")).to_be_visible()
    radios = phone.locator("#now input[name=option]")
    radios.nth(option if isinstance(option, int) else "ABCD".index(option)).check()


def confirm_ballot(phone: Page) -> None:
    phone.get_by_role("button", name="Put my token in the bag").click()


def in_the_bag(phone: Page) -> Locator:
    return heading(phone, "Your token is in the bag")


def vote(phone: Page, kind: str, option: str | int) -> None:
    choose(phone, kind, option)
    confirm_ballot(phone)


def coins(phone: Page) -> int:
    return int(phone.locator("#wallet h2 strong").inner_text())


# --------------------------------------------------------------------------- evidence


def shot(target: Page | Locator, name: str, *, full_page: bool = False,
         prefix: str = "e2e") -> Path:
    """Save a screenshot of a key screen under artifacts/ (git-ignored) to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{prefix}-{name}.png"
    page = target if isinstance(target, Page) else target.page
    # As the room sees it: after the bars have grown (CSS animations of about a second).
    # (Polled from here: the pages' CSP forbids the eval that wait_for_function relies on.)
    for _ in range(50):
        if page.evaluate("document.getAnimations().every(a => a.playState !== 'running')"):
            break
        page.wait_for_timeout(100)
    if isinstance(target, Page):
        target.screenshot(path=str(path), full_page=full_page, animations="disabled")
    else:
        target.screenshot(path=str(path), animations="disabled")
    return path


def axe(page: Page) -> list[str]:
    """Every WCAG 2.2 A/AA violation axe-core finds on the page as it is now, one line each."""
    return axe_report(page)[0]


def axe_report(page: Page) -> tuple[list[str], list[str]]:
    """axe-core's violations on the page as it is now, one line each: (the WCAG 2.2 A and AA
    rules, any impact: these fail a test; axe's best practices, advisory).

    axe runs the rules tagged ``WCAG_TAGS`` and ``best-practice``, and
    ``label-content-name-mismatch`` besides (an experimental rule, off unless named; 2.5.3).
    No rule is disabled and no element excluded (docs/accessibility.md). Two checks axe only
    lists for a person to review are made here and fail like its own (``NAMES_AND_REFERENCES``).
    """
    results = AXE.run(page, options=AXE_OPTIONS)
    failing, advisory = list(page.evaluate(NAMES_AND_REFERENCES)), []
    for violation in results.response["violations"]:
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]][:4]
        line = f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}"
        wcag = violation["id"] in STRICT_RULES or set(violation["tags"]) & set(WCAG_TAGS)
        (failing if wcag else advisory).append(line)
    return failing, advisory


class Audit:
    """axe results collected along a lesson, asserted at the end (one report for all pages).

    Every violation of a WCAG 2.2 A or AA rule fails the test, whatever its impact; axe's
    best practices are advisory. All of it is written to artifacts/e2e-axe-<name>.json for a
    person to read, with the pages checked and the seconds axe took.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.pages: dict[str, list[str]] = {}
        self.minor: dict[str, list[str]] = {}
        self.seconds = 0.0

    def check(self, page: Page, name: str) -> None:
        started = time.monotonic()
        self.pages[name], self.minor[name] = axe_report(page)
        self.seconds += time.monotonic() - started

    def projector(self, page: Page, name: str, sizes: Iterable[tuple[int, int]] = SIZES,
                  ) -> None:
        """The projector at each of its screen sizes (1920×1080 and 1280×720), then back to
        the size it had."""
        before = page.viewport_size
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            self.check(page, f"{name} at {width}×{height}")
        if before:
            page.set_viewport_size(before)

    def assert_clean(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        report = {"WCAG 2.2 A and AA": self.pages, "best practices (advisory)": self.minor,
                  "pages checked": len(self.pages), "seconds in axe": round(self.seconds, 1)}
        (ARTIFACTS / f"e2e-axe-{self.name}.json").write_text(json.dumps(report, indent=2))
        print(f"axe ({self.name}): {len(self.pages)} pages in {self.seconds:.1f} s")
        bad = {name: found for name, found in self.pages.items() if found}
        assert not bad, "axe found WCAG 2.2 AA violations:\n" + json.dumps(bad, indent=2)


def frames_of(page: Page) -> list[dict[str, Any]]:
    """Record the JSON frames the page's websockets receive (attach before they open)."""
    frames: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames
