"""The Crisis round as a pure state machine: Event, Loan Interest, Planning, Operations
(4.1–4.14), Evaluation, the End of the Round and the end of the game.

A record holds decisions only: ``place``, ``resolve``, ``produce``, ``export``,
``black_market``, ``pass``, plus ``repay`` and ``influence`` (allowed whenever the game waits).
The engine moves on by itself as soon as a phase's decisions are complete. The rule decisions
the rulebook leaves open are listed in ``docs/engines/crisis.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import PUBLIC, Action, Event, InvalidAction
from games.crisis import board, cards, data, effects, ops, production
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


# --------------------------------------------------------------------------- round start


def begin_round(state: GameState, events: list[Event], *, event: bool = True) -> None:
    """Phases 1–3: the Event, Loan Interest, then Planning waits for the first Manager."""
    state.history.append({"round": state.round, "level": state.levels[state.round - 1],
                          "goal": state.goals[state.round - 1], "status_start": state.status})
    events.append({"type": "round", "audience": PUBLIC, "round": state.round})
    for p in state.players:
        p.black_market = {}
    if event:
        deck = state.event_decks[data.zone(state.status)]
        state.event = deck.pop(0) if deck else None  # a pinned null: no Event this round
        state.current["event"] = state.event
        if state.event:
            effects.resolve_event(state, events, state.event)
        else:
            effects.set_mods(state, None)
        for name in state.order:
            p = state.player(name)
            if p.loans:
                ops.pay(state, events, p, ops.interest(state) * p.loans, "interest")
    state.current["goal"] = ops.goal(state)
    start_planning(state)


def start_planning(state: GameState) -> None:
    state.phase = PLANNING
    state.placements = {}
    state.exports = []
    state.placed = 0


def managers_placed(state: GameState, name: str) -> int:
    return sum(names.count(name) for names in state.placements.values())


def next_placer(state: GameState) -> str | None:
    """Round-robin in turn order: the player with Managers left who has placed the fewest."""
    best: tuple[int, int] | None = None
    who = None
    for i, name in enumerate(state.order):
        placed = managers_placed(state, name)
        if placed < state.player(name).managers and (best is None or (placed, i) < best):
            best, who = (placed, i), name
    return who


# --------------------------------------------------------------------------- helpers


def _player(state: GameState, action: Mapping[str, Any]) -> Player:
    name = action.get("player")
    if not isinstance(name, str) or name not in state.names:
        raise InvalidAction(_("There is no player called {name!r}."), name=name)
    return state.player(name)


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
    p = _player(state, action)
    if state.phase != PLANNING:
        raise InvalidAction(_("Managers are placed only during Planning."))
    if next_placer(state) != p.name:
        raise InvalidAction(_("It is {name}'s turn to place a Manager."),
                            name=next_placer(state))
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
    if next_placer(state) is None:
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
        evaluate(state, events)


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
    p = _player(state, action)
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
    p = _player(state, action)
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


# --------------------------------------------------------------------------- exports


def _export_turn(state: GameState, action: Mapping[str, Any]) -> Player:
    p = _player(state, action)
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


def _export(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
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


def _black_market(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
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


def _pass(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = _export_turn(state, action)
    state.exports.pop(state.turn)
    events.append({"type": "passed", "audience": PUBLIC, "round": state.round,
                   "player": p.name})
    _log(state, {"player": p.name, "move": "pass"})
    if state.exports:
        state.turn %= len(state.exports)
    else:
        evaluate(state, events)


# --------------------------------------------------------------------------- any time


def _repay(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = _player(state, action)
    if p.loans == 0:
        raise InvalidAction(_("You have no loan to pay back."))
    if p.credits < cards.LOAN_CREDITS:
        raise InvalidAction(_("Paying back a loan costs 10 credits; you have {n}."), n=p.credits)
    p.loans -= 1
    ops.transfer(state, events, p, -cards.LOAN_CREDITS, "repay")


def _influence(state: GameState, events: list[Event], action: Mapping[str, Any]) -> None:
    p = _player(state, action)
    effects.check_influence(state, p, action)
    effects.play_influence(state, events, p, action)


# --------------------------------------------------------------------------- evaluation


def evaluate(state: GameState, events: list[Event]) -> None:
    """Phase 5, then the end of the game or the End of the Round and the next round."""
    goal = ops.goal(state)
    diffs = {p.name: p.vp - goal for p in state.players}
    delta = sum(diffs.values())
    state.goal_met = {name: d >= 0 for name, d in diffs.items()}
    state.current["evaluation"] = {"goal": goal, "vp": {p.name: p.vp for p in state.players},
                                   "differences": diffs, "delta": delta}
    effects.move_status(state, events, delta, "evaluation")
    state.current["status"] = state.status
    if state.round in cards.EVALUATION_INFLUENCE_ROUNDS:
        for name in state.order:
            if state.goal_met[name]:
                ops.draw_influence(state, events, state.player(name), "goal")
    if state.status < 0 or state.round == cards.ROUNDS:
        state.bankrupt = state.status < 0
        state.phase = OVER
        events.append({"type": "game_over", "audience": PUBLIC, "round": state.round,
                       "bankrupt": state.bankrupt})
        return
    end_of_round(state, events)
    state.round += 1
    deal_companies(state)
    begin_round(state, events)


def end_of_round(state: GameState, events: list[Event]) -> None:
    if state.temp_holder:
        state.player(state.temp_holder).employees.remove(cards.TEMP)
        state.temp_holder = None
    state.board_employees = [state.bag.pop(0) if state.bag else None
                             for _i in range(cards.BOARD_EMPLOYEES)]
    rows = cards.CONTRACT_ROWS
    state.market = [*state.market[rows:], *(draw_contract(state) for _i in range(rows))]
    events.append({"type": "end_of_round", "audience": PUBLIC, "round": state.round})


def draw_contract(state: GameState) -> str | None:
    """"The next available" contract: the Level I stack, then Level II, then Level III."""
    for level in cards.LEVELS:
        if state.contract_stacks[level]:
            return state.contract_stacks[level].pop(0)
    return None


def deal_companies(state: GameState) -> None:
    deck = state.company_decks[state.levels[state.round - 1]]
    state.board_companies = [deck.pop(0) if deck else None for _i in range(cards.BOARD_COMPANIES)]


# --------------------------------------------------------------------------- dispatch

HANDLERS = {"place": _place, "resolve": _resolve, "produce": _produce, "export": _export,
            "black_market": _black_market, "pass": _pass, "repay": _repay,
            "influence": _influence}


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
