"""A Poleconomy lesson played through its pages in a real browser: two teams of two phones and
a bot player; a coalition after the election, asked from a phone and confirmed on the game
master's page; the Prime Minister's proposal with a press release, approved for the
projector; Parliament's consent voted from the phones; orders sent from the phones; the
round replayed on the projector; an auction in round 2.

The lesson is created and started through the services (the new-lesson page is in
``test_poleconomy_lesson_class_e2e.py``); from then on everything goes through the pages (the
in-process live server serves no sockets: the pages post their forms, as phones on a network
that blocks sockets do).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from facilitator import ballot_keys, services
from facilitator.consumers import SEAT_COOKIE
from facilitator.log import load_state
from facilitator.models import ClassSession, Table
from tests.e2e.lesson_thread import database_after_the_browser, db  # noqa: F401
from tests.e2e.live import PHONE
from tests.facilitator.lesson import deterministic, fresh, join

# The replay's button: the next beat, and from the last one where the step goes.
REPLAY_ON = re.compile(r"^(Next|Next round|On to the Government|Final result) ▶$")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "pol-e2e-2026"


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)
    ballot_keys.serve()


def test_a_round_with_a_coalition_a_consent_vote_a_press_release_and_an_auction(
        django_db_setup: Any, live_server: Any, browser: Browser) -> None:
    from django.contrib.auth import get_user_model

    def create() -> tuple[Any, ClassSession, dict[str, str]]:
        teacher = get_user_model().objects.create_user("pol-gm", password=PASSWORD)
        session = services.session_create(owner=teacher, game="poleconomy",
                                           options={"team_size": 2})
        tokens = join(session, 4)
        services.session_start(session=fresh(session), fill="bots", seed=5)
        return teacher, session, tokens

    teacher, session, tokens = db(create)
    base = live_server.url

    def context(**kwargs: Any) -> Any:
        return browser.new_context(base_url=base, bypass_csp=True, **kwargs)

    laptop = context(viewport={"width": 1600, "height": 900})
    console = laptop.new_page()
    console.goto("/accounts/login/")
    console.get_by_label("Username").fill(teacher.username)
    console.get_by_label("Password").fill(PASSWORD)
    console.get_by_role("button", name="Log in").click()
    console.wait_for_url("**/teacher/")
    console.goto(f"/teacher/lessons/{session.pk}/")
    master = laptop.new_page()

    def gm() -> Page:
        master.goto(f"/teacher/lessons/{session.pk}/poleconomy/master/")
        return master

    def seats() -> dict[str, Any]:
        table = Table.objects.get(session=session)
        return {s.nickname: s for s in table.seats.all()}

    by_name = db(seats)
    phones: dict[str, Page] = {}
    for nickname, token in tokens.items():
        ctx = context(**PHONE)
        ctx.add_cookies([{"name": SEAT_COOKIE, "value": token, "url": base}])
        phones[nickname] = ctx.new_page()

    def phone(player: str, captain: bool = True) -> Page:
        """The phone of a team's captain this round (or its other member)."""
        from facilitator.lessons.poleconomy import turns

        def find() -> str:
            table = Table.objects.get(session=session)
            team = [s for s in table.seats.order_by("position") if s.player_name == player]
            chief = turns.captain_of(team, player, fresh(session).round)
            return next(s.nickname for s in team if (s == chief) == captain)

        page = phones[db(find)]
        page.goto("/play/")
        return page

    def next_step(label: str | re.Pattern[str]) -> None:
        console.goto(f"/teacher/lessons/{session.pk}/")
        button = console.get_by_role("button", name=label)
        button.click()
        if console.locator("[data-confirm-box]:not([hidden])").count():
            console.get_by_role("button", name=label).click()  # "close anyway"
        console.wait_for_load_state()

    assert {s.player_name for s in by_name.values() if not s.is_bot} == {"Team 1", "Team 2"}
    assert {s.player_name for s in by_name.values() if s.is_bot} == {"Team 3"}
    # Parties: nobody forms one; the election is rolled.
    expect(phone("Team 1").get_by_role("heading", name="Form a party?")).to_be_visible()
    next_step("Roll the election ▶")
    state = db(lambda: load_state(Table.objects.get(session=session)))
    assert state.phase == "government" and not state.election["majority"], \
        "this seed's election must leave no majority"
    # A coalition asked from Team 1's phone, confirmed on the game master's page.
    ask = phone("Team 1")
    ask.get_by_label("Coalition with").select_option("Team 2")
    ask.get_by_label("Prime Minister").select_option("Team 1")
    ask.get_by_role("button", name="Ask the game master").click()
    page = gm()
    expect(page.get_by_text("Team 1 asks for a coalition: Team 1, Team 2")).to_be_visible()
    page.get_by_label("Team 1 (").check()
    page.get_by_label("Team 2 (").check()
    page.locator("select[name=pm]").select_option("Team 1")
    page.get_by_role("button", name="Confirm this Government").click()
    assert db(lambda: load_state(Table.objects.get(session=session)).pm) == "Team 1"
    next_step("Start the round ▶")
    # The PM's proposal, with a press release.
    pm = phone("Team 1")
    pm.get_by_label("My salary as Prime Minister").fill("14")
    pm.get_by_label("A Treasury payment to").select_option("Team 2")
    pm.get_by_label("Amount").fill("4")
    pm.get_by_label("Press release").fill("Help for the dairy farmers")
    pm.get_by_role("button", name="Save my proposal").click()
    expect(pm.get_by_text("The Treasury pays $4 to Team 2")).to_be_visible()
    next_step("Open the orders ▶")
    console.goto(f"/teacher/lessons/{session.pk}/")
    expect(console.get_by_text("Salaries: the Prime Minister $14")).to_be_visible()
    expect(console.get_by_text("Help for the dairy farmers")).to_have_count(0)
    # Parliament votes and orders go in from the phones.
    for player in ("Team 1", "Team 2"):
        voter = phone(player)
        voter.get_by_text("Yes, I consent").click()
        voter.get_by_role("button", name="Put my token in the bag").click()
        expect(phone(player).get_by_text("Your token is in Parliament's bag")).to_be_visible()
        orders = phone(player)
        orders.locator("input[name=buy][value=none]").check()
        orders.get_by_role("button", name="Send my orders").click()
        expect(phone(player).get_by_text("Your orders are in")).to_be_visible()
    mate = phone("Team 2", captain=False)
    expect(mate.get_by_role("button", name="Suggest these orders to my captain")).to_be_visible()
    page = gm()
    expect(page.get_by_text("Buy nothing you land on.").first).to_be_visible()
    page.get_by_role("button", name="Approve the press release for the projector").click()
    console.goto(f"/teacher/lessons/{session.pk}/")
    expect(console.get_by_text("Help for the dairy farmers")).to_be_visible()
    expect(console.get_by_text("3 of 3 have voted")).to_be_visible()
    next_step("Close the orders ▶")
    console.goto(f"/teacher/lessons/{session.pk}/")
    expect(console.get_by_text("Round 1: step 1 of")).to_be_visible()
    while db(lambda: fresh(session).stage) == "replay":
        next_step(REPLAY_ON)
    state = db(lambda: load_state(Table.objects.get(session=session)))
    events = [e for r in state.history if r["round"] == 1 for e in r["events"]]
    consent = [e for e in events if e["type"] == "consent"]
    assert consent and all(e["carried"] == (2 * (state.player("Team 1").votes
                                                 + state.player("Team 2").votes)
                                            > state.total_votes) for e in consent)
    assert state.auction, "nobody left a firm for round 2's auction"
    # Round 2: a sealed bid from Team 2's phone wins the auction.
    next_step("Open the orders ▶")
    firm = state.auction[0]
    bidder = phone("Team 2")
    bidder.locator(f"input[name=bid_{firm}]").fill("9")
    bidder.get_by_role("button", name="Send my orders").click()
    expect(phone("Team 2").get_by_text("Bid $9 for")).to_be_visible()
    next_step("Close the orders ▶")
    while db(lambda: fresh(session).stage) == "replay":
        next_step(REPLAY_ON)
    state = db(lambda: load_state(Table.objects.get(session=session)))
    auctions = [e for r in state.history if r["round"] == 2 for e in r["events"]
                if e["type"] == "auction" and e["firm"] == firm]
    assert auctions and auctions[0]["winner"] in ("Team 2", "Team 3")
