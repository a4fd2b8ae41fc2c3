"""Orders are data: the grammar a player's sealed orders follow, checked with plain-word errors.

The rulebook lets orders be "conditional on anything" and leaves the rest to the GM; this
module is our finite grammar for it (``docs/engines/poleconomy.md`` has the full reference):

    {"bids": [{"firm": "c3", "amount": 25, "if": [COND, ...]}],
     "move": MOVE or [MOVE, ...],          # the first whose "if" holds; none: the NMR move
     "buy": {"companies": bool, "advertisers": bool, "max_price": int, "only": [firm],
             "never": [firm]},             # unowned firms landed on
     "corners": {"business-insurance": bool, "life-insurance": bool,
                 "takeover": firm or [firm, ...], "bonds": int},   # what to do on a corner
     "at": {square: {"buy": bool} | {"act": bool} | {"go": square or null}},
     "opportunity": square or null,        # where an Opportunity square sends me
     "send_to": firm or {advertiser or "*": company},   # who lands on my Advertisers
     "own_advertiser": company,            # where I go from my own Advertiser
     "sell": {"life": int, "bonds": int},  # back to the Bank at the start of my turn
     "bonds_to_treasury": int,             # how many I would sell to the PM at $20
     "consent": CONSENT,                   # only when config consent_mode is "orders"
     "pm": {...}}                          # only the Prime Minister, see PM_KEYS

    MOVE = {"corner": corner, "act": bool, "if": [COND]} | {"roll": true, "track": track,
            "if": [COND]}
    COND = {"won": firm} | {"lost": firm} | {"owns": firm} | {"not_owns": firm}
         | {"owner": firm, "is": player or null} | {"cash_at_least": int}
         | {"cash_below": int} | {"on": square}
    CONSENT = "all" | {"salaries": true | {"pm_up_to": int, "ministers_up_to": int},
                       "tax": bool, "payments": true | {"up_to": int}}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from games.core import InvalidAction
from games.i18n import _
from games.poleconomy import data

ORDER_KEYS = {"bids", "move", "buy", "corners", "at", "opportunity", "send_to",
              "own_advertiser", "sell", "bonds_to_treasury", "consent", "pm"}
PM_KEYS = {"reverse", "appoint", "dismiss", "issue_bonds", "buy_back_bank",
           "buy_back_players", "salaries", "tax", "payments"}
TAX_KEYS = {"per_company", "flat", "companies_at_least", "companies_at_most", "bi_at_least",
            "bi_at_most", "exempt"}
CONSENT_KINDS = ("salaries", "tax", "payments")
COND_KEYS = {"won", "lost", "owns", "not_owns", "owner", "cash_at_least", "cash_below", "on"}


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _need_count(value: Any, what: str) -> int:
    if not _count(value):
        raise InvalidAction(_("'{what}' must be a whole number of zero or more."), what=what)
    return int(value)


def _need_firm(value: Any, what: str, kind: str | None = None) -> str:
    if not isinstance(value, str) or value not in data.FIRMS:
        raise InvalidAction(_("'{what}' must name a firm on the board, such as 'c1' or 'a1'."),
                            what=what)
    if kind == data.COMPANY and data.SQUARES[value].kind != data.COMPANY:
        raise InvalidAction(_("'{what}' must name a Company, such as 'c1'."), what=what)
    if kind == data.ADVERTISER and data.SQUARES[value].kind != data.ADVERTISER:
        raise InvalidAction(_("'{what}' must name an Advertiser, such as 'a1'."), what=what)
    return value


def _need_square(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in data.SQUARES:
        raise InvalidAction(_("'{what}' must name a square on the board."), what=what)
    return value


def _need_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidAction(_("'{what}' must be true or false."), what=what)
    return value


def _need_object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidAction(_("'{what}' must be an object."), what=what)
    return value


def _only_keys(value: Mapping[str, Any], allowed: set[str], what: str) -> None:
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise InvalidAction(_("'{what}' has unknown keys: {keys}."), what=what,
                            keys=", ".join(unknown))


def check_conditions(value: Any, names: list[str], what: str) -> None:
    if not isinstance(value, list):
        raise InvalidAction(_("'{what}' must be a list of conditions."), what=what)
    for i, cond in enumerate(value):
        where = f"{what}[{i}]"
        cond = _need_object(cond, where)
        keys = set(cond) & COND_KEYS
        if len(keys) != 1 or (set(cond) - COND_KEYS - {"is"}):
            raise InvalidAction(_("'{what}' must be one condition, such as {{\"won\": \"c3\"}}."),
                                what=where)
        key = keys.pop()
        if key in ("won", "lost", "owns", "not_owns", "owner"):
            _need_firm(cond[key], where)
        elif key == "on":
            _need_square(cond[key], where)
        else:
            _need_count(cond[key], where)
        if key == "owner":
            if "is" not in cond or (cond["is"] is not None and cond["is"] not in names):
                raise InvalidAction(_("'{what}' must say who the owner 'is': a player or null."),
                                    what=where)
        elif "is" in cond:
            raise InvalidAction(_("'{what}' must be one condition, such as {{\"won\": \"c3\"}}."),
                                what=where)


def _check_move(move: Any, names: list[str], what: str) -> None:
    move = _need_object(move, what)
    if "if" in move:
        check_conditions(move["if"], names, what + ".if")
    if "corner" in move:
        _only_keys(move, {"corner", "act", "if"}, what)
        if move["corner"] not in data.CORNERS:
            raise InvalidAction(_("'{what}' must name a corner: {corners}."), what=what,
                                corners=", ".join(data.CORNERS))
        _need_bool(move.get("act", False), what + ".act")
    elif "roll" in move:
        _only_keys(move, {"roll", "track", "if"}, what)
        if move["roll"] is not True:
            raise InvalidAction(_("'{what}' must say \"roll\": true."), what=what)
        if "track" in move and move["track"] not in data.TRACKS:
            raise InvalidAction(_("'{what}' must choose the track \"inner\" or \"outer\"."),
                                what=what + ".track")
    else:
        raise InvalidAction(_("'{what}' must go to a corner or roll the dice."), what=what)


def _check_tax(rule: Any, names: list[str]) -> dict[str, Any]:
    rule = _need_object(rule, "pm.tax")
    _only_keys(rule, TAX_KEYS, "pm.tax")
    out: dict[str, Any] = {}
    for key in sorted(TAX_KEYS - {"exempt"}):
        if key in rule and rule[key] is not None:
            out[key] = _need_count(rule[key], f"pm.tax.{key}")
    exempt = rule.get("exempt", [])
    if not isinstance(exempt, list) or any(n not in names for n in exempt):
        raise InvalidAction(_("'pm.tax.exempt' must list players of this game."))
    if exempt:
        out["exempt"] = sorted(exempt)
    out.setdefault("per_company", 0)
    return out


def check_salaries(value: Any, names: list[str]) -> dict[str, Any]:
    value = _need_object(value, "pm.salaries")
    _only_keys(value, {"pm", "ministers"}, "pm.salaries")
    out: dict[str, Any] = {}
    if "pm" in value:
        if _need_count(value["pm"], "pm.salaries.pm") < data.BASE_SALARY:
            raise InvalidAction(_("The Prime Minister's salary can never be below ${least}."),
                                least=data.BASE_SALARY)
        out["pm"] = value["pm"]
    if "ministers" in value:
        ministers = _need_object(value["ministers"], "pm.salaries.ministers")
        for name, amount in ministers.items():
            if name not in names:
                raise InvalidAction(_("There is no player {name!r} in this game."), name=name)
            _need_count(amount, "pm.salaries.ministers")
        out["ministers"] = dict(ministers)
    return out


def _check_payments(value: Any, names: list[str]) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise InvalidAction(_("'pm.payments' must be a list of payments."))
    out = []
    for pay in value:
        pay = _need_object(pay, "pm.payments")
        _only_keys(pay, {"to", "amount", "press_release"}, "pm.payments")
        if pay.get("to") not in names:
            raise InvalidAction(_("A Treasury payment must go 'to' a player of this game."))
        if not _count(pay.get("amount")) or pay["amount"] == 0:
            raise InvalidAction(_("A Treasury payment needs an 'amount' of at least $1."))
        text = pay.get("press_release")
        if not isinstance(text, str) or not text.strip() or len(text) > 280:
            raise InvalidAction(_("A Treasury payment needs a press release (1 to 280 "
                                  "characters) explaining it."))
        out.append({"to": pay["to"], "amount": pay["amount"], "press_release": text.strip()})
    return out


def _check_pm(pm: Any, names: list[str]) -> dict[str, Any]:
    """Validate the PM's orders; returns them with the tax rule and payments normalised."""
    pm = dict(_need_object(pm, "pm"))
    _only_keys(pm, PM_KEYS, "pm")
    if "reverse" in pm:
        _need_bool(pm["reverse"], "pm.reverse")
    for key in ("appoint", "dismiss"):
        if key in pm and (not isinstance(pm[key], list) or any(n not in names for n in pm[key])):
            raise InvalidAction(_("'pm.{key}' must list players of this game."), key=key)
    for key in ("issue_bonds", "buy_back_bank", "buy_back_players"):
        if key in pm:
            _need_count(pm[key], f"pm.{key}")
    if "salaries" in pm:
        pm["salaries"] = check_salaries(pm["salaries"], names)
    if "tax" in pm:
        pm["tax"] = _check_tax(pm["tax"], names)
    if "payments" in pm:
        pm["payments"] = _check_payments(pm["payments"], names)
    return pm


def check_consent(value: Any) -> None:
    if value == "all":
        return
    value = _need_object(value, "consent")
    _only_keys(value, set(CONSENT_KINDS), "consent")
    for kind, clause in value.items():
        if isinstance(clause, bool):
            continue
        clause = _need_object(clause, f"consent.{kind}")
        allowed = {"salaries": {"pm_up_to", "ministers_up_to"}, "payments": {"up_to"}}
        _only_keys(clause, allowed.get(kind, set()), f"consent.{kind}")
        for key, amount in clause.items():
            _need_count(amount, f"consent.{kind}.{key}")


def check_orders(orders: Any, *, player: str, names: list[str], is_pm: bool,
                 consent_mode: str) -> dict[str, Any]:
    """Validate one player's orders; returns them normalised (a new dict)."""
    if orders is None:
        return {}
    orders = _need_object(orders, "orders")
    _only_keys(orders, ORDER_KEYS, "orders")
    bids = orders.get("bids", [])
    if not isinstance(bids, list):
        raise InvalidAction(_("'bids' must be a list of bids."))
    for i, bid in enumerate(bids):
        bid = _need_object(bid, f"bids[{i}]")
        _only_keys(bid, {"firm", "amount", "if"}, f"bids[{i}]")
        _need_firm(bid.get("firm"), f"bids[{i}].firm")
        if not _count(bid.get("amount")) or bid["amount"] < 1:
            raise InvalidAction(_("Bid {n} needs an 'amount' of at least $1."), n=i + 1)
        if "if" in bid:
            check_conditions(bid["if"], names, f"bids[{i}].if")
    if "move" in orders:
        moves = orders["move"] if isinstance(orders["move"], list) else [orders["move"]]
        if not moves:
            raise InvalidAction(_("'move' must not be an empty list."))
        for i, move in enumerate(moves):
            _check_move(move, names, f"move[{i}]")
    if "buy" in orders:
        buy = _need_object(orders["buy"], "buy")
        _only_keys(buy, {"companies", "advertisers", "max_price", "only", "never"}, "buy")
        for key in ("companies", "advertisers"):
            if key in buy:
                _need_bool(buy[key], f"buy.{key}")
        if "max_price" in buy:
            _need_count(buy["max_price"], "buy.max_price")
        for key in ("only", "never"):
            if key in buy:
                if not isinstance(buy[key], list):
                    raise InvalidAction(_("'{what}' must be a list of firms."), what=f"buy.{key}")
                for firm in buy[key]:
                    _need_firm(firm, f"buy.{key}")
    if "corners" in orders:
        corners = _need_object(orders["corners"], "corners")
        _only_keys(corners, set(data.CORNERS), "corners")
        for key in (data.BUSINESS_INSURANCE, data.LIFE_INSURANCE):
            if key in corners:
                _need_bool(corners[key], f"corners.{key}")
        if data.BONDS_CORNER in corners:
            _need_count(corners[data.BONDS_CORNER], "corners.bonds")
        if data.TAKEOVER in corners:
            targets = corners[data.TAKEOVER]
            for firm in targets if isinstance(targets, list) else [targets]:
                _need_firm(firm, "corners.takeover", data.COMPANY)
    if "at" in orders:
        for square, choice in _need_object(orders["at"], "at").items():
            _need_square(square, "at")
            choice = _need_object(choice, f"at.{square}")
            _only_keys(choice, {"buy", "act", "go"}, f"at.{square}")
            for key in ("buy", "act"):
                if key in choice:
                    _need_bool(choice[key], f"at.{square}.{key}")
            if choice.get("go") is not None:
                _need_opportunity_target(choice["go"], f"at.{square}.go")
    if orders.get("opportunity") is not None:
        _need_opportunity_target(orders["opportunity"], "opportunity")
    if "send_to" in orders:
        send = orders["send_to"]
        if isinstance(send, str):
            _need_firm(send, "send_to", data.COMPANY)
        else:
            for adv, company in _need_object(send, "send_to").items():
                if adv != "*":
                    _need_firm(adv, "send_to", data.ADVERTISER)
                _need_firm(company, "send_to", data.COMPANY)
    if "own_advertiser" in orders:
        _need_firm(orders["own_advertiser"], "own_advertiser", data.COMPANY)
    if "sell" in orders:
        sell = _need_object(orders["sell"], "sell")
        _only_keys(sell, {"life", "bonds"}, "sell")
        for key, n in sell.items():
            _need_count(n, f"sell.{key}")
    if "bonds_to_treasury" in orders:
        _need_count(orders["bonds_to_treasury"], "bonds_to_treasury")
    if "consent" in orders:
        if consent_mode != "orders":
            raise InvalidAction(_("In this game Parliament's consent is a secret ballot, not "
                                  "part of the orders."))
        check_consent(orders["consent"])
    orders = copy.deepcopy(dict(orders))
    if "pm" in orders:
        if not is_pm:
            raise InvalidAction(_("Only the Prime Minister can give 'pm' orders."))
        orders["pm"] = _check_pm(orders["pm"], names)
    return orders


def _need_opportunity_target(value: Any, what: str) -> None:
    square = _need_square(value, what)
    if data.SQUARES[square].opportunity:
        raise InvalidAction(_("An Opportunity move cannot go to another Opportunity square."))


def tax_rule(value: Any, names: list[str]) -> dict[str, Any]:
    return _check_tax(value, names)


def payments(value: Any, names: list[str]) -> list[dict[str, Any]]:
    return _check_payments(value, names)


def consents(clause: Any, kind: str, proposal: Any) -> bool:
    """Whether a consent clause agrees to a proposal (the GM's reading, made mechanical).

    ``"all"`` agrees to everything; ``{kind: true}`` to any proposal of that kind;
    ``{"salaries": {"pm_up_to": 19}}`` to salaries within the limits; ``{"payments":
    {"up_to": 50}}`` to payments totalling at most $50. The phone may pre-fill a ballot with it.
    """
    if clause == "all":
        return True
    if not isinstance(clause, Mapping) or kind not in clause:
        return False
    rule = clause[kind]
    if isinstance(rule, bool):
        return rule
    if kind == "salaries":
        pm_ok = "pm" not in proposal or proposal["pm"] <= rule.get("pm_up_to", proposal["pm"])
        most = rule.get("ministers_up_to")
        ministers = proposal.get("ministers", {}).values()
        return pm_ok and (most is None or all(v <= most for v in ministers))
    if kind == "payments":
        return sum(p["amount"] for p in proposal) <= rule.get("up_to", 0)
    return False
