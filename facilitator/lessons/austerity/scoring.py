"""How a country ended, for the screens and the debrief: won or lost by the rules, or
**unfinished** when the teacher ended the lesson before the game did (our rule, stated to the
class: ``UNFINISHED_RULE``).

An unfinished country scores its five tracks (0 to 10 each, the higher the better) less two
points for every Debt cube it still owes, wherever it lies. The debt weighs double because
clearing it is what wins the game (Economic Crash), and a track point can be bought back
within a year while a Debt cube rarely can.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from facilitator.lessons.austerity.portfolios import debt
from games.austerity import data

WON, LOST, UNFINISHED = "won", "lost", "unfinished"
DEBT_WEIGHT = 2
UNFINISHED_RULE = gettext_lazy(
    "The game was not over: the country scores its five tracks added up, less 2 points for "
    "every Debt cube it still owes.")


@dataclass(frozen=True)
class CountryResult:
    kind: str  # WON, LOST or UNFINISHED
    reason: str | None  # the engine's reason (a track id, "debt-free", ...) when over
    year: int
    tracks: int  # the five tracks added up
    debt: int  # Debt cubes still owed
    score: int | None  # UNFINISHED only: tracks - DEBT_WEIGHT * debt


def country_result(state: Any) -> CountryResult:
    """The country's result in ``state`` (a game still going is unfinished)."""
    tracks = sum(state.tracks[t] for t in data.TRACKS)
    owed = debt(state)
    if state.result in (WON, LOST):
        return CountryResult(state.result, state.reason, state.year, tracks, owed, None)
    return CountryResult(UNFINISHED, None, state.year, tracks, owed,
                         tracks - DEBT_WEIGHT * owed)
