"""Engine benchmark: replay time of a full 8-player game and simulated games per second.

    python bench/engine.py [--runs 200] [--games 2000]    # make bench: --games 10000

Prints ``replay median: X ms`` (target: 5 ms or less) and writes a JSON result under
``bench/results/``. With ``--games 10000`` (or more) the 10,000-game time (target: under
60 s on one core) is measured; with fewer it is estimated from the rate. Figures are medians
over many runs on one core; nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import commit  # noqa: E402
from games.registry import replay  # noqa: E402
from games.state_in_class.bots import get_policy  # noqa: E402
from games.state_in_class.simulate import play  # noqa: E402


def full_game_record(seed: int = 7) -> dict:
    """A complete 8-player game of civic bots that reaches the final count."""
    while True:
        state, actions = play([get_policy("civic") for _ in range(8)], seed)
        if not state.failed:
            names = [p.name for p in state.players]
            return {"game": "state-in-class", "version": 1, "seed": seed,
                    "config": {"players": names}, "actions": actions}
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="replays to time")
    parser.add_argument("--games", type=int, default=2000, help="games to simulate")
    args = parser.parse_args()

    record = full_game_record()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        replay(record)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    median = statistics.median(times)
    p95 = times[int(0.95 * (len(times) - 1))]

    policies = ["random", "always-A", "always-C", "civic"]
    start = time.perf_counter()
    for i in range(args.games):
        play([get_policy(policies[i % len(policies)]) for _ in range(8)], i)
    elapsed = time.perf_counter() - start
    per_second = args.games / elapsed

    result = {
        "benchmark": "engine", "commit": commit(), "cores": os.cpu_count(),
        "python": sys.version.split()[0], "actions_per_game": len(record["actions"]),
        "replay_runs": args.runs, "replay_median_ms": round(median, 3),
        "replay_p95_ms": round(p95, 3), "simulated_games": args.games,
        "games_per_second": round(per_second, 1),
        "simulation_seconds": round(elapsed, 2),
        # Measured when --games is 10,000 or more (make bench), else estimated from the rate.
        "seconds_for_10000_games": round(elapsed * 10000 / args.games, 1)
        if args.games >= 10000 else round(10000 / per_second, 1),
        "seconds_for_10000_games_measured": args.games >= 10000,
        "targets": {"replay_median_ms": 5, "seconds_for_10000_games": 60},
    }
    print(f"{'metric':<34}{'value':>12}")
    print(f"{'actions in the game':<34}{len(record['actions']):>12}")
    print(f"{'replay median (ms)':<34}{median:>12.3f}")
    print(f"{'replay p95 (ms)':<34}{p95:>12.3f}")
    print(f"{'simulated games per second':<34}{per_second:>12.1f}")
    if args.games >= 10000:
        print(f"{f'{args.games:,} games (s, measured)':<34}{elapsed:>12.1f}")
    else:
        print(f"{'10,000 games (s, estimated)':<34}{10000 / per_second:>12.1f}")
    print(f"{'cores / commit':<34}{str(os.cpu_count()) + ' / ' + commit():>12}")
    print(f"replay median: {median:.3f} ms")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "engine.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
