"""The budget vote and the 3-2-1 split (rulebook: "The 3-2-1 split", "The four taxes")."""

import pytest

from games.core import InvalidAction
from games.state_in_class import data, rules
from games.state_in_class.audiences import legal_actions, public_view
from games.state_in_class.state import BUDGET_VOTE, TAX_VOTE, TIE_BREAK, to_dict
from tests.games.state_in_class.state_in_class_support import (
    by_role,
    give,
    set_services,
    started,
    tax_vote,
    tie_break,
    vote,
)

H, E, S = "health", "education", "shield"
LOW = {H: 1, E: 1, S: 1}
CLASS_ORDER = {"working": 0, "middle": 1, "upper": 2}


def lowest_income(state):
    return min(state.players, key=lambda p: (
        data.ROLES[p.role].income, CLASS_ORDER[p.klass], p.seat)).name


def budget_round(tally, *, coins=50, tax="C", funds=None, levels=None, n=8):
    """Round 1 up to the budget count: everyone can pay; levels/funds SET before the count."""
    state = started(n)
    give(state, coins)
    tax_vote(state, tax)
    if levels:
        set_services(state, *levels, funds=None)
    for service, fund in (funds or {}).items():
        state.services[service].fund = fund
    events = vote(state, "budget", tally)
    return state, events


# --------------------------------------------------------------------------- golden examples


def test_rulebook_example_26_coins_ranked_shield_health_education():
    shares, _ = rules.split_shares(26, [S, H, E], LOW)
    assert shares == {S: 14, H: 8, E: 4}


def test_rulebook_example_step_by_step():
    _, steps = rules.split_shares(26, [S, H, E], LOW)
    full = [s for s in steps if s["pass"] <= 4]
    assert sum(s["coins"] for s in full) == 24
    assert [(s["service"], s["coins"]) for s in steps if s["pass"] == 5] == [(S, 2)]


# "What each player pays according to their class and what a table of 8 collects."
FOUR_TAXES = [("A", 16, 9), ("B", 19, 10), ("C", 26, 14), ("D", 38, 20)]


@pytest.mark.parametrize(("option", "collects", "to_first"), FOUR_TAXES)
def test_the_four_taxes_at_a_table_of_8(option, collects, to_first):
    classes = ["upper"] * 2 + ["middle"] * 3 + ["working"] * 3
    revenue = sum(rules.tax_due(option, k) for k in classes)
    assert revenue == collects
    shares, _ = rules.split_shares(revenue, [H, E, S], LOW)
    assert shares[H] == to_first
    assert sum(shares.values()) == collects


@pytest.mark.parametrize(("option", "collects", "to_first"), FOUR_TAXES)
def test_the_four_taxes_through_the_engine(option, collects, to_first):
    state, _ = budget_round({S: 4, H: 3, E: 1}, tax=option, coins=100)
    split = state.history[0]["split"]
    assert split["revenue"] == collects
    assert split["shares"][S] == to_first
    assert public_view(started())["tax_collects"] == {"A": 16, "B": 19, "C": 26, "D": 38}


def test_rulebook_example_through_the_engine_with_3_coins_already_in_the_shield_fund():
    state, events = budget_round({S: 4, H: 3, E: 1}, tax="C", funds={S: 3})
    split = state.history[0]["split"]
    assert split["revenue"] == 26
    assert split["ranking"] == [S, H, E]
    assert split["shares"] == {S: 14, H: 8, E: 4}
    # The Shield fund holds 17: it goes up one level and keeps 7 in view.
    assert (state.services[S].level, state.services[S].fund) == (2, 7)
    assert (state.services[H].level, state.services[H].fund) == (1, 8)
    assert (state.services[E].level, state.services[E].fund) == (1, 4)
    assert split["level_ups"] == [{"service": S, "level": 2}]
    level_up = [e for e in events if e["type"] == "transfer" and e["reason"] == "level_up"]
    assert [(e["from"], e["to"], e["amount"]) for e in level_up] == [("fund:shield", "bank", 10)]
    assert state.pot == 0


# --------------------------------------------------------------------------- ranking


@pytest.mark.parametrize(("tally", "ranking"), [
    ({H: 5, E: 2, S: 1}, [H, E, S]),
    ({E: 4, S: 3, H: 1}, [E, S, H]),
    ({S: 1, H: 6, E: 0}, [H, S, E]),
    ({E: 7, S: 1}, [E, S, H]),
])
def test_services_are_ranked_by_votes_and_unvoted_ones_come_last(tally, ranking):
    state, _ = budget_round(tally)
    assert state.history[0]["split"]["ranking"] == ranking


def test_an_unvoted_service_still_receives_coins():
    state, _ = budget_round({H: 5, E: 3})
    assert state.history[0]["split"]["shares"][S] > 0


def test_of_two_unvoted_services_the_one_at_the_lower_level_goes_first():
    state, _ = budget_round({H: 8}, levels=(1, 3, 2))
    assert state.history[0]["split"]["ranking"] == [H, S, E]
    state, _ = budget_round({S: 8}, levels=(4, 2, 1))
    assert state.history[0]["split"]["ranking"] == [S, E, H]


def test_two_unvoted_services_at_the_same_level_are_ordered_by_the_lowest_income():
    state, _ = budget_round({E: 8}, levels=(2, 1, 2))
    assert state.phase == TIE_BREAK
    assert state.tie.kind == "budget" and state.tie.options == [H, S]
    assert state.tie.deciders == [lowest_income(state)]
    tie_break(state, lowest_income(state), S)
    assert state.history[0]["split"]["ranking"] == [E, S, H]


def test_a_budget_tie_is_decided_by_the_lowest_income_player():
    state, events = budget_round({H: 3, E: 3, S: 2})
    decider = lowest_income(state)
    assert state.phase == TIE_BREAK and state.tie.options == [H, E]
    assert {"type": "tie_break_needed", "audience": "public", "kind": "budget",
            "options": [H, E], "decider": decider} in events
    tie_break(state, decider, E)
    assert state.history[0]["split"]["ranking"] == [E, H, S]
    assert state.phase == TAX_VOTE and state.round == 2


def test_the_budget_decider_is_the_lowest_income_even_without_a_ballot():
    state = started()
    give(state, 50)
    tax_vote(state, "C")
    decider = lowest_income(state)
    voters = [n for n in state.names if n != decider][:6]
    vote(state, "budget", {H: 3, S: 3}, voters=voters)
    assert state.tie.deciders == [decider]


def test_the_budget_decider_cannot_pass():
    state, _ = budget_round({H: 3, E: 3, S: 2})
    before = to_dict(state)
    with pytest.raises(InvalidAction, match="cannot pass"):
        rules.step(state, {"type": "tie_break", "player": lowest_income(state), "choice": None})
    assert to_dict(state) == before
    assert {a["choice"] for a in legal_actions(state, lowest_income(state))} == {H, E}


def test_a_budget_tie_choice_must_be_a_tied_service():
    state, _ = budget_round({H: 3, E: 3, S: 2})
    with pytest.raises(InvalidAction):
        tie_break(state, lowest_income(state), S)
    with pytest.raises(InvalidAction):
        tie_break(state, lowest_income(state), "C")


def test_a_three_way_budget_tie_takes_two_decisions():
    state, _ = budget_round({H: 2, E: 2, S: 2})
    decider = lowest_income(state)
    assert state.tie.options == [H, E, S]
    tie_break(state, decider, S)
    assert state.phase == TIE_BREAK and sorted(state.tie.options) == [E, H]
    tie_break(state, decider, H)
    assert state.history[0]["split"]["ranking"] == [S, H, E]
    assert len(state.history[0]["tie_breaks"]) == 2


def test_a_tie_for_second_place_is_decided_after_the_first_is_known():
    state, _ = budget_round({H: 4, E: 2, S: 2})
    assert state.tie.options == [E, S]
    tie_break(state, lowest_income(state), S)
    assert state.history[0]["split"]["ranking"] == [H, S, E]


def test_nobody_voting_ranks_the_services_by_level():
    state, _ = budget_round({}, levels=(3, 1, 2))
    assert state.history[0]["split"]["ranking"] == [E, S, H]


# --------------------------------------------------------------------------- passes


@pytest.mark.parametrize(("revenue", "shares"), [
    (0, (0, 0, 0)), (1, (1, 0, 0)), (3, (3, 0, 0)), (4, (3, 1, 0)), (5, (3, 2, 0)),
    (6, (3, 2, 1)), (7, (4, 2, 1)), (10, (6, 3, 1)), (11, (6, 4, 1)), (12, (6, 4, 2)),
])
def test_the_revenue_is_shared_in_passes_of_3_2_1_and_the_last_one_in_order(revenue, shares):
    got, _ = rules.split_shares(revenue, [E, S, H], LOW)
    assert (got[E], got[S], got[H]) == shares


@pytest.mark.parametrize(("at_five", "shares"), [
    ((H,), {H: 0, E: 3 + 2 + 3 + 2, S: 1 + 1}),      # 1st at 5: its 3 go to the 2nd
    ((E,), {H: 3 + 3, E: 0, S: 2 + 1 + 2 + 1}),      # 2nd at 5: its 2 go to the 3rd
    ((S,), {H: 3 + 1 + 3 + 1, E: 2 + 2, S: 0}),      # 3rd at 5: its 1 goes to the 1st
    ((H, E), {H: 0, E: 0, S: 12}),                     # both go on to the 3rd
    ((E, S), {H: 12, E: 0, S: 0}),
    ((H, S), {H: 0, E: 12, S: 0}),
])
def test_a_share_for_a_service_at_level_5_goes_to_the_next_in_order(at_five, shares):
    levels = {s: (5 if s in at_five else 2) for s in (H, E, S)}
    got, _ = rules.split_shares(12, [H, E, S], levels)
    assert got == shares


def test_if_all_three_are_at_level_5_the_coins_stay_in_the_funds():
    got, _ = rules.split_shares(12, [H, E, S], {H: 5, E: 5, S: 5})
    assert got == {H: 6, E: 4, S: 2}


# --------------------------------------------------------------------------- funds and levels


def test_a_fund_that_reaches_the_price_buys_a_level_and_keeps_the_rest():
    state, _ = budget_round({H: 6, E: 2}, tax="D", funds={H: 1})  # 38 -> Health 20 (+1)
    assert (state.services[H].level, state.services[H].fund) == (3, 1)


def test_a_fund_below_the_price_stays_in_view():
    state, _ = budget_round({H: 6, E: 2}, tax="A")  # 16 -> Health 9
    assert (state.services[H].level, state.services[H].fund) == (1, 9)
    view = public_view(state)["services"][H]
    assert view == {"level": 1, "fund": 9, "to_next_level": 1}


@pytest.mark.parametrize(("n", "price"), [(8, 10), (7, 9), (6, 8)])
def test_the_price_of_a_level_depends_on_the_table(n, price):
    state = started(n)
    give(state, 50)
    tax_vote(state, "A")
    state.pot = 0
    state.services[H].fund = price - 3
    vote(state, "budget", {H: 2, E: 1})
    assert state.services[H].level == 1  # 3 more would be `price`: not yet
    state = started(n)
    give(state, 50)
    tax_vote(state, "A")
    state.pot = 3  # SET: exactly what Health needs
    state.services[H].fund = price - 3
    vote(state, "budget", {H: 2, E: 1})
    assert (state.services[H].level, state.services[H].fund) == (2, 0)


def test_the_split_redirects_by_the_levels_at_its_start():
    # Health (level 4, 9 in its fund) reaches level 5 during this split but keeps its shares.
    state, _ = budget_round({H: 6, E: 2}, tax="C", levels=(4, 1, 1), funds={H: 9})
    assert state.history[0]["split"]["shares"] == {H: 14, E: 8, S: 4}
    assert (state.services[H].level, state.services[H].fund) == (5, 13)


def test_the_maximum_level_is_5():
    state, _ = budget_round({H: 6, E: 2}, tax="D", levels=(4, 1, 1), funds={H: 5})
    assert state.services[H].level == 5
    assert state.services[H].fund == 5 + 20 - 10


def test_a_service_at_level_5_keeps_its_loose_coins():
    state, _ = budget_round({H: 6, E: 2}, tax="A", levels=(5, 1, 1), funds={H: 4})
    assert state.services[H].level == 5 and state.services[H].fund == 4


def test_the_table_is_empty_after_the_split():
    state, _ = budget_round({H: 1, E: 3, S: 4})
    assert state.pot == 0 and state.phase == TAX_VOTE


def test_the_budget_vote_is_secret_too():
    state = started()
    give(state, 50)
    tax_vote(state, "C")
    assert state.phase == BUDGET_VOTE
    with pytest.raises(InvalidAction):
        rules.step(state, {"type": "ballot", "kind": "budget", "player": "Ana", "service": H})
    assert by_role(state, "company-director").name == "Ana"
