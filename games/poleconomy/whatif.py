"""Poleconomy's part of "What if we had…?" (``games.whatif``, docs/what-if.md).

Public decisions that may be changed: a consent result (carried or not carried: the count's
public outcome, never a ballot) and the Prime Minister's Inflation Index reversal (in the PM's
orders: reversed or not). Consent ballots are stored as outcomes only, so the record is used as
it is.

Measure: the number of players ruined (a final wealth of 0 or less), then the sum over players
of |Δ final wealth|. The default lesson bot is ``builder``. The main tracks are inflation (the
multiplier of the Index space) and every player's wealth (``rules.valuation``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Action, Decision, Engine
from games.i18n import _
from games.poleconomy.bots import get_policy
from games.poleconomy.rules import valuation
from games.poleconomy.simulate import coalition, pair_parties
from games.poleconomy.state import GOVERNMENT, ORDERS, PARTIES, GameState
from games.poleconomy.turn import value_now
from games.whatif import Alternative, Choice

GAME_ID = "poleconomy"
BOT_POLICY = "builder"
TRACKS = ("inflation",)  # and "wealth:<player>" for every player
CARRIED, NOT_CARRIED = "carried", "not-carried"


def prepare(record: Mapping[str, Any]) -> list[Action]:
    return [dict(a) for a in record["actions"]]


OUTCOME_WORDS = {CARRIED: _("carried"), NOT_CARRIED: _("not carried")}
DIRECTION_WORDS = {"kept": _("the Index kept its direction"),
                   "reversed": _("the Index reversed")}


def choices(engine: Engine, state: GameState, actions: Sequence[Action], index: int
            ) -> list[Choice]:
    action = actions[index]
    if action.get("type") == "count":
        consent = next((c for c in state.consents
                        if c.id == action.get("decision") and c.outcome is None), None)
        outcome = action.get("outcome")
        if consent is None or outcome not in (CARRIED, NOT_CARRIED):
            return []
        other = NOT_CARRIED if outcome == CARRIED else CARRIED
        return [Choice(index, index, index + 1, _("Consent to the {kind} in round {round}"),
                       {"kind": consent.kind, "round": state.round}, outcome,
                       (Alternative(other, OUTCOME_WORDS[other], {},
                                    ({**action, "outcome": other},)),))]
    if (action.get("type") == "orders" and state.phase == ORDERS and state.pm
            and action.get("player") == state.pm and isinstance(action.get("orders"), dict)):
        orders = copy.deepcopy(action["orders"])
        pm = dict(orders.get("pm") or {})
        reversed_ = bool(pm.get("reverse"))
        pm["reverse"] = not reversed_
        orders["pm"] = pm
        played = "reversed" if reversed_ else "kept"
        other = "kept" if reversed_ else "reversed"
        return [Choice(index, index, index + 1, _("The Index's direction in round {round}"),
                       {"round": state.round}, played,
                       (Alternative(other, DIRECTION_WORDS[other], {},
                                    ({**action, "orders": orders},)),))]
    return []


def bot(state: GameState, decision: Decision, rng: random.Random) -> list[Action]:
    """The default lesson bot's answer: parties, a coalition, a player's orders, or a whole
    consent bag (receipts, then the outcome of the bots' weighted opinions)."""
    policy = get_policy(BOT_POLICY)
    if state.phase == PARTIES:
        return [{"type": "parties", "parties": pair_parties(state.names)}]
    if state.phase == GOVERNMENT:
        return [coalition(state)]
    consent = next((c for c in state.consents if c.id == decision.id), None)
    if consent is not None:
        acts: list[Action] = [{"type": "ballot", "decision": consent.id, "player": n}
                              for n in decision.deciders]
        yes = sum(p.votes for p in state.players
                  if policy.consent(state, p.name, consent.kind, consent.proposal, rng))
        outcome = CARRIED if 2 * yes > state.total_votes else NOT_CARRIED
        return [*acts, {"type": "count", "decision": consent.id, "outcome": outcome}]
    name = decision.deciders[0]
    return [{"type": "orders", "player": name, "orders": policy.orders(state, name, rng)}]


def step(state: GameState) -> int:
    return state.round


def _wealth(state: GameState) -> dict[str, int]:
    return {p.name: sum(valuation(state, p.name).values()) for p in state.players}


def point(state: GameState) -> dict[str, int]:
    out = {"inflation": value_now(state)}
    for name, wealth in _wealth(state).items():
        out[f"wealth:{name}"] = wealth
    return out


def measure(state: GameState) -> dict[str, Any]:
    wealth = _wealth(state)
    return {"ruined": sum(1 for w in wealth.values() if w <= 0), "round": state.round,
            "wealth": wealth, "inflation": value_now(state)}


def impact(real: Mapping[str, Any], alt: Mapping[str, Any]) -> tuple[float, ...]:
    return (float(abs(alt["ruined"] - real["ruined"])),
            float(sum(abs(alt["wealth"][n] - w) for n, w in real["wealth"].items())))


def outcome_differences(real: Mapping[str, Any], alt: Mapping[str, Any]
                        ) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if alt["ruined"] != real["ruined"]:
        out.append({"msgid": _("{alt} players would have been ruined instead of {real}."),
                    "params": {"alt": alt["ruined"], "real": real["ruined"]}})
    for name, wealth in real["wealth"].items():
        if alt["wealth"][name] != wealth:
            out.append({"msgid": _("{player} would have ended with ${alt} instead of "
                                   "${real}."),
                        "params": {"player": name, "alt": alt["wealth"][name], "real": wealth}})
    return out
