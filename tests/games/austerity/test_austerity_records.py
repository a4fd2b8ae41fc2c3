"""Austerity records: the documented worked example, pinned draws, stated situations, config
errors, decisions and views (docs/engines/austerity.md)."""

from __future__ import annotations

import json
import re

import pytest

import games.austerity as engine
from games.austerity import data
from games.core import InvalidAction, InvalidConfig, ReplayError
from games.registry import replay

# The worked example of docs/engines/austerity.md: a whole first year, every draw pinned.
WORKED = {
    "game": "austerity", "version": 1, "seed": 42,
    "config": {"draws": [["income", "security"], ["debt", "crime"], ["debt", "debt"],
                         ["welfare", "crime"], ["security", "debt"], ["crime", "income"]]},
    "actions": [
        {"type": "draw"},
        {"type": "event", "choice": "popularity"},
        {"type": "income", "choice": "fund:private-enterprise"},
        {"type": "action", "choice": "raise-taxes"},
        {"type": "draw"},
        {"type": "cuts", "choice": "national-security"},
        {"type": "draw"},
        {"type": "draw"},
        {"type": "draw"},
        {"type": "cuts", "choice": "social-welfare"},
        {"type": "draw"},
        {"type": "event", "choice": "remove"},
    ],
}


def test_the_worked_example_replays_to_the_documented_state():
    out = engine.summary(replay(WORKED).state)
    assert (out["year"], out["draw"], out["stage"], out["result"]) == (2, 0, "draw", None)
    assert out["tracks"] == {"employment": 4, "public-safety": 5, "wealth": 4, "health": 5,
                             "popularity": 5}
    assert out["bag"] == {"debt": 4, "welfare": 1, "security": 2, "crime": 3, "income": 1}
    assert out["used"] == dict.fromkeys(data.COLOURS, 0) and out["treasury"] == 0
    assert out["institutions"] == {"private-enterprise": {"cuts": 1, "funded": 0},
                                   "national-security": {"cuts": 2, "funded": 0},
                                   "social-welfare": {"cuts": 2, "funded": 0}}
    assert [d["id"] for d in out["decisions"]] == ["y2.d1.draw", "y2.action2"]


def test_the_summary_is_json_and_never_shows_the_seed_or_the_pins():
    state = replay(WORKED).state
    for shown in (engine.summary(state), engine.view(state, "public"),
                  engine.view(state, "master"), engine.view(state, "government")):
        text = json.dumps(shown)
        assert "seed" not in text and "pins" not in text and '"draws"' not in text


def test_a_record_may_stop_mid_year_and_replay_prints_that_moment():
    record = {**WORKED, "actions": WORKED["actions"][:5]}
    state = replay(record).state
    assert state.stage == "cuts" and engine.decisions(state)[0].id == "y1.d2.cuts"
    assert engine.decisions(state)[0].options == ("private-enterprise", "national-security")


def test_a_wrong_decision_in_a_record_reports_its_index_and_reason():
    record = {**WORKED, "actions": [{"type": "draw"}, {"type": "income", "choice": "used"}]}
    with pytest.raises(ReplayError, match=r"action 1:.*waiting for a decision of type 'event'"):
        replay(record)


def test_a_pinned_draw_naming_a_cube_no_longer_in_the_bag_is_refused():
    record = {"game": "austerity", "seed": 1, "config": {"draws": [["income", "income"]]},
              "actions": [{"type": "draw"}]}
    reason = "action 0: Pinned draw 1 names 2 cubes of 'income', but the bag holds 1."
    with pytest.raises(ReplayError, match=re.escape(reason)):
        replay(record)


def test_a_pinned_draw_must_name_one_cube_when_only_one_is_left():
    state = engine.new_game({"draws": [["security", "security"], ["debt", "debt"]],
                             "start": {"bag": {"security": 2, "debt": 1}}}, 1)
    state, _ = engine.apply(state, {"type": "draw"})
    with pytest.raises(InvalidAction, match="must name 1"):
        engine.apply(state, {"type": "draw"})


def test_after_the_pins_the_draws_come_from_the_seed_and_repeat_exactly():
    config = {"draws": [["debt", "debt"]]}
    runs = []
    for _ in range(2):
        state = engine.new_game(config, 99)
        for _draw in range(3):
            state, _ = engine.apply(state, {"type": "draw"})
            while state.stage == "cuts":
                state, _ = engine.apply(state, {"type": "cuts", "choice":
                                                engine.decisions(state)[0].options[0]})
            while state.stage in ("event", "income"):
                state, _ = engine.apply(state, {"type": state.stage, "choice":
                                                engine.decisions(state)[0].options[0]})
        runs.append([line.get("cubes") for line in state.this_year["log"]])
    assert runs[0] == runs[1] and runs[0][0] == ["debt", "debt"]


def test_a_stated_situation_starts_mid_game_with_a_drawn_pair():
    state = engine.new_game({"start": {
        "year": 3, "draw": 2, "tracks": {"health": 2}, "bag": {"debt": 2, "income": 1},
        "current": ["welfare", "debt"], "used": {"crime": 1}, "treasury": 1,
        "institutions": {"social-welfare": {"cuts": 2, "funded": 1}}}}, 5)
    assert state.stage == "event" and engine.decisions(state)[0].id == "y3.d2.event"
    state, _ = engine.apply(state, {"type": "event", "choice": "lose-health"})
    assert state.tracks["health"] == 1 and state.stage == "cuts"
    state, _ = engine.apply(state, {"type": "cuts", "choice": "social-welfare"})
    assert state.result == "lost" and state.reason == "health"  # the third cut: -2 Health


@pytest.mark.parametrize("config", [
    {"colour": "red"}, {"scenario": "moon-landing"}, {"difficulty": "brutal"},
    {"country": "atlantis"}, {"policies": {"tax": "police-state"}}, {"policies": "yes"},
    {"draws": [["debt", "gold"]]}, {"draws": [["debt", "debt", "debt"]]},
    {"year_limit": 0}, {"lone_debt_cuts": "yes"},
    {"start": {"tracks": {"wealth": 0}}}, {"start": {"tracks": {"wealth": 11}}},
    {"start": {"bag": {"debt": -1}}}, {"start": {"current": ["debt"]}},
    {"start": {"institutions": {"investment": {}}}},
    {"start": {"institutions": {"social-welfare": {"cuts": 3}}}},
    {"start": {"war": 3}}, {"start": {"bag": {}}}, {"start": {"mood": "sunny"}},
])
def test_a_bad_config_is_refused_with_a_reason(config):
    with pytest.raises(InvalidConfig):
        engine.new_game(config, 1)


def test_a_year_limit_ends_the_lesson_with_a_loss_at_that_year_end():
    state = engine.new_game({"year_limit": 1, "draws": [["security", "security"]],
                             "start": {"bag": {"security": 2}, "used": {"debt": 1}}}, 1)
    state, _ = engine.apply(state, {"type": "draw"})
    assert state.result == "lost" and state.reason == "year-limit"


def test_decisions_name_who_and_how_and_match_the_legal_actions():
    state = replay({**WORKED, "actions": WORKED["actions"][:1]}).state
    main, optional = engine.decisions(state)
    assert (main.id, main.kind, main.who, main.mode, main.action) == (
        "y1.d1.event", "event", "seat", "choice", "event")
    assert main.params == {"event": "Security Spending"}
    assert (optional.kind, optional.action) == ("action", "action")
    legal = engine.legal_actions(state, "government")
    assert legal == [{"type": d.action, "choice": o} for d in (main, optional)
                     for o in d.options]


def test_views_are_the_same_for_every_audience_and_unknown_ones_are_refused():
    state = replay(WORKED).state
    assert engine.view(state, "public") == engine.view(state, "master")
    assert engine.view(state, "government")["legal_actions"]
    with pytest.raises(InvalidAction):
        engine.view(state, "Ana")


def test_austerity_moves_no_money_so_it_keeps_no_ledger_accounts():
    replayed = replay(WORKED)
    assert engine.balances(replayed.state) == {}
    assert not [e for e in replayed.events if e["type"] == "transfer"]


def test_apply_leaves_the_old_state_untouched_and_an_invalid_action_changes_nothing():
    state = engine.new_game({}, 1)
    before = engine.to_dict(state)
    engine.apply(state, {"type": "action", "choice": "borrow"})
    with pytest.raises(InvalidAction, match="not an option"):
        engine.apply(state, {"type": "action", "choice": "print-money"})
    with pytest.raises(InvalidAction, match="Unknown action keys"):
        engine.apply(state, {"type": "draw", "cubes": ["income"]})
    assert engine.to_dict(state) == before


def test_a_snapshot_round_trips_through_json():
    state = replay(WORKED).state
    raw = json.loads(json.dumps(engine.to_dict(state)))
    assert engine.summary(engine.from_dict(raw)) == engine.summary(state)
