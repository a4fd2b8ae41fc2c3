"""Invariants under random play: 1,000 random full games driven through the services.

See ``random_games.py`` for the random class (students and teacher acting at random through
the services, bots of random policies in most seats). After each lesson, for every table (one
game each): coins are conserved (the ledger balances), the ledger equals the engine (every
account), the snapshot (live state) equals a full replay of the log, the exported game record
replays to the same game, and every game reached its end. The services may refuse a random
action only with one of their own "not now" codes, never with an engine error.

The 1,000 games run in worker processes (one per core, up to 4), each on its own in-memory
SQLite database (``fast_settings.py``); a few more run here on the suite's own database
(PostgreSQL in CI).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.facilitator.lesson import make_teacher
from tests.reliability.random_games import (
    EXPECTED_REFUSALS,
    RandomClass,
    check_invariants,
    play_games,
)

BASE_DIR = Path(__file__).resolve().parents[2]
GAMES = 1000
WORKER_TIMEOUT = 2400  # seconds; a worker needs about 5 CPU-minutes


def refusals(counts: dict[str, int]) -> set[str]:
    return {k.removeprefix("refused:") for k in counts if k.startswith("refused:")}


@pytest.mark.django_db
def test_random_play_invariants_hold_on_the_suites_database(settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    result = play_games(8, seed=7)
    assert result["problems"] == []
    assert result["games"] >= 8
    assert refusals(result["counts"]) <= EXPECTED_REFUSALS, result["counts"]


@pytest.mark.django_db
def test_random_play_double_taps_after_a_bag_fills_say_already_voted(settings):
    """Found by random play: once everyone at a table had voted, the engine moved on and a
    double tap got the engine's "The budget vote is not open: the tax vote is open."."""
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    from facilitator import services
    from facilitator.errors import ServiceError
    from tests.facilitator.lesson import drive_to, fresh, humans, started

    session, _tokens = started(8)
    session = drive_to(session, "budget_vote", 1)
    table = session.tables.get()
    options = ["health"] * 4 + ["education"] * 3 + ["shield"]  # no tie to break
    for seat, option in zip(humans(table), options, strict=True):
        services.ballot_cast(seat_id=seat.pk, kind="budget", option=option,
                             expected=session.stage_id)
    table.refresh_from_db()
    assert table.snapshot["round"] == 2  # the bag was counted, the engine is in round 2
    assert fresh(session).stage_id == "1:budget_vote"  # the lesson still shows the vote
    with pytest.raises(ServiceError) as refused:
        services.ballot_cast(seat_id=humans(table)[0].pk, kind="budget", option="shield")
    assert refused.value.code == "already_voted"


@pytest.mark.django_db
def test_random_play_driver_reaches_the_end_with_every_kind_of_action(settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    rng = random.Random(3)
    driver = RandomClass(rng, make_teacher(), 16, None, 3)
    session = driver.play()
    assert session.status == "finished"
    assert check_invariants(session) == []
    assert driver.counts["ballot"] and driver.counts["next"]


def run_worker(games: int, seed: int) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.reliability.fast_settings",
           "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.reliability.random_games", "--games", str(games),
         "--seed", str(seed)], cwd=BASE_DIR, env=env, capture_output=True, text=True,
        timeout=WORKER_TIMEOUT, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    return json.loads(done.stdout.split("RESULT ", 1)[1])


@pytest.mark.slow
def test_random_play_invariants_hold_over_a_thousand_games_through_the_services():
    workers = max(1, min(4, os.cpu_count() or 1))
    share = -(-GAMES // workers)
    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        results = list(pool.map(run_worker, [share] * workers,
                                [1000 + n for n in range(workers)]))
    elapsed = time.monotonic() - started
    games = sum(r["games"] for r in results)
    counts: Counter[str] = Counter()
    players: Counter[str] = Counter()
    for r in results:
        counts.update(r["counts"])
        players.update(r["players"])
    print(f"\n{games} random games in {sum(r['lessons'] for r in results)} lessons, "
          f"{workers} workers, {elapsed:.0f} s; players per table {dict(players)}; "
          f"{dict(counts)}")
    problems = [p for r in results for p in r["problems"]]
    assert problems == [], problems[:20]
    assert games >= GAMES
    assert refusals(counts) <= EXPECTED_REFUSALS, counts
    for kind in ("pact", "ballot", "double tap", "tie_break", "teacher tie_break", "undo",
                 "pause", "remove", "next"):
        assert counts[kind] > 0, kind
    assert set(players) == {"6", "7", "8"}
