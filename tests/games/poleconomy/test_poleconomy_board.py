"""Poleconomy squares: the board's counts and what each square does (rulebook, "Board squares")."""

from collections import Counter

import pytest

from games.poleconomy import data
from games.poleconomy.views import balances
from tests.games.poleconomy.poleconomy_support import play, staged


def of(events, kind):
    return [e for e in events if e["type"] == kind]


ROLL = {"move": {"roll": True}}
BUY_ALL = {"move": {"roll": True}, "buy": {"companies": True, "advertisers": True}}


def square_at(start, steps, track=None):
    return data.ahead(start, steps, track)


def test_the_board_has_the_rulebooks_statistical_distribution():
    kinds = {t: Counter(data.SQUARES[s].kind for s in data.LOOPS[t]) for t in data.TRACKS}
    assert kinds["inner"] == {"income": 8, "index": 6, "company": 6, "advertiser": 8,
                              "corner": 4, "start": 1}
    assert kinds["outer"] == {"income": 4, "index": 13, "company": 14, "advertiser": 17,
                              "corner": 4}
    income = Counter(s.factor for s in data.SQUARES.values() if s.kind == "income")
    assert income == {2: 4, 4: 2, 5: 2, 10: 4}
    index = Counter(s.factor for s in data.SQUARES.values() if s.kind == "index")
    assert index == {1: 5, 2: 5, 3: 4, 4: 4, 5: 1}
    opportunities = [s for s in data.SQUARES.values() if s.opportunity]
    assert len(opportunities) == 3 and all(s.track == "outer" and s.factor == 10
                                           for s in opportunities)
    assert Counter(data.INDEX_KINDS) == {"election": 3, "salary": 5, "tax": 6, "bonds": 6}
    assert data.INDEX_KINDS[0] == "election" and data.INDEX_VALUES[0] == 1


def test_both_tracks_pass_through_the_four_corners_in_the_same_clockwise_order():
    for track in data.TRACKS:
        assert [s for s in data.LOOPS[track] if s in data.CORNERS] == list(data.CORNERS)


def test_buying_an_unowned_company_costs_ten_times_inflation_paid_to_the_bank():
    target = square_at("start", 3)
    assert target == "c1"
    state = staged(dice=[(1, 2)], index={"space": 3})  # multiplier 2
    events = play(state, Ana=BUY_ALL)
    assert state.owners == {"c1": "Ana"}
    assert state.player("Ana").cash == 34 - 20
    assert [t["to"] for t in of(events, "transfer")] == ["bank"]


def test_an_unbought_firm_goes_to_auction_at_the_end_of_the_round():
    state = staged(dice=[(1, 2)])
    play(state, Ana=ROLL)
    assert state.owners == {} and state.auction == ["c1"]


def test_landing_on_ones_own_company_pays_profit_from_the_bank():
    state = staged(dice=[(1, 2)], firms={"c1": "Ana"}, index={"space": 5})  # multiplier 3
    play(state, Ana=ROLL)
    assert state.player("Ana").cash == 34 + 30


def test_a_visitor_pays_rent_or_only_what_he_has():
    state = staged(dice=[(1, 2), (1, 2)], firms={"c1": "Cai"}, cash={"Ben": 4},
                   index={"space": 3}, positions={"Ana": "start", "Ben": "start"})
    play(state, Ana=ROLL, Ben=ROLL)
    assert state.player("Ana").cash == 34 - 20
    assert state.player("Ben").cash == 0
    assert state.player("Cai").cash == 26 + 20 + 4


def test_an_income_square_pays_basic_income_times_its_factor():
    target = square_at("start", 2)
    assert data.SQUARES[target].factor == 2
    state = staged(dice=[(1, 1)])
    play(state, Ana=ROLL)
    assert state.player("Ana").cash == 34 + 12


def test_an_opportunity_square_allows_a_free_move_that_triggers_the_square_reached():
    opp = next(s for s in data.LOOPS["outer"] if data.SQUARES[s].opportunity)
    before = data.LOOPS["outer"][data.LOOPS["outer"].index(opp) - 4]
    state = staged(dice=[(1, 3)], positions={"Ana": before}, firms={"c1": "Ana"})
    play(state, Ana={"move": {"roll": True}, "opportunity": "c1"})
    assert state.player("Ana").position == "c1"
    assert state.player("Ana").cash == 34 + 60 + 10  # 10x income, then c1's profit


def test_own_advertiser_moves_the_player_to_the_company_he_names():
    adv = square_at("start", 1)
    assert data.SQUARES[adv].kind == "advertiser"
    state = staged(dice=[], firms={adv: "Ana", "c5": "Ana"},
                   positions={"Ana": data.LOOPS["inner"][0]})
    state.dice_pin = [[1, 1]]  # 2 steps from Business Insurance: the Start square's neighbour
    play(state, Ana={"move": {"roll": True, "track": "inner"}, "own_advertiser": "c5"})
    assert state.player("Ana").position == "c5" and state.player("Ana").cash == 34 + 10


def test_another_players_advertiser_sends_you_where_its_owner_says_and_shares_rent():
    adv = square_at("start", 1)
    state = staged(firms={adv: "Ben", "c5": "Cai"},
                   positions={"Ana": data.LOOPS["inner"][0]}, index={"space": 3})
    state.dice_pin = [[1, 1]]
    play(state, Ana={"move": {"roll": True, "track": "inner"}}, Ben={"send_to": "c5"})
    assert state.player("Ana").position == "c5"
    assert state.player("Ana").cash == 34 - 20
    assert state.player("Ben").cash == 30 + 10 and state.player("Cai").cash == 26 + 10


def test_nmr_owner_sends_the_visitor_to_his_nearest_company_clockwise_then_other_track():
    adv = square_at("start", 1)
    far = next(s for s in data.LOOPS["outer"] if data.SQUARES[s].kind == "company")
    near = next(s for s in data.LOOPS["inner"][data.LOOPS["inner"].index(adv):]
                if data.SQUARES[s].kind == "company")
    for owned, expected in (([far, near], near), ([far], far)):
        state = staged(firms={adv: "Ben", **dict.fromkeys(owned, "Ben")},
                       positions={"Ana": data.LOOPS["inner"][0]})
        state.dice_pin = [[1, 1]]
        play(state, Ana={"move": {"roll": True, "track": "inner"}})
        assert state.player("Ana").position == expected


def test_nmr_owner_without_companies_sends_the_visitor_to_someone_elses_company():
    adv = square_at("start", 1)
    state = staged(firms={adv: "Ben", "c20": "Cai"}, positions={"Ana": data.LOOPS["inner"][0]})
    state.dice_pin = [[1, 1]]
    play(state, Ana={"move": {"roll": True, "track": "inner"}})
    assert state.player("Ana").position == "c20"


def test_nmr_sits_on_a_corner_or_goes_to_the_nearest_corner_clockwise():
    state = staged(positions={"Ana": "takeover", "Ben": "start"})
    play(state)
    assert state.player("Ana").position == "takeover"
    assert state.player("Ben").position == "life-insurance"
    assert state.player("Cai").position == "life-insurance"


def test_double_six_is_a_business_disaster_losing_cash_and_firms_but_not_life_or_bonds():
    state = staged(dice=[(6, 6)], firms={"c1": "Ana", "a1": "Ana"}, life_insurance={"Ana": 1},
                   bonds={"Ana": 2})
    play(state, Ana=ROLL)
    ana = state.player("Ana")
    assert (ana.cash, ana.life_insurance, ana.bonds, ana.position) == (0, 1, 2, "start")
    assert state.owners == {}


def test_business_insurance_absorbs_a_disaster_and_goes_back_to_the_bank():
    state = staged(dice=[(6, 6)], firms={"c1": "Ana"}, business_insurance=["Ana"])
    play(state, Ana=ROLL)
    assert state.player("Ana").cash == 34 and state.owners == {"c1": "Ana"}
    assert not state.player("Ana").business_insurance


def test_insurance_corners_sell_one_policy_for_ten_and_business_insurance_only_once():
    state = staged(business_insurance=["Ana"])
    play(state, Ana={"move": {"corner": "business-insurance", "act": True}},
         Ben={"move": {"corner": "life-insurance", "act": True}})
    assert state.player("Ana").cash == 34  # already insured: nothing bought
    assert state.player("Ben").life_insurance == 1 and state.player("Ben").cash == 20


def test_only_five_life_policies_exist():
    state = staged(life_insurance={"Ben": 5})
    play(state, Ana={"move": {"corner": "life-insurance", "act": True}})
    assert state.player("Ana").life_insurance == 0


def test_takeover_on_doubles_pays_the_owner_half_value_and_takes_the_company():
    state = staged(dice=[(3, 3)], firms={"c1": "Ben"}, index={"space": 3})
    play(state, Ana={"move": {"corner": "takeover", "act": True}, "corners": {"takeover": "c1"}})
    assert state.owners["c1"] == "Ana"
    assert state.player("Ana").cash == 34 - 3 - 10 and state.player("Ben").cash == 30 + 10
    assert state.bank == 3000 - 34 - 30 - 26 + 3


def test_takeover_double_six_is_no_disaster_and_non_doubles_fail():
    state = staged(dice=[(6, 6)], firms={"c1": "Ben"})
    play(state, Ana={"move": {"corner": "takeover", "act": True}, "corners": {"takeover": "c1"}})
    assert state.owners["c1"] == "Ana"
    state = staged(dice=[(2, 3)], firms={"c1": "Ben"})
    play(state, Ana={"move": {"corner": "takeover", "act": True}, "corners": {"takeover": "c1"}})
    assert state.owners["c1"] == "Ben" and state.player("Ana").cash == 31


def test_the_bonds_corner_sells_issued_bonds_held_by_the_bank():
    state = staged(bonds_issued=3)
    play(state, Ana={"move": {"corner": "bonds", "act": True}, "corners": {"bonds": 5}})
    assert state.player("Ana").bonds == 3 and state.player("Ana").cash == 4


def test_life_insurance_and_bonds_sell_back_to_the_bank_on_any_turn():
    state = staged(life_insurance={"Ana": 2}, bonds={"Ana": 1})
    play(state, Ana={"sell": {"life": 1, "bonds": 1}})
    ana = state.player("Ana")
    assert (ana.life_insurance, ana.bonds, ana.cash) == (1, 0, 34 + 8 + 10)


def test_index_moves_take_effect_on_the_multiplier_only_next_round():
    idx = next(s for s in data.LOOPS["inner"] if data.SQUARES[s].kind == "index")
    steps = data.LOOPS["inner"].index(idx) - data.LOOPS["inner"].index("start")
    state = staged(dice=[(1, steps - 1)], index={"space": 2})
    play(state, Ana=ROLL)
    moved = data.SQUARES[idx].factor
    assert state.index_space == 2 + moved
    assert state.multiplier == data.INDEX_VALUES[2 + moved - 1]


def test_a_reversed_index_moves_anticlockwise():
    state = staged(index={"space": 5, "direction": "anticlockwise"})
    from games.poleconomy.turn import move_index
    move_index(state, [], 3, state.player("Ana"))
    assert state.index_space == 2
    move_index(state, [], 4, state.player("Ana"))
    assert state.index_space == 18


@pytest.mark.parametrize("space", [i + 1 for i, k in enumerate(data.INDEX_KINDS) if k == "tax"])
def test_tax_space_charges_five_per_company_up_to_what_each_player_has(space):
    from games.poleconomy.turn import move_index
    state = staged(firms={"c1": "Ben", "c2": "Ben", "c3": "Cai"}, cash={"Ben": 7},
                   index={"space": space - 1 if space > 1 else 20})
    move_index(state, [], 1, state.player("Ana"))
    assert state.player("Ben").cash == 0 and state.player("Cai").cash == 21
    assert state.treasury == 12
    assert sum(balances(state).values()) == 0


def test_bond_space_pays_interest_to_holders_and_the_bank_issuing_bonds_if_needed():
    from games.poleconomy.turn import move_index
    space = data.INDEX_KINDS.index("bonds") + 1
    state = staged(bonds={"Ben": 2}, bonds_issued=3, index={"space": space - 1})
    move_index(state, [], 1, state.player("Ana"))
    assert state.player("Ben").cash == 30 + 20
    assert state.bonds_issued == 6  # 3 more issued to pay the $30
    assert state.treasury == 0


def test_salary_space_pays_pm_and_ministers_from_the_treasury():
    from games.poleconomy.turn import move_index
    space = data.INDEX_KINDS.index("salary") + 1
    state = staged(government=["Ana", "Ben"], cabinet=["Ben"], treasury=50,
                   salaries={"pm": 15, "ministers": {"Ben": 12}}, index={"space": space - 1})
    move_index(state, [], 1, state.player("Ana"))
    assert state.player("Ana").cash == 34 + 15 and state.player("Ben").cash == 30 + 12
    assert state.treasury == 23


def test_only_one_election_per_round_and_it_happens_at_the_end_of_the_round():
    from games.poleconomy.turn import move_index
    state = staged(index={"space": 20})
    events = []
    move_index(state, events, 1, state.player("Ana"))
    move_index(state, events, 7, state.player("Ana"))  # space 8: Election again
    assert [e["type"] for e in events].count("election_called") == 1
    assert state.election_due and state.phase == "orders"


def test_a_shared_rent_paid_short_gives_the_odd_dollar_to_the_companys_owner():
    adv = square_at("start", 1)
    state = staged(firms={adv: "Ben", "c5": "Cai"}, cash={"Ana": 7},
                   positions={"Ana": data.LOOPS["inner"][0]})
    state.dice_pin = [[1, 1]]
    play(state, Ana={"move": {"roll": True, "track": "inner"}}, Ben={"send_to": {"*": "c5"}})
    assert state.player("Ana").cash == 0
    assert (state.player("Ben").cash, state.player("Cai").cash) == (30 + 3, 26 + 4)


def test_a_player_sent_to_an_unowned_company_may_buy_it():
    adv = square_at("start", 1)
    state = staged(firms={adv: "Ben"}, positions={"Ana": data.LOOPS["inner"][0]})
    state.dice_pin = [[1, 1]]
    play(state, Ana={"move": {"roll": True, "track": "inner"}, "buy": {"companies": True}},
         Ben={"send_to": "c7"})
    assert state.owners["c7"] == "Ana" and state.player("Ana").cash == 24


def test_a_corner_reached_by_dice_takes_its_action_only_if_the_orders_say_so():
    steps = data.LOOPS["inner"].index("life-insurance") - data.LOOPS["inner"].index("start")
    for orders, bought in (({}, 0), ({"corners": {"life-insurance": True}}, 1),
                           ({"corners": {"life-insurance": True},
                             "at": {"life-insurance": {"act": False}}}, 0)):
        state = staged(dice=[(steps // 2, steps - steps // 2)])
        play(state, Ana={"move": {"roll": True}, **orders})
        assert state.player("Ana").life_insurance == bought


def test_only_the_space_where_the_marker_stops_takes_effect():
    from games.poleconomy.turn import move_index
    state = staged(firms={"c1": "Ben"}, bonds={"Ben": 1}, bonds_issued=1, treasury=50)
    events = []
    move_index(state, events, 3, state.player("Ana"))  # passes Tax (2) and Bonds (3)
    assert state.index_space == 4
    assert [t["reason"] for t in of(events, "transfer")] == ["salary"]
