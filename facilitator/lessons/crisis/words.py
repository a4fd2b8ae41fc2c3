"""Crisis's words for the screens: spaces, options, moves, Employees, resources, cards.

The engine's names are msgids marked in ``games/crisis`` (translated in the catalogue);
``gettext`` here gives them in the active language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.crisis import board, cards, data, names

TEAM_LETTERS = "ABCDE"


def team_letter(names: list[str], name: str) -> str:
    return TEAM_LETTERS[names.index(name)] if name in names else "?"


def resource(name: str) -> str:
    return _(cards.RESOURCE_NAMES[name]) if name in cards.RESOURCE_NAMES else name


def amount_of(n: int, what: str) -> str:
    if what == "vp":
        return _("%(n)d VP") % {"n": n}
    if what == "credits":
        return ngettext("%(n)d credit", "%(n)d credits", n) % {"n": n}
    return f"{n} {resource(what)}"


def employee(tile: str) -> str:
    """A tile in words: "Engineer 3", "Foreign Worker", "Temp Employee"."""
    kind = cards.kind_of(tile)
    if kind == cards.TEMP:
        return _("Temp Employee")
    spec = cards.TILES[kind]
    roles = " / ".join(f"{_(cards.EMPLOYEE_NAMES[r])} {n}" for r, n in spec.skills)
    return _("Foreign %(roles)s") % {"roles": roles} if spec.foreign else roles


def company_name(company_id: str) -> str:
    """A Company on screen: its type in the active language and its printed number
    ("Granja 03"); records keep the printed id ("FARM 03")."""
    return names.company_label(company_id, _)


def company(company_id: str) -> dict[str, Any]:
    card = cards.COMPANIES[company_id]
    return {"id": company_id, "name": company_name(company_id), "level": card.level,
            "cost": card.cost, "vp": card.vp,
            "inputs": ", ".join(amount_of(n, r) for r, n in card.inputs) or "—",
            "staff": ", ".join(_(cards.EMPLOYEE_NAMES[r]) for r in card.staff),
            "bonus": ", ".join(_(cards.EMPLOYEE_NAMES[r]) for r in card.bonus) or "—",
            "output": " + ".join(
                (f"{t.base}× {amount_of(t.each, t.what)}" if t.each else amount_of(t.base, t.what))
                for t in card.output)}


def space(name: str, game: dict[str, Any]) -> str:
    """An action space in words, with what lies on it now."""
    offer = game.get("board", {})
    if name in board.COMPANY_SPACES:
        found = offer.get("companies", [None] * 6)[board.COMPANY_SPACES.index(name)]
        if not found:
            return "—"
        card = cards.COMPANIES[found]
        return _("%(name)s: %(cost)d credits, %(vp)d VP") % {
            "name": company_name(found), "cost": card.cost, "vp": card.vp}
    if name in board.EMPLOYEE_SPACES:
        found = offer.get("employees", [None] * 5)[board.EMPLOYEE_SPACES.index(name)]
        return employee(found) if found else "—"
    if name in board.SPACE_TEXTS:
        return _(board.SPACE_TEXTS[name])
    return _(board.LOCATION_NAMES.get(board.LOCATION_OF.get(name, name), name))


def option(space_name: str, choice: str) -> str:
    """A reserved space's option in words."""
    if choice == board.REFUSE:
        return _("Refuse (take the Penalty)")
    if choice == "buy":
        return _("Buy")
    if choice == "convert":
        return _("Convert")
    if choice in cards.RESOURCES:
        return resource(choice)
    if choice in cards.EMPLOYEE_NAMES:
        return _(cards.EMPLOYEE_NAMES[choice])
    if choice.isdigit():
        return ngettext("%(n)d unit", "%(n)d units", int(choice)) % {"n": int(choice)}
    return choice


def contract(contract_id: str | None) -> str:
    if not contract_id:
        return "—"
    what, most = cards.contract_parts(contract_id)
    return _("up to %(n)d %(what)s") % {"n": most, "what": resource(what)}


def move(action: dict[str, Any], game: dict[str, Any]) -> str:
    """A team's move in words (a button's label, a suggestion)."""
    kind = action.get("type")
    if kind == "place":
        return space(action["space"], game)
    if kind == "resolve":
        return option(action["space"], str(action["choice"]))
    if kind == "pass":
        return _("Pass (leave Exports for this round)")
    if kind == "export":
        slot = action["contract"]
        if not isinstance(slot, int):  # a contract named by its kind: the leftmost one
            return _("Export %(n)d %(what)s on a contract") % {
                "n": action["amount"], "what": resource(cards.contract_parts(slot)[0])}
        market = game.get("board", {}).get("contracts", [])
        what = cards.contract_parts(market[slot])[0] if slot < len(market) and market[slot] \
            else "?"
        # Numbered as the projector's export market lists them (1 to 8).
        return _("Contract %(slot)d: export %(n)d %(what)s") % {
            "slot": slot + 1, "n": action["amount"], "what": resource(what)}
    if kind == "black_market":
        return _("Sell %(n)d %(what)s on the black market") % {
            "n": action["amount"], "what": resource(action["resource"])}
    if kind == "produce":
        plan = [company_name(e["company"]) for e in action.get("plan", [])]
        return _("Produce with %(names)s") % {"names": ", ".join(plan)} if plan else \
            _("Produce nothing")
    if kind == "repay":
        return _("Repay one loan (10 credits)")
    if kind == "influence":
        return influence(action["card"])["name"]
    return str(kind)


def influence(card_id: str) -> dict[str, str]:
    card = data.INFLUENCE[card_id]
    return {"id": card_id, "name": _(card.name), "text": _(card.text)}


def event(event_id: str | None) -> dict[str, Any] | None:
    if not event_id:
        return None
    card = data.EVENT_CARDS[event_id]
    return {"id": event_id, "name": _(card.name), "text": _(card.text),
            "zone": data.EVENT_ZONE[event_id], "smuggling": _(data.SMUGGLING_TEXT)}


def location(name: str) -> str:
    return _(board.LOCATION_NAMES.get(name, name))


def zone(name: str) -> str:
    return _(data.ZONE_NAMES[name])


def plan_error(preview: dict[str, Any]) -> str:
    """The engine's reason a plan cannot work, in the active language (the Companies, the
    Employee types and the resources it names too: ``games.crisis.names``)."""
    return names.render(preview["error"], preview.get("params") or {}, _)
