"""Poleconomy set-up, elections, Governments and the movement order (rulebook, "Set up")."""

import pytest

from games.core import InvalidAction, InvalidConfig
from games.poleconomy.rules import new_game, step
from games.poleconomy.views import decisions

NAMES = ["Ana", "Ben", "Cai", "Dee"]
BI = [[3, 4], [2, 3], [5, 5], [1, 1]]  # Basic Incomes 7, 5, 10, 2


def game(election, parties=None, players=NAMES, **config):
    cfg = {"players": players, "dice": BI[:len(players)] + election, **config}
    if parties is not None:
        cfg["parties"] = parties
    return new_game(cfg, 3)


def nmr_round(state):
    for name in state.names:
        step(state, {"type": "orders", "player": name, "orders": None})


def test_basic_income_is_2d6_and_starting_cash_is_four_times_it_plus_ten():
    state = game([])
    assert [p.bi for p in state.players] == [7, 5, 10, 2]
    assert [p.cash for p in state.players] == [38, 30, 50, 18]
    assert state.bank == 3000 - 136 and state.treasury == 0 and state.bonds_issued == 0
    assert state.index_space == 1 and state.direction == "clockwise"
    assert all(p.position == "start" and p.track == "inner" for p in state.players)


def test_the_game_waits_for_the_parties_then_holds_the_election():
    state = game([[6, 5], [1, 2], [2, 3], [1, 3]])
    assert [d.id for d in decisions(state)] == ["setup.parties"]
    step(state, {"type": "parties", "parties": {"Reds": ["Ben", "Cai"]}})
    assert state.election["votes"] == {"Ana": 11, "Ben": 3, "Cai": 5, "Dee": 4}
    assert state.phase == "government" and state.election["majority"] is None


def test_an_independent_with_a_majority_is_government_and_pm_at_once():
    state = game([[6, 5], [1, 2], [4, 4], [2, 1], [1, 2]], parties={})
    # Ana 11, Ben 3, Cai 8 + 3 (a double rolls again once), Dee 3: nobody above 14.
    assert state.election["votes"]["Cai"] == 11 and state.phase == "government"
    state = game([[6, 5], [1, 2], [6, 6], [6, 6], [1, 2]], parties={})
    assert state.election["votes"]["Cai"] == 24  # a second double adds no further roll
    assert state.pm == "Cai" and state.government == ["Cai"] and state.phase == "orders"


def test_exactly_half_of_the_votes_is_not_a_majority():
    state = game([[5, 4], [1, 2], [3, 4], [1, 4]], parties={"Reds": ["Ana", "Ben"]})
    # Reds 9 + 3 = 12 of 24: not a majority.
    assert state.election["total"] == 24 and state.election["majority"] is None
    with pytest.raises(InvalidAction, match="more than half"):
        step(state, {"type": "government", "members": ["Ana", "Ben"], "pm": "Ana"})


def test_a_majority_party_chooses_its_pm_or_gets_its_top_voter():
    parties = {"Reds": ["Ana", "Ben"]}
    state = game([[4, 5], [6, 4], [1, 2], [1, 3]], parties=parties)
    assert state.election["majority"] == "Reds"
    assert decisions(state)[0].default == {"type": "government", "members": ["Ana", "Ben"],
                                           "pm": None}
    step(state, decisions(state)[0].default)
    assert state.pm == "Ben"  # 10 votes beat Ana's 9
    state = game([[4, 5], [6, 4], [1, 2], [1, 3]], parties=parties)
    step(state, {"type": "government", "members": ["Ana", "Ben"], "pm": "Ana"})
    assert state.pm == "Ana" and [p.name for p in state.order()] == NAMES


def test_a_majority_party_governs_alone_and_cannot_call_a_new_election():
    state = game([[4, 5], [6, 4], [1, 2], [1, 3]], parties={"Reds": ["Ana", "Ben"]})
    with pytest.raises(InvalidAction, match="alone"):
        step(state, {"type": "government", "members": ["Ana", "Ben", "Cai"], "pm": "Ana"})
    with pytest.raises(InvalidAction, match="majority"):
        step(state, {"type": "no_government"})


def test_coalitions_join_whole_parties_and_independents():
    state = game([[6, 5], [1, 2], [2, 3], [1, 3]], parties={"Reds": ["Ben", "Cai"]})
    with pytest.raises(InvalidAction, match="split"):
        step(state, {"type": "government", "members": ["Ana", "Ben"], "pm": "Ana"})
    step(state, {"type": "government", "members": ["Ana", "Dee"], "pm": None})
    assert state.pm == "Ana" and state.government == ["Ana", "Dee"]
    assert state.first == 0


def test_no_government_means_a_new_election_and_three_in_a_row_end_with_a_minority_pm():
    ties = [[1, 2], [1, 2], [1, 2], [1, 2]]  # 3 votes each: nobody has a majority
    state = game(ties * 3, parties={})
    step(state, {"type": "no_government"})
    assert state.elections == 2 and state.phase == "government"
    step(state, {"type": "no_government"})
    step(state, {"type": "no_government"})
    assert state.elections == 3 and state.pm == "Ana" and state.phase == "orders"
    assert state.history[-1]["events"][-1]["minority"] is True


def test_movement_order_rotates_each_round_with_the_pm_first_in_round_one():
    state = game([[1, 2], [6, 5], [1, 2], [1, 3]], parties={})
    assert state.pm == "Ben"
    orders = []
    for _ in range(3):
        orders.append([p.name for p in state.order()])
        nmr_round(state)
    assert orders == [["Ben", "Cai", "Dee", "Ana"], ["Cai", "Dee", "Ana", "Ben"],
                      ["Dee", "Ana", "Ben", "Cai"]]


def test_after_an_election_the_new_pm_moves_first_and_ministers_lose_their_jobs():
    state = new_game({"players": NAMES, "dice": [[1, 2], [1, 2], [6, 5], [1, 2]],
                      "start": {"basic_incomes": dict.fromkeys(NAMES, 6), "pm": "Ana",
                                "government": ["Ana", "Ben"], "cabinet": ["Ben"],
                                "salaries": {"pm": 14}, "first": "Cai"}}, 1)
    state.election_due = True  # an Election space was reached this round
    nmr_round(state)
    assert state.pm == "Cai" and state.cabinet == [] and state.pm_salary == 14
    assert state.round == 2 and state.order()[0].name == "Cai"


def test_the_last_round_ends_the_game_without_its_election():
    state = game([[6, 5], [1, 2], [1, 2], [1, 3]], parties={}, rounds=1)
    state.election_due = True
    nmr_round(state)
    assert state.phase == "over" and state.over_reason == "rounds" and state.elections == 1


@pytest.mark.parametrize("config, reason", [
    ({"players": ["Ana"]}, "2 to 6"),
    ({"players": ["Ana", "Ana"]}, "different"),
    ({"players": NAMES, "rounds": 0}, "rounds"),
    ({"players": NAMES, "dice": [[0, 7]]}, "dice"),
    ({"players": NAMES, "colour": "red"}, "Unknown config"),
    ({"players": NAMES, "parties": {"Solo": ["Ana"]}}, "two members"),
    ({"players": NAMES, "consent_mode": "shout"}, "consent_mode"),
])
def test_a_bad_config_is_refused_with_a_reason(config, reason):
    with pytest.raises(InvalidConfig, match=reason):
        new_game(config, 1)


BIS = {"Ana": 6, "Ben": 5, "Cai": 4, "Dee": 3}


@pytest.mark.parametrize("start, reason", [
    ({"pm": "Ana"}, "Basic Income"),
    ({"basic_incomes": BIS}, "Prime Minister"),
    ({"basic_incomes": BIS, "pm": "Ana", "cabinet": ["Cai"]}, "cabinet"),
    ({"basic_incomes": BIS, "pm": "Ana", "bonds": {"Ben": 4}, "bonds_issued": 2}, "bonds"),
    ({"basic_incomes": BIS, "pm": "Ana", "firms": {"c1": "Zed"}}, "firms"),
    ({"basic_incomes": BIS, "pm": "Ana", "index": {"space": 21}}, "index"),
    ({"basic_incomes": BIS, "pm": "Ana", "positions": {"Ana": "moon"}}, "positions"),
    ({"basic_incomes": BIS, "pm": "Ana", "life_insurance": {"Ana": 6}}, "only 5"),
    ({"basic_incomes": BIS, "pm": "Ana", "salaries": {"pm": 5}}, "below"),
    ({"basic_incomes": BIS, "pm": "Ana", "firms": {"c1": "Ben"}, "auction": ["c1"]},
     "unowned"),
    ({"basic_incomes": BIS, "pm": "Ana", "mood": "happy"}, "Unknown 'start'"),
])
def test_an_impossible_stated_situation_is_refused(start, reason):
    with pytest.raises(InvalidConfig, match=reason):
        new_game({"players": NAMES, "start": start}, 1)


def test_a_stated_situation_sets_every_part_of_the_game():
    state = new_game({"players": NAMES, "rounds": 9, "start": {
        "round": 4, "basic_incomes": BIS, "pm": "Ben", "government": ["Ben", "Cai"],
        "cabinet": ["Cai"], "salaries": {"pm": 20, "ministers": {"Cai": 15}},
        "tax": {"per_company": 3, "exempt": ["Dee"]}, "parties": {"Reds": ["Ben", "Cai"]},
        "votes": {"Ben": 9, "Cai": 8, "Ana": 4, "Dee": 3}, "cash": {"Ana": 100},
        "positions": {"Ana": "takeover"}, "tracks": {"Ana": "outer"}, "firms": {"c3": "Ana"},
        "business_insurance": ["Dee"], "life_insurance": {"Ana": 2}, "bonds": {"Cai": 2},
        "bonds_issued": 5, "index": {"space": 9, "direction": "anticlockwise"},
        "treasury": 40, "bank": 1500, "auction": ["a4"], "first": "Dee"}}, 1)
    ana = state.player("Ana")
    assert (state.round, state.phase, state.multiplier) == (4, "orders", 5)
    assert (ana.cash, ana.position, ana.track, ana.life_insurance) == (100, "takeover",
                                                                       "outer", 2)
    assert state.order()[0].name == "Dee" and state.cabinet == ["Cai"]
    assert state.salary_of("Cai") == 15 and state.salary_of("Ben") == 20
    assert (state.bank, state.treasury, state.bonds_issued) == (1500, 40, 5)
    assert state.auction == ["a4"] and state.owners == {"c3": "Ana"}
    assert state.player("Dee").business_insurance and state.direction == "anticlockwise"


def test_the_game_master_confirms_a_coalition_or_calls_a_new_election():
    from games.core import MASTER
    from games.poleconomy.views import legal_actions
    state = game([[6, 5], [1, 2], [2, 3], [1, 3]], parties={"Reds": ["Ben", "Cai"]})
    (d,) = decisions(state)
    assert (d.id, d.who, d.default) == ("e1.government", MASTER, {"type": "no_government"})
    assert {"type": "no_government"} in legal_actions(state, None)
    assert legal_actions(state, "Ana") == []
