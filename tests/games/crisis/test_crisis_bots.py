"""Bots answer only with legal decisions; the simulator's figures are reproducible."""

import random

from games.crisis import bots, decisions, legal_actions, new_game, rules
from games.crisis.simulate import (
    balance_targets,
    black_market_pairs,
    format_report,
    play,
    simulate,
)
from games.crisis.state import OVER
from tests.games.crisis.crisis_support import config


def test_every_policy_plays_whole_games_with_legal_actions_only():
    for policy in bots.POLICIES:
        state = new_game(config(3), 8)
        rng = random.Random(8)
        while state.phase != OVER:
            decision = decisions(state)[0]
            action = bots.act(policy, state, decision, rng)
            if action["type"] != "produce":
                assert action in legal_actions(state, decision.deciders[0])
            rules.step(state, action)


def test_greedy_bots_sell_on_the_black_market_and_sensible_ones_do_not():
    _state, greedy = play(["greedy"] * 3, 4)
    _state, honest = play(["sensible"] * 3, 4)
    assert any(a["type"] == "black_market" for a in greedy["actions"])
    assert not any(a["type"] == "black_market" for a in honest["actions"])
    assert any(a["type"] == "export" for a in honest["actions"])


def test_a_game_is_the_same_for_the_same_seed():
    assert play(["sensible", "greedy"], 12)[1] == play(["sensible", "greedy"], 12)[1]


def test_simulate_reports_survival_scores_and_openings():
    report = simulate(games=4, seed=3, players=3)
    assert 0 <= report["survival_pct"] <= 100
    assert set(report["mean_score"]) == {"Team 1", "Team 2", "Team 3"}
    assert sum(report["openings"].values()) == 4 * 3
    assert "survival_pct" in format_report(report)


def test_balance_targets_name_every_target_with_figure_band_and_verdict():
    targets = balance_targets(games=2, seed=1, quick=True)
    assert any(k.startswith("1.") for k in targets) and any(k.startswith("4") for k in targets)
    assert all({"figure", "band", "met"} <= set(v) for v in targets.values())
    assert "met" in format_report(targets) or "NOT MET" in format_report(targets)


def test_paired_black_market_games_count_what_the_greedy_seat_sold_and_lost():
    pairs = black_market_pairs(games=3, seed=4, players=3)
    assert pairs["tokens"] > 0
    assert {"gain", "gain_both_survive", "vp_lost", "extra_credits"} <= set(pairs)
    assert pairs["gain_se"] > 0
    rates = pairs["bankrupt_pct"]
    assert pairs["ratio"] == rates["everyone"] / max(rates["honest"], 0.1)
    assert 0 <= pairs["bankruptcies_caused"] <= 100
