"""4.13 Production: a player's plan, checked and computed (``preview_production``), and a
sensible automatic plan (the decision's default and the bots' choice).

A plan is a list of ``{"company": ID, "staff": [EMPLOYEE...], "bonus": [EMPLOYEE...]}``; an
EMPLOYEE is a tile id the player holds (``"E3-1"``, ``"FW-2"``, ``"TEMP"``) or a tile kind
(``"E3"``: the first such tile the player holds that the plan has not used yet). The engine
seats each company's Employees in the slots their type fits, choosing the seating with the
highest output. Inputs come from the Warehouse as it is when the plan is made; nothing a
Company produces feeds another one this round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from games.core import InvalidAction
from games.crisis import cards
from games.crisis.state import GameState, Player
from games.i18n import _

# Rough worth of one unit of each output, for the automatic plan only.
WORTH = {"credits": 1.0, "vp": 4.0, cards.ENERGY: 1.5, cards.FOOD: 3.0, cards.MINERALS: 3.0,
         cards.CHEMICALS: 5.0, cards.INDUSTRIALS: 6.0, cards.MACHINES: 9.0}


def skill(tile_id: str, role: str) -> int:
    return cards.TILES[cards.kind_of(tile_id)].skill(role)


def best_seating(slots: Sequence[str], tiles: Sequence[str]) -> int | None:
    """The highest total skill with every tile in a slot it fits (None: they cannot sit)."""
    best = None
    for chosen in permutations(range(len(slots)), len(tiles)):
        total = 0
        for tile, slot in zip(tiles, chosen, strict=True):
            level = skill(tile, slots[slot])
            if level == 0:
                break
            total += level
        else:
            best = total if best is None or total > best else best
    return best


def output_of(state: GameState, company: str, bonus: int) -> dict[str, int]:
    """A Company's output with ``bonus`` skill points, after this round's Event."""
    card = cards.COMPANIES[company]
    delta = state.mods.get("output", {}).get(card.sector, 0)
    out: dict[str, int] = {}
    for term in card.output:
        base = max(0, term.base + delta)
        amount = (base + bonus) * term.each if term.each else base + bonus
        out[term.what] = out.get(term.what, 0) + amount
    return out


def _resolve(p: Player, ref: Any, used: set[str]) -> str:
    if not isinstance(ref, str):
        raise InvalidAction(_("Name each Employee by its tile id or kind, e.g. 'E3-1' or 'E3'."))
    if ref in p.employees:
        if ref in used:
            raise InvalidAction(_("Employee {tile} works in only one Company per round."),
                                tile=ref)
        return ref
    for tile in p.employees:
        if cards.kind_of(tile) == ref and tile not in used:
            return tile
    raise InvalidAction(_("You have no free Employee {tile} for this plan."), tile=ref)


def check_plan(state: GameState, p: Player, plan: Any) -> dict[str, Any]:
    """The plan's inputs and output, or ``InvalidAction`` with a plain-word reason."""
    if not isinstance(plan, list):
        raise InvalidAction(_("A production plan is a list of Companies to activate."))
    used: set[str] = set()
    inputs: dict[str, int] = {}
    total: dict[str, int] = {}
    rows = []
    seen: set[str] = set()
    for entry in plan:
        if not isinstance(entry, Mapping) or not set(entry) <= {"company", "staff", "bonus"}:
            raise InvalidAction(_("Each plan entry needs 'company', 'staff' and 'bonus'."))
        company = entry.get("company")
        if company not in p.companies:
            raise InvalidAction(_("You do not own the Company {company!r}."), company=company)
        if company in seen:
            raise InvalidAction(_("{company} is in the plan twice."), company=company)
        seen.add(company)
        card = cards.COMPANIES[company]
        staff_refs, bonus_refs = entry.get("staff", []), entry.get("bonus", [])
        if not isinstance(staff_refs, list) or not isinstance(bonus_refs, list):
            raise InvalidAction(_("'staff' and 'bonus' must be lists of Employees."))
        staff = []
        for ref in staff_refs:
            staff.append(_resolve(p, ref, used))
            used.add(staff[-1])
        if len(staff) != len(card.staff) or best_seating(card.staff, staff) is None:
            raise InvalidAction(_("{company} needs these Employees to work: {needed}."),
                                company=company, needed=", ".join(card.staff))
        bonus = []
        for ref in bonus_refs:
            bonus.append(_resolve(p, ref, used))
            used.add(bonus[-1])
        if len(bonus) > len(card.bonus):
            raise InvalidAction(_("{company} has only {n} bonus slots."), company=company,
                                n=len(card.bonus))
        points = best_seating(card.bonus, bonus) if bonus else 0
        if points is None:
            raise InvalidAction(_("These bonus Employees do not fit {company}'s slots: {slots}."),
                                company=company, slots=", ".join(card.bonus))
        for resource, n in card.inputs:
            inputs[resource] = inputs.get(resource, 0) + n
        out = output_of(state, company, points)
        for what, n in out.items():
            total[what] = total.get(what, 0) + n
        rows.append({"company": company, "staff": staff, "bonus": bonus, "skill": points,
                     "output": out})
    for resource, n in inputs.items():
        if p.warehouse[resource] < n:
            raise InvalidAction(
                _("The plan needs {n} {resource} but your Warehouse holds {have}."),
                n=n, resource=resource, have=p.warehouse[resource])
    kept = {}
    for resource in cards.RESOURCES:
        if resource in total:
            room = cards.WAREHOUSE[resource] - p.warehouse[resource] + inputs.get(resource, 0)
            kept[resource] = min(total[resource], room)
    return {"companies": rows, "inputs": inputs, "output": total, "kept": kept}


def preview_production(state: GameState, player: str, plan: Any) -> dict[str, Any]:
    """What ``plan`` would produce, or the reason it cannot (a phone's preview)."""
    try:
        p = state.player(player)
    except KeyError:
        return {"ok": False, "error": _("There is no player called {name!r}."),
                "params": {"name": player}, "message": f"There is no player called {player!r}."}
    try:
        return {"ok": True, **check_plan(state, p, plan)}
    except InvalidAction as exc:
        return {"ok": False, "error": exc.reason, "params": exc.params, "message": str(exc)}


def _value(out: Mapping[str, int]) -> float:
    return sum(WORTH[what] * n for what, n in out.items())


def auto_plan(state: GameState, p: Player) -> list[dict[str, Any]]:
    """A greedy plan: the most valuable Companies that can be staffed and fed, then each spare
    Employee on the bonus slot where its skill adds the most."""
    stock = dict(p.warehouse)
    free = sorted(p.employees, key=lambda t: (t == cards.TEMP, t))
    chosen: list[dict[str, Any]] = []
    order = sorted(p.companies, key=lambda c: -_value(output_of(state, c, 0)))
    for company in order:
        card = cards.COMPANIES[company]
        if any(stock[r] < n for r, n in card.inputs):
            continue
        staff: list[str] = []
        for role in card.staff:
            fits = [t for t in free if skill(t, role) and t not in staff]
            if not fits:
                break
            staff.append(min(fits, key=lambda t: (t == cards.TEMP, skill(t, role))))
        if len(staff) != len(card.staff) or _value(output_of(state, company, 0)) <= 0:
            continue
        for r, n in card.inputs:
            stock[r] -= n
        free = [t for t in free if t not in staff]
        chosen.append({"company": company, "staff": staff, "bonus": []})
    for tile in sorted(free, key=lambda t: -max(skill(t, r) for r in cards.EMPLOYEE_TYPES)):
        best, gain = None, 0.0
        for entry in chosen:
            card = cards.COMPANIES[entry["company"]]
            if len(entry["bonus"]) >= len(card.bonus):
                continue
            now = best_seating(card.bonus, entry["bonus"]) or 0
            after = best_seating(card.bonus, [*entry["bonus"], tile])
            if after is None:
                continue
            worth = (_value(output_of(state, entry["company"], after))
                     - _value(output_of(state, entry["company"], now)))
            if worth > gain:
                best, gain = entry, worth
        if best is not None:
            best["bonus"].append(tile)
    return chosen
