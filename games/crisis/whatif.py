"""Crisis's part of "What if we had…?" (``games.whatif``, docs/what-if.md).

Public decisions that may be changed: a team's turn in the Exports phase (an export on a
contract, a black-market sale, or a pass); the alternatives are every other export move the
rules offered that team at that moment (``views.export_moves``). Crisis has no secret ballot,
so the record is used as it is.

Measure: whether Axia went bankrupt, then the sum over teams of |ΔVP|. The default lesson bot
is ``sensible``. The main tracks are Axia's Financial Status and every team's VP.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Action, Decision, Engine
from games.crisis import bots, cards, views
from games.crisis.state import EXPORTS, GameState
from games.i18n import _
from games.whatif import Alternative, Choice

GAME_ID = "crisis"
BOT_POLICY = "sensible"
TRACKS = ("status",)  # and "vp:<team>" for every team
MOVES = {"export", "black_market", "pass"}


def prepare(record: Mapping[str, Any]) -> list[Action]:
    return [dict(a) for a in record["actions"]]


def _key(move: Action) -> str:
    if move["type"] == "export":
        return f"export:{move['contract']}:{move['amount']}"
    if move["type"] == "black_market":
        return f"black_market:{move['resource']}:{move['amount']}"
    return "pass"


def _named(state: GameState, move: Action) -> dict[str, Any]:
    """What a move is, for the lesson side to name it: its key, its kind, the amount, and
    the resource (an export's, from the contract it is made on)."""
    out: dict[str, Any] = {"move": _key(move), "kind": move["type"]}
    if move["type"] == "export":
        slot = move["contract"]
        contracts = views.current_contracts(state)
        contract = contracts[slot] if isinstance(slot, int) and slot < len(contracts) else None
        out.update(contract=slot, amount=move["amount"],
                   resource=cards.contract_parts(contract)[0] if contract else None)
    elif move["type"] == "black_market":
        out.update(amount=move["amount"], resource=move["resource"])
    return out


def choices(engine: Engine, state: GameState, actions: Sequence[Action], index: int
            ) -> list[Choice]:
    action = actions[index]
    if action.get("type") not in MOVES or state.phase != EXPORTS or not state.exports:
        return []
    name = state.exports[state.turn]
    if action.get("player") != name:
        return []
    played = _key(action)
    alts = tuple(Alternative(_key(m), _("the move {move}"), _named(state, m), (m,))
                 for m in views.export_moves(state, state.player(name)) if _key(m) != played)
    return [Choice(index, index, index + 1, _("{team}'s export turn in round {round}"),
                   {"team": name, "round": state.round}, played, alts,
                   _named(state, action))]


def bot(state: GameState, decision: Decision, rng: random.Random) -> list[Action]:
    return [bots.act(BOT_POLICY, state, decision, rng)]


def step(state: GameState) -> int:
    return state.round


def point(state: GameState) -> dict[str, int]:
    out = {"status": state.status}
    for p in state.players:
        out[f"vp:{p.name}"] = p.vp
    return out


def measure(state: GameState) -> dict[str, Any]:
    return {"bankrupt": bool(state.bankrupt), "round": state.round,
            "vp": {p.name: p.vp for p in state.players}}


def impact(real: Mapping[str, Any], alt: Mapping[str, Any]) -> tuple[float, ...]:
    return (float(real["bankrupt"] != alt["bankrupt"]),
            float(sum(abs(alt["vp"][n] - v) for n, v in real["vp"].items())))


def outcome_differences(real: Mapping[str, Any], alt: Mapping[str, Any]
                        ) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if alt["bankrupt"] and not real["bankrupt"]:
        out.append({"msgid": _("Axia would have gone bankrupt in round {round}."),
                    "params": {"round": alt["round"]}})
    elif real["bankrupt"] and not alt["bankrupt"]:
        out.append({"msgid": _("Axia would not have gone bankrupt."), "params": {}})
    for name, vp in real["vp"].items():
        if alt["vp"][name] != vp:
            out.append({"msgid": _("{team} would have ended with {alt} VP instead of {real}."),
                        "params": {"team": name, "alt": alt["vp"][name], "real": vp}})
    return out
