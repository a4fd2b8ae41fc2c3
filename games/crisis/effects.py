"""Event and Influence card effects (our edition, ``data.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import PUBLIC, Event, InvalidAction
from games.crisis import cards, data, ops
from games.crisis.state import GameState, Player
from games.i18n import _

# Effects that change this round's rules (kept in ``state.mods``) rather than act at once.
ROUND_MODS = frozenset({"subsidy", "company_cost", "import_price", "export_credits",
                        "foreign_cost", "interest", "goal"})


def set_mods(state: GameState, event: str | None) -> None:
    """This round's modifiers from its Event (the effects that last the round)."""
    state.mods = {}
    if event is None:
        return
    for effect in data.EVENT_CARDS[event].effects:
        kind, value = effect[0], effect[1]
        if kind in ROUND_MODS:
            state.mods[kind] = state.mods.get(kind, 0) + value
        elif kind == "closed":
            state.mods.setdefault("closed", []).append(value)
        elif kind == "output":
            outputs = state.mods.setdefault("output", {})
            outputs[effect[2]] = outputs.get(effect[2], 0) + value
        elif kind == "black_market_limit":
            state.mods["black_market_limit"] = value
        elif kind == "smuggling":
            state.mods["smuggling"] = {"premium": value, "crackdown": effect[2]}


def settle_black_market(state: GameState, events: list[Event]) -> None:
    """The Event's black-market line, at the start of Evaluation: the only player who sold on
    the black market this round receives ``premium`` times its takings again; two or more
    sellers move the Crisis track ``crackdown`` steps down. No seller: nothing happens."""
    line = state.mods.get("smuggling")
    sellers = [p for p in state.players if any(p.black_market.values())]
    if not line or not sellers:
        return
    settled: dict[str, Any] = {"sellers": [p.name for p in sellers], "premium": 0,
                               "crackdown": 0}
    if len(sellers) == 1:
        p = sellers[0]
        takings = sum(2 * ops.export_credits(state, r) * n for r, n in p.black_market.items())
        settled["premium"] = line["premium"] * takings
        ops.transfer(state, events, p, settled["premium"], "black-market", premium=True)
    else:
        settled["crackdown"] = line["crackdown"]
        move_status(state, events, -line["crackdown"], "black-market")
    state.current["black_market_line"] = settled


def resolve_event(state: GameState, events: list[Event], event: str) -> None:
    """The round's Event: its lasting modifiers, then its immediate effects in turn order."""
    set_mods(state, event)
    card = data.EVENT_CARDS[event]
    events.append({"type": "event", "audience": PUBLIC, "round": state.round, "event": event,
                   "zone": data.EVENT_ZONE[event]})
    for effect in card.effects:
        kind, value = effect[0], effect[1]
        for name in state.order:
            p = state.player(name)
            if kind == "credits" and value > 0:
                ops.transfer(state, events, p, value, "event", event=event)
            elif kind == "credits":
                ops.pay(state, events, p, -value, "event", event=event)
            elif kind == "vp":
                ops.gain_vp(state, events, p, value, "event")
            elif kind == "energy":
                ops.gain(state, events, p, cards.ENERGY, value, "event")
            elif kind == "penalty":
                ops.penalty(state, events, p, value, "event")
        if kind == "status":
            move_status(state, events, value, "event")


def move_status(state: GameState, events: list[Event], delta: int, reason: str) -> None:
    before = state.status
    state.status = min(cards.MAX_STATUS, state.status + delta)
    events.append({"type": "status", "audience": PUBLIC, "round": state.round,
                   "delta": state.status - before, "value": state.status, "reason": reason})


INFLUENCE_RESOURCES = (cards.FOOD, cards.MINERALS, cards.CHEMICALS, cards.INDUSTRIALS)


def check_influence(state: GameState, p: Player, action: Mapping[str, Any]) -> None:
    """Raise ``InvalidAction`` unless ``p`` may play the card now, as ``action`` asks."""
    card = action.get("card")
    if card not in data.INFLUENCE:
        raise InvalidAction(_("There is no Influence card called {card!r}."), card=card)
    if card not in p.hand:
        raise InvalidAction(_("You do not hold the Influence card {card!r}."), card=card)
    if p.influence_round == state.round:
        raise InvalidAction(_("You have already played an Influence card this round."))
    target = action.get("target")
    if card in data.TARGETED:
        if target not in state.names or target == p.name:
            raise InvalidAction(_("This card needs a rival: name another player as 'target'."))
    elif target is not None:
        raise InvalidAction(_("This card does not name a rival; leave 'target' out."))
    choice = action.get("choice")
    if card == "smuggled-goods" and choice not in INFLUENCE_RESOURCES:
        raise InvalidAction(_("Choose Food, Minerals, Chemicals or Industrials as 'choice'."))
    if card == "headhunter":
        if choice not in cards.EMPLOYEE_TYPES:
            raise InvalidAction(_("Choose worker, farmer, engineer or banker as 'choice'."))
        if not state.foreign[cards.FOREIGN_KIND[choice]]:
            raise InvalidAction(_("No Foreign Employee of that type is left."))
    if card not in data.CHOOSING and choice is not None:
        raise InvalidAction(_("This card asks no choice; leave 'choice' out."))
    if card == "soft-loan" and p.loans >= cards.MAX_LOANS:
        raise InvalidAction(_("You already have 4 loans, the most allowed."))
    if card == "debt-relief" and (p.loans == 0 or p.credits < 5):
        raise InvalidAction(_("Debt relief needs a loan to pay back and 5 credits."))


def play_influence(state: GameState, events: list[Event], p: Player,
                   action: Mapping[str, Any]) -> None:
    card, target, choice = action["card"], action.get("target"), action.get("choice")
    p.hand.remove(card)
    state.influence_discard.append(card)
    p.influence_round = state.round
    events.append({"type": "influence_played", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "card": card, "target": target, "choice": choice})
    kind, value = data.INFLUENCE[card].effects[0][:2]
    if kind == "credits":
        ops.transfer(state, events, p, value, "influence", card=card)
    elif kind == "vp":
        ops.gain_vp(state, events, p, value, "influence")
    elif kind == "energy":
        ops.gain(state, events, p, cards.ENERGY, value, "influence")
    elif kind == "resource":
        ops.gain(state, events, p, choice, value, "influence")
    elif kind == "foreign":
        p.employees.append(state.foreign[cards.FOREIGN_KIND[choice]].pop(0))
    elif kind == "loan":
        p.loans += 1
        ops.transfer(state, events, p, cards.LOAN_CREDITS, "loan", card=card)
    elif kind == "repay":
        p.loans -= 1
        ops.transfer(state, events, p, -value, "repay", card=card)
    elif kind == "clean":
        cleaned = min(value, p.penalty)
        p.penalty -= cleaned
        events.append({"type": "penalty", "audience": PUBLIC, "round": state.round,
                       "player": p.name, "vp": -cleaned, "reason": "influence"})
    elif kind == "audit":
        ops.pay(state, events, state.player(target), value, "influence", card=card)
    elif kind == "press":
        ops.gain_vp(state, events, state.player(target), -value, "influence")

