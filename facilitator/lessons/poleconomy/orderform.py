"""The phone's order form and proposal form, as plain fields, turned into the engine's order
grammar (``docs/engines/poleconomy.md``) and back into words for the phone's summary.

Plain fields (not a JSON text) so that a phone posts the form as it is, through the socket or
as a plain form post; the engine then checks the orders they make.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from facilitator.errors import ServiceError
from facilitator.lessons.poleconomy import events
from games.poleconomy import data

BID = re.compile(r"^bid_([a-z0-9]{1,6})$")


def _number(value: Any, what: str, low: int = 0, high: int = 9999) -> int | None:
    text = str(value or "").strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,4}", text) or not low <= int(text) <= high:
        raise ServiceError("bad_orders", _("%(what)s must be a whole number from %(low)d to "
                                           "%(high)d.") % {"what": what, "low": low,
                                                           "high": high})
    return int(text)


def orders_from_fields(fields: dict[str, Any], *, is_pm: bool) -> dict[str, Any] | None:
    """The orders a filled-in form stands for (``move`` "nmr": the NMR rule)."""
    move = str(fields.get("move") or "roll:")
    if move == "nmr":
        return None
    orders: dict[str, Any] = {}
    kind, _sep, where = move.partition(":")
    if kind == "roll":
        orders["move"] = {"roll": True, **({"track": where} if where in data.TRACKS else {})}
    elif kind == "corner" and where in data.CORNERS:
        orders["move"] = {"corner": where, "act": fields.get("act") == "1"}
    else:
        raise ServiceError("bad_orders", _("Choose a move."))
    buy = str(fields.get("buy") or "none")
    if buy not in ("all", "companies", "advertisers", "none"):
        raise ServiceError("bad_orders", _("Choose what to buy."))
    if buy != "none":
        orders["buy"] = {"companies": buy in ("all", "companies"),
                         "advertisers": buy in ("all", "advertisers")}
        top = _number(fields.get("max_price"), _("The highest price"))
        if top is not None:
            orders["buy"]["max_price"] = top
    corners: dict[str, Any] = {}
    if fields.get("business") == "1":
        corners[data.BUSINESS_INSURANCE] = True
    if fields.get("life") == "1":
        corners[data.LIFE_INSURANCE] = True
    bonds = _number(fields.get("bonds"), _("Bonds to buy"), 0, 30)
    if bonds:
        corners[data.BONDS_CORNER] = bonds
    takeover = str(fields.get("takeover") or "")
    if takeover:
        if takeover not in data.COMPANIES:
            raise ServiceError("bad_orders", _("Choose a Company to take over."))
        corners[data.TAKEOVER] = takeover
    if corners:
        orders["corners"] = corners
    bids = []
    for key, value in sorted(fields.items()):
        found = BID.match(key)
        if found:
            amount = _number(value, _("A bid"), 0)
            if amount:
                bids.append({"firm": found.group(1), "amount": amount})
    if bids:
        orders["bids"] = bids
    if is_pm:
        pm: dict[str, Any] = {}
        if fields.get("reverse") == "1":
            pm["reverse"] = True
        for key in ("appoint", "dismiss"):
            if fields.get(key):
                pm[key] = [str(fields[key])]
        for key, what in (("issue_bonds", _("Bonds to issue")),
                          ("buy_back_bank", _("Bonds to buy back from the Bank")),
                          ("buy_back_players", _("Bonds to buy back from players"))):
            count = _number(fields.get(key), what, 0, 30)
            if count:
                pm[key] = count
        if pm:
            orders["pm"] = pm
    return orders


def proposal_from_fields(fields: dict[str, Any], cabinet: list[str]) -> dict[str, Any]:
    """The proposal's items from the PM's form: each filled-in part is one item (the
    Ministers' salary is every Cabinet Minister's)."""
    items: dict[str, Any] = {}
    salary = _number(fields.get("salary_pm"), _("The Prime Minister's salary"), 10)
    ministers = _number(fields.get("salary_ministers"), _("The Ministers' salary"))
    if salary is not None or (ministers is not None and cabinet):
        items["salaries"] = {**({"pm": salary} if salary is not None else {}),
                             **({"ministers": dict.fromkeys(cabinet, ministers)}
                                if ministers is not None and cabinet else {})}
    per_company = _number(fields.get("tax_per_company"), _("The tax a Company"))
    if per_company is not None:
        rule: dict[str, Any] = {"per_company": per_company}
        least = _number(fields.get("tax_companies_at_least"), _("The number of Companies"))
        if least:
            rule["companies_at_least"] = least
        items["tax"] = rule
    to, amount = str(fields.get("pay_to") or ""), _number(fields.get("pay_amount"),
                                                          _("The payment"), 1)
    if to and amount:
        items["payments"] = [{"to": to, "amount": amount}]
    return items


def fields_from_orders(orders: dict[str, Any] | None) -> dict[str, Any]:
    """The form's fields filled in from orders (the latest sent, or the suggested ones)."""
    if orders is None:
        return {"move": "nmr"}
    move = orders.get("move") or {}
    if isinstance(move, list):
        move = move[0] if move else {}
    fields: dict[str, Any] = {"move": f"corner:{move['corner']}" if "corner" in move
                              else f"roll:{move.get('track', '')}",
                              "act": bool(move.get("act"))}
    buy = orders.get("buy") or {}
    fields["buy"] = ("all" if buy.get("companies") and buy.get("advertisers") else
                     "companies" if buy.get("companies") else
                     "advertisers" if buy.get("advertisers") else "none")
    fields["max_price"] = buy.get("max_price", "")
    corners = orders.get("corners") or {}
    fields["business"] = bool(corners.get(data.BUSINESS_INSURANCE))
    fields["life"] = bool(corners.get(data.LIFE_INSURANCE))
    fields["bonds"] = corners.get(data.BONDS_CORNER) or ""
    takeover = corners.get(data.TAKEOVER)
    fields["takeover"] = takeover[0] if isinstance(takeover, list) and takeover else \
        takeover or ""
    fields["bids"] = {b["firm"]: b["amount"] for b in orders.get("bids", [])}
    pm = orders.get("pm") or {}
    fields.update(reverse=bool(pm.get("reverse")), issue_bonds=pm.get("issue_bonds", ""),
                  buy_back_bank=pm.get("buy_back_bank", ""),
                  buy_back_players=pm.get("buy_back_players", ""),
                  appoint=(pm.get("appoint") or [""])[0],
                  dismiss=(pm.get("dismiss") or [""])[0])
    return fields


def summary(orders: dict[str, Any] | None) -> list[str]:
    """The orders in words, one line per part, for the phone and the game master."""
    if orders is None:
        return [_("No orders: the NMR rule moves you to the nearest corner.")]
    out = []
    move = orders.get("move") or {}
    if isinstance(move, list):
        move = move[0] if move else {}
    if "corner" in move:
        out.append((_("Go straight to %(corner)s and take its action.") if move.get("act")
                    else _("Go straight to %(corner)s and sit there.")) % {
            "corner": events.square(move["corner"])})
    elif move.get("roll"):
        out.append(_("Roll the dice on the %(track)s track.") % {
            "track": _("outer") if move.get("track") == data.OUTER else _("inner")}
            if move.get("track") else _("Roll the dice."))
    else:
        out.append(_("No move: the NMR rule moves you."))
    buy = orders.get("buy") or {}
    if buy.get("companies") or buy.get("advertisers"):
        what = (_("Companies and Advertisers") if buy.get("companies") and buy.get("advertisers")
                else _("Companies") if buy.get("companies") else _("Advertisers"))
        text = _("Buy %(what)s you land on") % {"what": what}
        if buy.get("max_price") is not None:
            text += " " + _("up to $%(n)d") % {"n": buy["max_price"]}
        out.append(text + ".")
    else:
        out.append(_("Buy nothing you land on."))
    for bid in orders.get("bids", []):
        out.append(_("Bid $%(n)d for %(firm)s.") % {"n": bid["amount"],
                                                     "firm": events.square(bid["firm"])})
    corners = orders.get("corners") or {}
    if corners.get(data.BUSINESS_INSURANCE):
        out.append(_("Buy Business Insurance on its corner."))
    if corners.get(data.LIFE_INSURANCE):
        out.append(_("Buy Life Insurance on its corner."))
    if corners.get(data.BONDS_CORNER):
        out.append(_("Buy %(n)d Bonds on the Bonds corner.") % {"n": corners[data.BONDS_CORNER]})
    if corners.get(data.TAKEOVER):
        target = corners[data.TAKEOVER]
        target = target[0] if isinstance(target, list) else target
        out.append(_("Attempt a takeover of %(firm)s.") % {"firm": events.square(target)})
    pm = orders.get("pm") or {}
    if pm.get("reverse"):
        out.append(_("Reverse the Inflation Index."))
    for name in pm.get("appoint", []):
        out.append(_("Appoint %(name)s to the Cabinet.") % {"name": name})
    for name in pm.get("dismiss", []):
        out.append(_("Dismiss %(name)s from the Cabinet.") % {"name": name})
    if pm.get("issue_bonds"):
        out.append(_("Issue %(n)d Bonds.") % {"n": pm["issue_bonds"]})
    if pm.get("buy_back_bank"):
        out.append(_("Buy back %(n)d Bonds from the Bank ($10 each).") % {
            "n": pm["buy_back_bank"]})
    if pm.get("buy_back_players"):
        out.append(_("Buy back up to %(n)d Bonds from players ($20 each).") % {
            "n": pm["buy_back_players"]})
    return out
