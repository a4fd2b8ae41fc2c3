"""Self-play with bots, and the balance report against ``austerity-edition.md``'s targets.

``play`` runs one game with a bot policy and returns its final state and record;
``simulate`` plays many seeded games and gathers the statistics; ``balance_targets`` checks
targets 1–4 (see ``docs/engines/austerity-balance.md``); ``format_report`` prints plain-text
tables. Everything is pure: ``manage.py simulate --game austerity`` only wires these up.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.austerity import data
from games.austerity.bots import Policy, get_policy, weighted
from games.austerity.rules import GAME_ID, step
from games.austerity.setup import new_game
from games.austerity.state import OVER, GameState
from games.core import Action

MAX_YEARS = 40  # a game still running after this many years counts as unfinished
SHORT, LONG = 3, 12  # target 4: games end within 3–12 years


def play(config: Mapping[str, Any], seed: int, policy: str | Policy = "sensible"
         ) -> tuple[GameState, dict[str, Any]]:
    """One whole game (or until ``MAX_YEARS``): the final state and its record."""
    choose = get_policy(policy) if isinstance(policy, str) else policy
    rng = random.Random(f"{seed}:bot")
    state = new_game(config, seed)
    actions: list[Action] = []
    while state.stage != OVER and state.year <= MAX_YEARS:
        action = choose(state, rng)
        step(state, action)
        actions.append(action)
    record = {"game": GAME_ID, "version": 1, "seed": seed, "config": dict(config),
              "actions": actions}
    return state, record


def simulate(*, games: int, seed: int, policy: str | Policy = "sensible",
             **options: Any) -> dict:
    """Play ``games`` seeded games with one policy (a name or a function such as
    ``bots.weighted(...)``); ``options`` is the game config."""
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    years: Counter[int] = Counter()
    for index in range(games):
        state, _record = play(options, seed * 100_003 + index, policy)
        outcome = state.result or "unfinished"
        results[outcome] += 1
        reasons[f"{outcome}:{state.reason}"] += 1
        if state.result:
            years[state.year] += 1
    ended = sum(years.values())
    within = sum(n for y, n in years.items() if SHORT <= y <= LONG)
    early = sum(n for y, n in years.items() if y < SHORT)
    return {
        "games": games, "seed": seed,
        "policy": policy if isinstance(policy, str) else getattr(policy, "__name__", "custom"),
        "config": dict(options),
        "won": results["won"], "lost": results["lost"], "unfinished": results["unfinished"],
        "win_rate": results["won"] / games if games else 0.0,
        "reasons": dict(sorted(reasons.items())),
        "years": dict(sorted(years.items())),
        "mean_years": sum(y * n for y, n in years.items()) / ended if ended else None,
        "within_3_12": within / games if games else 0.0,
        "before_3": early / games if games else 0.0,
    }


def _band(value: float, low: float, high: float) -> bool:
    return low <= value <= high


def balance_targets(*, games: int, seed: int) -> dict:
    """Targets 1–4 of ``austerity-edition.md``: each figure, its band and whether it is met."""
    def rate(policy: str = "sensible", **config: Any) -> float:
        return simulate(games=games, seed=seed, policy=policy, **config)["win_rate"]

    base = simulate(games=games, seed=seed, policy="sensible")
    rand = simulate(games=games, seed=seed, policy="random")
    targets: list[dict[str, Any]] = [
        {"target": 1, "figure": "base game win rate (sensible)", "value": base["win_rate"],
         "band": "55–80 %", "met": _band(base["win_rate"], 0.55, 0.80)},
        {"target": 1, "figure": "base game win rate (random)", "value": rand["win_rate"],
         "band": "clearly below sensible (≥ 15 points)",
         "met": rand["win_rate"] <= base["win_rate"] - 0.15},
    ]
    scenario_rates: dict[str, dict[str, float]] = {}
    runs = {(s, d): simulate(games=games, seed=seed, scenario=s, difficulty=d)
            for s in data.SCENARIOS for d in data.DIFFICULTIES}
    for scenario in data.SCENARIOS:
        rates = {d: runs[scenario, d]["win_rate"] for d in data.DIFFICULTIES}
        scenario_rates[scenario] = rates
        targets.append({"target": 2, "figure": f"{scenario}: easy", "value": rates["easy"],
                        "band": f"{base['win_rate'] - 0.1:.0%}–{base['win_rate'] + 0.1:.0%}",
                        "met": abs(rates["easy"] - base["win_rate"]) <= 0.10})
        targets.append({"target": 2, "figure": f"{scenario}: hard", "value": rates["hard"],
                        "band": f"≤ {rates['easy'] - 0.2:.0%}",
                        "met": rates["hard"] <= rates["easy"] - 0.20})
    faces: dict[str, dict[str, float]] = {}
    easy = {s: scenario_rates[s]["easy"] for s in data.SCENARIOS}
    for card in data.POLICY_CARDS.values():
        for face in card.faces:
            faces[face.id] = {s: rate(scenario=s, policies={card.id: face.id}) - easy[s]
                              for s in data.SCENARIOS}
            moved = faces[face.id][data.ECONOMIC_CRASH]
            targets.append({"target": 3, "figure": f"{card.id}/{face.id}: base game shift",
                            "value": moved, "band": "within ±15 points",
                            "met": abs(moved) <= 0.15})
        first, second = (faces[f.id] for f in card.faces)
        dominated = (all(first[s] > second[s] for s in data.SCENARIOS)
                     or all(second[s] > first[s] for s in data.SCENARIOS))
        targets.append({"target": 3, "figure": f"{card.id}: no face better in every scenario",
                        "value": None, "band": "faces trade places", "met": not dominated})
    lengths = list(runs.values())
    within = sum(r["within_3_12"] * r["games"] for r in lengths) / sum(r["games"] for r in lengths)
    targets.append({"target": 4, "figure": "games ending within 3–12 years (all scenarios "
                    "and difficulties, sensible)", "value": within, "band": "≥ 95 %",
                    "met": within >= 0.95})
    return {"games": games, "seed": seed, "targets": targets, "base": base, "random": rand,
            "scenarios": scenario_rates, "faces": faces,
            "lengths": {f"{r['config']['scenario']}/{r['config']['difficulty']}":
                        {"mean_years": r["mean_years"], "within_3_12": r["within_3_12"],
                         "before_3": r["before_3"], "years": r["years"]} for r in lengths}}


# Target 4's evidence: the base game with ``sensible`` held back in the one thing that ends it
# early (Raise Taxes), from the full strategy to none at all. Name -> ``bots.weighted`` changes.
TRADEOFF: dict[str, dict[str, float]] = {
    "sensible": {},
    "at most 4 Raise Taxes a year": {"taxes_per_year": 4},
    "at most 3 Raise Taxes a year": {"taxes_per_year": 3},
    "at most 2 Raise Taxes a year": {"taxes_per_year": 2},
    "at most 1 Raise Taxes a year": {"taxes_per_year": 1},
    "no Raise Taxes mid-year": {"mid_tax": 0},
    "no Raise Taxes before year 2": {"tax_from": 2},
    "no Raise Taxes before year 3": {"tax_from": 3},
    "no Raise Taxes at all": {"mid_tax": 0, "crime_cap": 0, "last_tax": 0},
}


def length_tradeoff(*, games: int, seed: int, **config: Any) -> list[dict[str, Any]]:
    """Win rate against game length in one game (default: the base game) for each variant
    of ``TRADEOFF``: how much of the win has to be given up for games to last 3 years."""
    rows = []
    for name, changes in TRADEOFF.items():
        policy = "sensible" if not changes else weighted(**changes)
        run = simulate(games=games, seed=seed, policy=policy, **config)
        rows.append({"variant": name, "changes": changes, "win_rate": run["win_rate"],
                     "mean_years": run["mean_years"], "within_3_12": run["within_3_12"],
                     "before_3": run["before_3"], "years": run["years"]})
    return rows


def format_tradeoff(rows: list[dict[str, Any]]) -> str:
    """Plain-text table of ``length_tradeoff``."""
    lines = [f"{'variant':<32}{'win rate':>9}{'mean years':>12}{'before year 3':>15}"
             f"{'within 3-12':>13}"]
    lines += [f"{r['variant']:<32}{r['win_rate']:>9.1%}{r['mean_years'] or 0:>12.2f}"
              f"{r['before_3']:>15.1%}{r['within_3_12']:>13.1%}" for r in rows]
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:+.0f}" if value < 0 else f"{value:.0%}"


def format_report(report: dict) -> str:
    """Plain-text tables of a ``simulate`` or ``balance_targets`` report."""
    if "targets" not in report:
        lines = [f"Austerity: {report['games']} games, policy {report['policy']}, "
                 f"config {report['config']}",
                 f"won {report['won']}  lost {report['lost']}  unfinished "
                 f"{report['unfinished']}  win rate {report['win_rate']:.1%}",
                 f"mean years {report['mean_years']}, within 3-12 years "
                 f"{report['within_3_12']:.1%}", "outcomes:"]
        lines += [f"  {k:<28} {v}" for k, v in report["reasons"].items()]
        lines.append("years: " + ", ".join(f"{y}:{n}" for y, n in report["years"].items()))
        return "\n".join(lines)
    lines = [f"Austerity balance targets ({report['games']} games per figure, seed "
             f"{report['seed']})", "", f"{'target':<7}{'figure':<58}{'value':>8}  "
             f"{'band':<38}met"]
    for t in report["targets"]:
        value = "" if t["value"] is None else (
            f"{t['value'] * 100:+.1f}" if t["target"] == 3 else f"{t['value']:.1%}")
        lines.append(f"{t['target']:<7}{t['figure']:<58}{value:>8}  {t['band']:<38}"
                     f"{'yes' if t['met'] else 'NO'}")
    lines += ["", "Win rates by scenario (sensible):",
              f"{'scenario':<18}" + "".join(f"{d:>9}" for d in data.DIFFICULTIES)]
    for scenario, rates in report["scenarios"].items():
        lines.append(f"{scenario:<18}" + "".join(f"{rates[d]:>9.1%}" for d in rates))
    lines += ["", "Policy faces: win-rate shift in points against each scenario's Easy:",
              f"{'face':<20}" + "".join(f"{s:>17}" for s in data.SCENARIOS)]
    for face, shifts in report["faces"].items():
        lines.append(f"{face:<20}" + "".join(f"{v * 100:>+17.1f}" for v in shifts.values()))
    lines += ["", "Game length (sensible):"]
    for name, length in report["lengths"].items():
        mean = length["mean_years"]
        lines.append(f"  {name:<26} mean {mean if mean is None else round(mean, 1)} years, "
                     f"within 3-12: {length['within_3_12']:.1%}, before year 3: "
                     f"{length['before_3']:.1%}")
    return "\n".join(lines)
