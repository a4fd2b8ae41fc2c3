"""The benchmarks on tiny scenarios. The live one: one table of 8 phones, one daphne,
in-memory layer, playing State in Class's tax vote (``smoke``) or Austerity's budget tax item
(``austerity-smoke``); the floor (``bench/floor.py``) with 20 sockets and 4 voters.

Runs ``bench/live.py --scenario <scenario>`` as a subprocess (a SQLite file of its own, daphne
on a loopback port, a few seconds) and checks that every ballot was counted once, nothing
failed, and the JSON result was written. Figures are not checked: this only keeps the
benchmark working (``make bench`` is where the figures come from).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def run_live(scenario: str, name: str) -> dict[str, Any]:
    """Run the scenario; its result, after the checks every scenario must pass."""
    result_path = ROOT / "bench" / "results" / f"{name}.json"
    result_path.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "bench/live.py", "--scenario", scenario,
                           "--name", name],
                          cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "ballot → projector count" in done.stdout
    result = json.loads(result_path.read_text())
    assert result["phones"] == 8 and result["ballots_sent"] == 8
    assert result["lost_votes"] == 0 and result["doubled_votes"] == 0
    assert result["errors"] == 0 and result["server_tracebacks"] == 0
    assert result["tables_not_counted"] == 0
    assert result["counts_missing_at_projector"] == 0
    assert result["ballot_to_projector_ms"]["n"] == 8
    assert result["ballot_to_ack_ms"]["n"] == 8  # every voter's own answer, the last one's too
    assert result["cores"] and result["commit"]
    result_path.unlink()
    return result


def test_live_benchmark_smoke_counts_every_ballot_once() -> None:
    result = run_live("smoke", "live-smoke-test")
    assert result["game"] == "state-in-class"


def test_live_benchmark_austerity_smoke_counts_every_ballot_once() -> None:
    result = run_live("austerity-smoke", "live-austerity-smoke-test")
    assert result["game"] == "austerity" and result["vote"] == ["y1.budget.taxes"]
    assert result["seating"]["table_sizes"] == [[8]]


def test_the_floor_benchmark_measures_memory_and_vote_cpu_of_both_servers() -> None:
    result_path = ROOT / "bench" / "results" / "floor-test.json"
    result_path.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "bench/floor.py", "--sockets", "20", "--voters", "4",
                           "--bursts", "1", "--name", "floor-test"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    result = json.loads(result_path.read_text())
    for server in ("asgi", "channels"):
        assert result[server]["sockets"] == 20
        assert result[server]["kib_per_socket"] >= 0
        # Every ballot answered and seen by the projector (CPU ticks are too coarse for 4).
        assert result[server]["ballots_answered"] == 4
        assert result[server]["cpu_ms_per_ballot"] >= 0
    result_path.unlink()
