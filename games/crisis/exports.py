"""4.14 Exports: the rotation of the Managers on Exports, contracts, the black market, pass."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import PUBLIC, Event, InvalidAction
from games.crisis import cards, ops, rounds
from games.crisis.state import EXPORTS, GameState, Player
from games.i18n import _


def _export_turn(state: GameState, action: Mapping[str, Any]) -> Player:
    p = ops.acting_player(state, action)
    if state.phase != EXPORTS:
        raise InvalidAction(_("It is not the Exports phase."))
    if state.exports[state.turn] != p.name:
        raise InvalidAction(_("It is {name}'s turn on Exports."), name=state.exports[state.turn])
    return p


def _amount(action: Mapping[str, Any]) -> int:
    amount = action.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise InvalidAction(_("'amount' must be a whole number of tokens, at least 1."))
    return amount


def contract_slot(state: GameState, contract: Any) -> int:
    """A current contract by its space (0–7) or its kind (``"food-4"``: the leftmost one)."""
    current = cards.CONTRACT_ROWS * (cards.CONTRACT_COLUMNS - 1)
    if isinstance(contract, int) and not isinstance(contract, bool):
        if 0 <= contract < current and state.market[contract]:
            return contract
    elif isinstance(contract, str):
        for i in range(current):
            if state.market[i] == contract:
                return i
    raise InvalidAction(_("There is no current Export Contract {contract!r}."),
                        contract=contract)


def _log(state: GameState, move: dict[str, Any]) -> None:
    state.current.setdefault("export_log", []).append(move)


def _next_turn(state: GameState) -> None:
    state.turn = (state.turn + 1) % len(state.exports)


def export(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = _export_turn(state, action)
    slot = contract_slot(state, action.get("contract"))
    resource, most = cards.contract_parts(state.market[slot] or "")
    amount = _amount(action)
    if amount > most:
        raise InvalidAction(_("This contract takes at most {n} tokens."), n=most)
    if p.warehouse[resource] < amount:
        raise InvalidAction(_("You have only {have} {resource}."),
                            have=p.warehouse[resource], resource=resource)
    contract = state.market[slot]
    state.market[slot] = None
    ops.spend(state, events, p, resource, amount, "export")
    ops.gain_vp(state, events, p, cards.EXPORT_PRICE[resource][0] * amount, "export")
    ops.transfer(state, events, p, ops.export_credits(state, resource) * amount, "export",
                 contract=contract)
    events.append({"type": "exported", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "contract": contract, "amount": amount})
    _log(state, {"player": p.name, "move": "export", "contract": contract, "amount": amount})
    _next_turn(state)


def black_market(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = _export_turn(state, action)
    resource = action.get("resource")
    if resource not in cards.EXPORT_PRICE:
        raise InvalidAction(_("The black market buys Food, Minerals, Chemicals, Industrials or "
                              "Machines."))
    amount = _amount(action)
    left = ops.black_market_limit(state) - p.black_market.get(resource, 0)
    if amount > left:
        raise InvalidAction(_("You may sell only {n} more {resource} on the black market this "
                              "round."), n=max(0, left), resource=resource)
    if p.warehouse[resource] < amount:
        raise InvalidAction(_("You have only {have} {resource}."),
                            have=p.warehouse[resource], resource=resource)
    p.black_market[resource] = p.black_market.get(resource, 0) + amount
    ops.spend(state, events, p, resource, amount, "black-market")
    ops.transfer(state, events, p, 2 * ops.export_credits(state, resource) * amount,
                 "black-market")
    events.append({"type": "black_market", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "resource": resource, "amount": amount})
    _log(state, {"player": p.name, "move": "black_market", "resource": resource,
                 "amount": amount})
    _next_turn(state)


def pass_turn(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = _export_turn(state, action)
    state.exports.pop(state.turn)
    events.append({"type": "passed", "audience": PUBLIC, "round": state.round,
                   "player": p.name})
    _log(state, {"player": p.name, "move": "pass"})
    if state.exports:
        state.turn %= len(state.exports)
    else:
        rounds.evaluate(state, events)
