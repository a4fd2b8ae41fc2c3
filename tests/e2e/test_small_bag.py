"""A curious teacher in the browser: one token in the bag, then Next. The console asks first,
says the bag will close unopened, and the second press sends the confirmation; the bag is
closed as if nobody had voted, and the console and the phones say so (docs/secrecy.md)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import ui
from tests.e2e.fit import join_class


@pytest.mark.e2e
def test_a_one_token_count_is_asked_first_and_closes_the_bag_unopened(
        teacher: Page, browser: Browser, server: str) -> None:
    address = ui.new_lesson(teacher, "Small bag", class_size=32)
    class_ = join_class(browser, server, address, 6)
    expect(teacher.locator(".lobby .count")).to_contain_text("6 students")
    ui.press_next(teacher, "click")  # the pact
    for student in class_:
        student.post(type="pact", coins="1")
    while ui.stage(teacher) != "tax_vote":
        ui.press_next(teacher)
    class_[0].post(type="ballot", kind="tax", option="C")
    expect(teacher.locator("[data-progress][data-voted='1']")).to_be_visible()
    teacher.keyboard.press("Space")  # one of six: the console asks first
    box = teacher.locator("[data-confirm-box]")
    expect(box).to_contain_text("count anyway?")
    expect(box).to_contain_text("fewer than 3 tokens are in the bag: it closes unopened")
    ui.shot(teacher, "small-bag-asked")
    assert ui.stage(teacher) == "tax_vote"
    assert ui.press_next(teacher) == "pay"  # the same key again: confirmed
    expect(teacher.locator("#live .notice")).to_contain_text(
        "fewer than 3 tokens, so the bag was closed unopened")
    ui.shot(teacher, "small-bag-closed")
    assert "so none was opened" in class_[0].page()
    assert "so none was opened" in class_[1].page()
