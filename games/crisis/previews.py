"""Previews of a team's choices: what each one costs, what it needs and what it earns, from
the engine's own rules (pure; nothing here changes the state).

Every preview is a JSON-ready dict of the same shape::

    {"choice": KIND, "id": ..., "available": bool,
     "reason": LINE | None,          # why it is not available now
     "costs": {"credits": n, "vp": n, "resources": {resource: n}},
     "needs": {...},                  # what the choice asks for, by kind
     "earns": {"credits": n, "vp": n, "resources": {resource: n}},
     "penalty": n | None,             # VP of Penalty tiles if the reserved space is refused
     ...kind-specific numbers...,
     "lines": [LINE, ...]}            # the same in words

A LINE is ``{"text": MSGID, "params": {...}}``, or for a count ``{"text": SINGULAR,
"plural": PLURAL, "count": NAME, "params": {...}}`` (``ngettext(text, plural,
params[count])``); ``names.render_line`` shows it in the active language (codes in params
are shown by name, ``names.shown``). Numbers come from the rules as they stand this round
(the Event's modifiers included): ``ops`` for prices, ``production`` for output,
``exports``' price table for contracts and the black market, ``data`` for the Event's
black-market line.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

from games.core import InvalidAction
from games.crisis import board, cards, data, exports, ops, production, rounds, rules
from games.crisis.state import EXPORTS, OPERATIONS, PLANNING, PRODUCTION, GameState, Player
from games.i18n import _

Line = dict[str, Any]


def ngettext(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction (xgettext's ``ngettext:1,2``); translates
    nothing: the screen calls its own ``ngettext`` with the line's count."""
    return singular, plural


def line(text: str, **params: Any) -> Line:
    return {"text": text, "params": params}


def counted(forms: tuple[str, str], count: str, **params: Any) -> Line:
    return {"text": forms[0], "plural": forms[1], "count": count, "params": params}


def _amounts(values: Mapping[str, int]) -> list[list[Any]]:
    """``{"food": 2, "vp": 1}`` -> ``[["food", 2], ["vp", 1]]`` (the ``amounts`` param)."""
    return [[what, n] for what, n in values.items() if n]


def _preview(choice: str, ident: Any, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "choice": choice, "id": ident, "available": True, "reason": None,
        "costs": {"credits": 0, "vp": 0, "resources": {}},
        "needs": {}, "earns": {"credits": 0, "vp": 0, "resources": {}},
        "penalty": None, "lines": []}
    out.update(fields)
    return out


def _refuse(out: dict[str, Any], reason: Line) -> dict[str, Any]:
    if out["available"]:
        out["available"], out["reason"] = False, reason
    return out


def _player(state: GameState, player: str) -> Player:
    try:
        return state.player(player)
    except KeyError:
        raise InvalidAction(_("There is no player called {name!r}."), name=player) from None


PENALTY = _("Unable or unwilling, you take Penalty tiles worth {vp} VP.")


def _short_of(cost: int, have: int) -> Line:
    return counted(ngettext("It costs {cost} credit; you have {have}.",
                            "It costs {cost} credits; you have {have}."),
                   "cost", cost=cost, have=have)


# --------------------------------------------------------------------------- Companies


def company_preview(state: GameState, player: str, company: str) -> dict[str, Any]:
    """Investing in ``company`` (a Company id): its price this round, the VP at once, what it
    needs to work (Employees by type, inputs each round) and what it makes (its output this
    round without bonus Employees, and what each bonus skill point adds)."""
    p = _player(state, player)
    if company not in cards.COMPANIES:
        raise InvalidAction(_("There is no Company called {card!r}."), card=company)
    card = cards.COMPANIES[company]
    cost = ops.company_cost(state, company)
    base = production.output_of(state, company, 0)
    plus_one = production.output_of(state, company, 1)
    extra = {what: plus_one[what] - base.get(what, 0) for what in plus_one}
    inputs = dict(card.inputs)
    short = {r: n - p.warehouse[r] for r, n in inputs.items() if p.warehouse[r] < n}
    staffed = _can_staff(p, card.staff)
    fifth = p.managers == cards.MANAGERS and \
        ops.icons(p) < cards.EXTRA_MANAGER_ICONS <= ops.icons(p) + card.icons
    out = _preview(
        "company", company,
        costs={"credits": cost, "vp": 0, "resources": {}},
        needs={"staff": list(card.staff), "inputs": inputs, "bonus": list(card.bonus),
               "staffed": staffed, "inputs_short": short},
        earns={"credits": 0, "vp": card.vp, "resources": {}},
        penalty=card.vp, level=card.level, icons=card.icons, fifth_manager=fifth,
        output=base, per_skill=extra,
        space=_space_of(state, company))
    out["lines"] = [
        line(_("Costs {credits} credits and gives {vp} VP at once."), credits=cost, vp=card.vp),
        line(_("To work it needs {roles} and, each round, {amounts}."), roles=list(card.staff),
             amounts=_amounts(inputs)) if inputs else
        line(_("To work it needs {roles} and no resources."), roles=list(card.staff)),
        line(_("Each round it makes {amounts} without bonus Employees; each bonus skill "
               "point adds {extra}."), amounts=_amounts(base), extra=_amounts(extra)),
    ]
    if fifth:
        out["lines"].append(line(_("With it your Companies show 3 Extra Manager icons: your "
                                   "5th Manager from next round.")))
    out["lines"].append(line(PENALTY, vp=card.vp))
    if out["space"] is None:
        _refuse(out, line(_("{company} is not on the board this round."), company=company))
    if p.credits < cost:
        _refuse(out, _short_of(cost, p.credits))
    return out


def _space_of(state: GameState, company: str) -> str | None:
    if company in state.board_companies:
        return board.COMPANY_SPACES[state.board_companies.index(company)]
    return None


def _can_staff(p: Player, roles: tuple[str, ...]) -> bool:
    """Whether the player's Employees (any of them) can fill these necessary slots."""
    return any(production.seating(roles, list(tiles)) is not None
               for tiles in permutations(p.employees, len(roles)))


# --------------------------------------------------------------------------- Employees


def _fits(p: Player, kind: str) -> list[dict[str, Any]]:
    """Every slot of the player's Companies a tile of ``kind`` fits, with its skill there."""
    tile = cards.TILES[kind]
    found = []
    for company in p.companies:
        card = cards.COMPANIES[company]
        for where, slots in (("staff", card.staff), ("bonus", card.bonus)):
            for i, role in enumerate(slots):
                if tile.skill(role):
                    found.append({"company": company, "where": where, "slot": i + 1,
                                  "role": role, "skill": tile.skill(role)})
    return found


def _gain(state: GameState, p: Player, tile: str) -> dict[str, int]:
    """What one more Employee adds to the engine's suggested Production with what the player
    holds now (``auto_plan`` with and without it)."""
    def value(employees: list[str]) -> dict[str, int]:
        trial = state.clone()
        q = trial.player(p.name)
        q.employees = employees
        return production.check_plan(trial, q, production.auto_plan(trial, q))["output"]
    without, with_ = value(list(p.employees)), value([*p.employees, tile])
    return {what: with_.get(what, 0) - without.get(what, 0)
            for what in sorted(set(without) | set(with_))
            if with_.get(what, 0) != without.get(what, 0)}


def _employee_lines(p: Player, kind: str) -> list[Line]:
    fits = _fits(p, kind)
    lines = [line(_("In {company}'s necessary slot {slot} it lets the Company work."),
                  company=f["company"], slot=f["slot"])
             if f["where"] == "staff" else
             line(_("In {company}'s bonus slot {slot} it adds {skill} to the Company's "
                    "output."), company=f["company"], slot=f["slot"], skill=f["skill"])
             for f in fits]
    return lines or [line(_("None of your Companies has a slot this Employee fits."))]


def employee_preview(state: GameState, player: str, tile: str) -> dict[str, Any]:
    """Hiring an Employee: a tile on the board (``"E3-1"``), the Temp Employee (``"TEMP"``)
    or a Foreign Employee by kind (``"FW"``, ``"FF"``, ``"FE"``, ``"FB"``). Its skills, the
    slots of the player's Companies it fits, what it adds to the suggested Production now,
    and its price (Foreign Employees: 1/3/5 credits by the track's zone, as this round)."""
    p = _player(state, player)
    kind = cards.kind_of(tile) if isinstance(tile, str) else None
    if kind not in cards.TILES:
        raise InvalidAction(_("There is no Employee {tile}."), tile=tile)
    spec = cards.TILES[kind]
    out = _preview("employee", tile, kind=kind, skills=dict(spec.skills),
                   foreign=spec.foreign, fits=_fits(p, kind), gain=_gain(state, p, tile),
                   lines=_employee_lines(p, kind))
    out["earns"]["resources"] = {r: n for r, n in out["gain"].items() if r in cards.WAREHOUSE}
    out["earns"]["credits"] = out["gain"].get("credits", 0)
    out["earns"]["vp"] = out["gain"].get("vp", 0)
    if spec.foreign:
        cost = ops.foreign_cost(state)
        out["costs"]["credits"] = cost
        out["penalty"] = 1
        out["space"] = "foreign-employees"
        out["left"] = len(state.foreign[kind])
        out["lines"].insert(0, counted(ngettext(
            "Costs {credits} credit now: the price follows Axia's Financial Status.",
            "Costs {credits} credits now: the price follows Axia's Financial Status."),
            "credits", credits=cost))
        out["lines"].append(line(PENALTY, vp=1))
        if not state.foreign[kind]:
            _refuse(out, line(_("No Foreign Employee of that type is left.")))
        if p.credits < cost:
            _refuse(out, _short_of(cost, p.credits))
    elif kind == cards.TEMP:
        out["space"] = "temp-employee"
        out["lines"].insert(0, line(_("Works as any type at skill 1, until the End of the "
                                      "Round.")))
        if state.temp_holder is not None:
            _refuse(out, line(_("The Temp Employee is not on the board.")))
    else:
        on_board = tile in state.board_employees
        out["space"] = board.EMPLOYEE_SPACES[state.board_employees.index(tile)] \
            if on_board else None
        if not on_board:
            _refuse(out, line(_("Employee {tile} is not on the board."), tile=tile))
    return out


# --------------------------------------------------------------------------- Exports


def export_preview(state: GameState, player: str, contract: Any) -> dict[str, Any]:
    """Exporting on a current contract (its space 0–7 or kind, as the ``export`` action
    names it): the VP and credits per token this round, what each amount earns, and how many
    tokens the player can export on it now."""
    p = _player(state, player)
    slot = exports.contract_slot(state, contract)
    kind = state.market[slot] or ""
    resource, most = cards.contract_parts(kind)
    vp_each = cards.EXPORT_PRICE[resource][0]
    credits_each = ops.export_credits(state, resource)
    have = p.warehouse[resource]
    can = min(most, have)
    out = _preview(
        "export", slot, contract=kind, resource=resource, most=most, have=have, can=can,
        per_token={"vp": vp_each, "credits": credits_each},
        amounts=[{"amount": n, "vp": vp_each * n, "credits": credits_each * n}
                 for n in range(1, most + 1)],
        costs={"credits": 0, "vp": 0, "resources": {resource: can}},
        needs={"resources": {resource: 1}},
        earns={"credits": credits_each * can, "vp": vp_each * can, "resources": {}})
    out["lines"] = [counted(ngettext(
        "Up to {most} {resource}: each token earns {vp} VP and {credits} credit.",
        "Up to {most} {resource}: each token earns {vp} VP and {credits} credits."),
        "credits", most=most, resource=resource, vp=vp_each, credits=credits_each)]
    if can:
        out["lines"].append(counted(ngettext(
            "Exporting {amount} {resource} here earns {vp} VP and {credits} credit.",
            "Exporting {amount} {resource} here earns {vp} VP and {credits} credits."),
            "credits", amount=can, resource=resource, vp=vp_each * can,
            credits=credits_each * can))
    else:
        _refuse(out, line(_("You hold no {resource} for this contract."), resource=resource))
    _exports_turn(state, p, out)
    return out


def _exports_turn(state: GameState, p: Player, out: dict[str, Any]) -> None:
    if state.phase != EXPORTS or not state.exports or state.exports[state.turn] != p.name:
        _refuse(out, line(_("It is not your turn on Exports.")))


def black_market_preview(state: GameState, player: str, resource: str) -> dict[str, Any]:
    """Selling ``resource`` on the black market: its price (double the export credits, no
    VP), how many more the player may sell this round, the VP the same tokens would earn on
    a contract, and the risk as the Event's black-market line states it (``risk``)."""
    p = _player(state, player)
    if resource not in cards.EXPORT_PRICE:
        raise InvalidAction(_("The black market buys Food, Minerals, Chemicals, Industrials or "
                              "Machines."))
    price = 2 * ops.export_credits(state, resource)
    left = max(0, ops.black_market_limit(state) - p.black_market.get(resource, 0))
    have = p.warehouse[resource]
    can = min(left, have)
    export_vp = cards.EXPORT_PRICE[resource][0]
    risk = black_market_risk(state, player, price * can)
    out = _preview(
        "black_market", resource, resource=resource, price=price, left=left, have=have,
        can=can, amounts=[{"amount": n, "credits": price * n, "vp_forgone": export_vp * n}
                          for n in range(1, left + 1)],
        costs={"credits": 0, "vp": 0, "resources": {resource: can}},
        needs={"resources": {resource: 1}},
        earns={"credits": price * can, "vp": 0, "resources": {}},
        vp_forgone=export_vp * can, risk=risk)
    out["lines"] = [
        counted(ngettext("Each {resource} token fetches {credits} credit and no VP.",
                         "Each {resource} token fetches {credits} credits and no VP."),
                "credits", resource=resource, credits=price),
        line(_("You may sell {left} more {resource} this round, and you hold {have}."),
             left=left, resource=resource, have=have),
        line(_("Exported on a contract, the same tokens would earn {vp} VP."),
             vp=export_vp * can),
        *risk["lines"]]
    if not can:
        _refuse(out, line(_("You have no {resource} you may sell on the black market now."),
                          resource=resource))
    _exports_turn(state, p, out)
    return out


def black_market_risk(state: GameState, player: str, takings: int = 0) -> dict[str, Any]:
    """What the round's black-market line (``data.SMUGGLING``, on every Event) does to a
    sale by ``player`` now, from who has sold and who may still sell this round.

    ``premium`` / ``crackdown``: ``"none"``, ``"possible"`` or ``"certain"``: the lone
    seller is paid ``premium_times`` its takings again; two or more sellers move the track
    ``crackdown_steps`` down at Evaluation. ``premium_credits`` is what the lone seller would
    receive for this round's sales so far plus ``takings``."""
    p = _player(state, player)
    smuggling = state.mods.get("smuggling")
    others = [q.name for q in state.players if q.name != p.name and any(q.black_market.values())]
    may_still = [n for n in state.exports if n != p.name and n not in others]
    out: dict[str, Any] = {"line": bool(smuggling), "sellers": others, "may_still_sell": may_still,
                           "premium": "none", "crackdown": "none", "premium_times": 0,
                           "premium_credits": 0, "crackdown_steps": 0, "status": state.status,
                           "lines": []}
    if not smuggling:
        out["lines"] = [line(_("No Event is in force this round, so no black-market line "
                               "applies."))]
        return out
    sold = sum(2 * ops.export_credits(state, r) * n for r, n in p.black_market.items())
    out.update(premium_times=smuggling["premium"], crackdown_steps=smuggling["crackdown"],
               premium_credits=smuggling["premium"] * (sold + takings))
    if others:
        out.update(premium="none", crackdown="certain")
    elif may_still:
        out.update(premium="possible", crackdown="possible")
    else:
        out.update(premium="certain", crackdown="none")
    out["lines"] = [line(data.SMUGGLING_TEXT)]
    if others:
        out["lines"].append(counted(ngettext(
            "{n} other player has already sold on the black market this round: selling now "
            "means the crackdown ({steps} steps down for Axia).",
            "{n} other players have already sold on the black market this round: selling now "
            "means the crackdown ({steps} steps down for Axia)."),
            "n", n=len(others), steps=smuggling["crackdown"]))
    elif may_still:
        out["lines"].append(line(_("Nobody else has sold on the black market yet this round; "
                                   "others may still do so.")))
    else:
        out["lines"].append(line(_("Nobody else can sell on the black market this round: "
                                   "you would be the only seller.")))
    return out


# --------------------------------------------------------------------------- Loan


def loan_preview(state: GameState, player: str) -> dict[str, Any]:
    """Taking a Loan (a Manager on 4.5): 10 credits now and 1 VP lost, the interest each later
    round, the 2 VP an unpaid loan costs at the end, and paying it back (10 credits)."""
    p = _player(state, player)
    rounds_left = cards.ROUNDS - state.round  # later rounds whose Loan Interest it pays
    out = _preview(
        "loan", "loan",
        costs={"credits": 0, "vp": cards.LOAN_VP, "resources": {}},
        needs={"vp": cards.LOAN_VP, "loans_below": cards.MAX_LOANS},
        earns={"credits": cards.LOAN_CREDITS, "vp": 0, "resources": {}},
        loans=p.loans, max_loans=cards.MAX_LOANS, interest_per_round=cards.INTEREST,
        rounds_of_interest=rounds_left, interest_total=cards.INTEREST * rounds_left,
        unpaid_vp=cards.UNPAID_LOAN_VP, repay_credits=cards.LOAN_CREDITS)
    out["lines"] = [
        line(_("Receive {credits} credits now and lose {vp} VP."), credits=cards.LOAN_CREDITS,
             vp=cards.LOAN_VP),
        counted(ngettext("Interest: {credits} credit per loan at the start of each later "
                         "round ({rounds} left).",
                         "Interest: {credits} credits per loan at the start of each later "
                         "round ({rounds} left)."),
                "credits", credits=cards.INTEREST, rounds=rounds_left),
        line(_("At the end each unpaid loan costs {vp} VP; paying one back costs {credits} "
               "credits at any time."), vp=cards.UNPAID_LOAN_VP, credits=cards.LOAN_CREDITS),
    ]
    if "loan" in ops.closed(state):
        _refuse(out, line(_("That location is Out of Service this round.")))
    if p.loans >= cards.MAX_LOANS:
        _refuse(out, line(_("You already have 4 loans, the most allowed.")))
    if p.vp < cards.LOAN_VP:
        _refuse(out, line(_("A loan needs 1 VP to lose; you have none.")))
    return out


# --------------------------------------------------------------------------- Production


def production_preview(state: GameState, player: str, plan: Any = None) -> dict[str, Any]:
    """A production plan (``None``: the engine's suggestion, ``auto_plan``): what
    ``preview_production`` says of it, in the preview's shape. ``plan`` is the plan used,
    ``result`` the full ``preview_production`` answer (per Company: staff, bonus, seats,
    output)."""
    p = _player(state, player)
    if plan is None:
        plan = production.auto_plan(state, p)
    result = production.preview_production(state, player, plan)
    out = _preview("production", None, plan=plan, result=result)
    if not result["ok"]:
        return _refuse(out, line(result["error"], **result["params"]))
    output, kept = result["output"], result["kept"]
    lost = {r: output[r] - kept[r] for r in kept if output[r] > kept[r]}
    out["costs"]["resources"] = dict(result["inputs"])
    out["needs"] = {"staff": {row["company"]: list(row["staff"]) for row in result["companies"]},
                    "inputs": dict(result["inputs"])}
    out["earns"] = {"credits": output.get("credits", 0), "vp": output.get("vp", 0),
                    "resources": dict(kept)}
    out["returned"] = lost
    out["lines"] = [line(_("{company} makes {amounts}."), company=row["company"],
                         amounts=_amounts(row["output"]))
                    for row in result["companies"]] or \
        [line(_("The plan activates no Company."))]
    if result["inputs"]:
        out["lines"].append(line(_("The plan uses {amounts} from your Warehouse."),
                                 amounts=_amounts(result["inputs"])))
    if lost:
        out["lines"].append(line(_("No room in your Warehouse for {amounts}: back to the "
                                   "supply."), amounts=_amounts(lost)))
    return out


# --------------------------------------------------------------------------- all at once


def choices(state: GameState, player: str) -> list[dict[str, Any]]:
    """A preview of every choice of these kinds the player can make now, by phase:
    Planning (its turn): each Company, Employee and Foreign Employee type, the Temp
    Employee and the Loan it may place a Manager for; Operations (its reserved Company or
    Foreign Employees space waiting): those; Production (not yet produced): the engine's
    suggested plan and each Company it owns; Exports (its turn): each current contract and
    each black-market resource."""
    p = _player(state, player)
    found: list[dict[str, Any]] = []
    if state.phase == PLANNING and rounds.next_placer(state) == p.name:
        for space in rules.legal_spaces(state, p):
            found += _space_previews(state, p, space)
    elif state.phase == OPERATIONS and state.steps and state.steps[0][1] == p.name:
        found += _space_previews(state, p, state.steps[0][0])
    elif state.phase == PRODUCTION and p.name not in state.produced:
        found.append(production_preview(state, player))
    elif state.phase == EXPORTS and state.exports and state.exports[state.turn] == p.name:
        current = cards.CONTRACT_ROWS * (cards.CONTRACT_COLUMNS - 1)
        found += [export_preview(state, player, i) for i in range(current) if state.market[i]]
        found += [black_market_preview(state, player, r) for r in cards.EXPORT_PRICE]
    return found


def _space_previews(state: GameState, p: Player, space: str) -> list[dict[str, Any]]:
    if space in board.COMPANY_SPACES:
        company = state.board_companies[board.COMPANY_SPACES.index(space)]
        return [company_preview(state, p.name, company)] if company else []
    if space in board.EMPLOYEE_SPACES:
        tile = state.board_employees[board.EMPLOYEE_SPACES.index(space)]
        return [employee_preview(state, p.name, tile)] if tile else []
    if space == "foreign-employees":
        return [employee_preview(state, p.name, kind) for kind in cards.FOREIGN_KIND.values()]
    if space == "temp-employee":
        return [employee_preview(state, p.name, cards.TEMP)]
    if space == "loan":
        return [loan_preview(state, p.name)]
    return []


