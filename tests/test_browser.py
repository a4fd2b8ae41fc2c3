import pytest
from playwright.sync_api import Browser


@pytest.mark.e2e
def test_home_page_in_chromium(browser: Browser, server: str):
    """Chromium opens the about page and follows its login link. On the suite's one browser and
    e2e server (tests/e2e/fixtures.py): a second Playwright could not start in a worker whose
    browser is already up, and the live server's database teardown would run inside its loop."""
    page = browser.new_page()
    page.goto(f"{server}/about/")
    assert page.title() == "About · State in Class"
    page.get_by_role("link", name="Teacher login").click()
    page.wait_for_url("**/accounts/login/")
    assert page.get_by_label("Password").is_visible()
    page.close()
