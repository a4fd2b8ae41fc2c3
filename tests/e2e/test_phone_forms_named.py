"""Every phone decision form of Crisis and Poleconomy, as a screen reader gets it (ARIA
snapshots in Chromium): options to choose among are a group with a name (a fieldset and its
legend), and every button, radio and checkbox is named with the words it shows (WCAG 1.3.1,
2.5.3, 4.1.2). State in Class's and Austerity's ballots are cast by keyboard in their own
tests (test_screen_reader_ballot.py, test_austerity_screen_reader_ballot_e2e.py).

Each lesson is played through the services one stage at a time and each phone's page is
taken by HTTP (the page as the server renders it), then read by the browser's accessibility
tree (``page.set_content``: no server, no styles, no sockets needed)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, Locator

from facilitator import ballot_keys, services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.poleconomy import script as pol_script
from facilitator.lessons.poleconomy import services as pol
from facilitator.log import load_state
from facilitator.models import Bag, Table
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher
from tests.lessons.whatif_support import playable

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
CONTROLS = "#now button, #now input[type=radio], #now input[type=checkbox]"


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)
    ballot_keys.serve()


def _page(token: str) -> str:
    client = Client()
    client.cookies[SEAT_COOKIE] = token
    return client.get("/play/").content.decode()


def _advance(session: Any) -> Any:
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    return fresh(session)


def crisis_pages() -> list[tuple[str, str]]:
    """A Crisis lesson of two teams of two: every phone's page at each of its first stages."""
    with playable("crisis"):
        session = services.session_create(owner=make_teacher("named-crisis"), game="crisis",
                                           options={"team_size": 2})
        tokens = join(session, 4)
        services.session_start(session=fresh(session), fill="bots", seed=5)
    session = fresh(session)
    pages = []
    for _n in range(6):
        pages += [(f"{session.stage} · {name}", _page(t)) for name, t in tokens.items()]
        session = _advance(session)
    return pages


def poleconomy_pages() -> list[tuple[str, str]]:
    """A Poleconomy round of three: parties, the Government, the Prime Minister's proposal,
    Parliament's consent ballot and the orders, every phone's page at each."""
    with playable("poleconomy"):
        session = services.session_create(owner=make_teacher("named-pol"), game="poleconomy",
                                           options={"rounds": 1})
        tokens = join(session, 3)
        services.session_start(session=fresh(session), seed=5)
    session = fresh(session)
    pages: list[tuple[str, str]] = []

    def take() -> None:
        pages.extend((f"{fresh(session).stage} · {n}", _page(t)) for n, t in tokens.items())

    take()
    pol.master_parties(session=fresh(session), table=1, declared={"Greens": ["Ana", "Ben"]})
    session = _advance(session)
    take()
    table = Table.objects.get(session=session)
    state = load_state(table)
    if state.phase == "government" and not state.election["majority"]:
        pol.master_government(session=fresh(session), table=1, members=["Ana", "Ben", "Cai"],
                              pm="Ana")
    session = _advance(session)
    assert session.stage == pol_script.PROPOSAL
    take()
    state_pm = load_state(Table.objects.get(session=session)).pm
    other = next(n for n in tokens if n != state_pm)
    pm = Client()
    pm.cookies[SEAT_COOKIE] = tokens[state_pm]
    pm.post("/play/act/", {"type": "propose_form", "salary_pm": "13", "pay_to": other,
                           "pay_amount": "5", "press_release": "Roads",
                           "expected": fresh(session).stage_id})
    take()
    session = _advance(session)
    assert Bag.objects.filter(table__session=session, status=Bag.Status.OPEN).exists()
    take()  # the consent ballot
    return pages


def words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text))


def name_of(control: Locator) -> tuple[str, str]:
    """The control's role and accessible name, from its ARIA snapshot."""
    line = control.aria_snapshot().splitlines()[0]
    match = re.match(r"""- '?(\w+)(?: "(.*)")?""", line)  # YAML quotes a line with ": "
    assert match, line
    return match.group(1), match.group(2) or ""


def problems(browser: Browser, pages: list[tuple[str, str]]) -> tuple[list[str], int, int]:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    found, checked, groups = [], 0, 0
    try:
        for where, html in pages:
            page.set_content(html)
            for i in range(page.locator(CONTROLS).count()):
                control = page.locator(CONTROLS).nth(i)
                if not control.is_visible():  # in a part shown later ([hidden])
                    continue
                kind = control.get_attribute("type") or "button"
                shown = control.inner_text() if kind in ("button", "submit") else \
                    control.evaluate("e => (e.closest('label') || {}).innerText || ''")
                role, name = name_of(control)
                checked += 1
                if not name or words(shown) not in words(name):
                    found.append(f"{where}: {role} named {name!r} shows {shown!r}")
                if kind in ("radio", "checkbox"):
                    legend = control.evaluate(
                        "e => { const f = e.closest('fieldset, [role=radiogroup], [role=group]');"
                        " return f ? (f.querySelector('legend') || {}).textContent"
                        " || f.getAttribute('aria-label') || '' : null; }")
                    if not (legend or "").strip():
                        found.append(f"{where}: {role} {name!r} is in no named group")
                    else:
                        groups += 1
    finally:
        context.close()
    return found, checked, groups


@pytest.mark.parametrize("game", ["crisis", "poleconomy"])
def test_every_phone_control_is_named_with_its_words_and_options_come_in_a_named_group(
        browser: Browser, game: str) -> None:
    pages = db(crisis_pages if game == "crisis" else poleconomy_pages)
    found, checked, grouped = problems(browser, pages)
    assert checked >= 10, checked
    if game == "poleconomy":
        assert grouped >= 2  # the consent ballot: yes and no
    assert found == [], "\n".join(found)
