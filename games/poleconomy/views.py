"""What each audience may see, what the game waits for, and the ledger balances.

- ``"public"``: what the rulebook says the GM reports to all players (positions, assets,
  auctions, Bank, Treasury, Bonds, insurance, Cabinet, salaries, tax rule, index and
  direction) plus who has sent orders; never a sealed order before its round is adjudicated.
- a player's name: the public view plus that player's own orders.
- ``"master"``: the public view plus every order as it arrives; never a consent ballot (the
  engine only ever holds its receipts and its outcome).
"""

from __future__ import annotations

import copy
from typing import Any

from games.core import (
    BALLOT,
    FORM,
    MASTER,
    MASTER_AUDIENCE,
    SEAT,
    VOTERS,
    Action,
    Decision,
    InvalidAction,
)
from games.i18n import _
from games.poleconomy import data
from games.poleconomy.elections import majority_bloc
from games.poleconomy.money import BANK, TREASURY, account, bank_bonds, unissued
from games.poleconomy.rules import CONSENT_OPTIONS, GAME_ID, scores
from games.poleconomy.state import GOVERNMENT, ORDERS, OVER, PARTIES, GameState
from games.poleconomy.turn import value_now


def public_view(state: GameState) -> dict[str, Any]:
    held_life = sum(p.life_insurance for p in state.players)
    held_business = sum(p.business_insurance for p in state.players)
    return {
        "game": GAME_ID, "round": state.round, "rounds": state.rounds, "phase": state.phase,
        "multiplier": state.multiplier,
        "index": {"space": state.index_space, "direction": state.direction,
                  "effect": state.layout().index_kinds[state.index_space - 1],
                  "value": value_now(state)},
        "players": [{
            "name": p.name, "seat": p.seat, "bi": p.bi, "cash": p.cash, "position": p.position,
            "track": p.track, "business_insurance": p.business_insurance,
            "life_insurance": p.life_insurance, "bonds": p.bonds, "party": p.party,
            "votes": p.votes, "firms": sorted(f for f, o in state.owners.items() if o == p.name),
            "role": "pm" if p.name == state.pm else "minister" if p.name in state.cabinet
            else "government" if p.name in state.government else None,
            "orders_sent": p.sent,
        } for p in state.players],
        "order": [p.name for p in state.order()],
        "owners": dict(state.owners),
        "auction": list(state.auction),
        "unsold": [f for f in state.layout().firms if f not in state.owners],
        "bank": state.bank, "treasury": state.treasury,
        "bonds": {"issued": state.bonds_issued, "unissued": unissued(state),
                  "bank": bank_bonds(state)},
        "insurance": {"life": data.INSURANCE_POLICIES - held_life,
                      "business": data.INSURANCE_POLICIES - held_business},
        "parties": copy.deepcopy(state.parties),
        "government": list(state.government), "pm": state.pm, "cabinet": list(state.cabinet),
        "salaries": {"pm": state.pm_salary,
                     "ministers": {n: state.salary_of(n) for n in state.cabinet}},
        "tax": dict(state.tax_rule),
        "election": copy.deepcopy(state.election),
        "consents": [{"decision": c.id, "kind": c.kind, "proposal": copy.deepcopy(c.proposal),
                      "voted": len(c.receipts), "outcome": c.outcome} for c in state.consents],
        "history": copy.deepcopy(state.history),
        "over": state.phase == OVER, "over_reason": state.over_reason,
        "final": scores(state) if state.phase == OVER else None,
    }


def _player_or_error(state: GameState, name: str) -> Any:
    if name not in state.names:
        raise InvalidAction(_("There is no player {name!r} in this game."), name=name)
    return state.player(name)


def player_view(state: GameState, seat: str) -> dict[str, Any]:
    p = _player_or_error(state, seat)
    out = public_view(state)
    out["me"] = {"name": p.name, "orders": copy.deepcopy(p.orders), "nmr": p.nmr,
                 "sent": p.sent,
                 "voted": [c.id for c in state.consents if p.name in c.receipts]}
    out["legal_actions"] = legal_actions(state, seat)
    return out


def view(state: GameState, audience: str) -> dict[str, Any]:
    if audience == "public":
        return public_view(state)
    if audience == MASTER_AUDIENCE:
        out = public_view(state)
        out["orders"] = {p.name: copy.deepcopy(p.orders) for p in state.players if p.sent}
        return out
    return player_view(state, audience)


def balances(state: GameState) -> dict[str, int]:
    """Ledger balances: every player's and the Treasury's cash; the Bank as the issuer."""
    out = {BANK: state.bank - state.money_supply, TREASURY: state.treasury}
    out.update({account(p.name): p.cash for p in state.players})
    return out


def nmr_action(name: str) -> Action:
    return {"type": "orders", "player": name, "orders": None}


def decisions(state: GameState) -> list[Decision]:
    if state.phase == PARTIES:
        return [Decision("setup.parties", "parties", MASTER, FORM, "parties",
                         default={"type": "parties", "parties": {}},
                         prompt=_("Declare the parties the players have formed; everyone "
                                  "else stands as an Independent."))]
    if state.phase == GOVERNMENT:
        win = majority_bloc(state)
        number = state.elections
        if win is not None:
            return [Decision(f"e{number}.government", "government", MASTER, FORM, "government",
                             default={"type": "government", "members": win["members"],
                                      "pm": None},
                             prompt=_("{party} has a majority: confirm its Prime Minister."),
                             params={"party": win["name"]})]
        return [Decision(f"e{number}.government", "government", MASTER, FORM, "government",
                         options=("government", "no_government"),
                         default={"type": "no_government"},
                         prompt=_("Nobody has a majority: confirm a coalition and its Prime "
                                  "Minister, or call a new election."))]
    if state.phase != ORDERS:
        return []
    out = [Decision(f"r{state.round}.orders.{p.name}",
                    "pm_orders" if p.name == state.pm else "orders", SEAT, FORM, "orders",
                    deciders=(p.name,), default=nmr_action(p.name),
                    prompt=_("Send your sealed orders for round {round}."),
                    params={"round": state.round})
           for p in state.players if not p.sent]
    weights = {p.name: p.votes for p in state.players}
    prompts = {"salaries": _("Do you consent to the Prime Minister's new Government "
                             "salaries?"),
               "tax": _("Do you consent to the Prime Minister's new tax rule?"),
               "payments": _("Do you consent to the Prime Minister's Treasury payments?")}
    for c in state.consents:
        if c.outcome is None:
            out.append(Decision(c.id, "consent", VOTERS, BALLOT, "ballot",
                                deciders=tuple(n for n in state.names if n not in c.receipts),
                                options=CONSENT_OPTIONS, weights=weights, default=None,
                                prompt=prompts[c.kind],
                                params={"proposal": copy.deepcopy(c.proposal)}))
    return out


def legal_actions(state: GameState, seat: str | None) -> list[Action]:
    """Templates of what ``seat`` (``None``: the game master) can do now."""
    if state.phase == OVER:
        return []
    if seat is None:
        acts: list[Action] = [{"type": "end"}]
        if state.phase == PARTIES:
            acts.append({"type": "parties", "parties": {}})
        elif state.phase == GOVERNMENT:
            acts += [d.default for d in decisions(state) if d.default]
            if majority_bloc(state) is None:
                acts.append({"type": "government", "members": [], "pm": None})
        acts += [{"type": "count", "decision": c.id, "outcome": o}
                 for c in state.consents if c.outcome is None for o in ("carried",
                                                                          "not-carried")]
        return acts
    p = _player_or_error(state, seat)
    if state.phase != ORDERS:
        return []
    acts = [] if p.sent else [nmr_action(p.name)]
    acts += [{"type": "ballot", "decision": c.id, "player": p.name}
             for c in state.consents if c.outcome is None and p.name not in c.receipts]
    return acts


def summary(state: GameState) -> dict[str, Any]:
    """The whole state as ``manage.py replay`` prints it."""
    final = scores(state)
    pub = public_view(state)
    pub.pop("history")
    rows = {}
    for row in pub["players"]:
        name = row.pop("name")
        rows[name] = {**row, "score": final["players"][name]["score"],
                      "score_breakdown": final["players"][name]["breakdown"]}
    pub["players"] = rows
    pub["orders"] = {p.name: copy.deepcopy(p.orders) for p in state.players if p.sent}
    pub["winners"] = final["winners"]
    pub["all_lose"] = final["all_lose"]
    pub["balances"] = balances(state)
    return pub
