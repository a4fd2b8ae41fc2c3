"""A teacher who uses only the keyboard, or a presentation clicker, runs a lesson; a student
tabs through the phone page. Every element the Tab key reaches shows a focus ring that no
sticky or fixed part of the page covers (WCAG 2.1.1, 2.4.7, 2.4.11).

- the console: Tab reaches every control, Enter and Space press the focused one (Space on
  Pause pauses, it does not move the lesson on);
- a clicker: Page Down, → and Space (the focus on the page, or left on a button by the mouse)
  press the main button; Page Up and ← change nothing;
- the phone: its section tabs stay at the top of the screen (sticky); an element the focus
  comes back to (Shift+Tab) is scrolled below them, not under them (scroll-padding-top).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import ui
from tests.e2e.fit import join_class

pytestmark = pytest.mark.e2e

# What the focused element looks like: its ring, and what is drawn at its centre (a sticky or
# fixed element over it would be there instead).
FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const box = e.getBoundingClientRect();
  const style = getComputedStyle(e);
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  // the middle of each edge (just inside) and the centre: what is drawn there (on screen)
  const points = [[x, y], [x, box.top + 2], [x, box.bottom - 2], [box.left + 2, y],
                  [box.right - 2, y]];
  const over = points.filter(([, py]) => py >= 0 && py <= innerHeight)
    .map(([px, py]) => document.elementFromPoint(px, py))
    .filter((top) => top && !e.contains(top) && !top.contains(e));
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  return { what: `${e.localName} ${(e.textContent || e.value || "").trim().slice(0, 40)}`,
           ring, onScreen: y >= 0 && y <= innerHeight,
           covered: over.length > 0,
           over: over.length ? `${over[0].localName}.${over[0].className}` : "",
           y: Math.round(box.top), height: innerHeight };
}"""


def tab_through(page: Page, presses: int, key: str = "Tab") -> list[dict]:
    """Press ``key`` up to ``presses`` times; what each focused element looked like."""
    seen = []
    for _n in range(presses):
        page.keyboard.press(key)
        page.wait_for_timeout(80)  # the browser's own scroll to the focused element
        focus = page.evaluate(FOCUS)
        if focus is not None:
            seen.append(focus)
    return seen


def hidden_rings(seen: list[dict]) -> list[str]:
    return [f"{f['what']}: ring={f['ring']} at y={f['y']} of {f['height']}, covered by "
            f"{f['over']}" for f in seen
            if not f["ring"] or f["covered"] or not f["onScreen"]]


def test_a_keyboard_teacher_and_a_clicker_run_the_lesson_with_the_focus_always_seen(
        teacher: Page, phones, browser: Browser, server: str) -> None:
    address = ui.new_lesson(teacher, "Keyboard only", class_size=32)
    phone = phones.new()
    ui.join(phone, address, "Ana")
    join_class(browser, server, address, 5)
    expect(teacher.locator(".lobby .count")).to_contain_text("6 students")

    # Tab from the top of the console to Start; every stop shows its ring, uncovered.
    teacher.locator("body").focus()
    seen = []
    for _n in range(40):
        seen += tab_through(teacher, 1)
        if seen and seen[-1]["what"].startswith("button Start"):
            break
    assert seen[-1]["what"].startswith("button Start"), seen
    assert hidden_rings(seen) == []
    teacher.keyboard.press("Enter")
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "pact")
    # The new moment keeps the focus on the main button (the teacher's task is the same).
    expect(teacher.locator("#live button[data-key=next]")).to_be_focused()
    teacher.keyboard.press("Enter")
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "event")

    # Space on the focused Pause button pauses; the lesson stays where it is.
    pause = teacher.get_by_role("button", name=re.compile("^Pause"))
    pause.focus()
    teacher.keyboard.press("Space")
    expect(teacher.locator(".paused-banner")).to_be_visible()
    assert ui.stage(teacher) == "event"
    resume = teacher.get_by_role("button", name=re.compile("^Resume"))
    expect(resume).to_be_focused()  # the same key's button, after the new screen
    teacher.keyboard.press("Enter")
    expect(teacher.locator(".paused-banner")).to_have_count(0)

    # Every control of the console by Tab (and back): a ring, never covered.
    teacher.locator("body").focus()
    assert hidden_rings(tab_through(teacher, 25)) == []
    assert hidden_rings(tab_through(teacher, 25, "Shift+Tab")) == []
    ui.shot(teacher, "keyboard-console-focus", prefix="a11y")

    # A clicker, the focus on the page: Page Up and ← change nothing; Page Down, → and
    # Space each move the lesson on.
    teacher.locator("body").focus()
    phase = ui.topbar(teacher).get_attribute("data-phase")
    teacher.keyboard.press("PageUp")
    teacher.keyboard.press("ArrowLeft")
    teacher.wait_for_timeout(500)
    assert ui.topbar(teacher).get_attribute("data-phase") == phase
    assert ui.stage(teacher) == "event"
    assert ui.press_next(teacher, "PageDown") == "debate"
    # Pause and Resume clicked with the mouse: a clicker's Space still moves the lesson on.
    teacher.locator("#live button[data-key=p]").click()
    expect(teacher.locator(".paused-banner")).to_be_visible()
    teacher.locator("#live button[data-key=p]").click()
    expect(teacher.locator(".paused-banner")).to_have_count(0)
    assert ui.press_next(teacher, "Space") == "tax_vote"

    # The phone: Tab down the page, then Shift+Tab back up it: the sticky section tabs never
    # cover the focused element.
    expect(ui.heading(phone, "Tax vote")).to_be_visible()
    phone.locator("body").focus()
    down = tab_through(phone, 20)
    phone.locator("body").focus()
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    up = tab_through(phone, 20, "Shift+Tab")
    assert len(down) >= 10 and len(up) >= 10
    assert hidden_rings(down) == [], [(f["what"], f["y"]) for f in down]
    assert hidden_rings(up) == [], [(f["what"], f["y"]) for f in up]
    # The button comes next after the options; the page is scrolled so that it sits under
    # the sticky tabs: the Tab key brings it out from under them.
    phone.locator("#now input[name=option]").last.focus()
    phone.evaluate("""() => {
      const button = document.querySelector('#now form[data-action="ballot"] button');
      const tabs = document.querySelector(".tabs").getBoundingClientRect();
      window.scrollBy(0, button.getBoundingClientRect().top - tabs.top - 4); }""")
    (button,) = tab_through(phone, 1)
    assert button["what"] == "button Put my token in the bag"
    assert hidden_rings([button]) == []
    ui.shot(phone, "keyboard-phone-focus", prefix="a11y")
