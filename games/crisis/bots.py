"""Bot teams: policies that answer a Crisis decision from what their player may see.

``act(policy, state, decision, rng) -> Action`` answers one open decision. A bot reads the
public state and its own player only (never another hand or a deck's order). Policies:

- ``random``: any legal answer (placements, options, exports), the default production plan.
- ``sensible``: invests in Companies it can afford and staff, hires the Employees and buys
  the inputs its Companies lack, avoids Penalty tiles, produces with the automatic plan and
  exports honestly on contracts (the best VP first), keeping next round's inputs.
- ``greedy``: as sensible, but sells every exportable token it can on the black market (double
  credits, no VP), and only uses contracts for what the black market will not take.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Action, Decision
from games.crisis import board, cards, ops, production, views
from games.crisis.state import PLANNING, GameState, Player

POLICIES = ("random", "sensible", "greedy")


def act(policy: str, state: GameState, decision: Decision, rng: random.Random) -> Action:
    name = decision.deciders[0]
    p = state.player(name)
    if decision.kind == "produce":
        return dict(decision.default or {})
    if policy == "random":
        if decision.kind == "export":
            return rng.choice(views.export_moves(state, p))
        if decision.kind == "resolve":
            return {**(decision.default or {}), "choice": rng.choice(decision.options)}
        return {"type": "place", "player": name, "space": rng.choice(decision.options)}
    if decision.kind == "place":
        play = influence(state, p)
        if play is not None:
            return play
        if should_repay(state, p):
            return {"type": "repay", "player": name}
        return {"type": "place", "player": name, "space": place(state, p, decision, rng)}
    if decision.kind == "resolve":
        return {**(decision.default or {}), "choice": resolve(state, p, decision)}
    return export(state, p, black_market=policy == "greedy")


def lacking_staff(p: Player) -> Counter[str]:
    """Employee types the player's Companies need beyond the Employees it has."""
    need: Counter[str] = Counter()
    for c in p.companies:
        need.update(cards.COMPANIES[c].staff)
    have: Counter[str] = Counter()
    for tile in p.employees:
        if tile == cards.TEMP:
            continue
        role = max(cards.EMPLOYEE_TYPES, key=lambda r: production.skill(tile, r))
        have[role] += 1
    return need - have


def lacking_inputs(p: Player) -> Counter[str]:
    need: Counter[str] = Counter()
    for c in p.companies:
        need.update(dict(cards.COMPANIES[c].inputs))
    return need - Counter(p.warehouse)


def spare_bonus(p: Player) -> Counter[str]:
    """Bonus slots of the player's Companies (by type) that its Employees beyond the
    necessary ones do not fill, roughly: what one more Employee would raise."""
    slots: Counter[str] = Counter()
    for c in p.companies:
        slots.update(cards.COMPANIES[c].bonus)
    extra = max(0, len(p.employees) - sum(len(cards.COMPANIES[c].staff) for c in p.companies))
    for role in sorted(slots, key=lambda r: -slots[r]):
        used = min(slots[role], extra)
        slots[role] -= used
        extra -= used
    return +slots


def reserve(state: GameState, p: Player) -> int:
    """Credits the bot keeps back for next round's interest and inputs; the rest is spare
    and worth investing (at the end a credit is only worth 1/5 VP)."""
    if state.round >= cards.ROUNDS:
        return 0
    return 2 * p.loans + 2 * len(p.companies) + 4


def should_repay(state: GameState, p: Player) -> bool:
    """Pay back a loan when the credits are spare: it saves the interest of every later
    round (at the end of the game a repaid loan changes no score)."""
    rounds_left = cards.ROUNDS - state.round
    return (p.loans > 0 and rounds_left >= 2 and state.phase == PLANNING
            and p.credits - _planned_cost(state, p) - reserve(state, p) >= 25)


def _planned_cost(state: GameState, p: Player) -> int:
    """Credits the player's Managers placed this round will need, roughly."""
    cost = 0
    for space, names in state.placements.items():
        if p.name not in names:
            continue
        if space in board.COMPANY_SPACES:
            company = state.board_companies[board.COMPANY_SPACES.index(space)]
            cost += ops.company_cost(state, company) if company else 0
        elif space == "foreign-employees":
            cost += ops.foreign_cost(state)
        elif space in ("domestic-industry", "energy-1", "energy-2"):
            cost += 2
        elif space == "government-subsidy":
            cost -= ops.subsidy(state) * names.count(p.name)
        elif space == "loan":
            cost -= cards.LOAN_CREDITS
    return cost


def space_value(state: GameState, p: Player, space: str, budget: int,
                staff: Counter[str], inputs: Counter[str]) -> float:
    """How much the bot wants ``space`` (``staff``/``inputs``: what its Companies lack)."""
    rounds_left = cards.ROUNDS - state.round + 1
    if space in board.COMPANY_SPACES:
        company = state.board_companies[board.COMPANY_SPACES.index(space)]
        if not company or ops.company_cost(state, company) > budget:
            return -99.0
        card = cards.COMPANIES[company]
        run = production.output_of(state, company, 1)
        worth = sum(production.WORTH[w] * n for w, n in run.items())
        value = card.vp * 1.2 + min(rounds_left - 1, 3) * worth / 4 - card.cost / 6
        spare = budget - reserve(state, p) - ops.company_cost(state, company)
        if rounds_left <= 2:
            # Late, a Company is mostly its printed VP against credits worth 1 VP per 5.
            return value + (1.0 if spare >= 0 else 0.0)
        return value - 2 * len(staff) + (1.5 if spare >= 0 else 0.0)
    if space in board.EMPLOYEE_SPACES:
        tile = state.board_employees[board.EMPLOYEE_SPACES.index(space)]
        if not tile:
            return -99.0
        role = max(cards.EMPLOYEE_TYPES, key=lambda r: production.skill(tile, r))
        best = max(production.skill(tile, r) for r in cards.EMPLOYEE_TYPES)
        return (6.0 if staff[role] else 1.0 + best) if p.companies else 1.5
    if space == "temp-employee":
        return 4.0 if sum(staff.values()) else 0.5
    if space == "foreign-employees":
        cost = ops.foreign_cost(state)
        types = [t for t in staff if state.foreign[cards.FOREIGN_KIND[t]]]
        if types and budget >= cost + 10:
            return 4.5
        bonus = [t for t in spare_bonus(p) if state.foreign[cards.FOREIGN_KIND[t]]]
        if bonus and rounds_left >= 2 and budget - cost >= reserve(state, p):
            return 2.0 + rounds_left * 0.4
        return -5.0
    if space == "government-subsidy":
        return ops.subsidy(state) * 0.7
    if space == "shady-business":
        return 2.4
    if space == "leadership":
        return 2.9
    if space == "initiative":
        return 2.6
    if space == "loan":
        return 2.5 if budget < 10 and state.round <= 5 and p.vp > 1 else -3.0
    if space == "domestic-industry":
        return 3.5 if inputs and budget >= 4 else (1.5 if budget >= 1 else -5.0)
    if space in cards.ENERGY_BUY:
        return 3.0 if inputs[cards.ENERGY] and budget >= 6 else -2.0
    if space in cards.ENERGY_CONVERT:
        resource = cards.ENERGY_CONVERT[space][0]
        return 2.5 if inputs[cards.ENERGY] and p.warehouse[resource] > 1 else -3.0
    if space in cards.IMPORTS:
        goods, _most, vp, price = cards.IMPORTS[space]
        useful = any(inputs[r] for r in goods)
        return 1.0 if useful and budget >= price and p.vp > vp + 3 else -6.0
    if space == board.EXPORTS:
        goods = expected_goods(state, p)
        return 0.5 + min(goods, 8) * 0.9 if goods else -1.0
    return 0.0


def place(state: GameState, p: Player, decision: Decision, rng: random.Random) -> str:
    budget = p.credits - _planned_cost(state, p)
    staff, inputs = lacking_staff(p), lacking_inputs(p)
    scored = [(space_value(state, p, s, budget, staff, inputs) + rng.random() * 0.3, s)
              for s in decision.options]
    return max(scored)[1]


def resolve(state: GameState, p: Player, decision: Decision) -> str:
    opts = list(decision.options)
    space = decision.default["space"] if decision.default else ""
    if space == "domestic-industry":
        inputs = lacking_inputs(p)
        wanted = [r for r in opts if inputs[r]]
        return wanted[0] if wanted else opts[0]
    if space == "foreign-employees":
        staff = lacking_staff(p)
        bonus = spare_bonus(p)
        wanted = [t for t in opts if staff[t]] or [t for t in opts if bonus[t]]
        return wanted[0] if wanted else opts[0]
    if space in cards.ENERGY_BUY:
        amounts = [o for o in opts if o != board.REFUSE]
        return amounts[-1] if amounts else board.REFUSE
    return opts[0]


def keep_for_inputs(p: Player) -> Counter[str]:
    need: Counter[str] = Counter()
    for c in p.companies:
        need.update(dict(cards.COMPANIES[c].inputs))
    return need


def export(state: GameState, p: Player, *, black_market: bool) -> Action:
    keep = keep_for_inputs(p)
    spare = {r: max(0, p.warehouse[r] - keep[r]) for r in cards.EXPORT_PRICE}
    if black_market:
        limit = ops.black_market_limit(state)
        for r in sorted(spare, key=lambda r: -cards.EXPORT_PRICE[r][1]):
            n = min(spare[r], limit - p.black_market.get(r, 0))
            if n > 0:
                return {"type": "black_market", "player": p.name, "resource": r, "amount": n}
    best: tuple[int, int, int] | None = None
    for slot, contract in enumerate(views.current_contracts(state)):
        if not contract:
            continue
        resource, most = cards.contract_parts(contract)
        n = min(most, spare[resource])
        if n <= 0:
            continue
        key = (cards.EXPORT_PRICE[resource][0] * n, -most, -slot)
        if best is None or key > best:
            best = key
            move: dict[str, Any] = {"type": "export", "player": p.name, "contract": slot,
                                    "amount": n}
    return move if best is not None else {"type": "pass", "player": p.name}


def expected_goods(state: GameState, p: Player) -> int:
    """Exportable tokens the player will hold at Exports: its spare stock plus what its
    Companies make this round (roughly: their base output)."""
    keep = keep_for_inputs(p)
    goods = sum(max(0, p.warehouse[r] - keep[r]) for r in cards.EXPORT_PRICE)
    for c in p.companies:
        for term in cards.COMPANIES[c].output:
            if term.what in cards.EXPORT_PRICE and term.what not in keep:
                goods += term.base
    return goods


def influence(state: GameState, p: Player) -> Action | None:
    """Play an Influence card when one is playable: a rival card against the VP leader."""
    if p.influence_round == state.round or not p.hand:
        return None
    rivals = sorted((q for q in state.players if q.name != p.name), key=lambda q: -q.vp)
    for card in sorted(set(p.hand)):
        action: Action = {"type": "influence", "player": p.name, "card": card}
        if card in ("tax-audit", "bad-press"):
            action["target"] = rivals[0].name
        elif card == "smuggled-goods":
            action["choice"] = cards.FOOD
        elif card == "headhunter":
            staff = lacking_staff(p)
            action["choice"] = next((t for t in staff if state.foreign[cards.FOREIGN_KIND[t]]),
                                    next((t for t in cards.EMPLOYEE_TYPES
                                          if state.foreign[cards.FOREIGN_KIND[t]]), None))
        useless = {"soft-loan": p.credits > 15 or p.loans >= cards.MAX_LOANS,
                   "debt-relief": not p.loans or p.credits < 5,
                   "clean-record": not p.penalty}
        if useless.get(card) or action.get("choice", "") is None:
            continue
        return action
    return None
