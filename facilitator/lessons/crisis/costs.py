"""What each choice on a team's phone costs, needs and earns, in one line, from the engine's
own previews (``games.crisis.previews``): a Company's price, the Employees and inputs it
needs each round and its VP; an Employee's price and what it adds to the team's Production;
a contract's VP and credits; the black market's price and its risk; a Loan's credits, VP and
interest. A choice the team cannot take now also says why (the preview's reason).

The words are the catalogue's (``words``, ``games.crisis.names``), so a Spanish phone reads
«Cuesta 8 créditos · Necesita Agricultor y 1 Energía cada ronda · Da 2 PV».
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.lessons.crisis import words
from games.core import InvalidAction
from games.crisis import board, cards, names, ops, previews
from games.crisis.state import GameState

Preview = dict[str, Any]


def _amounts(credits: int = 0, vp: int = 0, resources: dict[str, int] | None = None) -> str:
    parts = [words.amount_of(n, r) for r, n in (resources or {}).items() if n]
    if credits:
        parts.append(words.amount_of(credits, "credits"))
    if vp:
        parts.append(words.amount_of(vp, "vp"))
    return ", ".join(parts)


def _line(costs: str = "", needs: str = "", earns: str = "", more: str = "") -> str:
    parts = []
    if costs:
        parts.append(_("Costs %(what)s") % {"what": costs})
    if needs:
        parts.append(_("Needs %(what)s") % {"what": needs})
    if earns:
        parts.append(_("Earns %(what)s") % {"what": earns})
    if more:
        parts.append(more)
    return " · ".join(parts)


def reason(preview: Preview) -> str:
    """Why the team cannot take the choice now, in the active language ("" if it can)."""
    if preview.get("available", True) or not preview.get("reason"):
        return ""
    return names.render_line(preview["reason"], _, ngettext)


def company(p: Preview) -> str:
    staff = ", ".join(names.role_name(r, _) for r in p["needs"]["staff"])
    inputs = _amounts(resources=p["needs"]["inputs"])
    needs = _("%(staff)s and %(inputs)s each round") % {"staff": staff, "inputs": inputs} \
        if inputs else staff
    return _line(_amounts(credits=p["costs"]["credits"]), needs, _amounts(vp=p["earns"]["vp"]))


def employee(p: Preview) -> str:
    gain = _amounts(p["earns"]["credits"], p["earns"]["vp"], p["earns"]["resources"])
    earns = _("%(what)s more each round") % {"what": gain} if gain else ""
    more = "" if p["fits"] or gain else _("no slot in your Companies yet")
    if not gain and p["fits"]:
        fits = sorted({names.company_label(f["company"], _) for f in p["fits"]})
        more = _("fits %(companies)s") % {"companies": ", ".join(fits)}
    return _line(_amounts(credits=p["costs"]["credits"]), "", earns, more)


def loan(p: Preview) -> str:
    interest = ngettext("then %(n)d credit of interest each later round",
                        "then %(n)d credits of interest each later round",
                        p["interest_per_round"]) % {"n": p["interest_per_round"]}
    return _line(_amounts(vp=p["costs"]["vp"]), "", _amounts(credits=p["earns"]["credits"]),
                 interest)


def export(p: Preview, amount: int) -> str:
    row = p["amounts"][amount - 1] if 0 < amount <= len(p["amounts"]) else None
    if row is None:
        return ""
    return _line(_amounts(resources={p["resource"]: amount}), "",
                 _amounts(credits=row["credits"], vp=row["vp"]))


def risk(r: dict[str, Any]) -> str:
    """The Event's black-market line for a sale now, in a few words."""
    if not r["line"]:
        return ""
    if r["crackdown"] == "certain":
        return _("crackdown: Axia's track goes %(n)d steps down") % {"n": r["crackdown_steps"]}
    if r["premium"] == "certain":
        return _("only seller: %(n)d credits more") % {"n": r["premium_credits"]}
    return _("risk: if another team sells too, Axia's track goes %(n)d steps down") % {
        "n": r["crackdown_steps"]}


def black_market(p: Preview, amount: int) -> str:
    row = p["amounts"][amount - 1] if 0 < amount <= len(p["amounts"]) else None
    if row is None:
        return ""
    earns = _("%(credits)s, no VP (a contract pays %(vp)s)") % {
        "credits": _amounts(credits=row["credits"]), "vp": _amounts(vp=row["vp_forgone"])}
    return _line(_amounts(resources={p["resource"]: amount}), "", earns, risk(p["risk"]))


def foreign(ps: list[Preview]) -> str:
    """The Foreign Employees space: one price for every type."""
    return _line(_amounts(credits=ps[0]["costs"]["credits"])) if ps else ""


def penalty(vp: int) -> str:
    return _("Penalty tiles worth %(n)d VP") % {"n": vp}


def _place(state: GameState, team: str, space: str) -> tuple[str, Preview | None]:
    if space in board.COMPANY_SPACES:
        found = state.board_companies[board.COMPANY_SPACES.index(space)]
        if found:
            p = previews.company_preview(state, team, found)
            return company(p), p
    elif space in board.EMPLOYEE_SPACES:
        tile = state.board_employees[board.EMPLOYEE_SPACES.index(space)]
        if tile:
            p = previews.employee_preview(state, team, tile)
            return employee(p), p
    elif space == "temp-employee":
        p = previews.employee_preview(state, team, cards.TEMP)
        return employee(p), p
    elif space == "foreign-employees":
        kinds = [previews.employee_preview(state, team, k) for k in cards.FOREIGN_KIND.values()]
        useful = [k for k in kinds if k["available"] and (k["fits"] or k["gain"])]
        return foreign(kinds), (useful[0] if useful else kinds[0])
    elif space == "loan":
        p = previews.loan_preview(state, team)
        return loan(p), p
    elif space == "government-subsidy":
        return _line(earns=_amounts(credits=ops.subsidy(state))), None
    elif space == "leadership":
        return _line(earns=_amounts(vp=1), more=_("first in the turn order")), None
    elif space == "initiative":
        return _line(earns=_("an Influence card"), more=_("second in the turn order")), None
    elif space == "shady-business":
        return _line(earns=_("an Influence card")), None
    elif space == "exports":
        return _("A turn at Exports: contracts or the black market"), None
    return "", None


def _resolve(state: GameState, team: str, space: str, choice: str) -> tuple[str, Preview | None]:
    if choice == board.REFUSE:
        return _line(penalty(board.refusal_penalty(state, space))), None
    if space in board.COMPANY_SPACES and choice == "buy":
        return _place(state, team, space)
    if space == "domestic-industry" and choice in cards.IMPORT_PRICE:
        return _line(_amounts(credits=cards.IMPORT_PRICE[choice][1]),
                     earns=words.amount_of(1, choice)), None
    if space == "foreign-employees" and choice in cards.FOREIGN_KIND:
        p = previews.employee_preview(state, team, cards.FOREIGN_KIND[choice])
        return employee(p), p
    return "", None


def detail(state: GameState, team: str, action: dict[str, Any]) -> dict[str, Any]:
    """One choice's line (``text``), whether the engine's preview says it is open now
    (``available``) and why not (``reason``); an empty text for a choice with no preview."""
    kind = action.get("type")
    text, p = "", None
    try:
        if kind == "place":
            text, p = _place(state, team, action["space"])
        elif kind == "resolve":
            text, p = _resolve(state, team, action["space"], str(action["choice"]))
        elif kind == "export":
            p = previews.export_preview(state, team, action["contract"])
            text = export(p, int(action["amount"]))
        elif kind == "black_market":
            p = previews.black_market_preview(state, team, action["resource"])
            text = black_market(p, int(action["amount"]))
    except (InvalidAction, KeyError, IndexError):
        return {"text": "", "available": True, "reason": "", "likely": False}
    return {"text": text, "available": p is None or bool(p["available"]),
            "reason": reason(p) if p else "", "likely": likely(state, team, action, p)}


# Places a team uses most rounds; the others (Imports, the Energy Exchange's conversions,
# Shady Business, Leadership, Initiative, a Loan) are on the phone too, after them.
ALWAYS_LIKELY = frozenset({"government-subsidy", "exports"})


def likely(state: GameState, team: str, action: dict[str, Any], p: Preview | None) -> bool:
    """Whether a place is among the team's likely moves this round: a Company it can pay
    for, an Employee that fits its Companies, Energy or Domestic Industry when its Companies
    lack inputs, Government Subsidy and Exports."""
    if action.get("type") != "place":
        return True
    space = action["space"]
    if space in ALWAYS_LIKELY:
        return True
    if p is not None and p["choice"] == "company":
        return bool(p["available"])
    if p is not None and p["choice"] == "employee":
        return bool(p["available"] and (p["fits"] or p["gain"] or _fits_offer(state, p)))
    if space in (*cards.ENERGY_BUY, "domestic-industry"):
        short = _inputs_short(state, team)
        return bool(short) and (space == "domestic-industry" or "energy" in short)
    return False


def _fits_offer(state: GameState, p: Preview) -> bool:
    """Whether an Employee would work in a Company on offer this round (a team buys its
    Companies and their Employees in the same Planning)."""
    tile = cards.TILES[p["kind"]]
    return any(tile.skill(role) for company in state.board_companies if company
               for role in (*cards.COMPANIES[company].staff, *cards.COMPANIES[company].bonus))


def _inputs_short(state: GameState, team: str) -> set[str]:
    """The resources the team's Companies need this round beyond its Warehouse."""
    player = state.player(team)
    needed: dict[str, int] = {}
    for company_id in player.companies:
        for resource, n in cards.COMPANIES[company_id].inputs:
            needed[resource] = needed.get(resource, 0) + n
    return {r for r, n in needed.items() if player.warehouse[r] < n}
