"""Our difficulty levels, the Classic levels, and the lesson length rule (``min_years``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games.austerity as engine
from games.austerity import data, levels
from games.austerity.bots import get_policy, weights_for
from games.austerity.simulate import play
from games.core import InvalidConfig
from games.registry import replay


def test_a_config_without_levels_is_the_classic_game_exactly():
    for scenario in data.SCENARIOS:
        for difficulty in (*data.DIFFICULTIES, data.EASIER):
            config = {"scenario": scenario, "difficulty": difficulty}
            old = engine.new_game(config, 3)
            classic = engine.new_game({**config, "levels": "classic"}, 3)
            assert engine.to_dict(old) == {**engine.to_dict(classic)}
            assert old.levels == "classic" and old.min_years is None


def test_an_old_snapshot_without_the_new_keys_loads_as_classic_without_the_rule():
    raw = engine.to_dict(engine.new_game({}, 1))
    del raw["levels"], raw["min_years"]
    state = engine.from_dict(raw)
    assert state.levels == "classic" and state.min_years is None


def test_every_level_of_ours_says_where_it_comes_from_and_sets_only_bag_and_tracks():
    assert set(levels.OUR_LEVELS) == {(s, d) for s in data.SCENARIOS
                                      for d in data.DIFFICULTIES}
    for level in levels.OUR_LEVELS.values():
        assert level.source == "ours" and level.reason
        assert all(colour in data.COLOURS and isinstance(n, int) for colour, n in level.bag)
        assert level.tracks is None or (len(level.tracks) == len(data.TRACKS)
                                        and all(1 <= v <= data.TRACK_MAX for v in level.tracks))


@pytest.mark.parametrize("key", sorted(levels.OUR_LEVELS))
def test_our_level_sets_the_starting_bag_and_tracks(key):
    scenario, difficulty = key
    level = levels.OUR_LEVELS[key]
    state = engine.new_game({"scenario": scenario, "difficulty": difficulty,
                             "levels": "ours"}, 1)
    bag = dict.fromkeys(data.COLOURS, 0)
    for cube in data.BASE_BAG:
        bag[cube] += 1
    for colour, n in level.bag:
        bag[colour] = max(0, bag[colour] + n)
    assert state.bag == bag
    tracks = level.tracks or data.SCENARIOS[scenario].tracks
    assert tuple(state.tracks[t] for t in data.TRACKS) == tracks


def test_our_easier_level_is_our_easy_plus_the_rulebooks_two_income_cubes():
    easy = engine.new_game({"levels": "ours"}, 1)
    easier = engine.new_game({"levels": "ours", "difficulty": "easier"}, 1)
    assert easier.bag["income"] == easy.bag["income"] + data.EASIER_INCOME
    assert easier.tracks == easy.tracks


def test_our_level_applies_to_a_countrys_bag_and_never_takes_a_colour_below_zero():
    state = engine.new_game({"levels": "ours", "scenario": "olympics",
                             "country": "socialist-republic"}, 1)
    # Socialist Republic: 3 Debt; our Olympics Easy takes 3 Debt and 1 Crime out
    assert state.bag["debt"] == 0 and state.bag["crime"] == 1


@pytest.mark.parametrize("config", [
    {"levels": "new"}, {"levels": True}, {"min_years": 1}, {"min_years": 5},
    {"min_years": "3"}, {"min_years": True}, {"min_years": 3, "year_limit": 2},
])
def test_a_bad_levels_or_min_years_is_refused_with_a_reason(config):
    with pytest.raises(InvalidConfig) as caught:
        engine.new_game(config, 1)
    assert "levels" in str(caught.value) or "min_years" in str(caught.value)


def won_in_year_one(min_years: int | None) -> tuple[Any, list[dict[str, Any]]]:
    """A bag of two Security cubes and no Debt: year 1 ends debt-free."""
    config: dict[str, Any] = {"draws": [["security", "security"]],
              "start": {"bag": {"security": 2}}}
    if min_years is not None:
        config["min_years"] = min_years
    state = engine.new_game(config, 1)
    state, events = engine.apply(state, {"type": "draw"})
    return state, events


def test_without_the_rule_a_debt_free_year_one_wins():
    state, _events = won_in_year_one(None)
    assert state.result == "won" and state.year == 1


def test_the_length_rule_holds_a_win_back_until_the_year_end_of_its_year():
    state, events = won_in_year_one(3)
    assert state.result is None and state.year == 2
    held = [e for e in events if e["type"] == "win_held"]
    assert held == [{"type": "win_held", "audience": "public", "year": 1, "min_years": 3}]
    assert any(line["kind"] == "win-held" for line in state.history[0]["log"])
    # Year End went on as usual: the Income icon of Employment 5, Security back in the bag
    assert state.treasury == 1 and state.bag["security"] == 2
    state, _ = engine.apply(state, {"type": "draw"})
    assert state.result is None and state.year == 3
    state, _ = engine.apply(state, {"type": "draw"})
    assert state.result == "won" and state.reason == "debt-free" and state.year == 3


def test_the_length_rule_leaves_the_losses_as_they_are():
    state = engine.new_game({"min_years": 3, "draws": [["crime", "crime"]],
                             "start": {"bag": {"crime": 2}, "tracks": {"public-safety": 2}}}, 1)
    state, _ = engine.apply(state, {"type": "draw"})
    assert state.result == "lost" and state.reason == "public-safety" and state.year == 1


def test_war_footing_moves_its_marker_and_can_still_be_lost_in_a_held_year():
    state = engine.new_game({"scenario": "war-footing", "min_years": 4,
                             "draws": [["security", "security"]],
                             "start": {"bag": {"security": 2}, "war": 1}}, 1)
    state, _ = engine.apply(state, {"type": "draw"})
    assert state.result == "lost" and state.reason == "war"


def test_a_game_with_the_rule_replays_to_the_same_end():
    config = {"levels": "ours", "min_years": 3, "scenario": "organised-crime"}
    state, record = play(config, 5, "sensible")
    assert state.year >= 3 or state.result == "lost"
    assert engine.summary(replay(record).state) == engine.summary(state)


def test_a_won_game_under_the_rule_is_never_won_before_its_year():
    for seed in range(6):
        state, _record = play({"levels": "ours", "min_years": 3}, seed, "sensible")
        if state.result == "won":
            assert state.year >= 3


def test_the_views_name_the_levels_and_the_rule():
    state = engine.new_game({"levels": "ours", "min_years": 2}, 1)
    options = engine.public_view(state)["options"]
    assert options["levels"] == "ours" and options["min_years"] == 2


def test_the_bot_keeps_its_rulebook_weights_without_the_rule_and_holds_back_with_it():
    plain = engine.new_game({}, 1)
    ruled = engine.new_game({"min_years": 3}, 1)
    later = engine.new_game({"min_years": 3, "start": {"year": 3}}, 1)
    assert weights_for(plain)["mid_tax"] == 1
    assert weights_for(ruled)["mid_tax"] == 0 and weights_for(ruled)["crime_cap"] == 0
    assert weights_for(later) == weights_for(plain)
    assert weights_for(ruled, {"held_mid_tax": 1})["mid_tax"] == 1
    assert weights_for(later, {"held_mid_tax": 0})["mid_tax"] == 1


def test_in_a_held_year_the_sensible_bot_raises_no_taxes_to_pay_the_debt_off():
    start = {"bag": {"debt": 2, "security": 2}, "treasury": 3, "draw": 1}
    rng = random.Random(0)
    plain = engine.new_game({"start": start}, 5)
    assert get_policy("sensible")(plain, rng) == {"type": "action", "choice": "raise-taxes"}
    held = engine.new_game({"min_years": 3, "start": start}, 5)
    assert get_policy("sensible")(held, rng) == {"type": "draw", "choice": "draw"}
    year3 = engine.new_game({"min_years": 3, "start": {**start, "year": 3}}, 5)
    assert get_policy("sensible")(year3, rng) == {"type": "action", "choice": "raise-taxes"}
