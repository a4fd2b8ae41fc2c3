"""State in Class seats its class at tables of 6 to 8 players (the rulebook's table)."""

from __future__ import annotations

from facilitator.kit import seating
from facilitator.kit.seating import SeatingPlan

SMALLEST, LARGEST = 6, 8


def plan(students: int, fill: str | None = None) -> SeatingPlan | None:
    return seating.plan(students, fill, SMALLEST, LARGEST)
