"""Setup and the opening pact (rulebook: "Setup", "The opening pact", the two setup tables)."""

from collections import Counter

import pytest

from games.core import InvalidAction, InvalidConfig
from games.state_in_class import data, rules
from games.state_in_class.audiences import player_view, public_view
from games.state_in_class.state import PACT, TAX_VOTE, to_dict
from tests.games.state_in_class.state_in_class_support import (
    as_json,
    config,
    distribute,
    moved,
    names,
    new_table,
    pinned_roles,
    play_pact,
    transfers,
)

SPARES = {"landlord", "nurse", "waiter"}

# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize(("n", "mix"), [(8, (2, 3, 3)), (7, (2, 2, 3)), (6, (2, 2, 2))])
def test_class_mix_is_fixed_by_the_number_of_players(n, mix):
    for seed in range(10):
        state = new_table(n, seed=seed)
        play_pact(state, 1)
        classes = Counter(p.klass for p in state.players)
        assert (classes[data.UPPER], classes[data.MIDDLE], classes[data.WORKING]) == mix


@pytest.mark.parametrize(("n", "left_out"), [
    (8, set()),
    (7, {"office-worker"}),
    (6, {"office-worker", "precarious-freelancer"}),
])
def test_roles_left_out_at_smaller_tables(n, left_out):
    everyone = {"company-director", "specialist-doctor", "secondary-teacher", "shop-owner",
                "office-worker", "factory-worker", "care-worker", "precarious-freelancer"}
    for seed in range(10):
        state = new_table(n, seed=seed)
        play_pact(state, 1)
        assert {p.role for p in state.players} == everyone - left_out


@pytest.mark.parametrize(("n", "price"), [(8, 10), (7, 9), (6, 8)])
def test_price_of_a_level_depends_on_the_number_of_players(n, price):
    assert new_table(n).price == price


def test_spare_roles_are_never_dealt():
    for n in (6, 7, 8):
        for seed in range(40):
            state = new_table(n, seed=seed)
            play_pact(state, 0)
            assert not SPARES & {p.role for p in state.players}


@pytest.mark.parametrize("n", [6, 7, 8])
def test_every_player_starts_with_three_coins(n):
    state = new_table(n)
    assert [p.coins for p in state.players] == [3] * n
    assert [p.pact for p in state.players] == [None] * n


def test_the_game_starts_in_the_pact_phase_with_no_tension_and_services_at_level_1():
    state = new_table()
    assert state.phase == PACT and state.round == 0 and state.tension is None
    assert {s: (v.level, v.fund) for s, v in state.services.items()} == {
        "health": (1, 0), "education": (1, 0), "shield": (1, 0)}


# --------------------------------------------------------------------------- roles


def test_roles_are_dealt_only_after_the_whole_pact():
    state = new_table()
    for p in state.players[:-1]:
        rules.step(state, {"type": "pact", "player": p.name, "coins": 1})
        assert all(q.role is None for q in state.players)
        assert state.phase == PACT
    rules.step(state, {"type": "pact", "player": state.players[-1].name, "coins": 1})
    assert all(q.role is not None for q in state.players)
    assert state.phase == TAX_VOTE and state.round == 1


def test_the_deal_is_a_function_of_the_seed():
    def deal(seed):
        state = new_table(seed=seed)
        play_pact(state, 2)
        return [p.role for p in state.players]

    assert deal(11) == deal(11)
    assert len({tuple(deal(seed)) for seed in range(10)}) > 1


def test_the_deal_does_not_depend_on_the_pact_contributions():
    a, b = new_table(seed=5), new_table(seed=5)
    play_pact(a, 0)
    play_pact(b, 3)
    assert [p.role for p in a.players] == [p.role for p in b.players]


@pytest.mark.parametrize("n", [6, 7, 8])
def test_roles_can_be_pinned_for_every_seat(n):
    pins = pinned_roles(n, list(reversed(pinned_roles(n).values())))
    state = new_table(n, roles=pins)
    play_pact(state, 1)
    assert {p.name: p.role for p in state.players} == pins


def test_a_partial_pin_fixes_some_seats_and_deals_the_rest_from_what_is_left():
    for seed in range(10):
        pins = {"Ana": "precarious-freelancer", "Hal": "company-director"}
        state = new_table(seed=seed, roles=pins)
        play_pact(state, 1)
        roles = [p.role for p in state.players]
        assert roles[0] == "precarious-freelancer" and roles[-1] == "company-director"
        assert sorted(roles) == sorted(data.BASE_ROLES)


@pytest.mark.parametrize(("n", "pins", "why"), [
    (8, {"Zoe": "company-director"}, "unknown player"),
    (8, {"Ana": "landlord"}, "a spare role"),
    (8, {"Ana": "nurse"}, "a spare role"),
    (8, {"Ana": "astronaut"}, "no such role"),
    (7, {"Ana": "office-worker"}, "left out at 7"),
    (6, {"Ana": "precarious-freelancer"}, "left out at 6"),
    (8, {"Ana": "shop-owner", "Ben": "shop-owner"}, "same role twice"),
    (8, ["company-director"], "not a mapping"),
])
def test_invalid_role_pins_are_rejected(n, pins, why):
    with pytest.raises(InvalidConfig):
        rules.new_game({"players": names(n), "roles": pins}, 1)


# --------------------------------------------------------------------------- bad configs


@pytest.mark.parametrize(("cfg", "why"), [
    ({"players": names(5)}, "5 players"),
    ({"players": [*names(8), "Ivy"]}, "9 players"),
    ({"players": ["Ana", "Ana", "Cai", "Dee", "Eli", "Fay"]}, "duplicate names"),
    ({"players": names(6), "colour": "red"}, "unknown key"),
    ({"players": names(6), "seed": 3}, "unknown key"),
    ({}, "no players"),
    ({"players": "Ana,Ben,Cai,Dee,Eli,Fay"}, "players not a list"),
    ({"players": ["Ana", "", "Cai", "Dee", "Eli", "Fay"]}, "empty name"),
    ({"players": ["Ana", 2, "Cai", "Dee", "Eli", "Fay"]}, "name not a string"),
    ({"players": names(6), "midlife_order": ["a-lottery-win"]}, "unknown card"),
    ({"players": names(6), "midlife_order": ["eviction", "eviction"]}, "card twice"),
    ({"players": names(6), "midlife_order": "eviction"}, "not a list"),
    ({"players": names(6), "midlife_order": [["eviction"]]}, "a card that is a list"),
    ({"players": names(6), "midlife_order": [{"card": "eviction"}]}, "a card that is a dict"),
])
def test_bad_configs_raise_invalid_config(cfg, why):
    with pytest.raises(InvalidConfig):
        rules.new_game(cfg, 1)


@pytest.mark.parametrize("cfg", [None, ["Ana"], "players"])
def test_a_config_that_is_not_an_object_is_rejected(cfg):
    with pytest.raises(InvalidConfig):
        rules.new_game(cfg, 1)


@pytest.mark.parametrize("seed", [None, "7", 1.5, True])
def test_the_seed_must_be_a_whole_number(seed):
    with pytest.raises(InvalidConfig):
        rules.new_game(config(8), seed)


def test_invalid_config_is_an_invalid_action_with_a_readable_reason():
    with pytest.raises(InvalidAction, match="6, 7 or 8 players"):
        rules.new_game({"players": names(5)}, 1)


# --------------------------------------------------------------------------- the pact


@pytest.mark.parametrize("coins", [0, 1, 2, 3])
def test_a_pact_contribution_is_0_to_3_coins(coins):
    state = new_table()
    rules.step(state, {"type": "pact", "player": "Ana", "coins": coins})
    assert state.player("Ana").pact == coins
    assert state.player("Ana").coins == 3 - coins


@pytest.mark.parametrize("coins", [4, -1, True, False, 1.0, "2", None, [1]])
def test_an_impossible_pact_contribution_is_rejected_and_changes_nothing(coins):
    state = new_table()
    before = to_dict(state)
    with pytest.raises(InvalidAction):
        rules.step(state, {"type": "pact", "player": "Ana", "coins": coins})
    assert to_dict(state) == before


def test_a_second_pact_contribution_is_rejected_and_changes_nothing():
    state = new_table()
    rules.step(state, {"type": "pact", "player": "Ana", "coins": 1})
    before = to_dict(state)
    with pytest.raises(InvalidAction, match="already"):
        rules.step(state, {"type": "pact", "player": "Ana", "coins": 2})
    assert to_dict(state) == before


@pytest.mark.parametrize("player", ["Zoe", "", None, 0, "ana"])
def test_a_pact_contribution_from_an_unknown_player_is_rejected(player):
    state = new_table()
    before = to_dict(state)
    with pytest.raises(InvalidAction):
        rules.step(state, {"type": "pact", "player": player, "coins": 1})
    assert to_dict(state) == before


def test_a_pact_action_with_missing_or_extra_fields_is_rejected():
    state = new_table()
    for action in ({"type": "pact", "player": "Ana"}, {"type": "pact", "coins": 1},
                   {"type": "pact", "player": "Ana", "coins": 1, "public": True}):
        with pytest.raises(InvalidAction):
            rules.step(state, action)


def test_no_pact_once_the_pact_is_over():
    state = new_table()
    play_pact(state, 1)
    with pytest.raises(InvalidAction):
        rules.step(state, {"type": "pact", "player": "Ana", "coins": 1})


def test_pact_coins_go_back_to_the_bank():
    state = new_table()
    events = play_pact(state, [3, 0, 1, 2, 3, 0, 1, 2])
    assert [moved(p, reason="pact") for p in state.players] == [-3, 0, -1, -2, -3, 0, -1, -2]
    # What is left, plus round 1's Economic boom (+2), which resolves as soon as the pact closes.
    assert [p.coins for p in state.players] == [2, 5, 4, 3, 2, 5, 4, 3]
    to_bank = [e for e in transfers(events, "pact") if e["to"] == "bank"]
    assert [(e["from"], e["amount"]) for e in to_bank] == [("pact", 12)]
    assert state.pact_total == 12
    assert state.pot == 0 and all(s.fund == 0 for s in state.services.values())


# The Tension table, at every boundary, through the real pact.
TENSION_TABLE = [
    (8, 24, 1), (8, 20, 1), (8, 19, 2), (8, 17, 2), (8, 16, 3), (8, 13, 3), (8, 12, 4), (8, 0, 4),
    (7, 21, 1), (7, 18, 1), (7, 17, 2), (7, 15, 2), (7, 14, 3), (7, 11, 3), (7, 10, 4), (7, 0, 4),
    (6, 18, 1), (6, 15, 1), (6, 14, 2), (6, 13, 2), (6, 12, 3), (6, 10, 3), (6, 9, 4), (6, 0, 4),
]


@pytest.mark.parametrize(("n", "total", "tension"), TENSION_TABLE)
def test_the_pact_total_sets_tension(n, total, tension):
    state = new_table(n)
    events = play_pact(state, distribute(total, n))
    assert state.pact_total == total
    assert state.tension == tension
    assert {"type": "pact_total", "audience": "public", "total": total,
            "tension": tension} in events
    assert public_view(state)["pact"]["total"] == total


def test_pact_contributions_stay_secret_until_the_game_is_over():
    state = new_table()
    play_pact(state, [0, 1, 2, 3, 0, 1, 2, 3])
    spy = state.clone()
    spy.player("Ana").pact = 918273  # a value that can only come from Ana's contribution
    assert "918273" not in as_json(public_view(spy))
    for other in names(8)[1:]:
        assert "918273" not in as_json(player_view(spy, other))
    assert player_view(spy, "Ana")["me"]["pact"] == 918273


def test_pact_progress_is_public_but_each_contribution_is_told_only_to_its_player():
    state = new_table()
    events = rules.step(state, {"type": "pact", "player": "Cai", "coins": 2})
    public = [e for e in events if e["audience"] == "public"]
    assert public == [{"type": "pact_progress", "audience": "public", "done": 1, "of": 8}]
    assert all(e["audience"] in ("public", "Cai") for e in events)
    assert public_view(state)["pact"] == {"done": 1, "of": 8, "total": None}


def test_pact_contributions_are_revealed_in_the_final_count():
    state = new_table()
    play_pact(state, [0, 1, 2, 3, 0, 1, 2, 3])
    state.phase = "over"  # the final count (set directly: only the reveal is under test)
    final = public_view(state)["final"]
    assert {n: v["pact"] for n, v in final["players"].items()} == dict(
        zip(names(8), [0, 1, 2, 3, 0, 1, 2, 3], strict=True))
    assert final["pact_total"] == 12
