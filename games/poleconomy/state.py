"""The state of one Poleconomy game: plain, JSON-ready data (the rules live in ``rules.py``).

Money is in whole dollars. ``bank`` and ``treasury`` are the cash the Bank and the Treasury
hold; ``money_supply`` is all the cash there is (it never changes), so the ledger balance of
the Bank is ``bank - money_supply`` and every ledger account sums to zero.
"""

from __future__ import annotations

import pickle
from dataclasses import asdict, dataclass, field
from typing import Any

from games.poleconomy import data

PARTIES = "parties"
GOVERNMENT = "government"
ORDERS = "orders"
OVER = "over"
PHASES = (PARTIES, GOVERNMENT, ORDERS, OVER)


@dataclass
class Player:
    name: str
    seat: int
    bi: int = 0
    cash: int = 0
    position: str = data.START
    track: str = data.INNER  # the track the player is on (on a corner: the one arrived by)
    business_insurance: bool = False
    life_insurance: int = 0
    bonds: int = 0
    party: str | None = None
    votes: int = 0  # electoral votes won at the last election
    orders: dict[str, Any] | None = None  # this round's orders once sent (sealed)
    sent: bool = False
    nmr: bool = False  # this round's orders were the NMR default


@dataclass
class Consent:
    id: str
    kind: str  # "salaries", "tax" or "payments"
    proposal: Any
    receipts: list[str] = field(default_factory=list)
    outcome: str | None = None  # "carried" / "not-carried" once counted


@dataclass
class GameState:
    seed: int
    players: list[Player]
    rounds: int
    consent_mode: str = "ballot"
    dice_pin: list[list[int]] = field(default_factory=list)
    dice_used: int = 0
    draws: int = 0  # seeded draws made so far (each uses its own Random)
    buyback_pin: list[str] = field(default_factory=list)
    buyback_used: int = 0
    phase: str = PARTIES
    round: int = 1
    bank: int = 0
    treasury: int = 0
    money_supply: int = 0
    bonds_issued: int = 0  # held by players or by the Bank; the rest are in the Treasury
    owners: dict[str, str] = field(default_factory=dict)  # firm -> owner
    index_space: int = 1
    direction: str = data.CLOCKWISE
    multiplier: int = 1  # the inflation multiplier in force this round
    parties: dict[str, list[str]] = field(default_factory=dict)
    government: list[str] = field(default_factory=list)
    pm: str | None = None
    cabinet: list[str] = field(default_factory=list)
    pm_salary: int = data.BASE_SALARY
    minister_salaries: dict[str, int] = field(default_factory=dict)  # unset: $10
    tax_rule: dict[str, Any] = field(default_factory=lambda: {"per_company": 5})
    auction: list[str] = field(default_factory=list)  # up for auction this round, in order
    unbought: list[str] = field(default_factory=list)  # passed up this round: next auction
    first: int = 0  # seat that moves first this round
    election_due: bool = False
    elections: int = 0  # elections held so far
    failed_elections: int = 0  # elections in a row with no Government
    election: dict[str, Any] | None = None  # the last election's rolls and totals
    consents: list[Consent] = field(default_factory=list)
    over_reason: str | None = None  # "treasury", "bank" or "rounds"
    bank_empty: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)  # public events per round
    # Config overrides of our edition's board (``{"inner": [...], "outer": [...]}``) and
    # Inflation Index (``[[kind, value], ...]``); None: our edition's.
    board: dict[str, list[str]] | None = None
    index_track: list[list[Any]] | None = None

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def order(self) -> list[Player]:
        """This round's movement order: from the first mover, in seat order."""
        n = len(self.players)
        return [self.players[(self.first + i) % n] for i in range(n)]

    @property
    def total_votes(self) -> int:
        return sum(p.votes for p in self.players)

    def layout(self) -> data.Board:
        """This game's board and Inflation Index track."""
        return data.board_for(self.board, self.index_track)

    def salary_of(self, name: str) -> int:
        if name == self.pm:
            return self.pm_salary
        return self.minister_salaries.get(name, data.BASE_SALARY)

    def clone(self) -> GameState:
        return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))


def to_dict(state: GameState) -> dict[str, Any]:
    """The JSON snapshot; a game on our edition's board has no ``board``/``index_track`` keys
    (its snapshot is the same as before the override existed)."""
    raw = asdict(state)
    for key in ("board", "index_track"):
        if raw[key] is None:
            del raw[key]
    return raw


def from_dict(raw: dict[str, Any]) -> GameState:
    raw = pickle.loads(pickle.dumps(raw, pickle.HIGHEST_PROTOCOL))
    raw["players"] = [Player(**p) for p in raw["players"]]
    raw["consents"] = [Consent(**c) for c in raw["consents"]]
    return GameState(**raw)
