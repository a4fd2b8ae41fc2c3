"""The state of one Austerity government: plain, JSON-ready data.

The rules live in ``rules.py``. Cubes are counted per place: the bag, Current (a list, in the
order drawn), Used, the Treasury (Income only), each institution in play (cubes funded this
year) and, in the Olympics scenario, the Olympics box. The supply outside the game is
unlimited, so it is not counted. The seed and the pinned draws are the only secrets (they
decide future draws) and never appear in a view.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

from games.austerity import data

DRAW = "draw"  # waiting for the Finance Minister to draw the next pair (actions allowed)
EVENT = "event"  # the drawn pair's event has a choice
CUTS = "cuts"  # a single Debt cube remains in Current: choose an institution for Cuts
INCOME = "income"  # an Income cube in Current: fund, bank or use
POLICY = "policy"  # Year End's last step: keep the policy cards or turn one
OVER = "over"
STAGES = (DRAW, EVENT, CUTS, INCOME, POLICY, OVER)


def no_cubes() -> dict[str, int]:
    return dict.fromkeys(data.COLOURS, 0)


@dataclass
class Institution:
    cuts: int = 0  # the marker's step on the Cuts track: 0 (start), 1 or 2
    funded: int = 0  # Income cubes placed on it this year


@dataclass
class GameState:
    seed: int
    scenario: str
    difficulty: str
    country: str | None
    tracks: dict[str, int]
    bag: dict[str, int]
    used: dict[str, int] = field(default_factory=no_cubes)
    current: list[str] = field(default_factory=list)
    treasury: int = 0
    institutions: dict[str, Institution] = field(default_factory=dict)  # in play, in order
    policies: dict[str, str] = field(default_factory=dict)  # card -> face up
    fixed_policies: list[str] = field(default_factory=list)  # cards that cannot be turned
    extra_institutions: bool = False
    lone_debt_cuts: bool = False
    year_limit: int | None = None
    levels: str = "classic"  # the difficulty levels: "ours" or "classic" (the fan port's)
    min_years: int | None = None  # the lesson length rule: no win before this year's Year End
    pins: list[list[str]] = field(default_factory=list)  # pinned draws, in order (secret)
    year: int = 1
    draw: int = 0  # pairs (or the lone cube) drawn this year
    draws_done: int = 0  # draws in the whole game (the index into ``pins``)
    stage: str = DRAW
    pair: list[str] = field(default_factory=list)  # the cubes of this draw (the event's key)
    lone: bool = False  # this draw was a single last cube
    income_asked: int = 0  # income decisions answered for this draw
    olympics: int = 0  # Income cubes in the Olympics box
    war: int | None = None  # War Footing's marker
    war_fed: bool = False
    actions_taken: int = 0
    result: str | None = None  # "won" / "lost"
    reason: str | None = None  # why: a track id, "debt-free", "war", "olympics", ...
    history: list[dict[str, Any]] = field(default_factory=list)  # one public entry per year

    @property
    def this_year(self) -> dict[str, Any]:
        return self.history[-1]

    def clone(self) -> GameState:
        """A copy that shares nothing mutable with this state (past years are never changed
        again, so their history entries are shared; this year's is copied)."""
        new = copy.copy(self)
        new.tracks, new.bag, new.used = dict(self.tracks), dict(self.bag), dict(self.used)
        new.current, new.pair = list(self.current), list(self.pair)
        new.institutions = {k: Institution(v.cuts, v.funded) for k, v in self.institutions.items()}
        new.policies, new.fixed_policies = dict(self.policies), list(self.fixed_policies)
        new.history = list(self.history)
        if new.history:
            last = self.history[-1]
            new.history[-1] = {**last, "log": list(last["log"])}
        return new


def cube_counts(state: GameState) -> dict[str, dict[str, int]]:
    """How many cubes of each colour lie in each place (the supply excluded)."""
    places = {"bag": dict(state.bag), "current": no_cubes(), "used": dict(state.used),
              "treasury": {**no_cubes(), data.INCOME: state.treasury},
              "olympics": {**no_cubes(), data.INCOME: state.olympics}}
    for cube in state.current:
        places["current"][cube] += 1
    for name, inst in state.institutions.items():
        places[f"institution:{name}"] = {**no_cubes(), data.INCOME: inst.funded}
    return places


def to_dict(state: GameState) -> dict[str, Any]:
    return copy.deepcopy(asdict(state))


def in_order(mapping: dict[str, Any], order: Any) -> dict[str, Any]:
    """``mapping`` with its keys in the data's order (unknown keys last, as they came)."""
    rank = {key: i for i, key in enumerate(order)}
    return dict(sorted(mapping.items(), key=lambda item: rank.get(item[0], len(rank))))


def from_dict(raw: dict[str, Any]) -> GameState:
    """The state from a snapshot. Every mapping gets the data's order back: a store may keep
    a JSON object's keys in any order (PostgreSQL's jsonb does), and the rules (the first of
    equal options, the institutions in play) read them in order."""
    raw = copy.deepcopy(dict(raw))
    raw["institutions"] = in_order({k: Institution(**v) for k, v in raw["institutions"].items()},
                                   data.INSTITUTIONS)
    raw["tracks"] = in_order(raw["tracks"], data.TRACKS)
    raw["bag"] = in_order(raw["bag"], data.COLOURS)
    raw["used"] = in_order(raw["used"], data.COLOURS)
    raw["policies"] = in_order(raw["policies"], data.POLICY_CARDS)
    return GameState(**raw)
