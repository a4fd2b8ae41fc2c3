"""State in Class's own part of the ``simulate`` command (``games.simulation``): its
options, one run of every chosen policy (and, when asked, the pact dilemma and the five
balance targets), and the report as text (docs/balance.md reads these tables)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.simulation import SimOption
from games.state_in_class import data
from games.state_in_class.simulate import balance_targets, pact_dilemma, simulate

CLASS_HEAD = "U/M/W"  # upper / middle / working
GOAL_HEAD = ("falls-short", "get-by", "live-well", "thrive")

OPTIONS = (
    SimOption("--players", "players", int, 8, help="6, 7 or 8 (default 8)"),
    SimOption("--pact", "pact", int, None, metavar="COINS",
              help="make every seat give this pact (0-3) in the policy table instead of "
                   "the policy's own"),
    SimOption("--pact-dilemma", "dilemma", bool, False,
              help="also run the pact-dilemma experiment (target 5) with each policy's votes"),
    SimOption("--roles", "roles", bool, False, help="also print a per-role table for each policy"),
)


def run(*, games: int, seed: int, policies: Sequence[str], targets: bool, players: int,
        pact: int | None, dilemma: bool, roles: bool) -> dict[str, Any]:
    """Every chosen policy's statistics, and what the switches ask for besides.

    Raises ``ValueError``, naming the option, for a table size or pact the game does not
    have."""
    if players not in data.SETUPS:
        raise ValueError(f"--players must be 6, 7 or 8 (got {players}).")
    if pact is not None and not 0 <= pact <= data.MAX_PACT:
        raise ValueError(f"--pact must be between 0 and {data.MAX_PACT} coins (got {pact}).")
    rows = {p: simulate(p, games=games, players=players, seed=seed, pact=pact)
            for p in policies}
    dilemmas = ({p: pact_dilemma(p, games=games, players=players, seed=seed) for p in policies}
                if dilemma else {})
    report: dict[str, Any] = {"players": players, "games": games, "seed": seed, "pact": pact,
                              "policies": list(rows.values()), "roles": roles}
    if dilemmas:
        report["pact_dilemma"] = list(dilemmas.values())
    if targets:
        report["targets"] = balance_targets(games=games, players=players, seed=seed,
                                            rows=rows if pact is None else {},
                                            dilemma=dilemmas.get("always-C"))
    return report



def format_report(report: dict[str, Any]) -> str:
    lines = _table(report)
    if report.get("roles"):
        for row in report["policies"]:
            lines += _roles(row)
    for dilemma in report.get("pact_dilemma", ()):
        lines += _dilemma_lines(dilemma)
    if "targets" in report:
        lines += _targets(report["targets"])
    return "\n".join(lines)


def _by_class(values: dict[str, float]) -> str:
    return " / ".join(f"{values[k]:.1f}" if k in values else "-" for k in data.CLASSES)


def _table(report: dict[str, Any]) -> list[str]:
    pact = report["pact"]
    pacts = "each policy's own pact" if pact is None else f"every seat gives {pact} coins"
    head = (f"{'policy':<14} {'State fails':>11} {'Legacy':>7} {'Excl./game':>10} "
            f"{'Any excl.':>9} {'Up/mid excl.':>12} {'Tension':>7}  "
            f"{'Coins ' + CLASS_HEAD:<20} {'Score ' + CLASS_HEAD}")
    lines = [f"State in Class · {report['players']} players · {report['games']} games per "
             f"policy · seed {report['seed']} · {pacts}", head, "-" * len(head)]
    for r in report["policies"]:
        lines.append(
            f"{r['policy']:<14} {r['state_failure_pct']:>10.1f}% {r['legacy_pct']:>6.1f}% "
            f"{r['mean_exclusions']:>10.2f} {r['any_exclusion_pct']:>8.1f}% "
            f"{r['upper_or_middle_exclusion_pct']:>11.1f}% {r['mean_final_tension']:>7.2f}  "
            f"{_by_class(r['mean_coins']):<20} {_by_class(r['mean_score'])}")
    lines.append("Coins and score: mean per player of each class at the final count "
                 "(upper / middle / working). Tension: mean final Tension.")
    return lines


def _roles(row: dict[str, Any]) -> list[str]:
    lines = ["", f"Roles under {row['policy']} ({row['players']} players, {row['games']} games)",
             f"{'role':<22} {'class':<8} {'games':>6} {'excluded':>8} {'coins':>6}  "
             f"{'falls short':>11} {'gets by':>8} {'lives well':>10} {'thrives':>8}"]
    for role, r in row["roles"].items():
        g = r["goals_pct"]
        lines.append(
            f"{role:<22} {r['class']:<8} {r['games_held']:>6} {r['excluded_pct']:>7.1f}% "
            f"{r['mean_coins']:>6.1f}  " + " ".join(
                f"{g[k]:>{w - 1}.1f}%" for k, w in zip(GOAL_HEAD, (11, 8, 10, 8), strict=True)))
    return lines


def _dilemma_lines(d: dict[str, Any]) -> list[str]:
    most = data.MAX_PACT
    lines = ["", f"Pact dilemma with {d['policy']} votes ({d['players']} players, "
                 f"{d['games']} paired games, mixed pacts): one player gives {most} coins or 0, "
                 "all else equal",
             f"{'gives':<6} {'start Tension':>13} {'excluded r1-3':>13} {'coins after r3':>14} "
             f"{'own score':>9} {'others score':>12} {'State fails':>11}"]
    for coins in (0, most):
        r = d[f"gave_{coins}"]
        lines.append(
            f"{coins:<6} {r['start_tension']:>13.2f} {r['excluded_r1_3_pct']:>12.1f}% "
            f"{r['coins_after_r3']:>14.2f} {r['own_score']:>9.2f} {r['others_score']:>12.2f} "
            f"{r['table_failure_pct']:>10.1f}%")
    by_class = ", ".join(f"{k} {v['gave_0']:.1f}% -> {v[f'gave_{most}']:.1f}%"
                         for k, v in d["excluded_r1_3_pct_by_class"].items())
    lines.append(f"Excluded in rounds 1-3 by dealt class (gives 0 -> {most}): {by_class}")
    lines.append(
        f"Giving {most} lowers the starting Tension by {d['tension_drop']:.2f}, raises the "
        f"giver's rounds 1-3 exclusion rate by {d['exposure_pp']:.1f} points, costs the giver "
        f"{d['own_cost']:.2f} points and changes the table's failure rate by "
        f"{d['table_failure_change_pp']:+.1f} points.")
    return lines


def _targets(targets: list[dict[str, Any]]) -> list[str]:
    lines = ["", "Balance targets"]
    for t in targets:
        mark = "holds " if t["holds"] else "MISSED"
        figures = ", ".join(f"{k} {v}" for k, v in t["figures"].items())
        lines += [f"  {t['target']}. [{mark}] {t['text']}", f"     {figures}"]
    return lines
