"""The simulator's lesson outcomes: how often a class sees what teachers ask about (the upper
class last in points, a rich factory worker, a State failing by the Midlife)."""

from __future__ import annotations

from games.state_in_class import simulate


def test_a_flat_tax_table_always_fails_and_never_reaches_a_final_count():
    out = simulate.lesson_outcomes(["always-A"], games=10, players=7, seed=3)
    assert out["state_failure_pct"] == 100.0 and out["finished"] == 0
    assert out["upper_last_pct"] == 0.0


def test_a_progressive_table_reports_coins_and_places_of_the_games_it_finished():
    out = simulate.lesson_outcomes(["always-C"], games=30, players=7, seed=3)
    assert out["finished"] + round(out["state_failure_pct"] * 30 / 100) == 30
    assert out["failed_by_midlife_pct"] <= out["state_failure_pct"]
    worker, director = out["factory_worker_coins"], out["company_director_coins"]
    assert 0 < worker["mean"] <= worker["p90"] <= worker["max"]
    assert director["mean"] > worker["mean"]  # the director saves more on average
    assert 0.0 <= out["upper_last_pct"] <= 100.0


def test_seats_repeat_in_order_over_the_table():
    mixed = simulate.lesson_outcomes(["always-C"] * 5 + ["class-selfish"] * 2, games=5,
                                     players=7, seed=4)
    assert mixed["seats"] == ["always-C"] * 5 + ["class-selfish"] * 2
