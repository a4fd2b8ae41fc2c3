"""What each audience may see, what the game waits for, and the ledger balances.

- ``"public"``: what the rulebook says the GM reports to all players (positions, assets,
  auctions, Bank, Treasury, Bonds, insurance, Cabinet, salaries, tax rule, index and
  direction) plus who has sent orders; never a sealed order before its round is adjudicated.
- a player's name: the public view plus that player's own orders.
- ``"master"``: the public view plus every order as it arrives; never a consent ballot (the
  engine only ever holds its receipts and its outcome).

And for the lesson's screens: ``state_so_far``/``view_so_far`` (the game as far as the
projector's replay of a round has gone), ``election_result`` (the last election by party
totals) and ``treasury_check`` (whether the Treasury can make the PM's proposed payments).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from itertools import combinations
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
from games.poleconomy.elections import blocs, majority_bloc
from games.poleconomy.money import BANK, TREASURY, account, bank_bonds, unissued
from games.poleconomy.orders import check_orders
from games.poleconomy.rules import CONSENT_OPTIONS, GAME_ID, new_game, scores, step
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


# --------------------------------------------------------------------------- the replay so far


def _completes_a_round(state: GameState, action: Any) -> bool:
    """Whether ``action`` may be the decision that sets off a round's adjudication (the last
    orders, or a count once every order is in); a cheap test that never misses one."""
    if state.phase != ORDERS or not isinstance(action, Mapping):
        return False
    unsent = sum(not p.sent for p in state.players)
    return (action.get("type") == "orders" and unsent == 1) or (
        action.get("type") == "count" and unsent == 0)


def state_so_far(config: Mapping[str, Any], seed: int, actions: Sequence[Action], beats: int,
                 round_: int | None = None) -> GameState:
    """The game as the class has seen it while the projector replays round ``round_`` (by
    default the last round adjudicated in ``actions``) one beat at a time.

    The record is replayed; the decision that set off the round's adjudication is applied with
    only its first ``beats`` beats (``rules.round_beats``: 1 = the round's start and the
    auctions, 1 + i = up to the i-th turn; 0 = none, the board just before the round), and
    nothing after it. Once every beat is shown (``beats`` at least the round's number of
    beats), it is the whole record replayed: the state the engine holds. The projector that
    has shown ``shown`` beats beyond the first passes ``beats = shown + 1``. A record in which
    no round was adjudicated yet (``round_`` None) is simply replayed. An invalid record, or a
    ``round_`` it has not adjudicated, raises ``InvalidAction``.
    """
    state = new_game(config, seed)
    found: tuple[GameState, Action, int] | None = None  # state before, decision, beats
    for action in actions:
        before = state.clone() if _completes_a_round(state, action) else None
        events = step(state, action)
        if before is None:
            continue
        started = [e["round"] for e in events if e["type"] == "round_start"]
        if started and (round_ is None or started[0] == round_):
            total = 1 + sum(e["type"] in ("turn", "round_end") for e in events)
            found = (before, action, total)
            if round_ is not None and beats < total:
                break  # nothing after the round's adjudication is shown
    if found is None:
        if round_ is not None:
            raise InvalidAction(_("Round {round} has not been played yet."), round=round_)
        return state
    before, action, total = found
    if beats >= total:
        return state
    step(before, action, beats=max(0, beats))
    return before


def view_so_far(config: Mapping[str, Any], seed: int, actions: Sequence[Action], audience: str,
                beats: int, round_: int | None = None) -> dict[str, Any]:
    """``view(state_so_far(...), audience)``: for a phone, the public view and its player's own
    as far as the projector's replay has gone (its history holds only the beats shown)."""
    return view(state_so_far(config, seed, actions, beats, round_), audience)


# --------------------------------------------------------------------------- elections


def election_result(state: GameState) -> dict[str, Any]:
    """The last election by party totals, as the table sees it (individual votes left out).

    ``number`` (0: the electoral votes of a stated situation, no election held), ``total``
    votes, ``majority_at`` (the smallest total that is a majority: more than half),
    ``blocs`` (each party and each Independent, most votes first, then seat order: ``name``,
    ``party``, ``members``, ``votes``, ``short``: the votes it lacks for a majority alone),
    ``majority`` (the bloc with a majority, or None), ``coalitions`` (with no majority: every
    smallest coalition of whole blocs with a majority, each a list of bloc names, each bloc
    needed; most votes first), ``decided`` (a Government is formed after this election) and,
    once it is, ``government`` and ``pm``.
    """
    total = state.total_votes
    need = total // 2 + 1
    rows = sorted(blocs(state), key=lambda b: -b["votes"])  # stable: seat order on a tie
    win = majority_bloc(state)
    coalitions: list[tuple[int, list[str]]] = []
    if win is None:
        for size in range(2, len(rows) + 1):
            for group in combinations(rows, size):
                votes = sum(b["votes"] for b in group)
                if votes >= need and all(votes - b["votes"] < need for b in group):
                    coalitions.append((votes, [b["name"] for b in group]))
    decided = state.phase != GOVERNMENT
    return {
        "number": state.elections, "total": total, "majority_at": need,
        "blocs": [{"name": b["name"], "party": b["party"], "members": list(b["members"]),
                   "votes": b["votes"], "short": max(0, need - b["votes"])} for b in rows],
        "majority": win["name"] if win else None,
        "coalitions": [names for _v, names in sorted(coalitions, key=lambda c: (
            len(c[1]), -c[0]))],
        "decided": decided,
        "government": list(state.government) if decided else None,
        "pm": state.pm if decided else None,
    }


# --------------------------------------------------------------------------- the Treasury


def _warning(code: str, text: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "text": text, "params": params}


def treasury_check(state: GameState, proposal: Mapping[str, Any]) -> dict[str, Any]:
    """Whether the Treasury can make the Prime Minister's proposed payments, for a warning.

    ``proposal`` is the PM's ``pm`` orders (or the part of them a proposal holds): its
    ``payments``, and the ``issue_bonds``, ``buy_back_bank``, ``buy_back_players`` and
    ``salaries`` that come before them on the PM's turn; the rest is ignored. It is read
    against the Treasury as it stands now: players who move before the PM this round may
    still change it (Tax in; salaries and interest out; the auctions never touch it).

    By the rules (rule decision 4) a payment is not an obligation: on the PM's turn, once
    Parliament consents, the payments are made in order, each only if the Treasury holds its
    whole amount at that moment; one it cannot make is not made (nothing else happens, and a
    later smaller one may still be made). The PM may issue Bonds first to cover them.

    Returns ``treasury`` (now), ``available`` (when the payments are made, after the PM's
    Bond orders; Bonds bought back from players counted as if every one asked for were
    offered, so at least this much), ``total``, ``payments`` (each ``to``, ``amount``,
    ``made``), ``can_pay`` (every payment made), ``unpaid``, ``after`` (the Treasury after
    them), ``bonds_needed`` (more Bonds to issue first so that every payment is made) and
    ``bonds_left`` (Bonds the PM could still issue), ``obligations`` (what the next Government
    Salary space and the next Bonds space would cost: ``salaries``, ``interest``, with the
    proposed salaries and Bonds), ``default_risk`` (the Treasury after the payments plus every
    Bond left to issue could not pay one of them: if the Inflation Index reaches it, the
    Treasury defaults and everyone loses), ``moves_before`` (the players moving before the PM
    this round) and ``warnings`` (``code``, ``text``: a msgid, ``params`` to fill it after
    translation). ``InvalidAction`` if the proposal is not valid PM orders.
    """
    pm = check_orders({"pm": dict(proposal)}, player=state.pm or "", names=state.names,
                      is_pm=True, consent_mode=state.consent_mode)["pm"]
    treasury = state.treasury
    issued = min(pm.get("issue_bonds", 0), unissued(state))
    cash = treasury + issued * data.BOND_VALUE
    bought = min(pm.get("buy_back_bank", 0), bank_bonds(state) + issued,
                 cash // data.BOND_VALUE)
    cash -= bought * data.BOND_VALUE
    held = sum(p.bonds for p in state.players)
    sold = min(pm.get("buy_back_players", 0), held, cash // data.BOND_BUYBACK_FROM_PLAYERS)
    cash -= sold * data.BOND_BUYBACK_FROM_PLAYERS
    available = cash
    rows = []
    for pay in pm.get("payments", []):
        made = cash >= pay["amount"]
        cash -= pay["amount"] if made else 0
        rows.append({"to": pay["to"], "amount": pay["amount"], "made": made})
    total = sum(r["amount"] for r in rows)
    unpaid = sum(r["amount"] for r in rows if not r["made"])
    bonds_left = unissued(state) - issued
    bonds_needed = math.ceil(max(0, total - available) / data.BOND_VALUE)
    salaries = pm.get("salaries", {})
    pm_salary = salaries.get("pm", state.pm_salary)
    ministers = {n: salaries.get("ministers", {}).get(n, state.salary_of(n))
                 for n in state.cabinet}
    bonds_out = state.bonds_issued + issued - bought - sold
    obligations = {"salaries": pm_salary + sum(ministers.values()),
                   "interest": bonds_out * data.BOND_INTEREST}
    reach = cash + bonds_left * data.BOND_VALUE
    order = [p.name for p in state.order()]
    before = order[:order.index(state.pm)] if state.pm in order else []
    warnings = []
    if unpaid:
        warnings.append(_warning("short", _(
            "The Treasury will hold ${available} for payments of ${total}: a payment it "
            "cannot make in full is not made (payments are not obligations), so ${unpaid} "
            "would not be paid."), available=available, total=total, unpaid=unpaid))
        if bonds_needed <= bonds_left:
            warnings.append(_warning("issue", _(
                "Issuing Bonds first would cover every payment: {bonds} needed, {left} left to "
                "issue."), bonds=bonds_needed, left=bonds_left))
        else:
            warnings.append(_warning("no_bonds", _(
                "The Bonds left to issue ({left}) would not cover every payment."),
                left=bonds_left))
    if obligations["salaries"] > reach:
        warnings.append(_warning("salaries_risk", _(
            "After the payments the Treasury and the Bonds left to issue could not pay the "
            "next Government salaries (${amount}): on a Government Salary space the Treasury "
            "defaults and everyone loses."), amount=obligations["salaries"]))
    if obligations["interest"] > reach:
        warnings.append(_warning("interest_risk", _(
            "After the payments the Treasury and the Bonds left to issue could not pay the "
            "next Bond interest (${amount}): on a Bonds space the Treasury defaults and "
            "everyone loses."), amount=obligations["interest"]))
    if before:
        warnings.append(_warning("earlier_turns", _(
            "The players who move before the Prime Minister this round ({players}) may change "
            "what the Treasury holds."), players=", ".join(before)))
    return {"treasury": treasury, "available": available, "total": total, "payments": rows,
            "can_pay": unpaid == 0, "unpaid": unpaid, "after": cash,
            "bonds_needed": bonds_needed, "bonds_left": bonds_left, "obligations": obligations,
            "default_risk": max(obligations.values()) > reach, "moves_before": before,
            "warnings": warnings}
