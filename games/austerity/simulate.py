"""Self-play with bots, and the balance report against our edition's targets.

``play`` runs one game with a bot policy and returns its final state and record;
``simulate`` plays many seeded games and gathers the statistics; ``balance_targets`` checks
targets 1–4 (see ``docs/engines/austerity-balance.md``); ``format_report`` prints plain-text
tables. Everything is pure: ``manage.py simulate --game austerity`` only wires these up.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.austerity import data
from games.austerity.bots import Policy, get_policy, weighted
from games.austerity.levels import CLASSIC, OURS
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
        "win_rate_se": std_error(results["won"] / games, games) if games else 0.0,
        "reasons": dict(sorted(reasons.items())),
        "years": dict(sorted(years.items())),
        "mean_years": sum(y * n for y, n in years.items()) / ended if ended else None,
        "within_3_12": within / games if games else 0.0,
        "within_3_12_se": std_error(within / games, games) if games else 0.0,
        "before_3": early / games if games else 0.0,
    }


def std_error(rate: float, games: int) -> float:
    """The standard error of a rate measured over ``games`` independent games."""
    return math.sqrt(rate * (1 - rate) / games) if games else 0.0


def _band(value: float, low: float, high: float) -> bool:
    return low <= value <= high


EASY_BAND, NORMAL_BAND = (0.45, 0.75), (0.25, 0.55)  # target 2
BASE_BAND = (0.50, 0.80)  # target 1
HARD_GAP, RANDOM_GAP, FACE_SHIFT = 0.20, 0.15, 0.15  # targets 2, 1 and 3
ENDED = {"easy": 0.90, "normal": 0.90, "hard": 0.75}  # target 4: ended within 3-12 years


def _figure(target: int, figure: str, run: dict[str, Any] | None, value: float | None,
            band: str, met: bool, se: float | None = None) -> dict[str, Any]:
    if se is None and run is not None and value is not None:
        se = std_error(value, run["games"])
    return {"target": target, "figure": figure, "value": value, "se": se, "band": band,
            "met": met}


def balance_targets(*, games: int, seed: int, levels: str = OURS, min_years: int | None = 3,
                    classic: bool = True) -> dict:
    """Targets 1–4 of our edition notes, in their setting: ``levels`` (ours) and the lesson
    length rule at ``min_years`` (3), the ``sensible`` bot. Each figure has its standard error,
    its band and whether it is met. ``classic``: also the Classic levels with the rule off
    (reported, not targeted)."""
    setting = {"levels": levels, "min_years": min_years}

    def run(policy: str = "sensible", **config: Any) -> dict:
        return simulate(games=games, seed=seed, policy=policy, **setting, **config)

    runs = {(s, d): run(scenario=s, difficulty=d)
            for s in data.SCENARIOS for d in data.DIFFICULTIES}
    base = runs[data.ECONOMIC_CRASH, "easy"]
    rand = run("random", scenario=data.ECONOMIC_CRASH, difficulty="easy")
    b = base["win_rate"]
    targets = [
        _figure(1, "base game win rate (sensible)", base, b,
                f"{BASE_BAND[0]:.0%}–{BASE_BAND[1]:.0%}", _band(b, *BASE_BAND)),
        _figure(1, "base game win rate (random)", rand, rand["win_rate"],
                f"≤ {b - RANDOM_GAP:.0%} (clearly below sensible)",
                rand["win_rate"] <= b - RANDOM_GAP),
    ]
    scenario_rates: dict[str, dict[str, float]] = {}
    for scenario in data.SCENARIOS:
        rates = {d: runs[scenario, d]["win_rate"] for d in data.DIFFICULTIES}
        scenario_rates[scenario] = rates
        targets.append(_figure(2, f"{scenario}: easy", runs[scenario, "easy"], rates["easy"],
                               "45–75 %", _band(rates["easy"], *EASY_BAND)))
        targets.append(_figure(2, f"{scenario}: normal", runs[scenario, "normal"],
                               rates["normal"], "25–55 %", _band(rates["normal"], *NORMAL_BAND)))
        targets.append(_figure(2, f"{scenario}: hard", runs[scenario, "hard"], rates["hard"],
                               f"≤ {rates['easy'] - HARD_GAP:.0%} (Easy − 20)",
                               rates["hard"] <= rates["easy"] - HARD_GAP))
    faces: dict[str, dict[str, float]] = {}
    for card in data.POLICY_CARDS.values():
        for face in card.faces:
            faces[face.id] = {s: run(scenario=s, policies={card.id: face.id})["win_rate"]
                              - scenario_rates[s]["easy"] for s in data.SCENARIOS}
            moved = faces[face.id][data.ECONOMIC_CRASH]
            # the difference of two rates: at most the root of the sum of their variances
            se = math.sqrt(2) * std_error(b, games)
            targets.append(_figure(3, f"{card.id}/{face.id}: base game shift", None, moved,
                                   "within ±15 points", abs(moved) <= FACE_SHIFT, se))
        first, second = (faces[f.id] for f in card.faces)
        dominated = (all(first[s] > second[s] for s in data.SCENARIOS)
                     or all(second[s] > first[s] for s in data.SCENARIOS))
        targets.append(_figure(3, f"{card.id}: no face better in every scenario", None, None,
                               "faces trade places", not dominated))
    for (scenario, difficulty), r in runs.items():
        need = ENDED[difficulty]
        targets.append(_figure(4, f"{scenario}/{difficulty}: ended within 3–12 years", r,
                               r["within_3_12"], f"≥ {need:.0%}", r["within_3_12"] >= need))
    report = {"games": games, "seed": seed, "setting": setting, "targets": targets,
              "base": base, "random": rand, "scenarios": scenario_rates, "faces": faces,
              "lengths": {f"{s}/{d}": {"mean_years": r["mean_years"],
                                       "within_3_12": r["within_3_12"],
                                       "before_3": r["before_3"], "years": r["years"]}
                          for (s, d), r in runs.items()}}
    if classic:
        report["classic"] = {s: {d: simulate(games=games, seed=seed, scenario=s, difficulty=d,
                                             levels=CLASSIC)["win_rate"]
                                 for d in data.DIFFICULTIES} for s in data.SCENARIOS}
    return report


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


def _pm(value: float, se: float | None, points: bool = False) -> str:
    """``61.3 % ± 2.8`` (a rate) or ``+4.0 ± 4.0`` (a shift in points)."""
    head = f"{value * 100:+.1f}" if points else f"{value:.1%}"
    return head if se is None else f"{head} ± {se * 100:.1f}"


def format_report(report: dict) -> str:
    """Plain-text tables of a ``simulate`` or ``balance_targets`` report."""
    if "targets" not in report:
        lines = [f"Austerity: {report['games']} games, policy {report['policy']}, "
                 f"config {report['config']}",
                 f"won {report['won']}  lost {report['lost']}  unfinished "
                 f"{report['unfinished']}  win rate "
                 f"{_pm(report['win_rate'], report.get('win_rate_se'))}",
                 f"mean years {report['mean_years']}, within 3-12 years "
                 f"{_pm(report['within_3_12'], report.get('within_3_12_se'))}", "outcomes:"]
        lines += [f"  {k:<28} {v}" for k, v in report["reasons"].items()]
        lines.append("years: " + ", ".join(f"{y}:{n}" for y, n in report["years"].items()))
        return "\n".join(lines)
    setting = report.get("setting", {})
    lines = [f"Austerity balance targets ({report['games']} games per figure, seed "
             f"{report['seed']}, levels {setting.get('levels')}, min_years "
             f"{setting.get('min_years')}; ± one standard error)", "",
             f"{'target':<7}{'figure':<52}{'value':>16}  {'band':<30}met"]
    for t in report["targets"]:
        value = "" if t["value"] is None else _pm(t["value"], t.get("se"), t["target"] == 3)
        lines.append(f"{t['target']:<7}{t['figure']:<52}{value:>16}  {t['band']:<30}"
                     f"{'yes' if t['met'] else 'NO'}")
    lines += ["", "Win rates by scenario (sensible):",
              f"{'scenario':<18}" + "".join(f"{d:>9}" for d in data.DIFFICULTIES)]
    for scenario, rates in report["scenarios"].items():
        lines.append(f"{scenario:<18}" + "".join(f"{rates[d]:>9.1%}" for d in rates))
    if "classic" in report:
        lines += ["", "Classic levels, no length rule (reported, not targeted):"]
        for scenario, rates in report["classic"].items():
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
