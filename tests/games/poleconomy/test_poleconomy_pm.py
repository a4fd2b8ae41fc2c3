"""The PM's powers, Parliament's consent, the Treasury and the end of the game."""

import pytest

from games.core import BALLOT, VOTERS, InvalidAction
from games.poleconomy import data
from games.poleconomy.rules import new_game, scores, step
from games.poleconomy.views import decisions

NAMES = ["Ana", "Ben", "Cai"]
VOTES = {"Ana": 6, "Ben": 4, "Cai": 5}


def staged(mode="ballot", dice=(), **start):
    start.setdefault("basic_incomes", {"Ana": 6, "Ben": 5, "Cai": 4})
    start.setdefault("pm", "Ana")
    start.setdefault("government", ["Ana", "Ben"])
    start.setdefault("votes", VOTES)
    return new_game({"players": NAMES, "rounds": 5, "consent_mode": mode,
                     "dice": [list(d) for d in dice], "start": start}, 1)


def send(state, name, orders):
    return step(state, {"type": "orders", "player": name, "orders": orders})


def test_free_powers_reverse_the_index_appoint_ministers_and_issue_bonds():
    state = staged()
    send(state, "Ana", {"pm": {"reverse": True, "appoint": ["Ben"], "issue_bonds": 4}})
    send(state, "Ben", None)
    send(state, "Cai", None)
    assert state.direction == "anticlockwise" and state.cabinet == ["Ben"]
    assert state.bonds_issued == 4 and state.treasury == 40
    assert state.bank == 3000 - 34 - 30 - 26 - 40


def test_the_pm_buys_bonds_back_from_the_bank_at_ten_and_from_players_at_twenty():
    state = staged(bonds={"Ben": 2, "Cai": 1}, bonds_issued=5, treasury=100,
                   bank=2000)
    send(state, "Ana", {"pm": {"buy_back_bank": 5, "buy_back_players": 1}})
    send(state, "Ben", {"bonds_to_treasury": 2})
    send(state, "Cai", {"bonds_to_treasury": 1})
    assert state.bonds_issued == 2 and state.treasury == 100 - 20 - 20
    sold = [p.name for p in state.players if p.bonds < {"Ben": 2, "Cai": 1}.get(p.name, 0)]
    assert len(sold) == 1


def test_pinned_buyback_draws_choose_the_seller_and_an_impossible_pin_is_refused():
    state = staged(bonds={"Ben": 2, "Cai": 1}, bonds_issued=3, treasury=100)
    state.buyback_pin = ["Cai"]
    send(state, "Ana", {"pm": {"buy_back_players": 1}})
    send(state, "Ben", {"bonds_to_treasury": 2})
    send(state, "Cai", {"bonds_to_treasury": 1})
    assert state.player("Cai").bonds == 0 and state.player("Cai").cash == 26 + 20
    state = staged(bonds={"Ben": 2, "Cai": 1}, bonds_issued=3, treasury=100)
    state.buyback_pin = ["Ana"]
    send(state, "Ana", {"pm": {"buy_back_players": 1}})
    send(state, "Ben", {"bonds_to_treasury": 2})
    with pytest.raises(InvalidAction, match="pinned Bond draw names Ana"):
        send(state, "Cai", {"bonds_to_treasury": 1})


def test_a_consent_proposal_opens_a_secret_weighted_ballot():
    state = staged()
    send(state, "Ana", {"pm": {"salaries": {"pm": 30}}})
    ballot = [d for d in decisions(state) if d.kind == "consent"]
    assert len(ballot) == 1
    d = ballot[0]
    assert (d.id, d.who, d.mode, d.options, dict(d.weights)) == (
        "r1.consent.salaries", VOTERS, BALLOT, ("yes", "no"), VOTES)
    step(state, {"type": "ballot", "decision": d.id, "player": "Ben"})
    with pytest.raises(InvalidAction, match="already voted"):
        step(state, {"type": "ballot", "decision": d.id, "player": "Ben"})
    send(state, "Ben", None)
    send(state, "Cai", None)
    assert state.round == 1  # waiting for the count
    step(state, {"type": "count", "decision": d.id, "outcome": "carried"})
    assert state.round == 2 and state.pm_salary == 30


def test_a_proposal_not_carried_changes_nothing():
    state = staged()
    send(state, "Ana", {"pm": {"tax": {"per_company": 0}}})
    step(state, {"type": "count", "decision": "r1.consent.tax", "outcome": "not-carried"})
    send(state, "Ben", None)
    send(state, "Cai", None)
    assert state.tax_rule == {"per_company": 5}


def test_the_pm_salary_is_never_below_ten():
    state = staged()
    with pytest.raises(InvalidAction, match="below"):
        send(state, "Ana", {"pm": {"salaries": {"pm": 9}}})


def test_in_orders_mode_consent_clauses_carry_by_a_majority_of_electoral_votes():
    # Ana 6 + Cai 5 = 11 of 15 agree to a salary up to $19; $25 would need Ben too.
    for salary, carried in ((19, True), (25, False)):
        state = staged(mode="orders")
        send(state, "Ana", {"pm": {"salaries": {"pm": salary}}})
        send(state, "Ben", {"consent": {"tax": True}})
        send(state, "Cai", {"consent": {"salaries": {"pm_up_to": 19}}})
        assert (state.pm_salary == salary) is carried


def test_exactly_half_the_electoral_votes_does_not_carry():
    state = staged(mode="orders", votes={"Ana": 5, "Ben": 5, "Cai": 10})
    send(state, "Ana", {"pm": {"tax": {"per_company": 1}}})
    send(state, "Ben", {"consent": "all"})
    send(state, "Cai", None)
    assert state.tax_rule == {"per_company": 5}


def test_tax_rules_follow_the_rulebooks_examples():
    state = staged(mode="orders", firms={"c1": "Ben", "c2": "Ben", "c3": "Ben", "c4": "Cai"},
                   index={"space": 4})
    rule = {"per_company": 5, "companies_at_least": 3, "bi_at_least": 6}
    send(state, "Ana", {"pm": {"tax": rule}})
    send(state, "Ben", {"consent": "all"})
    send(state, "Cai", None)
    from games.poleconomy.turn import liable
    # More than 2 companies pay, but a Basic Income under $6 need not pay: Ben (BI 5) is free.
    assert [liable(state, p) for p in state.players] == [0, 0, 0]
    state.tax_rule = {"per_company": 5, "companies_at_least": 3}
    assert [liable(state, p) for p in state.players] == [0, 15, 0]


def test_treasury_payments_need_consent_and_a_press_release_and_cash_in_the_treasury():
    state = staged(mode="orders", treasury=30)
    with pytest.raises(InvalidAction, match="press release"):
        send(state, "Ana", {"pm": {"payments": [{"to": "Ben", "amount": 5}]}})
    send(state, "Ana", {"pm": {"payments": [
        {"to": "Ben", "amount": 20, "press_release": "Investment stimulus"},
        {"to": "Cai", "amount": 20, "press_release": "Tax rebate"}]}})
    send(state, "Ben", {"consent": {"payments": {"up_to": 40}}})
    send(state, "Cai", None)
    assert state.player("Ben").cash == 50 and state.player("Cai").cash == 26
    assert state.treasury == 10


def test_the_treasury_issues_just_enough_bonds_and_defaults_when_none_are_left():
    from games.poleconomy.money import TreasuryDefault, treasury_pays
    state = staged(treasury=5)
    treasury_pays(state, [], 26, "salary")
    assert state.bonds_issued == 3 and state.treasury == 35
    state = staged(bonds_issued=29, treasury=0)
    with pytest.raises(TreasuryDefault):
        treasury_pays(state, [], 20, "salary")


def test_a_treasury_default_ends_the_game_in_a_loss_for_everyone():
    space = data.INDEX_KINDS.index("bonds")  # one step before a Bonds space
    idx = next(s for s in data.LOOPS["inner"] if data.SQUARES[s].kind == "index"
               and data.SQUARES[s].factor == 1)
    state = staged(bonds_issued=30, index={"space": space},
                   positions={"Ana": data.LOOPS["inner"][data.LOOPS["inner"].index(idx) - 2]},
                   dice=[(1, 1)])
    send(state, "Ana", {"move": {"roll": True}})
    send(state, "Ben", None)
    send(state, "Cai", None)
    assert state.phase == "over" and state.over_reason == "treasury"
    assert scores(state)["winners"] == [] and scores(state)["all_lose"]


def test_the_game_ends_when_the_bank_runs_out_of_money():
    income = next(s for s in data.LOOPS["inner"] if data.SQUARES[s].kind == "income")
    steps = data.LOOPS["inner"].index(income) - data.LOOPS["inner"].index("start")
    state = staged(bank=5, dice=[(1, steps - 1)])
    send(state, "Ana", {"move": {"roll": True}})
    send(state, "Ben", None)
    send(state, "Cai", None)
    assert state.phase == "over" and state.over_reason == "bank" and state.bank == 0
    assert state.player("Ben").position == "start"  # the game ended after Ana's turn


def test_assets_are_valued_at_the_index_where_the_game_ended():
    state = staged(firms={"c1": "Ben", "a1": "Ben"}, life_insurance={"Ben": 2},
                   bonds={"Ben": 3}, index={"space": 11})
    step(state, {"type": "end"})
    assert scores(state)["players"]["Ben"]["breakdown"] == {
        "cash": 30, "companies": 60, "advertisers": 6, "life_insurance": 200, "bonds": 30}
    assert scores(state)["winners"] == ["Ben"]
