"""Live updates keep the user's place, and a refused action's message stays (static/js/live.js).

An Austerity lesson of four phones at one table, in its first year, where the class acts all
the time (motions raised and supported, the minister's decisions) and every act sends the
table's phones and the teacher's console a new screen of the same moment:

- a phone with "Raise a motion" open, an option ticked and focused, scrolled down, keeps all
  of that through ten such screens;
- the console's teacher's controls, opened by the teacher, with a timer chosen and its
  seconds half-typed and focused, keep all of that through a screen;
- a refused motion's message is still on the phone five seconds and several screens later,
  and goes as soon as the student acts again.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e import ui

NAMES = ["Ada", "Bea", "Cai", "Dev"]
# The budget session's choice by item (the option's index on the ballot), as in the whole
# lesson's test: raise taxes once, borrow nothing, pay a loan when the country can.
VOTES = {"budget_taxes": 1, "budget_borrow": 0, "budget_loan": 1, "budget_policy": 0,
         "budget_institution": 0}
READER_TARGET = "event"  # the motion the reader keeps ticked: the table votes on events


def open_austerity(teacher: Page) -> str:
    """New lesson → Austerity, in English, a 3-year limit, the timers long enough that no
    wait answers itself while the test looks; the lobby's join address."""
    teacher.get_by_role("link", name="New lesson").click()
    teacher.get_by_role("link", name="Austerity: Governing a Country in Debt").click()
    teacher.wait_for_url("**/lessons/new/?game=austerity")
    teacher.get_by_label("Lesson title").fill("Keeping places")
    teacher.get_by_label("Language", exact=True).select_option("en")
    teacher.get_by_label("Class size").fill("6")
    teacher.get_by_label("Year limit").select_option("3")
    teacher.get_by_label("Seconds for each of the minister's decisions").fill("300")
    teacher.get_by_label("Seconds for each table vote").fill("300")
    teacher.get_by_role("button", name="Create and open the projector view").click()
    teacher.wait_for_url(re.compile(r"/teacher/lessons/\d+/$"))
    return ui.join_address(teacher)


def views(frames: list[dict[str, Any]]) -> int:
    return sum(1 for frame in frames if frame["type"] == "view")


def to_the_year(teacher: Page, phones: list[Page]) -> None:
    """Every phone votes on every budget item; the teacher moves on until the year."""
    for _item in range(8):
        stage = ui.stage(teacher)
        if stage == "year":
            return
        for phone in phones:
            expect(phone.locator("#now")).to_have_attribute(
                "data-phase", ui.topbar(teacher).get_attribute("data-phase") or "")
            if not phone.locator('#now form[data-action="ballot"]').count():
                continue
            phone.locator("#now input[name=option]").nth(VOTES.get(stage, 0)).check()
            phone.get_by_role("button", name="Put my token in the bag").click()
            expect(phone.locator('#now form[data-action="ballot"]')).to_have_count(0)
        ui.press_next(teacher)
    raise AssertionError(f"the budget session did not end: {ui.stage(teacher)}")


def done(phone: Page, pressed: Locator) -> bool:
    """The act went in (what was pressed is gone) or was refused (the phone says why: a screen
    behind the table's, and nothing changed for the others)."""
    refused = phone.locator("#now [data-error]")
    for _ in range(200):
        if refused.is_visible():
            return False
        if not pressed.count():
            return True
        phone.wait_for_timeout(50)
    raise AssertionError("the act was neither taken nor refused")


class Table:
    """The four phones at the table, and what the others than the reader can do there, one
    act at a time, each a new screen of the same moment for every phone and the console."""

    def __init__(self, phones: list[Page], reader: Page) -> None:
        self.reader = reader
        self.others = [p for p in phones if p is not reader]
        self.raised: set[str] = set()

    def raise_motion(self, phone: Page, target: str) -> bool:
        form = phone.locator('form[data-action="motion_raise"]')
        option = form.locator(f'input[value="{target}"]')
        if not form.count() or not option.count():
            return False
        phone.locator("details.raise summary").click()
        option.check()
        form.get_by_role("button", name="Raise this motion").click()
        expect(phone.locator("details.raise")).to_have_count(0)  # one open motion each
        self.raised.add(target)
        return True

    # A tablemate's phone may take another act's screen at any moment, so each act finds its
    # button and presses it in one step of the page (no button between a look and a click).
    def support(self, phone: Page) -> bool:
        motion = phone.evaluate("""() => {
            const form = document.querySelector('form[data-action="motion_support"]');
            if (!form) return null;
            form.querySelector("button").click();
            return form.querySelector("input[name=motion]").value;
        }""")
        return motion is not None and done(phone, phone.locator(
            f'form[data-action="motion_support"]:has(input[name=motion][value="{motion}"])'))

    def decide(self, phone: Page) -> bool:
        decision = phone.evaluate("""() => {
            const form = document.querySelector("#now form.decide");
            if (!form) return null;
            form.querySelector("button").click();
            return form.querySelector("input[name=decision]").value;
        }""")
        return decision is not None and done(
            phone, phone.locator(f'#now form.decide input[name=decision][value="{decision}"]'))

    def act(self) -> None:
        """One act by another student: raise a motion (on cuts or income: the reader's
        kind is left to ``raise_motion``), else support one, else the minister's next
        decision."""
        for phone in self.others:
            for target in ("cuts", "income"):
                if target not in self.raised and self.raise_motion(phone, target):
                    return
        for phone in self.others:
            if self.support(phone):
                return
        for phone in self.others:
            if self.decide(phone):
                return
        raise AssertionError("nobody at the table can act")


def wait_for_views(page: Page, frames: list[dict[str, Any]], at_least: int) -> None:
    for _ in range(400):
        if views(frames) >= at_least:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{views(frames)} screens arrived, not {at_least}")


def place(page: Page) -> dict[str, Any]:
    """Where the page's user is: which details are open, the focused element (and whether its
    focus shows), where that element is on the screen, how far the page is scrolled."""
    return json.loads(page.evaluate("""() => {
        const focused = document.activeElement;
        return JSON.stringify({
            open: [...document.querySelectorAll('#live details')].map((d) => d.open),
            focus: focused ? focused.outerHTML.slice(0, 120) : null,
            visible: focused ? focused.matches(':focus-visible') : false,
            at: focused ? Math.round(focused.getBoundingClientRect().top) : null,
            y: Math.round(window.scrollY),
        });
    }"""))


@pytest.mark.e2e
def test_a_phone_and_the_console_keep_their_place_and_a_refusal_stays(
        teacher: Page, phones) -> None:
    address = open_austerity(teacher)
    console_frames = ui.frames_of(teacher)
    teacher.reload()  # the console's socket, recorded from now on
    class_phones, reader_frames = [], []
    for name in NAMES:
        phone = phones.new()
        frames = ui.frames_of(phone)
        ui.join(phone, address, name)
        class_phones.append(phone)
        reader_frames.append(frames)
    expect(teacher.locator(".lobby .count")).to_have_text("4 students have joined")
    ui.press_next(teacher, "click")  # one table of four, at the budget session
    to_the_year(teacher, class_phones)
    year = ui.topbar(teacher).get_attribute("data-phase")
    for phone in class_phones:
        expect(phone.locator("#now")).to_have_attribute("data-phase", year or "")
    reader_at = next(i for i, p in enumerate(class_phones)
                     if not p.locator(".aus-chair").count()
                     and p.locator('form[data-action="motion_raise"]').count())
    reader, frames = class_phones[reader_at], reader_frames[reader_at]
    table = Table(class_phones, reader)

    # The teacher opens the controls, chooses a timer and starts typing its seconds.
    controls = teacher.locator("details.aus-teacher")
    expect(controls).not_to_have_attribute("open", "")
    controls.locator("summary").click()
    timers = controls.locator("form.timers")
    timers.locator("select[name=kind]").select_option("cuts")
    seconds = timers.locator("input[name=seconds]")
    seconds.click()
    teacher.keyboard.type("4")

    # The reader opens "Raise a motion" from the keyboard, ticks a kind and scrolls on.
    summary = reader.locator("details.raise summary")
    summary.focus()
    reader.keyboard.press("Enter")
    option = reader.locator(f'form[data-action="motion_raise"] input[value="{READER_TARGET}"]')
    option.focus()
    reader.keyboard.press("Space")
    expect(option).to_be_checked()
    reader.mouse.wheel(0, 120)
    reader.wait_for_timeout(300)
    before = place(reader)
    assert before["y"] > 0 and before["visible"] and 0 < before["at"] < 700, before
    ui.shot(reader, "keep-place-phone-before")

    # First act: a tablemate raises a motion. The console's screen of the same moment keeps
    # its open controls, the timer chosen, the seconds typed so far and the focus.
    shown = views(frames)
    console_shown = views(console_frames)
    table.act()
    wait_for_views(teacher, console_frames, console_shown + 1)
    expect(controls).to_have_attribute("open", "")
    expect(timers.locator("select[name=kind]")).to_have_value("cuts")
    expect(seconds).to_have_value("4")
    expect(seconds).to_be_focused()
    ui.shot(teacher, "keep-place-console-after-an-update")
    teacher.keyboard.type("5")
    expect(seconds).to_have_value("45")

    # Nine more acts (ten screens at least): the reader's place is kept through every one.
    for n in range(2, 11):
        table.act()
        wait_for_views(reader, frames, shown + n)
    assert views(frames) >= shown + 10
    expect(reader.locator(".motion")).to_have_count(len(table.raised))
    after = place(reader)
    # The same place: the motions raised above the form pushed it down the page, and the page
    # scrolled with it, so the ticked option is where it was on the screen (to the pixel: the
    # page scrolls by whole pixels, and an element's top may lie between two).
    assert after["y"] > before["y"], (before, after)
    assert abs(after["at"] - before["at"]) <= 1, (before, after)
    assert {**after, "y": None, "at": None} == {**before, "y": None, "at": None}, (before, after)
    expect(reader.locator("details.raise")).to_have_attribute("open", "")
    expect(option).to_be_checked()
    expect(option).to_be_focused()
    ui.shot(reader, "keep-place-phone-after-ten-updates")

    # The teacher sets the timer: accepted, that form starts afresh, the controls stay open.
    timers.get_by_role("button", name="Set the timer").click()
    expect(seconds).to_have_value("")
    expect(controls).to_have_attribute("open", "")

    # The reader's wifi drops; the reader raises the motion anyway (kept until the phone is
    # back), and meanwhile a tablemate raises the same one. Back online, the phone sends it:
    # refused, and said.
    reader.context.set_offline(True)
    expect(reader.locator("#connection")).to_be_visible()
    reader.get_by_role("button", name="Raise this motion").click()
    raiser = next(p for p in table.others if p.locator("details.raise").count())
    assert table.raise_motion(raiser, READER_TARGET)
    refused_at = views(frames)
    reader.context.set_offline(False)
    error = reader.locator("#now [data-error]")
    expect(error).to_have_text(re.compile(r"Motion \d+ already asks this: support it instead"))
    expect(error).to_have_attribute("role", "alert")
    started = reader.evaluate("Date.now()")
    wait_for_views(reader, frames, refused_at + 2)  # on reconnecting, and the refusal's
    table.act()  # the class goes on: a new screen of the same moment
    wait_for_views(reader, frames, refused_at + 3)
    reader.wait_for_timeout(max(0, 5000 - (reader.evaluate("Date.now()") - started)))
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    expect(error).to_have_text(re.compile(r"Motion \d+ already asks this: support it instead"))
    ui.shot(reader, "keep-place-refusal-five-seconds-later")

    # The reader acts again (supports that motion instead): the message goes.
    reader.locator('form[data-action="motion_support"] button').last.click()
    expect(error).to_be_hidden()
    expect(reader.get_by_text("You support this motion.").first).to_be_visible()


@pytest.mark.e2e
def test_a_new_moment_starts_afresh_from_now(teacher: Page, phones) -> None:
    """A screen of another moment does not keep the place: "Now" from the top, and a
    refusal of the moment before is gone."""
    address = open_austerity(teacher)
    class_phones = []
    for name in NAMES:
        phone = phones.new()
        ui.join(phone, address, name)
        class_phones.append(phone)
    ui.press_next(teacher, "click")
    phone = class_phones[0]
    expect(phone.locator('#now form[data-action="ballot"]')).to_be_visible()
    phone.mouse.wheel(0, 400)
    phone.wait_for_timeout(300)
    assert place(phone)["y"] > 0
    for other in class_phones:
        other.locator("#now input[name=option]").nth(VOTES["budget_taxes"]).check()
        other.get_by_role("button", name="Put my token in the bag").click()
        expect(other.locator('#now form[data-action="ballot"]')).to_have_count(0)
    phone.mouse.wheel(0, 400)
    phone.wait_for_timeout(300)
    before = ui.topbar(teacher).get_attribute("data-phase")
    ui.press_next(teacher)
    expect(phone.locator("#now")).not_to_have_attribute("data-phase", before or "")
    expect(phone.locator("#now")).to_be_in_viewport()
    assert place(phone)["y"] == 0
