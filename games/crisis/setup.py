"""Setup: the config (players, difficulty, plan), pinned chance outcomes and a stated situation.

Every deck is dealt here: a pinned list (``companies_order``, ``events_order``,
``influence_order``, ``employee_draws``, ``contracts_order``) gives the first cards of a deck
in order, and the rest of the deck follows in the seed's shuffle. See ``docs/engines/crisis.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Event, InvalidConfig, check_config, player_names
from games.crisis import cards, data, effects, ops, rounds, rules
from games.crisis.state import EXPORTS, OVER, PLANNING, PRODUCTION, GameState, Player
from games.i18n import _

CONFIG_KEYS = {"players", "difficulty", "plan", "companies_order", "events_order",
               "influence_order", "employee_draws", "contracts_order", "start"}
START_KEYS = {"round", "phase", "status", "goal", "event", "order", "exports", "players",
              "board"}
START_PHASES = ("event", "planning", "production", "exports", "evaluation", "over")
# A start before Operations cannot hand out the Temp Employee: a player takes it at 4.7 and
# keeps it until the End of the Round (the rulebook).
BEFORE_OPERATIONS = ("event", "planning")
PLAYER_KEYS = {"credits", "vp", "loans", "penalty", "warehouse", "employees", "companies",
               "hand", "managers"}


def deal(pool: Sequence[str], pinned: Any, rng: random.Random, what: str, *,
         blanks: bool = False) -> list[Any]:
    """``pinned`` in order, then the rest of ``pool`` shuffled (each deck has its own
    generator, so pinning one deck never changes another). ``blanks``: a pinned ``None`` is
    a draw of nothing (Events: a round with no Event)."""
    rest = sorted(pool)
    if pinned is None:
        pinned = []
    if not isinstance(pinned, list):
        raise InvalidConfig(_("The pinned order of {what} must be a list."), what=what)
    for card in pinned:
        if card is None and blanks:
            continue
        if card not in rest:
            raise InvalidConfig(_("The pinned order of {what} names {card!r}, which is not "
                                  "left in that deck."), what=what, card=card)
        rest.remove(card)
    rng.shuffle(rest)
    return [*pinned, *rest]


def _by_key(config: Mapping[str, Any], key: str, keys: Sequence[str]) -> Mapping[str, Any]:
    value = config.get(key) or {}
    if not isinstance(value, Mapping) or not set(value) <= set(keys):
        raise InvalidConfig(_("'{key}' must map {keys} to lists."), key=key,
                            keys=", ".join(keys))
    return value


def _plan(config: Mapping[str, Any], players: int) -> tuple[str, list[str], list[int]]:
    difficulty = config.get("difficulty", data.MEDIUM)
    if difficulty not in data.DIFFICULTIES:
        raise InvalidConfig(_("'difficulty' must be easy, medium or difficult."))
    card = data.plan_for(players, difficulty)
    custom = config.get("plan")
    if custom is None:
        return card.id, list(card.levels), list(card.goals)
    if not isinstance(custom, Mapping) or set(custom) != {"levels", "goals"}:
        raise InvalidConfig(_("'plan' must give 'levels' and 'goals' for the 7 rounds."))
    levels, goals = custom["levels"], custom["goals"]
    if (not isinstance(levels, list) or len(levels) != cards.ROUNDS
            or any(lv not in cards.LEVELS for lv in levels) or levels[0] != "I"
            or levels != sorted(levels, key=cards.LEVELS.index)
            or levels.count("I") > 3 or levels.count("II") > 3 or levels.count("III") > 2):
        raise InvalidConfig(_("'plan.levels' must be 7 levels from I to III in order, starting "
                              "with I, at most 3 rounds of I or II and 2 of III."))
    if not isinstance(goals, list) or len(goals) != cards.ROUNDS or \
            any(not isinstance(g, int) or isinstance(g, bool) for g in goals):
        raise InvalidConfig(_("'plan.goals' must be 7 whole numbers."))
    return "custom", list(levels), list(goals)


def build(config: Mapping[str, Any], seed: int) -> tuple[GameState, list[Event]]:
    """The state after setup, and the events of round 1 (or of the stated situation)."""
    check_config(config, seed, CONFIG_KEYS)
    names = player_names(config)
    if not 2 <= len(names) <= 5:
        raise InvalidConfig(_("Crisis needs 2 to 5 players, not {n}."), n=len(names))
    plan_id, levels, goals = _plan(config, len(names))

    def rng(deck: str) -> random.Random:
        return random.Random(f"{seed}:setup:{deck}")

    state = GameState(seed=seed, players=[Player(name=n) for n in names], plan_id=plan_id,
                      levels=levels, goals=goals, order=list(names))
    start = config.get("start")
    if start is not None and not isinstance(start, Mapping):
        raise InvalidConfig(_("'start' must be an object."))
    start = start or {}
    unknown = sorted(set(start) - START_KEYS)
    if unknown:
        raise InvalidConfig(_("Unknown 'start' keys: {keys}."), keys=", ".join(unknown))
    staged = _stage_players(state, start.get("players") or {})
    held_companies = {c for p in state.players for c in p.companies}
    held_tiles = {t for p in state.players for t in p.employees}
    held_cards = [c for p in state.players for c in p.hand]
    board = start.get("board") or {}
    if not isinstance(board, Mapping) or not set(board) <= {"companies", "employees",
                                                            "contracts"}:
        raise InvalidConfig(_("'start.board' may give 'companies', 'employees', 'contracts'."))

    companies_pin = _by_key(config, "companies_order", cards.LEVELS)
    board_companies = _list(board.get("companies"), cards.BOARD_COMPANIES, "companies")
    used = held_companies | {c for c in board_companies or [] if c}
    for c in used:
        if c not in cards.COMPANIES:
            raise InvalidConfig(_("There is no Company called {card!r}."), card=c)
    for level in cards.LEVELS:
        pool = [c for c, card in cards.COMPANIES.items() if card.level == level and c not in used]
        state.company_decks[level] = deal(pool, companies_pin.get(level), rng(f"companies:{level}"),
                                          f"companies_order.{level}")

    events_pin = _by_key(config, "events_order", data.ZONES)
    for zone in data.ZONES:
        pool = [c.id for c in data.EVENTS[zone]]
        state.event_decks[zone] = deal(pool, events_pin.get(zone), rng(f"events:{zone}"),
                                      f"events_order.{zone}", blanks=True)

    pool = list(data.INFLUENCE_DECK)
    for c in held_cards:
        if c not in pool:
            raise InvalidConfig(_("There is no Influence card {card!r} left to hold."), card=c)
        pool.remove(c)
    state.influence_deck = deal(pool, config.get("influence_order"), rng("influence"),
                                "influence_order")

    board_tiles = _list(board.get("employees"), cards.BOARD_EMPLOYEES, "employees")
    bag = [t for k in cards.BAG_KINDS for t in cards.tile_ids(k) if t not in held_tiles]
    state.foreign = {k: [t for t in cards.tile_ids(k) if t not in held_tiles]
                     for k in cards.FOREIGN_KIND.values()}
    on_board: list[str | None] = []
    for kind in board_tiles or []:
        on_board.append(None if kind is None else _take_tile(bag, kind))
    pins = config.get("employee_draws")
    if pins is not None and not isinstance(pins, list):
        raise InvalidConfig(_("'employee_draws' must list Employee kinds, e.g. 'E3'."))
    drawn = [_take_tile(bag, kind) for kind in pins or []]
    state.bag = [*drawn, *deal(bag, None, rng("bag"), "employee_draws")]

    contracts_pin = _by_key(config, "contracts_order", cards.LEVELS)
    for level in cards.LEVELS:
        pool = [k for k, n in cards.CONTRACTS[level].items() for _i in range(n)]
        dealt = deal(pool, contracts_pin.get(level), rng(f"contracts:{level}"),
                     f"contracts_order.{level}")
        keep = len(pool) - cards.CONTRACTS_REMOVED[level]
        if len(contracts_pin.get(level) or []) > keep:
            raise InvalidConfig(_("Only {n} Level {level} Export Contracts stay in the game."),
                                n=keep, level=level)
        state.contract_stacks[level] = dealt[:keep]

    rnd = _whole(start.get("round", 1), "round", 1, cards.ROUNDS)
    state.round = rnd
    drawn = [rounds.draw_contract(state)
             for _i in range(cards.CONTRACT_ROWS * cards.CONTRACT_COLUMNS + 4 * (rnd - 1))]
    contracts = _list(board.get("contracts"), 12, "contracts")
    for c in contracts or []:
        if c is not None and (not isinstance(c, str) or "-" not in c
                              or c.rsplit("-", 1)[0] not in cards.EXPORT_PRICE):
            raise InvalidConfig(_("{card!r} is not an Export Contract such as 'food-4'."),
                                card=c)
    # Without a stated market, a later round shows the last 12 tiles drawn (as if none had
    # been exported yet).
    state.market = list(contracts) if contracts is not None else drawn[-12:]
    _start_situation(state, start, staged)
    if board_companies is not None:
        state.board_companies = list(board_companies)
    else:
        rounds.deal_companies(state)
    if board_tiles is not None:
        state.board_employees = on_board
    else:
        state.board_employees = [state.bag.pop(0) for _i in range(cards.BOARD_EMPLOYEES)]
    for p in state.players:
        _open_account(state, p)
    events: list[Event] = []
    _begin(state, events, start)
    return state, events


def _list(value: Any, n: int, what: str) -> list[Any] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        raise InvalidConfig(_("'start.board.{what}' must list {n} entries (null for an empty "
                              "space)."), what=what, n=n)
    return list(value)


def _take_tile(pool: list[str], kind: Any) -> str:
    for tile in pool:
        if cards.kind_of(tile) == kind:
            pool.remove(tile)
            return tile
    raise InvalidConfig(_("No Employee of kind {kind!r} is left in the bag."), kind=kind)


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidConfig(_("'start.{what}' must be a whole number from {low} to {high}."),
                            what=what, low=low, high=high)
    return value


def _stage_players(state: GameState, staged: Any) -> dict[str, Mapping[str, Any]]:
    if not isinstance(staged, Mapping) or not set(staged) <= set(state.names):
        raise InvalidConfig(_("'start.players' must map player names to their situation."))
    taken: dict[str, list[str]] = {}
    for name, raw in staged.items():
        if not isinstance(raw, Mapping) or not set(raw) <= PLAYER_KEYS:
            raise InvalidConfig(_("A player's situation may give: {keys}."),
                                keys=", ".join(sorted(PLAYER_KEYS)))
        p = state.player(name)
        p.vp = _whole(raw.get("vp", p.vp), "players.vp", 0, 999)
        p.loans = _whole(raw.get("loans", 0), "players.loans", 0, cards.MAX_LOANS)
        p.penalty = _whole(raw.get("penalty", 0), "players.penalty", 0, 999)
        house = raw.get("warehouse", {})
        if not isinstance(house, Mapping) or not set(house) <= set(cards.RESOURCES):
            raise InvalidConfig(_("A Warehouse maps resources (energy, food, ...) to counts."))
        for resource, n in house.items():
            p.warehouse[resource] = _whole(n, "players.warehouse", 0,
                                           cards.WAREHOUSE[resource])
            state.supply_out[resource] = state.supply_out.get(resource, 0) + p.warehouse[resource]
        for key in ("companies", "hand", "employees"):
            if not isinstance(raw.get(key, []), list):
                raise InvalidConfig(_("'{key}' must be a list."), key=key)
        p.companies = list(raw.get("companies", []))
        for c in p.companies:
            if c not in cards.COMPANIES:
                raise InvalidConfig(_("There is no Company called {card!r}."), card=c)
            if sum(q.companies.count(c) for q in state.players) > 1:
                raise InvalidConfig(_("Only one player can hold {card}."), card=c)
        p.hand = list(raw.get("hand", []))
        for kind in raw.get("employees", []):
            if not isinstance(kind, str):
                raise InvalidConfig(_("Give Employees by kind, e.g. 'E3', 'FW' or 'TEMP'."))
            # The one Temp Employee goes to one player once (and is then off the board).
            pool = taken.setdefault(kind, cards.tile_ids(kind) if kind in cards.TILES else [])
            if not pool:
                raise InvalidConfig(_("No Employee of kind {kind!r} is left to give."),
                                    kind=kind)
            p.employees.append(pool.pop(0))
            if kind == cards.TEMP:
                state.temp_holder = name
        p.managers = raw.get("managers", cards.MANAGERS + (
            ops.icons(p) >= cards.EXTRA_MANAGER_ICONS))
        if p.managers not in (cards.MANAGERS, cards.MANAGERS + 1):
            raise InvalidConfig(_("A player has 4 or 5 Managers."))
    return dict(staged)


def _start_situation(state: GameState, start: Mapping[str, Any],
                     staged: Mapping[str, Mapping[str, Any]]) -> None:
    state.status = start.get("status", cards.START_STATUS)
    # Below 0 Axia is bankrupt: only a start at the end of the game ('over') may say so.
    if not isinstance(state.status, int) or isinstance(state.status, bool) or \
            state.status > cards.MAX_STATUS:
        raise InvalidConfig(_("'start.status' must be a whole number up to 45 (below 0: Axia "
                              "is bankrupt, for a start at 'over')."))
    if "goal" in start:
        state.goal_override = {"round": state.round,
                               "goal": _whole(start["goal"], "goal", 0, 999)}
    order = start.get("order", state.names)
    if not isinstance(order, list) or sorted(order) != sorted(state.names):
        raise InvalidConfig(_("'start.order' must list every player once."))
    state.order = list(order)
    for i, name in enumerate(state.order):
        p = state.player(name)
        p.credits = staged.get(name, {}).get("credits", cards.START_CREDITS[i])
        if not isinstance(p.credits, int) or isinstance(p.credits, bool) or p.credits < 0:
            raise InvalidConfig(_("A player's credits must be a whole number, 0 or more."))


def _open_account(state: GameState, p: Player) -> None:
    state.opening.append({"type": "transfer", "audience": "public", "from": ops.BANK,
                          "to": ops.account(p.name), "amount": p.credits, "reason": "start",
                          "round": state.round})


def _begin(state: GameState, events: list[Event], start: Mapping[str, Any]) -> None:
    phase = start.get("phase", "event")
    if phase not in START_PHASES:
        raise InvalidConfig(_("'start.phase' must be one of: {phases}."),
                            phases=", ".join(START_PHASES))
    event = start.get("event")
    if event is not None and event not in data.EVENT_CARDS:
        raise InvalidConfig(_("There is no Event card {card!r}."), card=event)
    if state.temp_holder is not None and phase in BEFORE_OPERATIONS:
        raise InvalidConfig(_("A player holds the Temp Employee only from Operations to the "
                              "End of the Round: give it in a start at 'production' or "
                              "later."))
    if state.status < 0 and phase != OVER:
        raise InvalidConfig(_("A 'start.status' below 0 is a bankrupt Axia, and the game is "
                              "over: give 'phase': 'over'."))
    if phase == OVER and state.status >= 0 and state.round != cards.ROUNDS:
        raise InvalidConfig(_("With Axia solvent the game ends only after round 7: a start at "
                              "'over' needs 'round': 7 or a 'status' below 0."))
    if phase == "event":
        if event is not None:
            raise InvalidConfig(_("'start.event' is for a start after the Event; pin the "
                                  "Event deck with 'events_order' instead."))
        rounds.begin_round(state, events)
        return
    for deck in state.event_decks.values():
        if event in deck:
            deck.remove(event)
    rounds.begin_round(state, events, event=False)
    state.event = event
    state.current["event"] = event
    effects.set_mods(state, event)
    state.current["goal"] = ops.goal(state)
    exports = start.get("exports", [])
    if not isinstance(exports, list) or not set(exports) <= set(state.names) or \
            len(set(exports)) != len(exports):
        raise InvalidConfig(_("'start.exports' lists players with a Manager on Exports, "
                              "left to right, each once."))
    if phase == PLANNING:
        return
    if phase == OVER:
        rounds.stated_end(state, events)
        return
    state.exports = list(exports)
    state.placements = {"exports": list(exports)} if exports else {}
    if phase == "evaluation":
        state.exports = []
        rounds.evaluate(state, events)
        return
    state.phase = PRODUCTION
    state.produced = [p.name for p in state.players if not p.companies] \
        if phase == PRODUCTION else list(state.names)
    if phase == EXPORTS:
        state.phase = EXPORTS
        state.turn = 0
        state.current["exports"] = list(state.exports)
    rules.advance(state, events)


def new_game(config: Mapping[str, Any], seed: int) -> GameState:
    """The game after setup, already in round 1's Planning (or at the stated situation)."""
    return build(config, seed)[0]
