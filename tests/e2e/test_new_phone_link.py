"""The "New phone" link in real browsers: it works once, and the earlier phone, with its page
and socket open, is signed out with a clear screen when the new phone takes the seat."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import ui
from tests.e2e.fixtures import Phones


@pytest.mark.e2e
def test_the_new_phone_link_works_once_and_signs_the_old_phone_out(teacher: Page,
                                                                   phones: Phones) -> None:
    address = ui.new_lesson(teacher, "New phone")
    old = phones.new()
    ui.join(old, address, "Ana")
    teacher.goto(re.sub(r"/$", "/students/", teacher.url))
    teacher.get_by_role("row", name=re.compile("Ana")).get_by_role(
        "button", name="New phone").click()
    # The link names the laptop's wifi address; the test server is on 127.0.0.1.
    link = urlsplit(teacher.locator("code").inner_text().strip()).path
    assert link.startswith("/seat/"), link

    new = phones.new()
    new.goto(link)
    expect(new.get_by_role("heading", name="Play as Ana on this phone?")).to_be_visible()
    expect(ui.heading(old, "You're in, Ana!")).to_be_visible()  # nothing happened yet
    new.get_by_role("button", name="Take Ana's seat").click()
    expect(ui.heading(new, "You're in, Ana!")).to_be_visible()
    # The old phone's open page is told, reloads and says why it has no seat.
    expect(old.get_by_text("You were removed from the lesson, or your seat moved")).to_be_visible()
    expect(old.get_by_role("heading", name="Join the lesson")).to_be_visible()

    late = phones.new()
    late.goto(link)
    expect(late.get_by_role("heading", name="This link no longer works")).to_be_visible()
    expect(late.get_by_text("already been used")).to_be_visible()
