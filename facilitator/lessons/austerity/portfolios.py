"""Cabinet portfolios (our edition, not the rulebook's): with the lesson option
``portfolios`` each student defends one part of the country. Five portfolios are the engine's
tracks; the Treasury's is the country's debt (its Debt cubes, wherever they lie: the bag,
Current or Used). A student's result is the country's result plus how their portfolio ended.

Portfolios are handed out by seat position (the first seat Labour, the second Interior, ... the
seventh Labour again), so they are a function of the seating and are stored nowhere else; they
are public (the projector may name them) and revealed in the debrief with how each ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from games.austerity import data

LABOUR, INTERIOR, ECONOMY, HEALTH, PRESS, TREASURY = (
    "labour", "interior", "economy", "health", "press", "treasury")
PORTFOLIOS = (LABOUR, INTERIOR, ECONOMY, HEALTH, PRESS, TREASURY)
TRACK_OF: dict[str, str | None] = {LABOUR: data.EMPLOYMENT, INTERIOR: data.SAFETY,
                                   ECONOMY: data.WEALTH, HEALTH: data.HEALTH,
                                   PRESS: data.POPULARITY, TREASURY: None}
NAMES = {LABOUR: gettext_lazy("Labour"), INTERIOR: gettext_lazy("Interior"),
         ECONOMY: gettext_lazy("Economy"), HEALTH: gettext_lazy("Health"),
         PRESS: gettext_lazy("Press office"), TREASURY: gettext_lazy("Treasury")}
DEFENDS = {LABOUR: gettext_lazy("Employment"), INTERIOR: gettext_lazy("Public Safety"),
           ECONOMY: gettext_lazy("Wealth"), HEALTH: gettext_lazy("Health"),
           PRESS: gettext_lazy("Popularity"), TREASURY: gettext_lazy("the debt")}


def portfolio_of(position: int) -> str:
    """The portfolio of the seat at ``position`` (0-based) at its table."""
    return PORTFOLIOS[position % len(PORTFOLIOS)]


def debt(state: Any) -> int:
    """The country's Debt cubes, wherever they lie."""
    return (state.bag[data.DEBT] + state.used[data.DEBT]
            + state.current.count(data.DEBT))


@dataclass(frozen=True)
class Standing:
    """How a portfolio stands: its ``value`` now and at the start, and whether that is
    better (a track up, the debt down), the same or worse."""

    portfolio: str
    start: int
    value: int

    @property
    def change(self) -> int:
        """Positive is good for the portfolio (fewer Debt cubes for the Treasury)."""
        gained = self.value - self.start
        return -gained if self.portfolio == TREASURY else gained


def standing(portfolio: str, state: Any, start: Any) -> Standing:
    """``portfolio`` in ``state`` against the game's first state ``start``."""
    track = TRACK_OF[portfolio]
    if track is None:
        return Standing(portfolio, debt(start), debt(state))
    return Standing(portfolio, start.tracks[track], state.tracks[track])
