"""A student with a screen reader casts an Austerity budget ballot from the keyboard only.

The ballot is a group named by its question, each option named with its visible words
(WCAG 2.5.3); on a new item the focus is on the item's heading; after the ballot the focus is
on the confirmation (the form that had it left the page) and the count is told in the polite
#announcer; the held count ("Everyone has voted") is told there too, without moving the focus;
the teacher's next item takes the focus to its heading. Nothing told says who chose what."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import ui
from tests.e2e.fit import CSRF, join_class

pytestmark = pytest.mark.e2e

FOCUSED = """() => { const e = document.activeElement;
  return { tag: e.localName, text: e.textContent.trim(), tabindex: e.getAttribute("tabindex"),
           inNow: Boolean(e.closest("#now")) }; }"""
DECISION = re.compile(r'name="decision" value="([^"]+)"')


def open_austerity(teacher: Page) -> str:
    teacher.get_by_role("link", name="New lesson").click()
    teacher.get_by_role("link", name="Austerity: Governing a Country in Debt").click()
    teacher.wait_for_url("**/lessons/new/?game=austerity")
    teacher.get_by_label("Lesson title").fill("Screen reader")
    teacher.get_by_label("Language", exact=True).select_option("en")
    teacher.get_by_label("Class size").fill("6")
    teacher.get_by_label("Seconds for each table vote").fill("300")
    teacher.get_by_role("button", name="Create and open the projector view").click()
    teacher.wait_for_url(re.compile(r"/teacher/lessons/\d+/$"))
    return ui.join_address(teacher)


def test_a_student_with_a_screen_reader_votes_on_a_budget_item_by_keyboard(
        teacher: Page, phones, browser: Browser, server: str) -> None:
    address = open_austerity(teacher)
    phone = phones.new()
    ui.join(phone, address, "Ada")
    others = join_class(browser, server, address, 3)
    expect(teacher.locator(".lobby .count")).to_contain_text("4 students")
    teacher.locator("body").focus()
    ui.press_next(teacher, "PageDown")
    ballot = phone.locator('#now form[data-action="ballot"]')
    expect(ballot).to_be_visible()

    # The new item's heading has the focus.
    item = phone.locator("#now h1").first
    shown = phone.evaluate(FOCUSED)
    assert shown == {"tag": "h1", "text": item.inner_text().strip(), "tabindex": "-1",
                     "inNow": True}, shown

    # A named group; each option's name holds the words it shows.
    question = ballot.locator("legend").inner_text().strip()
    snapshot = ballot.aria_snapshot()
    assert f'- group "{question}"' in snapshot, snapshot
    names = re.findall(r'- radio "([^"]*)"', snapshot)
    labels = ballot.locator("label.choice")
    assert len(names) == labels.count() >= 2
    for i, name in enumerate(names):
        assert re.findall(r"\w+", labels.nth(i).inner_text()) == re.findall(r"\w+", name)

    # Keyboard only: into the group, the second option, the button, Enter.
    phone.keyboard.press("Tab")
    phone.keyboard.press("ArrowDown")
    expect(ballot.locator("input[name=option]").nth(1)).to_be_checked()
    phone.keyboard.press("Tab")
    assert phone.evaluate(FOCUSED)["text"] == "Put my token in the bag"
    phone.keyboard.press("Enter")
    voted = phone.locator("#now [data-voted] h1")
    expect(voted).to_be_visible()
    expect(voted).to_have_text("Your token is in the bag")
    assert phone.evaluate(FOCUSED)["text"] == "Your token is in the bag"
    told = phone.locator("#announcer")
    expect(told).to_have_text("When your token went in, 1 of 4 had voted.")

    # The others vote: the bag is counted at once and the heading turns; that is told, and
    # the focus stays on the heading it was on.
    for student in others:
        page = student.page()
        student.api.post("/play/act/", form={
            "csrfmiddlewaretoken": CSRF.search(page).group(1), "type": "ballot",
            "decision": DECISION.search(page).group(1), "option": "0",
            "expected": re.search(r'id="now" class="card now" data-phase="([^"]+)"',
                                  page).group(1)})
    expect(voted).to_have_text("Everyone has voted")
    expect(told).to_have_text("Everyone has voted")
    assert phone.evaluate(FOCUSED)["text"] == "Everyone has voted"
    ui.shot(phone, "austerity-screen-reader-everyone-voted", prefix="a11y")

    # The teacher's next item (a clicker's →): the focus goes to its heading.
    ui.press_next(teacher, "ArrowRight")
    expect(ballot).to_be_visible()
    shown = phone.evaluate(FOCUSED)
    assert shown["inNow"] and shown["tag"] == "h1" and shown["tabindex"] == "-1", shown
    assert shown["text"] == phone.locator("#now h1").first.inner_text().strip()
