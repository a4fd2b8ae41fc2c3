"""The story of one table's Parliament, in words, for the debrief's handouts.

Built from the table's record replayed (``reports.table_story``): each round's public events
and the players' wealth at its end. Never a vote: Parliament's consent is its outcome only.

- ``round_story``: what happened in a round, grouped: purchases, rent, tax, salaries and
  interest, auctions, disasters and takeovers, the Parliament's decisions and the Treasury's
  payments (made or not), elections and Governments.
- ``parliament``: the elections (party totals) and the Governments they made.
- ``governments``: each round's Prime Minister, the proposal, whether consent carried, and
  the payments made or failed.
- ``player_story``: what one player did, round by round (for their own handout).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext as _

from facilitator.lessons.poleconomy import events

ACCOUNT = "player:"


def _player(account: str) -> str | None:
    return account.removeprefix(ACCOUNT) if account.startswith(ACCOUNT) else None


def _money(pairs: dict[str, int]) -> str:
    return ", ".join(f"{name} ${amount}" for name, amount in pairs.items())


def round_story(evs: list[dict[str, Any]]) -> dict[str, list[str]]:
    """A round's public events in words, grouped (each group a list of lines, maybe empty)."""
    bought = [events.line(e) for e in evs if e["type"] in ("bought", "insurance_bought")]
    rent: dict[tuple[str, str], int] = defaultdict(int)
    tax: dict[str, int] = defaultdict(int)
    salaries: dict[str, int] = defaultdict(int)
    interest = 0
    for e in evs:
        if e["type"] != "transfer":
            continue
        payer, payee = _player(e["from"]), _player(e["to"])
        if e["reason"] in ("rent", "rent-share") and payer and payee:
            rent[(payer, payee)] += e["amount"]
        elif e["reason"] == "tax" and payer:
            tax[payer] += e["amount"]
        elif e["reason"] == "salary" and payee:
            salaries[payee] += e["amount"]
        elif e["reason"] == "bond-interest" and payee:
            interest += e["amount"]
    money = [_("%(payer)s pays %(payee)s $%(n)d rent.") % {"payer": a, "payee": b, "n": n}
             for (a, b), n in rent.items()]
    if tax:
        money.append(_("Tax: $%(n)d to the Treasury (%(who)s).") % {
            "n": sum(tax.values()), "who": _money(tax)})
    if salaries:
        money.append(_("Government salaries from the Treasury: %(who)s.") % {
            "who": _money(salaries)})
    if interest:
        money.append(_("Bond interest from the Treasury: $%(n)d.") % {"n": interest})
    parliament = [events.line(e, press_approved=True) for e in evs if e["type"] in (
        "consent", "salaries_changed", "tax_changed", "treasury_payment", "bonds_issued",
        "bonds_bought_back", "index_reversed", "minister_appointed", "minister_dismissed",
        "treasury_default")]
    politics = [events.line(e) for e in evs if e["type"] in (
        "election_called", "election", "government", "no_government")]
    market = [events.line(e) for e in evs if e["type"] in (
        "auction", "business_disaster", "firm_lost", "takeover")]
    nmr = [e["player"] for e in evs if e["type"] == "turn" and e.get("nmr")]
    index = [events.line(e) for e in evs if e["type"] == "index_moved"]

    def texts(lines: list[Any]) -> list[str]:
        return [x["text"] for x in lines if x]

    return {"bought": texts(bought), "money": money, "parliament": texts(parliament),
            "politics": texts(politics), "index": texts(index),
            "market": texts(market) + ([_("No orders (the NMR rule): %(names)s.") % {
                "names": ", ".join(nmr)}] if nmr else [])}


def parliament(rounds: list[Any]) -> list[dict[str, Any]]:
    """Every election (its party totals, the majority) with the Government that followed."""
    out: list[dict[str, Any]] = []
    for row in rounds:
        for e in row.events:
            if e["type"] == "parties" and e.get("parties"):
                out.append({"round": row.round, "parties": [
                    _("%(party)s: %(members)s") % {"party": name, "members": ", ".join(m)}
                    for name, m in e["parties"].items()], "blocs": [], "government": ""})
            elif e["type"] == "election":
                blocs = [(_("%(party)s (%(members)s)") % {
                    "party": b["name"], "members": ", ".join(b["members"])}
                    if b["party"] else b["name"], b["votes"]) for b in e.get("blocs", [])]
                entry = out[-1] if out and not out[-1]["blocs"] and out[-1]["parties"] \
                    else None
                if entry is None:
                    entry = {"round": row.round, "parties": [], "blocs": [], "government": ""}
                    out.append(entry)
                entry.update(blocs=blocs, total=e.get("total", 0),
                             majority=e.get("majority") or "")
            elif e["type"] in ("government", "no_government") and out:
                line = events.line(e)
                out[-1]["government"] = line["text"] if line else ""
    return [e for e in out if e["blocs"]]


def governments(rounds: list[Any], proposals: dict[int, Any],
                proposal_lines: Any) -> list[dict[str, Any]]:
    """Each round's Prime Minister, what they proposed, whether Parliament consented, and the
    Treasury's payments (made, or not made for want of money)."""
    out = []
    for row in rounds:
        consent = [{"what": events.consent_kind(e["kind"]), "carried": e["carried"]}
                   for e in row.events if e["type"] == "consent"]
        payments = [{"to": e["to"], "amount": e["amount"], "made": e.get("made", True)}
                    for e in row.events if e["type"] == "treasury_payment"]
        proposal = proposals.get(row.round)
        items = proposal.items if proposal is not None else {}
        out.append({"round": row.round, "pm": row.pm or "—",
                    "lines": proposal_lines(items) if items else [],
                    "press_release": proposal.press_release if proposal is not None else "",
                    "consent": consent, "payments": payments})
    return out


MINE = ("bought", "insurance_bought", "bonds_bought", "business_disaster", "firm_lost",
        "takeover", "life_sold", "bonds_sold")


def _concerns(e: dict[str, Any], player: str) -> bool:
    """An event that says what ``player`` did or met (their purchases, auctions won, payments
    received, a turn played by the NMR rule)."""
    kind = e["type"]
    if kind in MINE:
        return e.get("player") == player
    if kind == "auction":
        return e.get("winner") == player
    if kind == "treasury_payment":
        return e.get("to") == player
    return kind == "turn" and e.get("player") == player and bool(e.get("nmr"))


def player_story(rounds: list[Any], player: str) -> list[dict[str, Any]]:
    """What one player did and met, round by round (public events only)."""
    out = []
    for row in rounds:
        lines: list[str] = []
        role = row.roles.get(player, "")
        if role:
            lines.append(role)
        for e in row.events:
            if _concerns(e, player) and (line := events.line(e)):
                lines.append(line["text"])
        rent_paid = sum(e["amount"] for e in row.events if e["type"] == "transfer"
                        and e["reason"] in ("rent", "rent-share")
                        and e["from"] == ACCOUNT + player)
        rent_got = sum(e["amount"] for e in row.events if e["type"] == "transfer"
                       and e["reason"] in ("rent", "rent-share") and e["to"] == ACCOUNT + player)
        tax = sum(e["amount"] for e in row.events if e["type"] == "transfer"
                  and e["reason"] == "tax" and e["from"] == ACCOUNT + player)
        salary = sum(e["amount"] for e in row.events if e["type"] == "transfer"
                     and e["reason"] == "salary" and e["to"] == ACCOUNT + player)
        if rent_paid:
            lines.append(_("You paid $%(n)d rent.") % {"n": rent_paid})
        if rent_got:
            lines.append(_("You earned $%(n)d rent.") % {"n": rent_got})
        if tax:
            lines.append(_("You paid $%(n)d tax.") % {"n": tax})
        if salary:
            lines.append(_("You earned a $%(n)d Government salary.") % {"n": salary})
        out.append({"round": row.round, "lines": lines,
                    "wealth": row.wealth.get(player), "cash": row.cash.get(player),
                    "multiplier": row.multiplier})
    return out
