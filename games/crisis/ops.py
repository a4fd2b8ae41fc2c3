"""Small state changes every rule uses: credits (always a ledger transfer), VP, Penalty tiles,
resources (Warehouse limits), Influence draws and the round's modifiers.

Every credit moves between ``bank`` (the issuer) and ``player:<name>``: the accounts always sum
to zero, and ``balances`` equals the sum of the transfer events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.core import PUBLIC, Event, InvalidAction
from games.crisis import cards, data
from games.crisis.state import GameState, Player
from games.i18n import _

BANK = "bank"


def account(name: str) -> str:
    return f"player:{name}"


def acting_player(state: GameState, action: Mapping[str, Any]) -> Player:
    """The player an action names, or ``InvalidAction``."""
    name = action.get("player")
    if not isinstance(name, str) or name not in state.names:
        raise InvalidAction(_("There is no player called {name!r}."), name=name)
    return state.player(name)


def transfer(state: GameState, events: list[Event], p: Player, amount: int, reason: str,
             **params: Any) -> None:
    """``amount`` > 0: the bank pays the player; < 0: the player pays the bank."""
    if amount == 0:
        return
    p.credits += amount
    src, dst = (BANK, account(p.name)) if amount > 0 else (account(p.name), BANK)
    events.append({"type": "transfer", "audience": PUBLIC, "from": src, "to": dst,
                   "amount": abs(amount), "reason": reason, "round": state.round, **params})


def pay(state: GameState, events: list[Event], p: Player, amount: int, reason: str,
        **params: Any) -> None:
    """Pay what the player can; each unpaid credit is a 1 VP Penalty tile (the FAQ)."""
    paid = min(amount, p.credits)
    transfer(state, events, p, -paid, reason, **params)
    if amount > paid:
        penalty(state, events, p, amount - paid, reason)


def penalty(state: GameState, events: list[Event], p: Player, vp: int, reason: str) -> None:
    if vp <= 0:
        return
    p.penalty += vp
    events.append({"type": "penalty", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "vp": vp, "reason": reason})


def gain_vp(state: GameState, events: list[Event], p: Player, vp: int, reason: str) -> None:
    """Gain (or lose) VP on the grid; the grid has no space below 0."""
    before = p.vp
    p.vp = max(0, p.vp + vp)
    if p.vp != before:
        events.append({"type": "vp", "audience": PUBLIC, "round": state.round,
                       "player": p.name, "delta": p.vp - before, "reason": reason})


def gain(state: GameState, events: list[Event], p: Player, resource: str, n: int,
         reason: str) -> int:
    """Take ``n`` tokens from the supply; any excess over the Warehouse returns at once."""
    room = cards.WAREHOUSE[resource] - p.warehouse[resource]
    kept = max(0, min(n, room))
    if kept:
        p.warehouse[resource] += kept
        state.supply_out[resource] = state.supply_out.get(resource, 0) + kept
    if n:
        events.append({"type": "resources", "audience": PUBLIC, "round": state.round,
                       "player": p.name, "resource": resource, "delta": kept,
                       "returned": n - kept, "reason": reason})
    return kept


def spend(state: GameState, events: list[Event], p: Player, resource: str, n: int,
          reason: str) -> None:
    """Return ``n`` tokens to the supply (the caller has checked the player holds them)."""
    if n <= 0:
        return
    p.warehouse[resource] -= n
    state.supply_out[resource] = state.supply_out.get(resource, 0) - n
    events.append({"type": "resources", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "resource": resource, "delta": -n, "returned": 0,
                   "reason": reason})


def draw_influence(state: GameState, events: list[Event], p: Player, reason: str) -> None:
    """The top Influence card; an empty deck is first rebuilt from the shuffled discards."""
    if not state.influence_deck and state.influence_discard:
        state.reshuffles += 1
        deck = sorted(state.influence_discard)
        random.Random(f"{state.seed}:influence:{state.reshuffles}").shuffle(deck)
        state.influence_deck, state.influence_discard = deck, []
        events.append({"type": "influence_reshuffled", "audience": PUBLIC,
                       "round": state.round, "cards": len(deck)})
    if not state.influence_deck:
        events.append({"type": "influence_empty", "audience": PUBLIC, "round": state.round,
                       "player": p.name})
        return
    card = state.influence_deck.pop(0)
    p.hand.append(card)
    events.append({"type": "influence_drawn", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "reason": reason})
    events.append({"type": "influence_card", "audience": p.name, "round": state.round,
                   "player": p.name, "card": card})


def mod(state: GameState, key: str) -> int:
    return int(state.mods.get(key, 0))


def closed(state: GameState) -> list[str]:
    return list(state.mods.get("closed", []))


def subsidy(state: GameState) -> int:
    return max(0, cards.SUBSIDY + mod(state, "subsidy"))


def foreign_cost(state: GameState) -> int:
    return max(0, data.FOREIGN_COST[data.zone(state.status)] + mod(state, "foreign_cost"))


def company_cost(state: GameState, company: str) -> int:
    return max(0, cards.COMPANIES[company].cost + mod(state, "company_cost"))


def import_price(state: GameState, per_unit: int, units: int = 1) -> int:
    """A space's credit price per unit this round (a basket's ``units`` tokens each +n)."""
    return max(1, per_unit + mod(state, "import_price") * units)


def export_credits(state: GameState, resource: str) -> int:
    return max(0, cards.EXPORT_PRICE[resource][1] + mod(state, "export_credits"))


def black_market_limit(state: GameState) -> int:
    return int(state.mods.get("black_market_limit", cards.BLACK_MARKET_LIMIT))


def interest(state: GameState) -> int:
    return max(0, cards.INTEREST + mod(state, "interest"))


def goal(state: GameState, rnd: int | None = None) -> int:
    rnd = state.round if rnd is None else rnd
    base = state.goals[rnd - 1]
    if state.goal_override.get("round") == rnd:
        base = state.goal_override["goal"]
    return base + (mod(state, "goal") if rnd == state.round else 0)


def icons(p: Player) -> int:
    return sum(cards.COMPANIES[c].icons for c in p.companies)


def company_vp(p: Player) -> int:
    return sum(cards.COMPANIES[c].vp for c in p.companies)
