"""Setup as the rulebook prints it, pinned chance outcomes and stated situations."""

from collections import Counter

import pytest

from games.core import InvalidConfig
from games.crisis import cards, data, new_game, view
from games.crisis.state import PLANNING, PRODUCTION
from games.registry import replay
from tests.games.crisis.crisis_support import NAMES, config, staged


def test_players_start_with_15_vp_and_22_to_30_credits_by_turn_order():
    state = new_game(config(5, events_order={"green": ["export-boom"]}), 3)
    assert [p.vp for p in state.players] == [15] * 5
    assert [state.player(n).credits for n in state.order] == [22, 24, 26, 28, 30]


def test_the_board_starts_with_six_level_one_companies_five_employees_and_twelve_contracts():
    state = new_game(config(), 11)
    assert [cards.COMPANIES[c].level for c in state.board_companies] == ["I"] * 6
    assert len([t for t in state.board_employees if t]) == 5
    assert all(cards.kind_of(t) in cards.BAG_KINDS for t in state.board_employees)
    assert len(state.market) == 12
    assert all(c in cards.CONTRACTS["I"] for c in state.market)


def test_eight_level_one_and_eight_level_two_contracts_are_removed_unseen():
    state = new_game(config(), 5)
    left = {lv: len(s) for lv, s in state.contract_stacks.items()}
    assert left == {"I": 24 - 8 - 12, "II": 16 - 8, "III": 12}


def test_the_track_starts_at_31_with_four_managers_each_and_the_round_one_goal():
    state = new_game(config(events_order={"green": ["export-boom"]}), 2)
    assert state.status == 31
    assert [p.managers for p in state.players] == [4] * 4
    assert view(state, "public")["goal"] == data.PLANS["4-medium"].goals[0]
    assert state.phase == PLANNING and state.round == 1


def test_the_austerity_plan_follows_players_and_difficulty():
    for n, difficulty, plan in ((2, "easy", "2-easy"), (5, "difficult", "5-difficult")):
        assert new_game(config(n, difficulty=difficulty), 1).plan_id == plan
    state = new_game(config(plan={"levels": ["I", "I", "II", "II", "II", "III", "III"],
                                  "goals": [10, 11, 12, 13, 14, 15, 16]}), 1)
    assert state.goals[6] == 16 and state.levels[2] == "II"


def test_a_plan_may_not_use_more_rounds_of_a_level_than_its_deck_can_lay_out():
    with pytest.raises(InvalidConfig):
        new_game(config(plan={"levels": ["I", "I", "I", "I", "II", "III", "III"],
                              "goals": [1] * 7}), 1)


def test_pinned_orders_deal_first_and_the_rest_follows_the_seed():
    pins = {"companies_order": {"I": ["FARM 03", "TRAINS 01"]},
            "employee_draws": ["E3", "B2", "WF"],
            "contracts_order": {"I": ["chemicals-2", "food-8"]},
            "influence_order": ["bad-press"],
            "events_order": {"green": ["tax-rebate"]}}
    state = new_game(config(**pins), 9)
    assert state.board_companies[:2] == ["FARM 03", "TRAINS 01"]
    assert [cards.kind_of(t) for t in state.board_employees[:3]] == ["E3", "B2", "WF"]
    assert state.market[:2] == ["chemicals-2", "food-8"]
    assert state.influence_deck[0] == "bad-press"
    assert state.event == "tax-rebate"


def test_an_impossible_pin_is_a_clear_config_error():
    with pytest.raises(InvalidConfig, match="not left"):
        new_game(config(companies_order={"I": ["PORT 01"]}), 1)
    with pytest.raises(InvalidConfig, match="No Employee"):
        new_game(config(employee_draws=["E3", "E3", "E3", "E3"]), 1)
    with pytest.raises(InvalidConfig, match="not left"):
        new_game(config(contracts_order={"I": ["chemicals-2", "chemicals-2"]}), 1)


def test_the_same_seed_and_config_give_the_same_game():
    assert new_game(config(), 4) == new_game(config(), 4)
    assert new_game(config(), 4).board_companies != new_game(config(), 5).board_companies or \
        new_game(config(), 4).bag != new_game(config(), 5).bag


def test_bad_configs_are_refused_with_reasons():
    for bad in ({"players": ["A"]}, {"players": ["A", "A"]}, {"players": ["A", "B"], "x": 1},
                {"players": ["A", "B"], "difficulty": "hard"}):
        with pytest.raises(InvalidConfig):
            new_game(bad, 1)


def test_a_stated_situation_sets_every_player_and_the_board():
    state = staged(round=4, status=20, goal=30, order=["Red", "Blue", "White", "Green"],
                   phase="planning", event="drought",
                   players={"Blue": {"credits": 7, "vp": 31, "loans": 2, "penalty": 3,
                                     "warehouse": {"food": 4}, "employees": ["E3", "FW"],
                                     "companies": ["FARM 03", "BANK 01"],
                                     "hand": ["tax-break"]}},
                   board={"companies": ["PORT 01", None, None, None, None, None],
                          "employees": ["B2", None, None, None, None],
                          "contracts": ["food-10"] + [None] * 11})
    blue = state.player("Blue")
    assert (blue.credits, blue.vp, blue.loans, blue.penalty) == (7, 31, 2, 3)
    assert blue.warehouse["food"] == 4 and blue.employees == ["E3-1", "FW-1"]
    assert blue.hand == ["tax-break"] and blue.companies == ["FARM 03", "BANK 01"]
    assert state.order == ["Red", "Blue", "White", "Green"] and state.round == 4
    assert state.status == 20 and view(state, "public")["goal"] == 30
    assert state.event == "drought" and state.mods["output"] == {"FARM": -1}
    assert state.board_companies[0] == "PORT 01" and state.market[0] == "food-10"
    assert state.player("Red").credits == 22  # unstated credits follow the turn order
    assert "FARM 03" not in state.company_decks["I"] and "FW-1" not in state.foreign["FW"]


def test_a_stated_situation_can_start_at_production():
    state = staged(2, phase="production", players={"Blue": {"companies": ["FARM 01"]}})
    assert state.phase == PRODUCTION and state.produced == ["Red"]


def test_unknown_stated_keys_are_refused():
    with pytest.raises(InvalidConfig):
        staged(phase="lunch")
    with pytest.raises(InvalidConfig):
        staged(players={"Nobody": {}})
    with pytest.raises(InvalidConfig):
        staged(players={"Blue": {"companies": ["FARM 99"]}})


def test_a_record_replays_through_the_registry():
    record = {"game": "crisis", "version": 1, "seed": 3, "config": config(2),
              "actions": [{"type": "place", "player": NAMES[0], "space": "leadership"}]}
    replayed = replay(record)
    assert replayed.state.placements == {"leadership": ["Blue"]}


def test_the_bag_holds_the_printed_employees():
    state = new_game(config(), 1)
    kinds = Counter(cards.kind_of(t) for t in state.bag + state.board_employees)
    assert kinds == {"W1": 15, "F1": 4, "F2": 2, "WF": 4, "E1": 2, "E2": 5, "E3": 3,
                     "B1": 3, "B2": 2}


def test_a_pinned_null_event_is_a_round_without_an_event():
    state = new_game(config(2, events_order={"green": [None]}), 1)
    assert state.event is None and state.mods == {}
    assert [p.credits for p in state.players] == [22, 24]
