import pytest
from playwright.sync_api import sync_playwright


@pytest.fixture
def allow_async_unsafe(monkeypatch):
    # Playwright's sync API keeps an event loop running; DB teardown would refuse (STACK.md).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.mark.e2e
def test_home_page_in_chromium(allow_async_unsafe, live_server, chromium_path: str):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path)
        page = browser.new_page()
        page.goto(f"{live_server.url}/about/")
        assert page.title() == "About · State in Class"
        page.get_by_role("link", name="Teacher login").click()
        page.wait_for_url("**/accounts/login/")
        assert page.get_by_label("Password").is_visible()
        browser.close()
