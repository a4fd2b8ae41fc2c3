"""The state of one Crisis table: plain, JSON-ready data (the rules live in ``rules.py``).

Decks are lists whose first element is the next card drawn; they are dealt (shuffled or
pinned) at setup, so the state needs no random generator except for reshuffling the Influence
discards, which uses ``random.Random(f"{seed}:influence:{n}")`` for the n-th reshuffle.
"""

from __future__ import annotations

import pickle
from dataclasses import asdict, dataclass, field
from typing import Any

from games.crisis import cards

PLANNING = "planning"
OPERATIONS = "operations"
PRODUCTION = "production"
EXPORTS = "exports"
OVER = "over"
PHASES = (PLANNING, OPERATIONS, PRODUCTION, EXPORTS, OVER)


def empty_warehouse() -> dict[str, int]:
    return dict.fromkeys(cards.RESOURCES, 0)


@dataclass
class Player:
    name: str
    credits: int = 0
    vp: int = cards.START_VP
    loans: int = 0
    penalty: int = 0  # VP of Penalty tiles taken (counted only at the end of the game)
    warehouse: dict[str, int] = field(default_factory=empty_warehouse)
    employees: list[str] = field(default_factory=list)  # tile ids, e.g. "E3-1", "FW-2", "TEMP"
    companies: list[str] = field(default_factory=list)
    managers: int = cards.MANAGERS
    hand: list[str] = field(default_factory=list)  # Influence cards (secret)
    influence_round: int = 0  # the last round in which this player played an Influence card
    black_market: dict[str, int] = field(default_factory=dict)  # tokens sold this round


@dataclass
class GameState:
    seed: int
    players: list[Player]
    plan_id: str
    levels: list[str]
    goals: list[int]
    order: list[str]  # turn order, first player first
    round: int = 1
    phase: str = PLANNING
    status: int = cards.START_STATUS
    goal_override: dict[str, int] = field(default_factory=dict)  # {"round", "goal"} (a start)
    # Decks (the next card first) and the bag.
    company_decks: dict[str, list[str]] = field(default_factory=dict)
    event_decks: dict[str, list[str | None]] = field(default_factory=dict)
    influence_deck: list[str] = field(default_factory=list)
    influence_discard: list[str] = field(default_factory=list)
    reshuffles: int = 0
    bag: list[str] = field(default_factory=list)
    contract_stacks: dict[str, list[str]] = field(default_factory=dict)
    foreign: dict[str, list[str]] = field(default_factory=dict)  # stacks by kind
    # The board.
    board_companies: list[str | None] = field(default_factory=list)  # 6 spaces
    board_employees: list[str | None] = field(default_factory=list)  # 5 spaces
    temp_holder: str | None = None  # who has the Temp Employee this round
    market: list[str | None] = field(default_factory=list)  # 12 contracts, 3 columns of 4
    # This round.
    event: str | None = None
    mods: dict[str, Any] = field(default_factory=dict)
    placements: dict[str, list[str]] = field(default_factory=dict)  # space -> names in order
    exports: list[str] = field(default_factory=list)  # Managers on Exports, left to right
    steps: list[list[str]] = field(default_factory=list)  # operations still to resolve
    produced: list[str] = field(default_factory=list)  # who has produced this round
    turn: int = 0  # index into ``exports`` of the player to act
    placed: int = 0  # Managers placed this round (numbers the placement decisions)
    # The end.
    bankrupt: bool = False
    goal_met: dict[str, bool] = field(default_factory=dict)  # at the last Evaluation
    opening: list[dict[str, Any]] = field(default_factory=list)  # setup's transfers
    supply_out: dict[str, int] = field(default_factory=dict)  # resources out of the supply
    history: list[dict[str, Any]] = field(default_factory=list)  # one public entry per round

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def current(self) -> dict[str, Any]:
        return self.history[-1]

    def clone(self) -> GameState:
        return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))


def to_dict(state: GameState) -> dict[str, Any]:
    return asdict(state)


def from_dict(raw: dict[str, Any]) -> GameState:
    raw = pickle.loads(pickle.dumps(dict(raw), pickle.HIGHEST_PROTOCOL))
    raw["players"] = [Player(**p) for p in raw["players"]]
    return GameState(**raw)
