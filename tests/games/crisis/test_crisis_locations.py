"""Planning (3.) and every Operations location (4.1–4.12), with their Penalty tiles."""

import pytest

from games.core import InvalidAction
from games.crisis import decisions
from games.crisis.state import OPERATIONS
from tests.games.crisis.crisis_support import act, events_of, staged


def planning(n=2, players=None, event="union-praise", **start):
    return staged(n, phase="planning", event=event, players=players or {}, **start)


def place_all(state, *spaces):
    """Place Managers in turn (Planning's round-robin); fill the rest with Subsidy, except the
    very last Manager, which goes to Exports so that the round waits there."""
    for space in spaces:
        name = decisions(state)[0].deciders[0]
        act(state, type="place", player=name, space=space)
    left = sum(p.managers for p in state.players) - state.placed
    for i in range(left):
        name = decisions(state)[0].deciders[0]
        space = "exports" if i == left - 1 else "government-subsidy"
        act(state, type="place", player=name, space=space)


def resolve(state, choice):
    d = decisions(state)[0]
    return act(state, type="resolve", player=d.deciders[0], space=d.default["space"],
               choice=choice)


def test_managers_are_placed_one_at_a_time_in_turn_order():
    state = planning(order=["Red", "Blue"])
    assert decisions(state)[0].deciders == ("Red",)
    with pytest.raises(InvalidAction, match="Red's turn"):
        act(state, type="place", player="Blue", space="leadership")


def test_one_manager_per_space_except_shady_business_and_subsidy():
    state = planning()
    act(state, type="place", player="Blue", space="leadership")
    with pytest.raises(InvalidAction, match="already on that space"):
        act(state, type="place", player="Red", space="leadership")
    act(state, type="place", player="Red", space="shady-business")
    act(state, type="place", player="Blue", space="shady-business")
    act(state, type="place", player="Red", space="shady-business")
    assert state.placements["shady-business"] == ["Red", "Blue", "Red"]


def test_a_fifth_manager_places_alone_after_the_others_are_out():
    state = planning(players={"Blue": {"companies": ["BANK 01", "TRAINS 01"]}})
    assert state.player("Blue").managers == 5
    order = []
    for _ in range(9):
        order.append(decisions(state)[0].deciders[0])
        act(state, type="place", player=order[-1], space="government-subsidy")
    assert order == ["Blue", "Red"] * 4 + ["Blue"]


def test_subsidy_pays_4_credits_per_manager_and_shady_business_draws_a_card_each():
    state = planning()
    place_all(state, "shady-business", "government-subsidy", "shady-business")
    assert len(state.player("Blue").hand) == 2
    assert state.player("Red").credits == 24 + 3 * 4  # its last Manager is on Exports


def test_leadership_makes_first_with_1_vp_and_initiative_second_with_a_card():
    state = planning(3, order=["Blue", "Red", "Green"])
    place_all(state, "initiative", "government-subsidy", "leadership")
    assert state.order == ["Green", "Blue", "Red"]
    assert state.player("Green").vp == 16 and len(state.player("Blue").hand) == 1


def test_taking_both_leadership_and_initiative_ends_second():
    state = planning(3, order=["Blue", "Red", "Green"])
    place_all(state, "leadership", "government-subsidy", "government-subsidy", "initiative")
    assert state.order == ["Red", "Blue", "Green"]


def test_a_loan_gives_10_credits_for_1_vp_and_interest_is_1_credit_per_loan():
    state = planning(event="union-praise")
    place_all(state, "loan")
    blue = state.player("Blue")
    assert blue.loans == 1 and blue.vp == 14
    assert blue.credits == 22 + 10 + 3 * 4


def test_unpaid_interest_is_a_penalty_tile_per_credit():
    state = staged(2, round=2, players={"Blue": {"credits": 1, "loans": 3}},
                   pins={"events_order": {"green": ["union-praise"]}})
    blue = state.player("Blue")
    assert blue.credits == 0 and blue.penalty == 2


def test_no_fifth_loan_and_no_loan_without_vp():
    state = planning(players={"Blue": {"loans": 4}})
    with pytest.raises(InvalidAction, match="4 loans"):
        act(state, type="place", player="Blue", space="loan")
    broke = planning(players={"Blue": {"vp": 0}}, event="strike")
    place_all(broke, "loan")
    assert broke.player("Blue").loans == 0


def test_a_loan_can_be_repaid_at_any_time_and_the_vp_is_not_regained():
    state = planning(players={"Blue": {"loans": 1, "credits": 12, "vp": 20}})
    act(state, type="repay", player="Blue")
    blue = state.player("Blue")
    assert (blue.loans, blue.credits, blue.vp) == (0, 2, 20)
    with pytest.raises(InvalidAction, match="no loan"):
        act(state, type="repay", player="Blue")


def test_domestic_industry_buys_one_resource_at_the_price_table_without_vp():
    state = planning()
    place_all(state, "domestic-industry")
    assert decisions(state)[0].options[0] == "energy"
    resolve(state, "chemicals")
    blue = state.player("Blue")
    assert blue.warehouse["chemicals"] == 1 and blue.vp == 15


def test_refusing_domestic_industry_is_a_1_vp_penalty():
    state = planning()
    place_all(state, "domestic-industry")
    resolve(state, "refuse")
    assert state.player("Blue").penalty == 1


def test_foreign_employees_cost_5_credits_in_the_green_zone_and_1_in_the_red():
    for status, cost in ((31, 5), (20, 3), (5, 1)):
        state = planning(status=status)
        place_all(state, "foreign-employees")
        credits = state.player("Blue").credits
        resolve(state, "engineer")
        assert credits - state.player("Blue").credits == cost
        assert "FE-1" in state.player("Blue").employees


def test_employees_and_the_temp_employee_are_taken_with_the_manager():
    state = planning(board={"employees": ["E3", "B2", "W1", "F2", "WF"]})
    place_all(state, "employee-1", "temp-employee", "employee-5")
    assert state.player("Blue").employees == ["E3-1", "WF-1"]
    assert state.player("Red").employees == ["TEMP"]


def test_investing_pays_the_cost_and_gains_the_vp_or_takes_penalties_equal_to_the_vp():
    state = planning(board={"companies": ["FARM 04", "MINES 03", None, None, None, None]})
    place_all(state, "company-1", "company-2")
    resolve(state, "buy")
    resolve(state, "refuse")
    blue, red = state.player("Blue"), state.player("Red")
    assert blue.companies == ["FARM 04"] and blue.vp == 17 and blue.credits == 22 + 12 - 10
    assert red.penalty == 4 and red.companies == []


def test_three_extra_manager_icons_give_the_fifth_manager():
    state = planning(players={"Blue": {"companies": ["BANK 01"], "credits": 40}},
                     board={"companies": ["MINES 03", None, None, None, None, None]})
    place_all(state, "company-1")
    events = resolve(state, "buy")
    assert events_of(events, "fifth_manager") and state.player("Blue").managers == 5


def test_imports_cost_credits_and_vp_and_need_enough_vp():
    state = planning(players={"Blue": {"vp": 5}})
    place_all(state, "import-chemicals", "import-machines")
    assert decisions(state)[0].options == ("1", "refuse")  # 2 Chemicals would cost 6 VP
    resolve(state, "1")
    blue = state.player("Blue")
    assert (blue.vp, blue.credits, blue.warehouse["chemicals"]) == (2, 22 + 3 * 4 - 6, 1)


def test_refusing_an_import_costs_the_vp_of_one_unit_in_penalty_tiles():
    state = planning()
    place_all(state, "import-basket-2")
    resolve(state, "refuse")
    assert state.player("Blue").penalty == 6


def test_a_basket_brings_two_energy_and_two_minerals_for_9_credits_and_5_vp():
    state = planning()
    place_all(state, "import-basket-1")
    resolve(state, "buy")
    blue = state.player("Blue")
    assert (blue.vp, blue.credits, blue.warehouse["energy"], blue.warehouse["minerals"]) == \
        (10, 22 + 3 * 4 - 9, 2, 2)


def test_imports_beyond_the_warehouse_return_to_the_supply():
    state = planning(players={"Blue": {"warehouse": {"chemicals": 5}}})
    place_all(state, "import-chemicals")
    resolve(state, "2")
    assert state.player("Blue").warehouse["chemicals"] == 6


def test_each_energy_exchange_space_is_one_fixed_option():
    state = planning(players={"Blue": {"warehouse": {"food": 1}}})
    place_all(state, "energy-2", "energy-3")
    assert decisions(state)[0].options == ("1", "2", "3", "refuse")
    resolve(state, "3")
    assert decisions(state)[0].options == ("refuse",)  # Red has no Food to convert
    resolve(state, "refuse")
    assert state.player("Blue").warehouse["energy"] == 3 and state.player("Red").penalty == 1


def test_out_of_service_locations_take_no_managers():
    state = planning(event="energy-shortage")
    with pytest.raises(InvalidAction, match="Out of Service"):
        act(state, type="place", player="Blue", space="energy-1")
    strike = planning(event="general-strike")
    assert "temp-employee" not in decisions(strike)[0].options
    assert "domestic-industry" not in decisions(strike)[0].options


def test_a_resolve_must_answer_the_space_that_is_waiting():
    state = planning()
    place_all(state, "domestic-industry")
    assert state.phase == OPERATIONS
    with pytest.raises(InvalidAction, match="may choose"):
        resolve(state, "gold")
    with pytest.raises(InvalidAction, match="waiting to be resolved"):
        act(state, type="resolve", player="Red", space="domestic-industry", choice="energy")


def test_an_event_payment_beyond_the_players_credits_becomes_penalty_tiles():
    state = staged(2, round=3, status=5, players={"Blue": {"credits": 1}},
                   pins={"events_order": {"red": ["bank-run"]}})
    assert state.player("Blue").credits == 0 and state.player("Blue").penalty == 2


def test_vp_may_reach_exactly_zero_by_an_import_or_a_loan():
    state = planning(players={"Blue": {"vp": 5}})
    place_all(state, "loan", "government-subsidy", "import-minerals")
    assert state.player("Blue").vp == 4
    assert decisions(state)[0].options == ("1", "2", "refuse")  # 2 Minerals cost all 4 VP
    resolve(state, "2")
    assert state.player("Blue").vp == 0 and state.player("Blue").warehouse["minerals"] == 2


def test_a_player_who_can_buy_energy_may_refuse_and_takes_the_penalty():
    state = planning()
    place_all(state, "energy-1")
    assert decisions(state)[0].options == ("1", "2", "refuse")
    resolve(state, "refuse")
    assert state.player("Blue").penalty == 1 and state.player("Blue").warehouse["energy"] == 0
