"""A student with a screen reader casts a ballot (State in Class), from the keyboard only.

What the phone tells assistive technology: the ballot is a named group whose options are
named with their visible words (WCAG 2.5.3); on a new moment of the lesson the focus goes to
its heading; the confirmation takes the focus only because the form that had it left the page,
and the count is told in a polite status region (#announcer) that never says who chose what.
The console tells the count and each new moment in the same polite region, and a live update
never moves the teacher's focus."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e import ui
from tests.e2e.fit import join_class

pytestmark = pytest.mark.e2e

FOCUSED = """() => { const e = document.activeElement;
  return { tag: e.localName, text: e.textContent.trim(), tabindex: e.getAttribute("tabindex"),
           inNow: Boolean(e.closest("#now")), id: e.id, key: e.dataset.key || "" }; }"""


def focused(page: Page) -> dict[str, str]:
    return page.evaluate(FOCUSED)


def announcer(page: Page) -> Locator:
    return page.locator("#announcer")


def named_options(snapshot: str) -> list[str]:
    """The radios' accessible names in an ARIA snapshot."""
    return re.findall(r'- radio "([^"]*)"', snapshot)


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def test_a_student_with_a_screen_reader_casts_a_ballot_by_keyboard_and_hears_the_count(
        teacher: Page, phones, browser: Browser, server: str) -> None:
    address = ui.new_lesson(teacher, "Screen reader", class_size=32)
    phone = phones.new()
    ui.join(phone, address, "Ana")
    class_ = join_class(browser, server, address, 5)
    expect(teacher.locator(".lobby .count")).to_contain_text("6 students")
    ui.press_next(teacher, "click")
    ui.make_pact(phone, 2)
    for student in class_:
        student.post(type="pact", coins="2")
    teacher.locator("body").focus()
    while ui.stage(teacher) != "tax_vote":
        ui.press_next(teacher, "PageDown")
        # the console's new moment is told (its progress bar's current step)
        expect(announcer(teacher)).not_to_be_empty()

    # A new moment: the phone's focus is on its heading, which a screen reader reads.
    expect(ui.heading(phone, "Tax vote")).to_be_visible()
    assert focused(phone) == {"tag": "h1", "text": "Tax vote", "tabindex": "-1",
                              "inNow": True, "id": "", "key": ""}

    # The ballot: a group with a name, each option named with the words it shows.
    ballot = phone.locator('#now form[data-action="ballot"]')
    snapshot = ballot.aria_snapshot()
    assert '- group "Tax options"' in snapshot, snapshot
    names = named_options(snapshot)
    labels = ballot.locator("label.choice")
    assert len(names) == labels.count() == 4
    for name, i in zip(names, range(4), strict=True):
        shown = labels.nth(i).inner_text()
        assert words(shown) == words(name), (shown, name)
        assert name.startswith("ABCD"[i] + " ")

    # By keyboard: Tab into the group, the arrows pick C, Tab to the button, Enter.
    phone.keyboard.press("Tab")
    assert focused(phone)["tag"] == "input"
    phone.keyboard.press("Space")
    phone.keyboard.press("ArrowDown")
    phone.keyboard.press("ArrowDown")
    expect(ballot.locator("input[name=option]").nth(2)).to_be_checked()
    phone.keyboard.press("Tab")
    assert focused(phone)["text"] == "Put my token in the bag"
    phone.keyboard.press("Enter")

    # The form that had the focus left the page: the focus is on the confirmation's heading,
    # and the count is told politely; nothing says which option went in.
    expect(ui.in_the_bag(phone)).to_be_visible()
    assert focused(phone)["text"] == "Your token is in the bag"
    told = announcer(phone)
    expect(told).to_have_attribute("aria-live", "polite")
    expect(told).to_have_attribute("role", "status")
    expect(told).to_have_text("When your token went in, 1 of 6 had voted.")
    assert "aria-live" not in (phone.locator("#live").get_attribute("aria-live") or "")

    # The console: the teacher's focus stays on the control it was on while ballots come in;
    # the count is told once the burst settles.
    pause = teacher.get_by_role("button", name=re.compile("^Pause"))
    pause.focus()
    for student in class_[:3]:
        student.post(type="ballot", kind="tax", option="B")
    expect(teacher.locator("[data-progress]")).to_have_text("4 of 6 have voted")
    expect(announcer(teacher)).to_have_text("4 of 6 have voted")
    assert focused(teacher)["text"].startswith("Pause")
    for secret in ("Flat", "Proportional", "Progressive", "Maximum", "B", "C"):
        assert secret not in announcer(teacher).inner_text().split()
        assert secret not in told.inner_text().split()
    ui.shot(phone, "screen-reader-in-the-bag", prefix="a11y")

    # The teacher counts (the clicker's Page Down, the focus on the page): the phone's focus
    # goes to the new moment's heading, the console tells the new moment.
    teacher.locator("body").focus()
    for student in class_[3:]:
        student.post(type="ballot", kind="tax", option="B")
    # the last token in: the bag is counted, and the console says so politely
    expect(teacher.locator("[data-progress]")).to_have_text("The bag has been counted.")
    expect(announcer(teacher)).to_have_text("The bag has been counted.")
    ui.press_next(teacher, "PageDown")
    expect(phone.locator('#now form[data-action="ballot"]')).to_have_count(0)
    expect(ui.in_the_bag(phone)).to_have_count(0)
    shown = focused(phone)
    assert shown["inNow"] and shown["tag"] in ("h1", "h2") and shown["tabindex"] == "-1", shown
    expect(announcer(teacher)).to_contain_text(re.compile(r"\w"))
    ui.shot(teacher, "screen-reader-console-after-count", prefix="a11y")
