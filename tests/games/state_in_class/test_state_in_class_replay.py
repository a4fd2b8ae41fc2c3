"""Game records and `registry.replay` (docs/record.md)."""

import copy
import json

import pytest

from games.core import InvalidConfig, ReplayError
from games.registry import get_engine, replay
from games.state_in_class import rules
from games.state_in_class.audiences import summary
from games.state_in_class.bots import RandomPolicy, get_policy
from games.state_in_class.simulate import bot_names, play
from games.state_in_class.state import TAX_VOTE, to_dict

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]
SUMMARY_KEYS = {"round", "phase", "tension", "failed", "services", "players"}
PLAYER_KEYS = {"role", "class", "coins", "exclusions", "score", "score_breakdown"}


def record_of(actions, *, seed=7, config=None):
    return {"game": "state-in-class", "version": 1, "seed": seed,
            "config": config or {"players": NAMES}, "actions": actions}


def a_played_game(policy="civic", seed=3, players=8):
    state, actions = play([get_policy(policy) for _ in range(players)], seed)
    return state, record_of(actions, seed=seed, config={"players": bot_names(players)})


def design_example():
    """The record format's example, completed so that every count sums to its ballots."""
    actions = [{"type": "pact", "player": n, "coins": 2} for n in NAMES]
    actions += [{"type": "ballot", "kind": "tax", "player": n} for n in NAMES]
    actions += [{"type": "count", "kind": "tax", "tally": {"A": 4, "C": 4}}]
    return record_of(actions, config={
        "players": NAMES, "roles": {"Ana": "company-director"},
        "midlife_order": ["the-inheritance", "eviction"]})


@pytest.mark.parametrize("policy", ["random", "civic", "always-A", "always-D", "class-selfish"])
def test_replaying_a_record_gives_the_same_summary_as_live_play(policy):
    for seed in range(3):
        live, record = a_played_game(policy, seed)
        replayed = replay(json.loads(json.dumps(record)))  # a record survives JSON
        assert summary(replayed.state) == summary(live)
        assert to_dict(replayed.state) == to_dict(live)


def test_the_summary_has_the_keys_the_replay_command_prints():
    live, _ = a_played_game()
    out = summary(live)
    assert set(out) >= SUMMARY_KEYS
    assert set(out["services"]) == {"health", "education", "shield"}
    assert all(set(v) == {"level", "fund"} for v in out["services"].values())
    assert all(set(row) >= PLAYER_KEYS for row in out["players"].values())
    json.dumps(out)


def test_the_design_example_replays_with_its_pins():
    record = design_example()
    state = replay(record).state
    assert state.player("Ana").role == "company-director"
    assert state.phase == "tie_break" and state.tie.options == ["A", "C"]
    decider = state.tie.deciders[0]
    record["actions"].append({"type": "tie_break", "player": decider, "choice": "C"})
    record["actions"] += [{"type": "ballot", "kind": "budget", "player": "Ana"},
                          {"type": "count", "kind": "budget",
                           "tally": {"health": 1}}]
    state = replay(record).state
    assert state.tax == "C"
    assert rules.midlife_deck(state)[:2] == ["the-inheritance", "eviction"]


def test_a_record_may_stop_mid_game():
    _, record = a_played_game()
    record["actions"] = record["actions"][:16]  # the pact and round 1's ballots, no count
    state = replay(record).state
    assert state.round == 1 and state.phase == TAX_VOTE and len(state.receipts) == 8
    assert summary(state)["winners"] == []


def test_replay_returns_the_events_of_the_whole_game():
    for seed in range(10):
        live, record = a_played_game(seed=seed)
        events = replay(record).events
        if live.failed:
            assert events[-1]["type"] == "state_failed"
            continue
        assert events[-1]["type"] == "final_count"
        assert sum(e["type"] == "round_started" for e in events) == 8


def test_the_same_record_always_replays_to_the_same_state():
    _, record = a_played_game("random", 11)
    assert to_dict(replay(record).state) == to_dict(replay(copy.deepcopy(record)).state)


def test_the_record_is_decisions_only_the_engine_moves_on_by_itself():
    _, record = a_played_game()
    assert {a["type"] for a in record["actions"]} <= {"pact", "ballot", "count", "tie_break"}


# --------------------------------------------------------------------------- invalid records


@pytest.mark.parametrize(("index", "bad", "reason"), [
    (3, {"type": "pact", "player": "Bot 1", "coins": 1}, "already"),
    (0, {"type": "pact", "player": "Bot 1", "coins": 4}, "0, 1, 2 or 3"),
    (8, {"type": "count", "kind": "tax", "tally": {"C": 1}}, "ballots"),
    (8, {"type": "ballot", "kind": "budget", "player": "Bot 1"}, "not open"),
    (4, {"type": "pact", "player": "Ana", "coins": 1}, "no player 'Ana'"),
    (5, {"type": "vote", "player": "Bot 1", "option": "C"}, "Unknown action type"),
    (2, "pact", "must be an object"),
])
def test_an_invalid_record_names_the_first_illegal_action_and_why(index, bad, reason):
    _, record = a_played_game()
    record["actions"].insert(index, bad)
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.index == index
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"action {index}: ")


def test_only_the_first_illegal_action_is_reported():
    _, record = a_played_game()
    record["actions"][10] = {"type": "tie_break", "player": "Bot 1", "choice": None}
    record["actions"][30] = {"type": "pact", "player": "Bot 1", "coins": 1}
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.index == 10 and "no tie" in caught.value.reason


def test_actions_after_the_end_are_illegal():
    _, record = a_played_game()
    record["actions"].append({"type": "ballot", "kind": "tax", "player": "Bot 1"})
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.index == len(record["actions"]) - 1
    assert "over" in caught.value.reason


@pytest.mark.parametrize(("record", "reason"), [
    ([], "JSON object"),
    ({"game": "state-in-class", "seed": 1, "config": {"players": NAMES}}, "'actions'"),
    ({**record_of([]), "notes": "x"}, "unknown record keys"),
    ({**record_of([]), "version": 2}, "version"),
    ({**record_of([]), "seed": "7"}, "seed"),
    ({**record_of([]), "seed": True}, "seed"),
    ({**record_of([]), "actions": {}}, "list"),
    ({**record_of([]), "game": "monopoly"}, "Unknown game"),
    ({**record_of([]), "game": 3}, "string"),
    ({**record_of([]), "config": {"players": NAMES[:5]}}, "6, 7 or 8"),
    ({**record_of([]), "config": {"players": NAMES, "midlife_order": [["x"]]}}, "midlife"),
])
def test_a_record_that_cannot_start_has_no_index(record, reason):
    with pytest.raises(ReplayError) as caught:
        replay(record)
    assert caught.value.index is None
    assert reason in str(caught.value)


def test_the_engine_is_registered_by_its_game_id():
    engine = get_engine("state-in-class")
    assert engine.GAME_ID == "state-in-class"
    with pytest.raises(InvalidConfig):
        get_engine("chess")


def test_random_bots_replay_across_table_sizes():
    for players in (6, 7):
        live, actions = play([RandomPolicy() for _ in range(players)], 5)
        state = replay(record_of(actions, seed=5,
                                 config={"players": bot_names(players)})).state
        assert summary(state) == summary(live)
