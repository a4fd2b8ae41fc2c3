"""Pages anyone can reach: axe-core finds no WCAG 2.2 AA violation, and a phone's page is
light.

The screens of a running lesson (ballots, role card, projector during a vote, final count…)
are checked with axe along the way in each game's whole-lesson browser test (State in Class's:
tests/lessons/state_in_class/test_state_in_class_lesson_e2e.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import ui

GAMES = ("state-in-class", "austerity", "crisis", "poleconomy")
PHONE_BUDGET = 150 * 1024  # bytes on the wire for the phone's game page: HTML + CSS + JS


@pytest.mark.e2e
def test_teacher_and_public_pages_pass_axe(browser: Browser, server: str, teacher: Page,
                                           offsite: list[str]) -> None:
    audit = ui.Audit("pages")
    visitor = browser.new_context(base_url=server)
    try:
        page = visitor.new_page()
        for path, name in (("/", "home page"), ("/about/", "about page"),
                           ("/accounts/login/", "login page"), ("/join/", "join page")):
            page.goto(path)
            audit.check(page, name)
        ui.shot(page, "join-page-desktop")
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("nobody")
        page.get_by_label("Password").fill("wrong password")
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("alert")).to_be_visible()
        audit.check(page, "login page with an error")
    finally:
        visitor.close()

    audit.check(teacher, "dashboard")
    for game in GAMES:  # each module's form, with its own options
        teacher.goto(f"/teacher/lessons/new/?game={game}")
        audit.check(teacher, f"new lesson page ({game})")
    teacher.goto("/teacher/")
    teacher.get_by_role("link", name="New lesson").click()
    teacher.wait_for_url("**/lessons/new/")
    audit.check(teacher, "new lesson page")
    ui.shot(teacher, "new-lesson", full_page=True)
    teacher.get_by_role("button", name="Create and open the projector view").click()
    expect(ui.topbar(teacher)).to_have_attribute("data-stage", "lobby")
    audit.projector(teacher, "projector lobby, nobody yet")
    audit.assert_clean()
    assert offsite == []


@pytest.mark.e2e
def test_phone_page_is_light_and_local(teacher: Page, phones, offsite: list[str]) -> None:
    """First load of the phone's game page: at most 150 KB, and nothing from outside."""
    address = ui.new_lesson(teacher, "Page weight")
    phone = phones.new()
    session = phone.context.new_cdp_session(phone)
    session.send("Network.enable")
    loaded: dict[str, int] = {}
    urls: dict[str, str] = {}
    session.on("Network.requestWillBeSent",
               lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    session.on("Network.loadingFinished",
               lambda event: loaded.__setitem__(event["requestId"], event["encodedDataLength"]))

    phone.goto(ui.local_path(address))
    code = address.rstrip("/").rsplit("/", 1)[1]
    expect(phone.get_by_label("Lesson code")).to_have_value(code)
    phone.get_by_label("Your nickname").fill("Quentin")
    # From here: the game page as the phone loads it after "Join", with an empty cache (the
    # join page already fetched the same CSS: a cold load is the honest weight).
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    loaded.clear()
    phone.get_by_role("button", name="Join").click()
    expect(phone.get_by_role("heading", name="You're in, Quentin!")).to_be_visible()
    phone.wait_for_load_state("networkidle")

    # Everything after the join form's redirect: /play/, its CSS (with @import) and JS.
    by_url = {urls[rid]: size for rid, size in loaded.items()
              if rid in urls and "/join/" not in urls[rid]}
    total = sum(by_url.values())
    kinds = {re.sub(r"\?.*", "", url).rsplit(".", 1)[-1] for url in by_url}
    assert any(url.endswith("/play/") for url in by_url), by_url
    assert {"css", "js"} <= kinds, by_url
    assert total <= PHONE_BUDGET, f"{total} bytes: {by_url}"
    print(f"phone game page: {total} bytes: {by_url}")
    assert offsite == []
