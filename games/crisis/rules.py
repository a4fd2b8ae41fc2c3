"""The Crisis round as a pure state machine: Planning, Operations 4.1–4.13, the actions
allowed at any time, and the dispatch (``step``, ``apply``, ``replay_actions``). The round's
frame (Event, Interest, Evaluation, End of Round, end of game) is in ``rounds.py``; Exports
(4.14) in ``exports.py``.

A record holds decisions only: ``place``, ``resolve``, ``produce``, ``export``,
``black_market``, ``pass``, plus ``repay`` and ``influence`` (allowed whenever the game waits).
The engine moves on by itself as soon as a phase's decisions are complete. The rule decisions
the rulebook leaves open are listed in ``docs/engines/crisis.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import PUBLIC, Action, Event, InvalidAction
from games.crisis import board, cards, effects, exports, ops, production, rounds
from games.crisis.state import (
    EXPORTS,
    OPERATIONS,
    OVER,
    PLANNING,
    PRODUCTION,
    GameState,
    Player,
)
from games.i18n import _

GAME_ID = "crisis"


# --------------------------------------------------------------------------- helpers


def space_free(state: GameState, space: str, p: Player) -> str | None:
    """Why ``p`` may not place a Manager on ``space`` now (a msgid), or None."""
    if space not in board.LOCATION_OF:
        return _("There is no action space called {space!r}.")
    if board.LOCATION_OF[space] in ops.closed(state):
        return _("That location is Out of Service this round.")
    if space == board.EXPORTS:
        if p.name in state.exports:
            return _("You already have a Manager on Exports: only one per player.")
        if len(state.exports) >= cards.EXPORT_SPACES:
            return _("All five Exports spaces are taken.")
        return None
    if space not in board.MULTI and state.placements.get(space):
        return _("Another Manager is already on that space.")
    if space == "loan" and p.loans >= cards.MAX_LOANS:
        return _("You already have 4 loans, the most allowed.")
    if space in board.EMPLOYEE_SPACES and \
            state.board_employees[board.EMPLOYEE_SPACES.index(space)] is None:
        return _("There is no Employee on that space.")
    if space in board.COMPANY_SPACES and \
            state.board_companies[board.COMPANY_SPACES.index(space)] is None:
        return _("There is no Company on that space.")
    if space == "temp-employee" and state.temp_holder is not None:
        return _("The Temp Employee is not on the board.")
    return None


def legal_spaces(state: GameState, p: Player) -> list[str]:
    return [s for s in board.SPACES if space_free(state, s, p) is None]


# --------------------------------------------------------------------------- planning


def _place(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = ops.acting_player(state, action)
    if state.phase != PLANNING:
        raise InvalidAction(_("Managers are placed only during Planning."))
    if rounds.next_placer(state) != p.name:
        raise InvalidAction(_("It is {name}'s turn to place a Manager."),
                            name=rounds.next_placer(state))
    space = action.get("space")
    reason = space_free(state, space, p) if isinstance(space, str) else \
        _("Name the action space as a string, e.g. 'government-subsidy'.")
    if reason:
        raise InvalidAction(reason, space=space)
    state.placements.setdefault(space, []).append(p.name)
    if space == board.EXPORTS:
        state.exports.append(p.name)
    state.placed += 1
    events.append({"type": "placed", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "space": space})
    if rounds.next_placer(state) is None:
        start_operations(state, events)


# --------------------------------------------------------------------------- operations


def start_operations(state: GameState, events: list[Event]) -> None:
    state.phase = OPERATIONS
    state.steps = []
    for _loc, spaces in board.LOCATIONS:
        for space in spaces:
            if space == board.EXPORTS:
                continue
            names = state.placements.get(space, [])
            for name in (n for n in state.order if n in names) if space in board.MULTI \
                    else names:
                state.steps.append([space, name])
    state.current["placements"] = {k: list(v) for k, v in state.placements.items()}
    advance(state, events)


def advance(state: GameState, events: list[Event]) -> None:
    """Resolve spaces until one asks a player, then Production, Exports and Evaluation."""
    while state.phase == OPERATIONS and state.steps:
        space, name = state.steps[0]
        if space in board.CHOOSING:
            return
        state.steps.pop(0)
        _automatic(state, events, space, state.player(name))
    if state.phase == OPERATIONS:
        state.phase = PRODUCTION
        state.produced = [p.name for p in state.players if not p.companies]
    if state.phase == PRODUCTION and len(state.produced) == len(state.players):
        state.phase = EXPORTS
        state.turn = 0
        state.current["exports"] = list(state.exports)
    if state.phase == EXPORTS and not state.exports:
        rounds.evaluate(state, events)


def _automatic(state: GameState, events: list[Event], space: str, p: Player) -> None:
    count = state.placements[space].count(p.name)
    if space == "shady-business":
        for _i in range(count):
            ops.draw_influence(state, events, p, "shady-business")
    elif space == "government-subsidy":
        ops.transfer(state, events, p, ops.subsidy(state) * count, "subsidy")
    elif space == "leadership":
        state.order.remove(p.name)
        state.order.insert(0, p.name)
        ops.gain_vp(state, events, p, 1, "leadership")
        events.append({"type": "turn_order", "audience": PUBLIC, "round": state.round,
                       "order": list(state.order)})
    elif space == "initiative":
        state.order.remove(p.name)
        state.order.insert(min(1, len(state.order)), p.name)
        events.append({"type": "turn_order", "audience": PUBLIC, "round": state.round,
                       "order": list(state.order)})
        ops.draw_influence(state, events, p, "initiative")
    elif space == "loan":
        if p.loans >= cards.MAX_LOANS or p.vp < cards.LOAN_VP:
            events.append({"type": "loan_refused", "audience": PUBLIC, "round": state.round,
                           "player": p.name})
            return
        p.loans += 1
        ops.transfer(state, events, p, cards.LOAN_CREDITS, "loan")
        ops.gain_vp(state, events, p, -cards.LOAN_VP, "loan")
    elif space == "temp-employee":
        state.temp_holder = p.name
        p.employees.append(cards.TEMP)
        events.append({"type": "hired", "audience": PUBLIC, "round": state.round,
                       "player": p.name, "tile": cards.TEMP})
    elif space in board.EMPLOYEE_SPACES:
        i = board.EMPLOYEE_SPACES.index(space)
        tile = state.board_employees[i]
        state.board_employees[i] = None
        if tile:
            p.employees.append(tile)
            events.append({"type": "hired", "audience": PUBLIC, "round": state.round,
                           "player": p.name, "tile": tile})


def _resolve(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = ops.acting_player(state, action)
    if state.phase != OPERATIONS or not state.steps:
        raise InvalidAction(_("No reserved space is waiting to be resolved."))
    space, name = state.steps[0]
    if action.get("space") != space or name != p.name:
        raise InvalidAction(_("The space waiting to be resolved is {space}, for {name}."),
                            space=space, name=name)
    choice = action.get("choice")
    choice = str(choice) if isinstance(choice, int) and not isinstance(choice, bool) else choice
    opts = board.options(state, space, p)
    if choice not in opts:
        raise InvalidAction(_("On {space} you may choose: {options}."), space=space,
                            options=", ".join(opts))
    state.steps.pop(0)
    events.append({"type": "resolved", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "space": space, "choice": choice})
    if choice == board.REFUSE:
        ops.penalty(state, events, p, board.refusal_penalty(state, space), space)
    else:
        _carry_out(state, events, space, p, choice)
    advance(state, events)


def _carry_out(state: GameState, events: list[Event], space: str, p: Player,
               choice: str) -> None:
    if space == "domestic-industry":
        ops.transfer(state, events, p, -cards.IMPORT_PRICE[choice][1], "domestic")
        ops.gain(state, events, p, choice, 1, "domestic")
    elif space == "foreign-employees":
        ops.transfer(state, events, p, -ops.foreign_cost(state), "foreign")
        tile = state.foreign[cards.FOREIGN_KIND[choice]].pop(0)
        p.employees.append(tile)
        events.append({"type": "hired", "audience": PUBLIC, "round": state.round,
                       "player": p.name, "tile": tile})
    elif space in board.COMPANY_SPACES:
        i = board.COMPANY_SPACES.index(space)
        company = state.board_companies[i]
        assert company is not None
        state.board_companies[i] = None
        ops.transfer(state, events, p, -ops.company_cost(state, company), "company",
                     company=company)
        ops.gain_vp(state, events, p, cards.COMPANIES[company].vp, "company")
        p.companies.append(company)
        events.append({"type": "invested", "audience": PUBLIC, "round": state.round,
                       "player": p.name, "company": company})
        if p.managers < cards.MANAGERS + 1 and ops.icons(p) >= cards.EXTRA_MANAGER_ICONS:
            p.managers = cards.MANAGERS + 1
            events.append({"type": "fifth_manager", "audience": PUBLIC, "round": state.round,
                           "player": p.name})
    elif space in cards.IMPORTS:
        goods, most, vp, price = cards.IMPORTS[space]
        units = 1 if choice == "buy" else int(choice)
        unit_price = ops.import_price(state, price, sum(goods.values()) if most == 1 else 1)
        ops.transfer(state, events, p, -unit_price * units, "import")
        ops.gain_vp(state, events, p, -vp * units, "import")
        for resource, n in goods.items():
            ops.gain(state, events, p, resource, n * units, "import")
    elif space in cards.ENERGY_BUY:
        ops.transfer(state, events, p, -cards.ENERGY_BUY[space][0] * int(choice), "energy")
        ops.gain(state, events, p, cards.ENERGY, int(choice), "energy")
    elif space in cards.ENERGY_CONVERT:
        resource, energy = cards.ENERGY_CONVERT[space]
        ops.spend(state, events, p, resource, 1, "energy")
        ops.gain(state, events, p, cards.ENERGY, energy, "energy")


# --------------------------------------------------------------------------- production


def _produce(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = ops.acting_player(state, action)
    if state.phase != PRODUCTION:
        raise InvalidAction(_("It is not the Production phase."))
    if p.name in state.produced:
        raise InvalidAction(_("You have already produced this round."))
    result = production.check_plan(state, p, action.get("plan"))
    state.produced.append(p.name)
    for resource, n in result["inputs"].items():
        ops.spend(state, events, p, resource, n, "production")
    for what, n in result["output"].items():
        if what == "credits":
            ops.transfer(state, events, p, n, "production")
        elif what == "vp":
            ops.gain_vp(state, events, p, n, "production")
        else:
            ops.gain(state, events, p, what, n, "production")
    events.append({"type": "produced", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "companies": result["companies"]})
    state.current.setdefault("production", {})[p.name] = result["output"]
    advance(state, events)


# --------------------------------------------------------------------------- any time


def _repay(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = ops.acting_player(state, action)
    if p.loans == 0:
        raise InvalidAction(_("You have no loan to pay back."))
    if p.credits < cards.LOAN_CREDITS:
        raise InvalidAction(_("Paying back a loan costs 10 credits; you have {n}."), n=p.credits)
    p.loans -= 1
    ops.transfer(state, events, p, -cards.LOAN_CREDITS, "repay")


def _influence(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = ops.acting_player(state, action)
    effects.check_influence(state, p, action)
    effects.play_influence(state, events, p, action)


# --------------------------------------------------------------------------- dispatch

HANDLERS = {"place": _place, "resolve": _resolve, "produce": _produce,
            "export": exports.export, "black_market": exports.black_market,
            "pass": exports.pass_turn, "repay": _repay, "influence": _influence}


def step(state: GameState, action: Action) -> list[Event]:
    """Check ``action`` completely, then apply it to ``state`` in place."""
    if not isinstance(action, Mapping):
        raise InvalidAction(_("An action must be an object with a 'type'."))
    kind = action.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise InvalidAction(_("Unknown action type {type!r}."), type=kind)
    if state.phase == OVER:
        raise InvalidAction(_("The game is over."))
    events: list[Event] = []
    handler(state, events, action)
    return events


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    new = state.clone()
    return new, step(new, action)


def replay_actions(state: GameState, actions: Iterable[Action]) -> tuple[GameState,
                                                                          list[Event]]:
    """Apply decisions in place (the fast path for replays); stops at the first invalid one,
    which changes nothing (every handler checks everything before it changes the state)."""
    events: list[Event] = []
    for action in actions:
        events.extend(step(state, action))
    return state, events


def is_over(state: GameState) -> bool:
    return state.phase == OVER
