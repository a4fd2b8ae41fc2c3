"""How long a Crisis lesson takes: an estimate from bot games' decisions × the lesson's timers
(``docs/engines/crisis.md``, "The lesson": the figures and how they were made).

A table's round is its teacher beats (the Event read out, the Evaluation shown: ``BEAT``
seconds each, our assumption), its turn-by-turn decisions (placing each Manager, the
Operations choices, every Exports move), each taking at most the turn timer, and Production,
which every team plans at once within the Production timer. Tables play at the same time, so
a lesson lasts as long as its slowest table: the one with the most teams.
"""

from __future__ import annotations

from collections import Counter
from statistics import mean
from typing import Any

from games.crisis import simulate
from games.crisis.state import OVER

BEAT = 60  # seconds the teacher spends on the Event and on the Evaluation (each)
TURN_TYPES = ("place", "resolve", "export", "black_market", "pass")


def turns_per_round(teams: int, *, games: int = 20, seed: int = 1) -> dict[str, Any]:
    """The mean number of turn-by-turn decisions per round over ``games`` sensible bot games
    of ``teams`` teams, and how many rounds those games lasted."""
    turns: list[float] = []
    rounds: list[int] = []
    for n in range(games):
        state, record = simulate.play(["sensible"] * teams, seed + n)
        counted = Counter(a["type"] for a in record["actions"] if a["type"] in TURN_TYPES)
        played = state.round if state.phase == OVER else state.round - 1
        rounds.append(played)
        turns.append(sum(counted.values()) / played)
    return {"teams": teams, "turns": mean(turns), "rounds": mean(rounds)}


def lesson_minutes(turns: float, rounds: int, *, turn_seconds: int,
                   production_seconds: int, share: float = 1.0) -> float:
    """Minutes of ``rounds`` rounds with ``turns`` turns each, every turn taking ``share``
    of the turn timer (1.0: every timer runs out, the upper bound)."""
    per_round = 2 * BEAT + turns * turn_seconds * share + production_seconds * share
    return rounds * per_round / 60


def report(*, games: int = 20, seed: int = 1, turn_seconds: int = 60,
           production_seconds: int = 120) -> list[dict[str, Any]]:
    rows = []
    for teams in range(2, 6):
        measured = turns_per_round(teams, games=games, seed=seed)
        rows.append({**measured, **{
            f"{label}_{rounds}": round(lesson_minutes(
                measured["turns"], rounds, turn_seconds=turn_seconds,
                production_seconds=production_seconds, share=share))
            for rounds in (7, 5) for label, share in (("full", 1.0), ("half", 0.5))}})
    return rows
