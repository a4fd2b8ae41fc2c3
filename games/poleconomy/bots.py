"""Bot players: policies that write a player's sealed orders and cast consent ballots.

A policy is an object with ``orders(state, name, rng) -> dict | None`` (``None``: the NMR) and
``consent(state, name, kind, proposal, rng) -> bool``. Policies read the public state only
(plus their own seat), and take their chance from the ``random.Random`` passed in.

- ``builder``: rolls round the outer track, buys what it can afford with a margin, insures
  itself, bids list price in auctions, routes visitors to its own Companies.
- ``cautious``: keeps cash; buys Life Insurance and Bonds, Companies only when rich.
- ``random``: any valid orders, chosen at random.
- ``nmr``: never sends orders (every round is the NMR rule).

As Prime Minister every bot appoints one minister when it can; ``pm_raise`` (dollars per round,
0 by default) makes a PM ask Parliament to raise its own salary every round without limit.
Bots in the Government consent to their PM's proposals; the others refuse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.poleconomy import data
from games.poleconomy.money import bank_bonds
from games.poleconomy.state import GameState


def _mine(state: GameState, name: str, kind: str = data.COMPANY) -> list[str]:
    return [f for f, o in state.owners.items() if o == name and data.SQUARES[f].kind == kind]


def _richest_target(state: GameState, name: str) -> list[str]:
    theirs = [f for f, o in state.owners.items()
              if o != name and data.SQUARES[f].kind == data.COMPANY]
    return sorted(theirs, key=lambda f: -state.player(state.owners[f]).cash)[:3]


@dataclass
class Policy:
    name: str = "builder"
    pm_raise: int = 0
    margin: int = 10

    def pm_orders(self, state: GameState, name: str) -> dict[str, Any]:
        pm: dict[str, Any] = {}
        candidates = [n for n in state.government if n != name and n not in state.cabinet]
        if not state.cabinet and candidates:
            pm["appoint"] = candidates[:1]
        if self.pm_raise:
            pm["salaries"] = {"pm": state.pm_salary + self.pm_raise}
        return pm

    def orders(self, state: GameState, name: str, rng: random.Random) -> dict[str, Any] | None:
        me = state.player(name)
        mult = state.multiplier
        orders: dict[str, Any] = {
            "bids": [{"firm": f, "amount": max(1, data.price(f, mult) * 3 // 4)}
                     for f in state.auction if data.price(f, mult) + self.margin <= me.cash][:2],
            "move": {"roll": True, "track": data.OUTER},
            "buy": {"companies": True, "advertisers": True,
                    "max_price": max(0, me.cash - self.margin)},
            "corners": {data.BUSINESS_INSURANCE: me.cash > 30,
                        data.LIFE_INSURANCE: me.cash > 40,
                        data.BONDS_CORNER: 1 if me.cash > 80 else 0},
            "opportunity": next((f for f in _mine(state, name)),
                                "inc1" if "inc1" in state.layout().squares else data.START),
        }
        targets = _richest_target(state, name)
        if targets:
            orders["corners"][data.TAKEOVER] = targets
        own = _mine(state, name)
        if own:
            orders["send_to"] = own[0]
            orders["own_advertiser"] = own[0]
        if name == state.pm:
            orders["pm"] = self.pm_orders(state, name)
        if state.consent_mode == "orders":
            orders["consent"] = "all" if name in state.government else {}
        return orders

    def consent(self, state: GameState, name: str, kind: str, proposal: Any,
                rng: random.Random) -> bool:
        return name in state.government


@dataclass
class Cautious(Policy):
    name: str = "cautious"

    def orders(self, state: GameState, name: str, rng: random.Random) -> dict[str, Any] | None:
        orders = super().orders(state, name, rng) or {}
        me = state.player(name)
        orders["bids"] = []
        orders["buy"] = {"companies": me.cash > 60, "advertisers": True,
                         "max_price": max(0, me.cash - 40)}
        orders["corners"] = {data.LIFE_INSURANCE: True, data.BONDS_CORNER: 2,
                             data.BUSINESS_INSURANCE: True}
        if me.position in data.CORNERS and rng.random() < 0.3:
            orders["move"] = {"roll": True, "track": data.INNER}
        return orders


@dataclass
class RandomPolicy(Policy):
    name: str = "random"

    def orders(self, state: GameState, name: str, rng: random.Random) -> dict[str, Any] | None:
        me = state.player(name)
        if rng.random() < 0.1:
            return None
        orders: dict[str, Any] = {
            "bids": [{"firm": f, "amount": rng.randint(1, max(1, me.cash))}
                     for f in state.auction if rng.random() < 0.5],
            "buy": {"companies": rng.random() < 0.7, "advertisers": rng.random() < 0.7},
            "corners": {data.BUSINESS_INSURANCE: rng.random() < 0.5,
                        data.LIFE_INSURANCE: rng.random() < 0.5,
                        data.BONDS_CORNER: rng.randint(0, 2)},
            "sell": {"life": rng.randint(0, 1) if me.life_insurance else 0,
                     "bonds": rng.randint(0, 1) if me.bonds else 0},
            "bonds_to_treasury": rng.randint(0, me.bonds),
        }
        if rng.random() < 0.2:
            orders["move"] = {"corner": rng.choice(data.CORNERS), "act": rng.random() < 0.5}
            if orders["move"]["corner"] == data.TAKEOVER:
                orders["move"]["act"] = False
        else:
            orders["move"] = {"roll": True, "track": rng.choice(data.TRACKS)}
        if rng.random() < 0.5:
            squares = state.layout().squares
            orders["opportunity"] = rng.choice([s for s in squares if not squares[s].opportunity])
        if name == state.pm:
            pm = self.pm_orders(state, name)
            pm["reverse"] = rng.random() < 0.2
            if rng.random() < 0.2:
                pm["issue_bonds"] = rng.randint(0, 3)
            if rng.random() < 0.2 and bank_bonds(state):
                pm["buy_back_bank"] = 1
            if rng.random() < 0.1:
                pm["tax"] = {"per_company": rng.randint(0, 10),
                             "companies_at_least": rng.randint(0, 3)}
            if rng.random() < 0.1:
                pm["payments"] = [{"to": rng.choice(state.names), "amount": rng.randint(1, 20),
                                   "press_release": "Stimulus"}]
            if rng.random() < 0.2:
                pm["buy_back_players"] = rng.randint(0, 2)
            orders["pm"] = pm
        if state.consent_mode == "orders":
            orders["consent"] = rng.choice(["all", {}, {"salaries": True}])
        return orders

    def consent(self, state: GameState, name: str, kind: str, proposal: Any,
                rng: random.Random) -> bool:
        return rng.random() < 0.5


@dataclass
class Silent(Policy):
    name: str = "nmr"

    def orders(self, state: GameState, name: str, rng: random.Random) -> dict[str, Any] | None:
        return None


POLICIES = {"builder": Policy, "cautious": Cautious, "random": RandomPolicy, "nmr": Silent}


def get_policy(name: str, **options: Any) -> Policy:
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(sorted(POLICIES))}")
    return POLICIES[name](**options)
