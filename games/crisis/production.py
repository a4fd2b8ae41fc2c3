"""4.13 Production: a player's plan, checked and computed (``preview_production``), and a
sensible automatic plan (the decision's default and the bots' choice).

A plan is a list of ``{"company": ID, "staff": [EMPLOYEE...], "bonus": [EMPLOYEE...]}``; an
EMPLOYEE is a tile id the player holds (``"E3-1"``, ``"FW-2"``, ``"TEMP"``) or a tile kind
(``"E3"``: the first such tile the player holds that the plan has not used yet), or that
Employee in a slot the player names: ``{"employee": EMPLOYEE, "slot": N}`` (N counts the card's
necessary or bonus slots as printed, 1 for the leftmost). The rulebook lets the player choose
where each Employee sits; a named slot is kept exactly, and the engine seats the Employees
whose slot is not named in the slots left, choosing the seating with the highest output (so a
plan that names no slot works as it always has, and that best seating is the engine's
suggestion). Inputs come from the Warehouse as it is when the plan is made; nothing a Company
produces feeds another one this round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, Final

from games.core import InvalidAction
from games.crisis import cards
from games.crisis.state import GameState, Player
from games.i18n import _

# Rough worth of one unit of each output, for the automatic plan only.
WORTH = {"credits": 1.0, "vp": 4.0, cards.ENERGY: 1.5, cards.FOOD: 3.0, cards.MINERALS: 3.0,
         cards.CHEMICALS: 5.0, cards.INDUSTRIALS: 6.0, cards.MACHINES: 9.0}


def skill(tile_id: str, role: str) -> int:
    return cards.TILES[cards.kind_of(tile_id)].skill(role)


def seating(slots: Sequence[str], tiles: Sequence[str],
            named: Mapping[int, int] | None = None) -> list[int] | None:
    """The slot (0-based) of each tile: ``named`` maps a tile's index to the slot the plan
    names for it (checked by the caller to fit and be free); every other tile goes where the
    total skill is highest (ties: the first such seating in slot order). None: the tiles
    cannot all sit in slots they fit."""
    named = dict(named or {})
    free_slots = [i for i in range(len(slots)) if i not in named.values()]
    free_tiles = [j for j in range(len(tiles)) if j not in named]
    best: tuple[int, ...] | None = None
    best_total = -1
    for chosen in permutations(free_slots, len(free_tiles)):
        total = 0
        for j, slot in zip(free_tiles, chosen, strict=True):
            level = skill(tiles[j], slots[slot])
            if level == 0:
                break
            total += level
        else:
            if total > best_total:
                best, best_total = chosen, total
    if best is None:
        return None
    seats = dict(named)
    seats.update(zip(free_tiles, best, strict=True))
    return [seats[j] for j in range(len(tiles))]


def seated_skill(slots: Sequence[str], tiles: Sequence[str], seats: Sequence[int]) -> int:
    return sum(skill(t, slots[s]) for t, s in zip(tiles, seats, strict=True))


def best_seating(slots: Sequence[str], tiles: Sequence[str]) -> int | None:
    """The highest total skill with every tile in a slot it fits (None: they cannot sit)."""
    seats = seating(slots, tiles)
    return None if seats is None else seated_skill(slots, tiles, seats)


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


STAFF, BONUS = "staff", "bonus"
# A named slot that does not exist, that two Employees name, or whose type the Employee
# cannot work as: one whole sentence per case (the role is part of the sentence, never a
# value).
NO_SLOT: Final = {
    STAFF: _("{company} has no necessary slot {slot}: its necessary slots are numbered from 1 "
             "to {n}."),
    BONUS: _("{company} has no bonus slot {slot}: its bonus slots are numbered from 1 to {n}."),
}
SLOT_TAKEN: Final = {
    STAFF: _("Two Employees cannot take {company}'s necessary slot {slot}."),
    BONUS: _("Two Employees cannot take {company}'s bonus slot {slot}."),
}
SLOT_MISFIT: Final = {
    (STAFF, cards.WORKER): _("Employee {tile} cannot work as a Worker, which {company}'s "
                             "necessary slot {slot} needs."),
    (STAFF, cards.FARMER): _("Employee {tile} cannot work as a Farmer, which {company}'s "
                             "necessary slot {slot} needs."),
    (STAFF, cards.ENGINEER): _("Employee {tile} cannot work as an Engineer, which {company}'s "
                               "necessary slot {slot} needs."),
    (STAFF, cards.BANKER): _("Employee {tile} cannot work as a Banker, which {company}'s "
                             "necessary slot {slot} needs."),
    (BONUS, cards.WORKER): _("Employee {tile} cannot work as a Worker, which {company}'s bonus "
                             "slot {slot} needs."),
    (BONUS, cards.FARMER): _("Employee {tile} cannot work as a Farmer, which {company}'s bonus "
                             "slot {slot} needs."),
    (BONUS, cards.ENGINEER): _("Employee {tile} cannot work as an Engineer, which {company}'s "
                               "bonus slot {slot} needs."),
    (BONUS, cards.BANKER): _("Employee {tile} cannot work as a Banker, which {company}'s bonus "
                             "slot {slot} needs."),
}


def _employees(p: Player, refs: list[Any], used: set[str], company: str,
               slots: Sequence[str], where: str) -> tuple[list[str], dict[int, int]]:
    """The tiles ``refs`` name (marked used) and the slots named for them: ``{index of the
    tile: slot (0-based)}``, each checked to exist, to be named once and to fit the tile."""
    tiles: list[str] = []
    named: dict[int, int] = {}
    for ref in refs:
        slot: Any = None
        seated = isinstance(ref, Mapping)
        if seated:
            if set(ref) != {"employee", "slot"}:
                raise InvalidAction(_("Name a seated Employee with 'employee' (its tile id or "
                                      "kind) and 'slot' (the slot's number, 1 for the "
                                      "leftmost)."))
            ref, slot = ref["employee"], ref["slot"]
        tile = _resolve(p, ref, used)
        used.add(tile)
        if seated:
            if not isinstance(slot, int) or isinstance(slot, bool):
                raise InvalidAction(_("Name a slot by its number: 1 for the card's leftmost "
                                      "slot."))
            if not 1 <= slot <= len(slots):
                raise InvalidAction(NO_SLOT[where], company=company, slot=slot, n=len(slots))
            if slot - 1 in named.values():
                raise InvalidAction(SLOT_TAKEN[where], company=company, slot=slot)
            role = slots[slot - 1]
            if skill(tile, role) == 0:
                raise InvalidAction(SLOT_MISFIT[where, role], tile=tile, company=company,
                                    slot=slot)
            named[len(tiles)] = slot - 1
        tiles.append(tile)
    return tiles, named


def _seats(slots: Sequence[str], tiles: Sequence[str], seats: Sequence[int],
           bonus: bool) -> list[dict[str, Any]]:
    """Every slot of a card as printed: its number, type, the tile in it (None: empty) and,
    for a bonus slot, the skill it adds."""
    sitting = {s: t for t, s in zip(tiles, seats, strict=True)}
    out = []
    for i, role in enumerate(slots):
        tile = sitting.get(i)
        seat: dict[str, Any] = {"slot": i + 1, "role": role, "tile": tile}
        if bonus:
            seat["skill"] = skill(tile, role) if tile else 0
        out.append(seat)
    return out


def check_plan(state: GameState, p: Player, plan: Any) -> dict[str, Any]:
    """The plan's inputs and output, or ``InvalidAction`` with a plain-word reason.

    Each row says where every Employee sits: ``seats`` lists the card's slots as printed,
    ``{"staff": [{"slot", "role", "tile"}], "bonus": [{"slot", "role", "tile", "skill"}]}``.
    """
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
        staff, staff_named = _employees(p, staff_refs, used, company, card.staff, STAFF)
        staff_seats = seating(card.staff, staff, staff_named) \
            if len(staff) == len(card.staff) else None
        if staff_seats is None:
            raise InvalidAction(_("{company} needs these Employees to work: {needed}."),
                                company=company, needed=", ".join(card.staff))
        bonus, bonus_named = _employees(p, bonus_refs, used, company, card.bonus, BONUS)
        if len(bonus) > len(card.bonus):
            raise InvalidAction(_("{company} has only {n} bonus slots."), company=company,
                                n=len(card.bonus))
        bonus_seats = seating(card.bonus, bonus, bonus_named)
        if bonus_seats is None:
            raise InvalidAction(_("These bonus Employees do not fit {company}'s slots: {slots}."),
                                company=company, slots=", ".join(card.bonus))
        points = seated_skill(card.bonus, bonus, bonus_seats)
        for resource, n in card.inputs:
            inputs[resource] = inputs.get(resource, 0) + n
        out = output_of(state, company, points)
        for what, n in out.items():
            total[what] = total.get(what, 0) + n
        rows.append({"company": company, "staff": staff, "bonus": bonus, "skill": points,
                     "output": out,
                     "seats": {"staff": _seats(card.staff, staff, staff_seats, False),
                               "bonus": _seats(card.bonus, bonus, bonus_seats, True)}})
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


def seated_plan(state: GameState, p: Player, plan: Any) -> list[dict[str, Any]]:
    """``plan`` with every Employee in the slot the engine seats it in, each as
    ``{"employee": TILE, "slot": N}`` (a plan that produces exactly the same; for a planner
    that shows the engine's suggestion slot by slot). ``InvalidAction`` as ``check_plan``."""
    out = []
    for row in check_plan(state, p, plan)["companies"]:
        out.append({"company": row["company"], **{
            where: [{"employee": seat["tile"], "slot": seat["slot"]}
                    for tile in row[where]
                    for seat in row["seats"][where] if seat["tile"] == tile]
            for where in (STAFF, BONUS)}})
    return out


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
