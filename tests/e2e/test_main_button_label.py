"""The console's main button says "Close the vote" while a vote holds no ballot the count
would open, and turns to "Count the votes" on the page as soon as a bag holds three tokens,
its confirmation naming it so, with no new screen (static/js/live.js,
facilitator/main_button.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import ui
from tests.e2e.fit import join_class


@pytest.mark.e2e
def test_the_main_button_turns_to_count_once_the_bag_holds_ballots_to_open(
        teacher: Page, browser: Browser, server: str) -> None:
    address = ui.new_lesson(teacher, "Button", class_size=32)
    class_ = join_class(browser, server, address, 6)
    expect(teacher.locator(".lobby .count")).to_contain_text("6 students")
    while ui.stage(teacher) != "tax_vote":
        ui.press_next(teacher)
    button = teacher.locator("#live button[data-key=next]")
    expect(button).to_have_text("Close the vote ▶")
    button.evaluate("b => { b.dataset.seen = 'before the ballots'; }")
    class_[0].post(type="ballot", kind="tax", option="C")
    expect(teacher.locator("[data-progress][data-voted='1']")).to_be_visible()
    expect(button).to_have_text("Close the vote ▶")  # one token: it would close unopened
    for student in class_[1:3]:
        student.post(type="ballot", kind="tax", option="B")
    expect(teacher.locator("[data-progress][data-voted='3']")).to_be_visible()
    expect(button).to_have_text("Count the votes ▶")
    expect(button).to_have_attribute("data-seen", "before the ballots")  # no new screen
    teacher.keyboard.press("Space")  # three of six: asked first, naming the button
    expect(teacher.locator("[data-confirm-box]")).to_contain_text("for “Count the votes”")
    ui.shot(teacher, "main-button-count")
