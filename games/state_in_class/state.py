"""The state of one State in Class table: plain, JSON-ready data.

Everything here is data; the rules live in ``rules.py``. ``to_dict``/``from_dict`` give the
snapshot the facilitator caches (it is always verifiable against a full replay).
The state never holds a (player, vote option) pair: only who has put a token in the bag
(receipts) and, once the teacher empties the bag, the tally.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from games.state_in_class import data

PACT = "pact"
TAX_VOTE = "tax_vote"
BUDGET_VOTE = "budget_vote"
TIE_BREAK = "tie_break"
OVER = "over"
PHASES = (PACT, TAX_VOTE, TIE_BREAK, BUDGET_VOTE, OVER)


@dataclass
class Player:
    name: str
    seat: int
    coins: int = 0  # the bank pays the 3 starting coins in new_game (a ledger transfer)
    role: str | None = None
    exclusions: int = 0
    pact: int | None = None
    # Private movements: {"round", "amount" (+/-), "reason", "balance"}.
    statement: list[dict[str, Any]] = field(default_factory=list)

    @property
    def klass(self) -> str | None:
        return data.ROLES[self.role].klass if self.role else None


@dataclass
class Service:
    level: int = data.MIN_LEVEL
    fund: int = 0


@dataclass
class TieBreak:
    kind: str  # "tax" or "budget"
    options: list[str]  # the tied options still to order
    deciders: list[str]  # who decides, in order (tax: the voters by tie order)
    ranked: list[str] = field(default_factory=list)  # budget: services already ranked
    rest: list[list[str]] = field(default_factory=list)  # budget: groups after this one


@dataclass
class GameState:
    seed: int
    players: list[Player]
    price: int
    roles_pin: dict[str, str] = field(default_factory=dict)
    midlife_pin: list[str] = field(default_factory=list)
    round: int = 0
    phase: str = PACT
    tension: int | None = None
    failed: bool = False
    services: dict[str, Service] = field(
        default_factory=lambda: {s: Service() for s in data.SERVICES}
    )
    tax: str | None = None  # the tax in force (the last one that won)
    receipts: list[str] = field(default_factory=list)  # who has voted in the open vote (sorted)
    tie: TieBreak | None = None
    tally: dict[str, int] | None = None  # the count being settled by a tie-break
    pot: int = 0  # coins in the middle of the table (this round's revenue)
    surcharge: int = 0  # extra cost of living this round (events)
    tech_bonus: bool = False
    spares_taken: list[str] = field(default_factory=list)  # classes whose spare role is taken
    pact_total: int | None = None
    # Public history, one entry per round (event, votes, split, tension changes, Midlife cards).
    history: list[dict[str, Any]] = field(default_factory=list)

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
        """This round's public history entry."""
        return self.history[-1]

    def clone(self) -> GameState:
        return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))


def to_dict(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready data (a deep copy, like ``dataclasses.asdict``).

    Written out by hand because ``asdict`` recurses through every nested list and dict with
    ``deepcopy``, and this runs on every saved decision (the snapshot). The history and
    statements are copied with a pickle round trip, cheaper than a deep copy (the figures:
    docs/performance.md, "What was changed, before and after").
    """
    players = [{"name": p.name, "seat": p.seat, "coins": p.coins, "role": p.role,
                "exclusions": p.exclusions, "pact": p.pact, "statement": p.statement}
               for p in state.players]
    tie = state.tie
    raw = {
        "seed": state.seed, "players": players, "price": state.price,
        "roles_pin": state.roles_pin, "midlife_pin": state.midlife_pin, "round": state.round,
        "phase": state.phase, "tension": state.tension, "failed": state.failed,
        "services": {k: {"level": v.level, "fund": v.fund} for k, v in state.services.items()},
        "tax": state.tax, "receipts": state.receipts,
        "tie": None if tie is None else {"kind": tie.kind, "options": tie.options,
                                         "deciders": tie.deciders, "ranked": tie.ranked,
                                         "rest": tie.rest},
        "tally": state.tally, "pot": state.pot, "surcharge": state.surcharge,
        "tech_bonus": state.tech_bonus, "spares_taken": state.spares_taken,
        "pact_total": state.pact_total, "history": state.history,
    }
    return pickle.loads(pickle.dumps(raw, pickle.HIGHEST_PROTOCOL))


def from_dict(raw: dict[str, Any]) -> GameState:
    """The state from a snapshot, its services in the rules' order whatever the order of the
    snapshot's JSON keys (PostgreSQL's jsonb keeps its own): code that walks the services
    then writes the same history as a full replay."""
    raw = dict(raw)
    raw["players"] = [Player(**p) for p in raw["players"]]
    order = {s: i for i, s in enumerate(data.SERVICES)}
    raw["services"] = {k: Service(**v) for k, v in
                       sorted(raw["services"].items(), key=lambda kv: order.get(kv[0], 99))}
    raw["tie"] = TieBreak(**raw["tie"]) if raw.get("tie") else None
    return GameState(**raw)
