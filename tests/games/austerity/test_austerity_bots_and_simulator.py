"""Austerity's bots choose legal decisions; the simulator's figures are reproducible."""

from __future__ import annotations

import random

import pytest

import games.austerity as engine
from games.austerity import data
from games.austerity.bots import POLICIES, get_policy, score, weighted, weights_for
from games.austerity.simulate import (
    balance_targets,
    format_report,
    format_tradeoff,
    length_tradeoff,
    play,
    simulate,
)
from games.austerity.state import OVER
from games.registry import replay


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_bot_only_chooses_legal_decisions(name):
    policy = get_policy(name)
    for seed in range(4):
        rng = random.Random(seed)
        state = engine.new_game({"scenario": "random", "policies": True,
                                 "extra_institutions": True}, seed)
        for _ in range(300):
            if state.stage == OVER:
                break
            action = policy(state, rng)
            assert action in engine.legal_actions(state, "government")
            state, _ = engine.apply(state, action)


def test_a_played_game_is_a_record_that_replays_to_the_same_end():
    state, record = play({"scenario": "war-footing"}, 3, "sensible")
    assert engine.summary(replay(record).state) == engine.summary(state)


def test_the_sensible_score_prefers_a_healthy_board_to_a_failing_one():
    healthy = engine.new_game({}, 1)
    failing = engine.new_game({"start": {"tracks": {"health": 1}}}, 1)
    assert score(healthy) > score(failing)


def test_simulate_counts_every_game_and_repeats_exactly():
    first = simulate(games=12, seed=4, policy="sensible")
    assert first == simulate(games=12, seed=4, policy="sensible")
    assert first["won"] + first["lost"] + first["unfinished"] == 12
    assert sum(first["years"].values()) == first["won"] + first["lost"]
    assert "win rate" in format_report(first)


def test_the_sensible_bot_wins_more_often_than_the_random_one():
    sensible = simulate(games=60, seed=2, policy="sensible")["win_rate"]
    assert sensible > simulate(games=60, seed=2, policy="random")["win_rate"]


def test_the_balance_report_lists_targets_1_to_4_with_bands_and_verdicts(monkeypatch):
    import games.austerity.simulate as sim

    monkeypatch.setattr(sim, "simulate", lambda **kw: fake_simulate(**kw))
    report = balance_targets(games=2, seed=1)
    assert {t["target"] for t in report["targets"]} == {1, 2, 3, 4}
    faces = sum(len(c.faces) for c in data.POLICY_CARDS.values())
    assert sum(t["target"] == 3 for t in report["targets"]) == faces + len(data.POLICY_CARDS)
    assert all(isinstance(t["met"], bool) and t["band"] for t in report["targets"])
    text = format_report(report)
    assert "Policy faces" in text and "economic-crash" in text


def fake_simulate(*, games, seed, policy="sensible", **config):
    rate = 0.1 if policy == "random" else 0.6
    return {"games": games, "seed": seed, "policy": policy, "config": config, "won": 1,
            "lost": 1, "unfinished": 0, "win_rate": rate, "reasons": {}, "years": {4: 2},
            "mean_years": 4.0, "within_3_12": 1.0, "before_3": 0.0}


PLAY = """
import json
from games.austerity.simulate import play
from games.austerity.views import summary
out = [summary(play({"scenario": s, "policies": True}, seed)[0])
       for seed in range(3) for s in ("economic-crash", "war-footing")]
print(json.dumps(out, sort_keys=True))
"""


def test_the_same_games_come_out_the_same_in_another_process():
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(engine.__file__).parents[2]
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", PLAY], cwd=root, env=env,
                             capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1]


def sensible_choice(start: dict, **config) -> dict:
    state = engine.new_game({**config, "start": start}, 5)
    return get_policy("sensible")(state, random.Random(0))


def test_the_sensible_bot_pays_a_loan_as_soon_as_a_debt_cube_is_in_used():
    action = sensible_choice({"bag": {"security": 2}, "used": {"debt": 1}, "treasury": 2})
    assert action == {"type": "action", "choice": "pay-loan"}


def test_the_sensible_bot_sends_a_debt_cube_due_for_cuts_back_to_the_bag():
    state = engine.new_game({"start": {"bag": {"security": 2}, "current": ["debt", "crime"]}}, 5)
    assert state.stage == "cuts"
    policy, rng = get_policy("sensible"), random.Random(0)
    for expected in ("borrow", "pay-loan"):
        action = policy(state, rng)
        assert action == {"type": "action", "choice": expected}
        state, _events = engine.apply(state, action)
    assert state.stage == "draw" and state.bag["debt"] == 1
    assert all(m.cuts == 0 for m in state.institutions.values())


def test_the_sensible_bot_takes_the_cuts_when_the_bag_is_empty():
    state = engine.new_game({"start": {"bag": {}, "current": ["debt", "crime"]}}, 5)
    action = get_policy("sensible")(state, random.Random(0))
    assert action["type"] == "cuts"


def test_the_sensible_bot_raises_taxes_to_keep_the_last_debt_cube_out_of_the_last_pair():
    action = sensible_choice({"bag": {"debt": 1, "security": 1}, "draw": 4})
    assert action == {"type": "action", "choice": "raise-taxes"}
    quiet = sensible_choice({"bag": {"welfare": 1, "security": 1}, "draw": 4})
    assert quiet == {"type": "draw", "choice": "draw"}


def test_the_sensible_bot_raises_taxes_only_while_income_is_short_of_the_debt():
    short = sensible_choice({"bag": {"debt": 2, "security": 2}, "treasury": 3, "draw": 1})
    assert short == {"type": "action", "choice": "raise-taxes"}
    enough = sensible_choice({"bag": {"debt": 2, "security": 2}, "treasury": 4, "draw": 1})
    assert enough == {"type": "draw", "choice": "draw"}
    unsafe = sensible_choice({"bag": {"debt": 2, "security": 2}, "draw": 1,
                              "tracks": {"public-safety": 2}})
    assert unsafe == {"type": "draw", "choice": "draw"}


def test_the_sensible_bot_plays_each_scenario_with_its_own_weights_and_weighted_goes_on_top():
    war = engine.new_game({"scenario": "war-footing"}, 1)
    crash = engine.new_game({}, 1)
    assert weights_for(war)["kick"] == 0 and weights_for(crash)["kick"] == 1
    assert weights_for(war, {"kick": 1})["kick"] == 1
    assert weights_for(war, {"kick": 1})["crime_cap"] == weights_for(war)["crime_cap"]


@pytest.mark.parametrize("scenario", sorted(data.SCENARIOS))
def test_the_sensible_bot_plays_the_same_game_twice_from_the_same_seed(scenario):
    first = play({"scenario": scenario}, 8, "sensible")
    second = play({"scenario": scenario}, 8, "sensible")
    assert first[1] == second[1] and engine.summary(first[0]) == engine.summary(second[0])


def test_in_war_footing_the_sensible_bot_takes_the_cuts_instead_of_sending_debt_back():
    state = engine.new_game({"scenario": "war-footing", "start": {
        "bag": {"security": 2}, "current": ["debt", "crime"], "war_fed": True}}, 5)
    assert state.stage == "cuts"
    assert get_policy("sensible")(state, random.Random(0))["type"] == "cuts"


def test_in_war_footing_the_sensible_bot_borrows_once_at_the_start_of_a_year():
    # four Crime cubes in play: the bot's crime cap, so no Raise Taxes first
    state = engine.new_game({"scenario": "war-footing", "start": {
        "bag": {"security": 2, "crime": 4}, "war_fed": True}}, 5)
    policy, rng = get_policy("sensible"), random.Random(0)
    assert policy(state, rng) == {"type": "action", "choice": "borrow"}
    state, _events = engine.apply(state, {"type": "action", "choice": "borrow"})
    assert policy(state, rng) == {"type": "draw", "choice": "draw"}


def test_held_back_taxes_are_never_raised_before_their_year_or_beyond_the_yearly_limit():
    start = {"bag": {"debt": 2, "security": 2}, "treasury": 3, "draw": 1}
    state = engine.new_game({"start": start}, 5)
    rng = random.Random(0)
    assert get_policy("sensible")(state, rng) == {"type": "action", "choice": "raise-taxes"}
    assert weighted(tax_from=2)(state, rng) == {"type": "draw", "choice": "draw"}
    assert weighted(taxes_per_year=0)(state, rng) == {"type": "draw", "choice": "draw"}
    later = engine.new_game({"start": {**start, "year": 2}}, 5)
    assert weighted(tax_from=2)(later, rng) == {"type": "action", "choice": "raise-taxes"}


def test_the_length_tradeoff_measures_every_variant_and_prints_a_table(monkeypatch):
    import games.austerity.simulate as sim

    monkeypatch.setattr(sim, "simulate", lambda **kw: fake_simulate(**kw))
    rows = length_tradeoff(games=2, seed=1)
    assert [r["variant"] for r in rows] == list(sim.TRADEOFF)
    assert all({"win_rate", "mean_years", "before_3", "within_3_12"} <= set(r) for r in rows)
    assert "within 3-12" in format_tradeoff(rows)
