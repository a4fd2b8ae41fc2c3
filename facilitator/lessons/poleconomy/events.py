"""The round's public events in words, for the projector's replay and the debrief.

Each line has an icon (a text mark, so colour is never the only sign) and a sentence. A
Treasury payment's press release is said only once the game master approved it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.poleconomy import data


def square(square_id: str | None) -> str:
    if not square_id:
        return ""
    sq = data.SQUARES.get(square_id)
    if sq is None:
        return square_id
    if sq.name:
        return _(sq.name)
    if sq.kind == data.INCOME:
        return (_("Opportunity %(n)d× income") if sq.opportunity
                else _("%(n)d× income")) % {"n": sq.factor}
    if sq.kind == data.INDEX:
        return _("Inflation Index +%(n)d") % {"n": sq.factor}
    return square_id


def who(account: str) -> str:
    if account == "bank":
        return _("the Bank")
    if account == "treasury":
        return _("the Treasury")
    return account.removeprefix("player:")


EFFECTS = {"election": "☑", "tax": "%", "bonds": "B", "salary": "$"}


def effect_name(effect: str) -> str:
    return {"election": _("Election"), "tax": _("Tax"), "bonds": _("Bond interest"),
            "salary": _("Government salaries")}.get(effect, effect)


def consent_kind(kind: str) -> str:
    return {"salaries": _("salaries"), "tax": _("the tax rule"),
            "payments": _("Treasury payments")}.get(kind, kind)


def line(event: dict[str, Any], press_approved: bool = False) -> dict[str, str] | None:
    """``{"icon", "text", "kind"}`` for one event, or None for one the replay leaves out
    (the dice of an election, receipts, money moves that another line already says)."""
    kind = event["type"]
    text = _describe(event, press_approved)
    if text is None:
        return None
    icon = {"round_start": "▶", "auction": "⚖", "turn": "●", "dice": "⚅", "move": "➜",
            "bought": "+", "not_bought": "−", "transfer": "$", "index_moved": "↑",
            "index_reversed": "⇄", "election": "☑", "government": "★", "consent": "✔",
            "round_end": "■", "business_disaster": "✖", "treasury_default": "✖",
            "game_over": "■"}.get(kind, "•")
    if kind == "consent" and not event.get("carried"):
        icon = "✖"
    return {"icon": icon, "text": text, "kind": kind}


def _describe(e: dict[str, Any], press_approved: bool) -> str | None:
    kind = e["type"]
    p = e.get("player", "")
    if kind == "round_start":
        return _("Round %(round)d begins. Prices ×%(m)d. Order: %(order)s.") % {
            "round": e["round"], "m": e["multiplier"], "order": ", ".join(e["order"])}
    if kind == "auction":
        if e.get("winner"):
            return _("%(who)s wins the auction for %(firm)s at $%(price)d.") % {
                "who": e["winner"], "firm": square(e["firm"]), "price": e["price"]}
        return _("Nobody bids for %(firm)s: it stays unsold.") % {"firm": square(e["firm"])}
    if kind == "turn":
        return (_("%(who)s's turn: no orders, the NMR rule plays it.") if e.get("nmr")
                else _("%(who)s's turn.")) % {"who": p}
    if kind == "dice":
        if e.get("why") not in ("move", "movement", "takeover"):
            return None
        a, b = e["dice"]
        return _("%(who)s rolls %(a)d and %(b)d.") % {"who": p, "a": a, "b": b}
    if kind == "move":
        return _("%(who)s moves to %(square)s.") % {"who": p, "square": square(e["to"])}
    if kind == "bought":
        return _("%(who)s buys %(firm)s for $%(price)d.") % {
            "who": p, "firm": square(e["firm"]), "price": e.get("price", 0)}
    if kind == "not_bought":
        return _("%(who)s does not buy %(firm)s: it goes to auction.") % {
            "who": p, "firm": square(e["firm"])}
    if kind == "insurance_bought":
        return (_("%(who)s buys Business Insurance.") if e["kind"] == data.BUSINESS_INSURANCE
                else _("%(who)s buys Life Insurance.")) % {"who": p}
    if kind == "bonds_bought":
        return ngettext("%(who)s buys %(n)d Bond.", "%(who)s buys %(n)d Bonds.",
                        e["count"]) % {"who": p, "n": e["count"]}
    if kind == "life_sold":
        return _("%(who)s sells Life Insurance back to the Bank.") % {"who": p}
    if kind == "bonds_sold":
        return _("%(who)s sells Bonds back to the Bank.") % {"who": p}
    if kind == "business_disaster":
        return _("Double six: a Business disaster for %(who)s!") % {"who": p}
    if kind == "firm_lost":
        return _("%(who)s loses %(firm)s.") % {"who": p, "firm": square(e["firm"])}
    if kind == "takeover":
        texts = {"success": _("%(who)s takes over %(firm)s!"),
                 "failed": _("%(who)s's takeover of %(firm)s fails.")}
        text = texts.get(e.get("result", ""), _("%(who)s cannot attempt a takeover."))
        return text % {"who": p, "firm": square(e.get("firm"))}
    if kind == "index_moved":
        return _("The Inflation Index moves %(steps)d to space %(space)d: %(effect)s, "
                 "prices ×%(value)d.") % {"steps": e["steps"], "space": e["space"],
                                          "effect": effect_name(e["effect"]),
                                          "value": e["value"]}
    if kind == "index_reversed":
        return _("The Prime Minister reverses the Inflation Index.")
    if kind == "minister_appointed":
        return _("%(who)s becomes a Cabinet Minister.") % {"who": p}
    if kind == "minister_dismissed":
        return _("%(who)s is dismissed from the Cabinet.") % {"who": p}
    if kind == "bonds_issued":
        return ngettext("%(n)d Bond is issued.", "%(n)d Bonds are issued.",
                        e["count"]) % {"n": e["count"]}
    if kind == "bonds_bought_back":
        return ngettext("The Treasury buys back %(n)d Bond.",
                        "The Treasury buys back %(n)d Bonds.", e["count"]) % {"n": e["count"]}
    if kind == "consent":
        return (_("Parliament consents to %(what)s.") if e["carried"]
                else _("Parliament does not consent to %(what)s.")) % {
            "what": consent_kind(e["kind"])}
    if kind == "salaries_changed":
        return _("New Government salaries: the Prime Minister earns $%(pm)d.") % {
            "pm": e["pm"]}
    if kind == "tax_changed":
        return _("A new tax rule is in force.")
    if kind == "treasury_payment":
        if not e.get("made", True):
            return _("The Treasury cannot make its payment to %(to)s.") % {"to": e["to"]}
        text = _("The Treasury pays $%(n)d to %(to)s.") % {"n": e["amount"], "to": e["to"]}
        if press_approved and e.get("press_release"):
            text += " " + _("Press release: “%(text)s”") % {"text": e["press_release"]}
        return text
    if kind == "transfer":
        return _transfer(e)
    if kind == "election_called":
        return _("An election is called for the end of the round.")
    if kind == "treasury_default":
        return _("The Treasury cannot pay what it owes: everyone loses!")
    if kind == "round_end":
        return _("End of the round. Prices are now ×%(m)d.") % {"m": e["multiplier"]}
    if kind == "election":
        votes = ", ".join(f"{n} {v}" for n, v in e["votes"].items())
        return _("Election: %(votes)s (%(total)d votes).") % {"votes": votes,
                                                                "total": e["total"]}
    if kind == "government":
        return _("%(pm)s is Prime Minister. Government: %(members)s.") % {
            "pm": e["pm"], "members": ", ".join(e["members"])}
    if kind == "no_government":
        return _("No Government could be formed: a new election.")
    if kind == "game_over":
        return _("The game is over.")
    return None


def _transfer(e: dict[str, Any]) -> str | None:
    reason = e.get("reason")
    values = {"from": who(e["from"]), "to": who(e["to"]), "n": e["amount"]}
    texts = {"rent": _("%(from)s pays $%(n)d rent to %(to)s."),
             "rent-share": _("%(from)s pays $%(n)d rent to %(to)s."),
             "profit": _("%(to)s earns a $%(n)d profit."),
             "income": _("%(to)s earns $%(n)d income."),
             "tax": _("%(from)s pays $%(n)d tax."),
             "salary": _("%(to)s is paid a $%(n)d salary."),
             "bond-interest": _("%(to)s is paid $%(n)d Bond interest."),
             "takeover": _("%(from)s pays %(to)s $%(n)d for the takeover.")}
    text = texts.get(str(reason))
    return text % values if text else None
