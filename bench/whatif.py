"""What-if benchmark: one what-if and a table's turning points for the longest game of each
module (docs/what-if.md).

    python bench/whatif.py [--runs 20] [--candidates 8]

For every game, ``--candidates`` seeded bot-played records at the largest table are made and
the one with the most actions is kept. Prints, per game, the median time over ``--runs`` runs
of one what-if (the middle changeable decision, its first alternative) and of the turning
points (every alternative at every changeable decision). Targets: a what-if under 200 ms,
turning points under 2 s. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import whatif  # noqa: E402
from games.austerity import simulate as austerity_sim  # noqa: E402
from games.austerity.levels import OURS  # noqa: E402
from games.crisis import simulate as crisis_sim  # noqa: E402
from games.poleconomy import bots as pole_bots  # noqa: E402
from games.poleconomy import simulate as pole_sim  # noqa: E402
from games.state_in_class import bots as sic_bots  # noqa: E402
from games.state_in_class import simulate as sic_sim  # noqa: E402

WHAT_IF_TARGET_MS, TURNING_TARGET_MS = 200.0, 2000.0


def state_in_class(seed: int) -> dict[str, Any]:
    players = 8
    _state, actions = sic_sim.play([sic_bots.get_policy("civic")] * players, seed)
    return {"game": "state-in-class", "seed": seed,
            "config": {"players": sic_sim.bot_names(players)}, "actions": actions}


def austerity(seed: int) -> dict[str, Any]:
    return austerity_sim.play({"levels": OURS, "min_years": 3}, seed)[1]


def crisis(seed: int) -> dict[str, Any]:
    return crisis_sim.play(["sensible"] * 5, seed)[1]


def poleconomy(seed: int) -> dict[str, Any]:
    _state, actions = pole_sim.play([pole_bots.get_policy("builder")] * 6, seed)
    return {"game": "poleconomy", "seed": seed, "config": {"players": pole_sim.bot_names(6)},
            "actions": actions}


MAKERS: dict[str, Callable[[int], dict[str, Any]]] = {
    "state-in-class": state_in_class, "austerity": austerity, "crisis": crisis,
    "poleconomy": poleconomy}


def median_ms(run: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--candidates", type=int, default=8)
    args = parser.parse_args()
    print(f"{'game':<16}{'actions':>8}{'choices':>8}{'alts':>6}"
          f"{'what-if ms':>12}{'turning ms':>12}  targets")
    for game, make in MAKERS.items():
        record = max((make(seed) for seed in range(1, args.candidates + 1)),
                     key=lambda r: len(r["actions"]))
        table = whatif.read(record)
        choice = table.choices[len(table.choices) // 2]
        key = choice.alternatives[0].key
        one = median_ms(lambda r=record, i=choice.index, k=key: whatif.what_if(r, i, k), args.runs)
        turning = median_ms(lambda r=record: whatif.turning_points(r), args.runs)
        alts = sum(len(c.alternatives) for c in table.choices)
        ok = "ok" if one < WHAT_IF_TARGET_MS and turning < TURNING_TARGET_MS else "MISSED"
        print(f"{game:<16}{len(record['actions']):>8}{len(table.choices):>8}{alts:>6}"
              f"{one:>12.1f}{turning:>12.1f}  {ok}")


if __name__ == "__main__":
    main()
