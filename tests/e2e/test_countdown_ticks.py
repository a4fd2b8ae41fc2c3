"""A timer's countdown ticks on the projector and on a phone whose clock is ten minutes
wrong, both showing the server's time; paused, it stands still on both and says so, and goes
on when the lesson resumes (static/js/live.js, templates/facilitator/_countdown.html)."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e import ui
from tests.e2e.fit import join_class


def seconds(countdown: Locator) -> int:
    minutes, secs = countdown.locator("[data-time]").inner_text().split(":")
    return int(minutes) * 60 + int(secs)


def ticks(page: Page, countdown: Locator) -> tuple[int, int]:
    """The seconds shown, then again 2.5 s later."""
    before = seconds(countdown)
    page.wait_for_timeout(2500)
    return before, seconds(countdown)


@pytest.mark.e2e
def test_a_countdown_ticks_by_the_servers_time_and_stands_still_while_paused(
        teacher: Page, phones, server: str, browser) -> None:
    address = ui.new_lesson(teacher, "Countdown", class_size=32)
    phone = phones.new()
    # The phone's clock is ten minutes fast: its countdown must not read it as the time.
    phone.clock.install(time=dt.datetime.now() + dt.timedelta(minutes=10))
    ui.join(phone, address, "Ana")
    join_class(browser, server, address, 5)
    expect(teacher.locator(".lobby .count")).to_contain_text("6 students")
    while ui.stage(teacher) != "debate":
        ui.press_next(teacher)  # start, the event, the debate (nobody's pact: 0 coins)
    projected = teacher.locator("#live [data-countdown]")
    mine = phone.locator("#live [data-countdown]")
    expect(mine).to_contain_text("Debate:")
    before, after = ticks(teacher, projected)
    assert 1 <= before - after <= 4 and 100 <= after <= 120, (before, after)
    before, after = ticks(phone, mine)
    assert 1 <= before - after <= 4, (before, after)
    assert abs(seconds(mine) - seconds(projected)) <= 2  # the server's time, not the phone's
    ui.shot(teacher, "countdown-running")
    ui.shot(phone, "countdown-running-phone")

    teacher.keyboard.press("p")  # pause the lesson
    expect(projected).to_contain_text("paused")
    expect(mine).to_contain_text("paused")
    before, after = ticks(teacher, projected)
    assert before == after
    assert seconds(mine) == after
    ui.shot(teacher, "countdown-paused")
    ui.shot(phone, "countdown-paused-phone")

    teacher.keyboard.press("p")  # resume: on from where it stood
    expect(projected).not_to_contain_text("paused")
    before, after = ticks(teacher, projected)
    assert 1 <= before - after <= 4 and before <= seconds(mine) + 3
