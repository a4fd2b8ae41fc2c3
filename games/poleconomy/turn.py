"""Adjudicating one round, in the rulebook's order: the auctions, then each player's turn.

A turn: the PM's powers (PM only, before moving), selling back to the Bank, the move (direct
to a corner, or 2d6 on the current track; double six is a Business disaster), the square's
effect. Conditions in orders are read at the moment they are needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Event
from games.poleconomy import data
from games.poleconomy.money import (
    BANK,
    TREASURY,
    account,
    bank_bonds,
    draw_seller,
    emit,
    issue,
    move,
    treasury_pays,
)
from games.poleconomy.orders import consents
from games.poleconomy.state import GameState, Player


def value_now(state: GameState) -> int:
    """The multiplier of the space the Inflation Index marker is on right now."""
    return state.layout().index_values[state.index_space - 1]


def companies_of(state: GameState, name: str) -> list[str]:
    return [f for f in data.COMPANIES if state.owners.get(f) == name]


# --------------------------------------------------------------------------- conditions


def holds(state: GameState, p: Player, conditions: Any, won: dict[str, str | None]) -> bool:
    """Whether every condition holds now; ``won`` maps each firm auctioned so far to its buyer."""
    for cond in conditions or []:
        key = next(k for k in cond if k != "is")
        value = cond[key]
        ok = {
            "won": lambda v: won.get(v) == p.name,
            "lost": lambda v: v in won and won[v] != p.name,
            "owns": lambda v: state.owners.get(v) == p.name,
            "not_owns": lambda v: state.owners.get(v) != p.name,
            "owner": lambda v, c=cond: state.owners.get(v) == c["is"],
            "cash_at_least": lambda v: p.cash >= v,
            "cash_below": lambda v: p.cash < v,
            "on": lambda v: p.position == v,
        }[key](value)
        if not ok:
            return False
    return True


# --------------------------------------------------------------------------- auctions


def run_auctions(state: GameState, events: list[Event]) -> dict[str, str | None]:
    """Sealed bids, first price: the highest bid the bidder can pay wins and pays it to the Bank.

    A tie goes to the bidder earlier in this round's movement order; a bid above the bidder's
    cash at that moment, or whose conditions fail, does not count. No valid bid: unsold.
    """
    won: dict[str, str | None] = {}
    order = state.order()
    for firm in state.auction:
        best: tuple[int, int, Player] | None = None
        for rank, p in enumerate(order):
            for bid in (p.orders or {}).get("bids", []):
                if bid["firm"] != firm or bid["amount"] > p.cash:
                    continue
                if not holds(state, p, bid.get("if"), won):
                    continue
                if best is None or (bid["amount"], -rank) > (best[0], -best[1]):
                    best = (bid["amount"], rank, p)
        if best is None or firm in state.owners:
            won[firm] = None
            emit(state, events, {"type": "auction", "firm": firm, "winner": None, "price": 0})
            continue
        amount, _rank, p = best
        move(state, events, account(p.name), BANK, amount, "auction", firm=firm)
        state.owners[firm] = p.name
        won[firm] = p.name
        emit(state, events, {"type": "auction", "firm": firm, "winner": p.name, "price": amount})
    state.auction = []
    return won


# --------------------------------------------------------------------------- PM's powers


def consent_given(state: GameState, kind: str, proposal: Any) -> bool:
    if state.consent_mode == "ballot":
        consent = next((c for c in state.consents if c.kind == kind), None)
        return consent is not None and consent.outcome == "carried"
    yes = sum(p.votes for p in state.players
              if p.name == state.pm or consents((p.orders or {}).get("consent"), kind, proposal))
    return 2 * yes > state.total_votes


def pm_powers(state: GameState, events: list[Event], pm: Player, orders: Mapping[str, Any]
              ) -> None:
    if orders.get("reverse"):
        state.direction = (data.ANTICLOCKWISE if state.direction == data.CLOCKWISE
                           else data.CLOCKWISE)
        emit(state, events, {"type": "index_reversed", "direction": state.direction})
    for name in orders.get("dismiss", []):
        if name in state.cabinet:
            state.cabinet.remove(name)
            emit(state, events, {"type": "minister_dismissed", "player": name})
    for name in orders.get("appoint", []):
        if name in state.government and name != state.pm and name not in state.cabinet:
            state.cabinet.append(name)
            emit(state, events, {"type": "minister_appointed", "player": name})
    if orders.get("issue_bonds"):
        issue(state, events, orders["issue_bonds"], "prime-minister")
    n = min(orders.get("buy_back_bank", 0), bank_bonds(state),
            state.treasury // data.BOND_VALUE)
    if n > 0:
        state.bonds_issued -= n
        emit(state, events, {"type": "bonds_bought_back", "from": BANK, "count": n})
        move(state, events, TREASURY, BANK, n * data.BOND_VALUE, "bonds-bought-back")
    _buy_back_from_players(state, events, orders.get("buy_back_players", 0))
    for kind in ("salaries", "tax", "payments"):
        if kind in orders:
            carried = consent_given(state, kind, orders[kind])
            emit(state, events, {"type": "consent", "kind": kind, "carried": carried})
            if carried:
                _consented(state, events, kind, orders[kind])


def _buy_back_from_players(state: GameState, events: list[Event], wanted: int) -> None:
    offers = {p.name: min(p.bonds, (p.orders or {}).get("bonds_to_treasury", 0))
              for p in state.players}
    offers = {k: v for k, v in offers.items() if v > 0}
    n = min(wanted, sum(offers.values()), state.treasury // data.BOND_BUYBACK_FROM_PLAYERS)
    for _i in range(n):
        name = (next(iter(offers)) if len(offers) == 1 or sum(offers.values()) <= n - _i
                else draw_seller(state, offers))
        offers[name] -= 1
        if offers[name] == 0:
            del offers[name]
        seller = state.player(name)
        seller.bonds -= 1
        state.bonds_issued -= 1
        emit(state, events, {"type": "bonds_bought_back", "from": account(name), "count": 1})
        move(state, events, TREASURY, account(name), data.BOND_BUYBACK_FROM_PLAYERS,
             "bonds-bought-back")


def _consented(state: GameState, events: list[Event], kind: str, proposal: Any) -> None:
    if kind == "salaries":
        if "pm" in proposal:
            state.pm_salary = proposal["pm"]
        state.minister_salaries.update(proposal.get("ministers", {}))
        emit(state, events, {"type": "salaries_changed", "pm": state.pm_salary,
                             "ministers": dict(state.minister_salaries)})
    elif kind == "tax":
        state.tax_rule = dict(proposal)
        emit(state, events, {"type": "tax_changed", "rule": dict(proposal)})
    else:
        for pay in proposal:
            made = state.treasury >= pay["amount"]
            emit(state, events, {"type": "treasury_payment", "to": pay["to"],
                                 "amount": pay["amount"], "press_release": pay["press_release"],
                                 "made": made})
            if made:
                move(state, events, TREASURY, account(pay["to"]), pay["amount"],
                     "treasury-payment")


# --------------------------------------------------------------------------- Index effects


def liable(state: GameState, p: Player) -> int:
    """What the tax rule asks of a player (before the 'only what he has' limit)."""
    rule = state.tax_rule
    n = len(companies_of(state, p.name))
    checks = (("companies_at_least", n >= rule.get("companies_at_least", 0)),
              ("companies_at_most", n <= rule.get("companies_at_most", n)),
              ("bi_at_least", p.bi >= rule.get("bi_at_least", 0)),
              ("bi_at_most", p.bi <= rule.get("bi_at_most", p.bi)))
    if p.name in rule.get("exempt", []) or not all(ok for _k, ok in checks):
        return 0
    return rule.get("flat", 0) + rule.get("per_company", 0) * n


def move_index(state: GameState, events: list[Event], steps: int, p: Player) -> None:
    sign = 1 if state.direction == data.CLOCKWISE else -1
    kinds = state.layout().index_kinds
    state.index_space = (state.index_space - 1 + sign * steps) % len(kinds) + 1
    kind = kinds[state.index_space - 1]
    emit(state, events, {"type": "index_moved", "player": p.name, "steps": steps,
                         "direction": state.direction, "space": state.index_space,
                         "effect": kind, "value": value_now(state)})
    if kind == data.TAX:
        for q in state.players:
            due = liable(state, q)
            if due:
                move(state, events, account(q.name), TREASURY, due, "tax")
    elif kind == data.BOND_INTEREST_SPACE:
        holders = [(account(q.name), q.bonds) for q in state.players if q.bonds]
        holders.append((BANK, bank_bonds(state)))
        total = sum(k for _a, k in holders) * data.BOND_INTEREST
        if total:
            treasury_pays(state, events, total, "bond-interest")
            for acct, k in holders:
                move(state, events, TREASURY, acct, k * data.BOND_INTEREST, "bond-interest")
    elif kind == data.SALARY:
        paid = [n for n in [state.pm, *state.cabinet] if n]
        total = sum(state.salary_of(n) for n in paid)
        if total:
            treasury_pays(state, events, total, "salary")
            for n in paid:
                move(state, events, TREASURY, account(n), state.salary_of(n), "salary")
    elif kind == data.ELECTION and not state.election_due:
        state.election_due = True
        emit(state, events, {"type": "election_called"})
