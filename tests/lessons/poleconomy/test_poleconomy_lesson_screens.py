"""Poleconomy's screens render at every stage: the projector (the console), the game master's
page and the phones; the projector shows no order and no vote, the phone's form posts orders
the engine accepts, and the game master's page is its owner's only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from facilitator import services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.poleconomy import script
from facilitator.lessons.poleconomy import services as pol
from facilitator.lessons.poleconomy.models import PendingOrders, Proposal
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Table
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)


class Lesson:
    """A three-player lesson with a console, the game master's page and every phone."""

    def __init__(self, **options: Any) -> None:
        self.teacher = make_teacher()
        self.session = services.session_create(owner=self.teacher, game="poleconomy",
                                               options=options)
        self.tokens = join(self.session, 3)
        self.console = Client()
        self.console.force_login(self.teacher)

    def start(self) -> None:
        services.session_start(session=fresh(self.session), seed=5)

    @property
    def now(self) -> ClassSession:
        return fresh(self.session)

    def advance(self) -> None:
        services.session_advance(confirm=True, session=self.now, expected=self.now.stage_id)

    def projector(self) -> str:
        page = self.console.get(f"/teacher/lessons/{self.session.pk}/")
        assert page.status_code == 200, page.content[:400]
        return page.content.decode()

    def master(self) -> str:
        page = self.console.get(f"/teacher/lessons/{self.session.pk}/poleconomy/master/")
        assert page.status_code == 200, page.content[:400]
        return page.content.decode()

    def phone(self, name: str) -> Client:
        client = Client()
        client.cookies[SEAT_COOKIE] = self.tokens[name]
        return client

    def phone_page(self, name: str) -> str:
        page = self.phone(name).get("/play/")
        assert page.status_code == 200, page.content[:400]
        return page.content.decode()

    @property
    def table(self) -> Table:
        return Table.objects.get(session=self.session)

    def state(self) -> Any:
        return load_state(self.table)

    def to_proposal(self) -> None:
        self.advance()  # parties: all Independents, the election is rolled
        state = self.state()
        if state.phase == "government":
            ranked = sorted(state.players, key=lambda p: -p.votes)
            pol.master_government(session=self.now, table=1,
                                  members=[ranked[0].name, ranked[1].name], pm=ranked[0].name)
        self.advance()
        assert self.now.stage == script.PROPOSAL


def test_every_stage_renders_for_the_projector_the_game_master_and_the_phones() -> None:
    lesson = Lesson()
    assert "Ana" in lesson.projector()  # the lobby
    lesson.start()
    assert "Form a party?" in lesson.phone_page("Ana")
    assert "Declare the parties" in lesson.master()
    assert "Form your parties" in lesson.projector()
    lesson.to_proposal()
    pm = lesson.state().pm
    assert "Your proposal to Parliament" in lesson.phone_page(pm)
    other = next(n for n in ("Ana", "Ben", "Cai") if n != pm)
    assert "Send my orders" in lesson.phone_page(other)
    page = lesson.phone(pm).post("/play/act/", {"type": "propose_form", "salary_pm": "15",
                                                "expected": lesson.now.stage_id})
    assert page.status_code == 302
    assert Proposal.objects.get().items == {"salaries": {"pm": 15}}
    lesson.advance()  # the orders open
    projector = lesson.projector()
    assert "Salaries: the Prime Minister $15" in projector
    assert "Parliament votes in secret:" in projector and "0 of 3 have voted" in projector
    assert "press Close again" in projector  # closing with orders or votes missing asks
    phone = lesson.phone_page(other)
    assert "Parliament: do you consent?" in phone and "Where the dice can take you" in phone
    lesson.advance()  # the close: everyone NMR, nobody consented
    assert "step 1 of 5" in lesson.projector()
    assert "Watch the projector" in lesson.phone_page(other)
    for _beat in range(4):
        lesson.advance()
    assert "End of the round" in lesson.projector()


def test_the_phones_order_form_posts_orders_the_engine_accepts_and_shows_their_summary(
) -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    lesson.advance()
    name = next(n for n in ("Ana", "Ben", "Cai") if n != lesson.state().pm)
    page = lesson.phone(name).post("/play/act/", {
        "type": "order_form", "move": "corner:bonds", "act": "1", "buy": "companies",
        "max_price": "30", "bonds": "2", "life": "1", "expected": lesson.now.stage_id})
    assert page.status_code == 302, page.content[:400]
    orders = PendingOrders.objects.get(player=name).orders
    assert orders == {"move": {"corner": "bonds", "act": True},
                      "buy": {"companies": True, "advertisers": False, "max_price": 30},
                      "corners": {"life-insurance": True, "bonds": 2}}
    phone = lesson.phone_page(name)
    assert "Your orders are in" in phone and "Buy 2 Bonds on the Bonds corner." in phone
    assert "Send my changed orders" in phone
    master = lesson.master()
    assert "Buy 2 Bonds on the Bonds corner." in master
    projector = lesson.projector()
    assert "Bonds corner" not in projector and "✔ sent" in projector


def test_a_bad_order_form_is_refused_with_a_clear_error_and_changes_nothing() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    lesson.advance()
    page = lesson.phone("Ana").post("/play/act/", {"type": "order_form", "move": "fly",
                                                   "expected": lesson.now.stage_id})
    assert page.status_code == 400 and "Choose a move." in page.content.decode()
    page = lesson.phone("Ana").post("/play/act/", {"type": "order_form", "bid_zz9": "5",
                                                   "expected": lesson.now.stage_id})
    assert page.status_code == 400
    assert not PendingOrders.objects.exists()


def test_the_projector_never_shows_orders_nor_a_press_release_before_approval() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    pm = lesson.state().pm
    other = next(n for n in ("Ana", "Ben", "Cai") if n != pm)
    lesson.phone(pm).post("/play/act/", {"type": "propose_form", "pay_to": other,
                                         "pay_amount": "3", "press_release": "Schools first",
                                         "expected": lesson.now.stage_id})
    lesson.advance()
    assert "Schools first" not in lesson.projector()
    assert "waiting for the game master" in lesson.projector()
    assert "Schools first" in lesson.master()
    response = lesson.console.post(
        f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/act/",
        {"type": "master_press", "table": "1", "expected": lesson.now.stage_id})
    assert response.status_code == 302
    assert "Schools first" in lesson.projector()
    bag = Bag.objects.get(status=Bag.Status.OPEN)
    services.ballot_cast(seat_id=lesson.table.seats.get(player_name=other).pk,
                         decision=bag.decision, option="yes", expected=lesson.now.stage_id)
    for page in (lesson.projector(), lesson.master()):
        assert "1 of 3 has voted" in page
        assert ">yes<" not in page.lower()


def test_the_game_master_page_is_only_its_teachers() -> None:
    lesson = Lesson()
    lesson.start()
    stranger = Client()
    stranger.force_login(make_teacher("other"))
    page = stranger.get(f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/")
    assert page.status_code == 404
    anonymous = Client().get(f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/")
    assert anonymous.status_code == 302


def test_the_game_master_corrects_orders_with_the_players_form_and_a_bad_one_says_why(
) -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    lesson.advance()
    lesson.phone("Ana").post("/play/act/", {"type": "order_form", "move": "roll:",
                                            "buy": "companies", "life": "1",
                                            "expected": lesson.now.stage_id})
    page = lesson.master()
    assert "orders (the engine's order grammar" not in page and "<textarea" not in page
    form = page[page.index('name="player" value="Ana"'):]
    form = form[:form.index("</form>")]
    assert 'name="buy" value="companies" checked' in form  # the player's form, filled in
    assert 'name="life" value="1" checked' in form
    url = f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/act/"
    fields = {"type": "master_order_form", "table": "1", "player": "Ana",
              "expected": lesson.now.stage_id}
    bad = lesson.console.post(url, {**fields, "move": "roll:", "bonds": "99"})
    assert bad.status_code == 400
    assert "Bonds to buy must be a whole number from 0 to 30." in bad.content.decode()
    good = lesson.console.post(url, {**fields, "move": "roll:", "buy": "none"})
    assert good.status_code == 302
    row = PendingOrders.objects.filter(player="Ana").order_by("-pk").first()
    assert (row.orders, row.by_master) == ({"move": {"roll": True}}, True)


def test_the_debrief_exports_rounds_and_results_and_prints_the_handouts() -> None:
    lesson = Lesson(rounds=1)
    lesson.start()
    lesson.to_proposal()
    pm = lesson.state().pm
    lesson.phone(pm).post("/play/act/", {"type": "propose_form", "salary_pm": "13",
                                         "expected": lesson.now.stage_id})
    lesson.advance()
    lesson.advance()  # the close: the one round is played, the game is over
    while lesson.now.stage == script.REPLAY:
        lesson.advance()
    assert lesson.now.status == ClassSession.Status.FINISHED
    base = f"/teacher/lessons/{lesson.session.pk}/reports/"
    index = lesson.console.get(base)
    assert index.status_code == 200 and "Winner:" in index.content.decode()
    rounds = lesson.console.get(base + "rounds.csv").content.decode().splitlines()
    assert rounds[0].startswith("session,table,round,multiplier")
    assert len(rounds) == 2 and ",salaries," in rounds[1]
    assert "carried" in rounds[1] and "yes" not in rounds[1].split(",")
    results = lesson.console.get(base + "results.csv?anonymous=1").content.decode()
    assert "Player 1" in results and "Ana" not in results
    assert results.count("\n") == 4  # the header and three players
    for pdf in ("class.pdf", "students.pdf"):
        response = lesson.console.get(base + pdf)
        assert response.status_code == 200 and response.content[:4] == b"%PDF", pdf


def test_the_pms_phone_orders_the_pms_powers() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    lesson.advance()
    pm = lesson.state().pm
    assert "Your powers as Prime Minister" in lesson.phone_page(pm)
    other = next(n for n in ("Ana", "Ben", "Cai") if n != pm)
    assert "Your powers as Prime Minister" not in lesson.phone_page(other)
    page = lesson.phone(pm).post("/play/act/", {
        "type": "order_form", "move": "roll:", "reverse": "1", "issue_bonds": "2",
        "buy_back_bank": "1", "buy_back_players": "1", "expected": lesson.now.stage_id})
    assert page.status_code == 302, page.content[:300]
    assert PendingOrders.objects.get(player=pm).orders["pm"] == {
        "reverse": True, "issue_bonds": 2, "buy_back_bank": 1, "buy_back_players": 1}
    phone = lesson.phone_page(pm)
    assert "Reverse the Inflation Index." in phone and "Issue 2 Bonds." in phone


def test_an_undone_count_says_so_on_the_projector_and_asks_the_phones_again() -> None:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    pm = lesson.state().pm
    lesson.phone(pm).post("/play/act/", {"type": "propose_form", "salary_pm": "12",
                                         "expected": lesson.now.stage_id})
    lesson.advance()
    bag = Bag.objects.get(status=Bag.Status.OPEN)
    services.ballot_cast(seat_id=lesson.table.seats.get(player_name=pm).pk,
                         decision=bag.decision, option="yes", expected=lesson.now.stage_id)
    lesson.advance()  # the close counts the bag
    services.session_undo(session=lesson.now)
    assert "The votes cast were discarded: everyone votes again." in lesson.projector()
    assert "Please vote again." in lesson.phone_page(pm)
    assert "Parliament: do you consent?" in lesson.phone_page(pm)


def test_the_projectors_replayed_board_is_the_engines_board_so_far_at_every_step() -> None:
    from facilitator.lessons.poleconomy import presenters, reads
    from facilitator.log import record_actions
    from facilitator.models import Table
    from games.core import PUBLIC
    from games.poleconomy import views

    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    lesson.advance()
    lesson.advance()  # the close: the replay's first step
    table, full = lesson.table, views.view(lesson.state(), PUBLIC)
    while lesson.now.stage == script.REPLAY:
        shown = script.beats_shown(lesson.now)
        read = reads.table_info(Table.objects.get(pk=table.pk), lesson.state())["replay"]
        board = presenters.replay_words(read, full)["board"]
        assert board == views.view_so_far(table.config, table.seed, record_actions(table),
                                          PUBLIC, shown + 1, 1)
        lesson.advance()


def test_the_tax_rule_under_its_own_heading_does_not_say_tax_twice() -> None:
    from facilitator.lessons.poleconomy.presenters import tax_line

    rule = {"per_company": 5, "companies_at_least": 2}
    assert tax_line(rule) == "Tax: $5 a Company, only with 2 Companies or more"
    assert tax_line(rule, named=False) == "$5 a Company, only with 2 Companies or more"
