"""A student with a screen reader hears their time running out, sparingly: a running
countdown is told in the polite #announcer once as it passes 1 minute left and once at
10 seconds left, never second by second (the countdown itself is role="timer" with
aria-live="off"), and the focus does not move (WCAG 2.2.1, 4.1.3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e import ui
from tests.e2e.fit import join_class

pytestmark = pytest.mark.e2e


def seconds(countdown: Locator) -> int:
    minutes, secs = countdown.locator("[data-time]").inner_text().split(":")
    return int(minutes) * 60 + int(secs)


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement.outerHTML.slice(0, 80)")


def test_a_phones_countdown_is_told_at_one_minute_and_at_ten_seconds_left(
        teacher: Page, phones, server: str, browser) -> None:
    address = ui.new_lesson(teacher, "Countdown told", class_size=32)
    phone = phones.new()
    phone.clock.install()  # the phone's own time, moved on below (the server's is not)
    ui.join(phone, address, "Ana")
    join_class(browser, server, address, 5)
    expect(teacher.locator(".lobby .count")).to_contain_text("6 students")
    while ui.stage(teacher) != "debate":
        ui.press_next(teacher)
    mine = phone.locator("#live [data-countdown]")
    expect(mine).to_contain_text("Debate:")
    expect(mine).to_have_attribute("role", "timer")
    expect(mine).to_have_attribute("aria-live", "off")
    told = phone.locator("#announcer")
    phone.wait_for_timeout(2500)  # it ticks, and says nothing
    assert seconds(mine) > 65
    expect(told).to_have_text("")
    where = focused(phone)

    phone.clock.fast_forward((seconds(mine) - 58) * 1000)
    expect(told).to_have_text("1 minute left")
    phone.clock.fast_forward(5_000)
    expect(told).to_have_text("1 minute left")  # once: not again at 53 s
    phone.clock.fast_forward((seconds(mine) - 8) * 1000)
    expect(told).to_have_text("10 seconds left")
    assert focused(phone) == where
    ui.shot(phone, "countdown-told-ten-seconds", prefix="a11y")
