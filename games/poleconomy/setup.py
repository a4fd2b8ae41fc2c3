"""Setting up a game: the config, the stated situation, Basic Incomes and the starting cash.

Config keys (all documented in ``docs/engines/poleconomy.md``): ``players`` (2 to 6 names, in
seat order), ``rounds`` (the lesson length), ``consent_mode`` ("ballot" or "orders"),
``dice`` (pinned 2d6 rolls, used in the order the engine rolls), ``buyback_draws`` (pinned
sellers when the Treasury buys back fewer Bonds than offered), ``parties`` (pins set-up step
2), ``start`` (a stated situation: the game begins at the orders of that round), and for tests
and worked records ``board`` and ``index_track`` (a board and an Inflation Index track other
than our edition's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Event, InvalidAction, InvalidConfig, check_config, player_names
from games.i18n import _
from games.poleconomy import data, orders
from games.poleconomy.money import BANK, TREASURY, account, emit, move, roll
from games.poleconomy.state import ORDERS, PARTIES, GameState, Player

CONFIG_KEYS = {"players", "rounds", "consent_mode", "dice", "buyback_draws", "parties",
               "start", "board", "index_track"}
START_KEYS = {"round", "basic_incomes", "cash", "positions", "tracks", "firms",
              "business_insurance", "life_insurance", "bonds", "bonds_issued", "index",
              "parties", "government", "pm", "cabinet", "salaries", "tax", "votes", "treasury",
              "bank", "auction", "first"}


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_parties(value: Any, names: list[str]) -> dict[str, list[str]]:
    if not isinstance(value, Mapping):
        raise InvalidConfig(_("'parties' must map each party's name to its members."))
    seen: set[str] = set()
    for party, members in value.items():
        if not isinstance(party, str) or not party.strip() or party in names:
            raise InvalidConfig(_("A party needs a name that is not a player's name."))
        if not isinstance(members, list) or len(members) < 2:
            raise InvalidConfig(_("The party {party!r} needs at least two members."),
                                party=party)
        for m in members:
            if m not in names or m in seen:
                raise InvalidConfig(_("Each party member must be a player of this game, in "
                                      "one party only."))
            seen.add(m)
    return {k: list(v) for k, v in value.items()}


def check_board(value: Any) -> dict[str, list[str]]:
    """Config ``board``: ``{"inner": [...], "outer": [...]}``, each track's squares clockwise
    (either key may be left out: our edition's track). Squares are our edition's, by id; a
    square not on either track is not in the game. Each track holds the four corners once;
    any other square is on one track once; the Start square is on the inner track; a board
    with Advertisers has a Company."""
    if not isinstance(value, Mapping) or not value or set(value) - set(data.TRACKS):
        raise InvalidConfig(_("'board' must be an object giving the \"inner\" track, the "
                              "\"outer\" track or both as lists of squares."))
    loops = {t: list(value.get(t, data.LOOPS[t])) if isinstance(value.get(t, []), list)
             else None for t in data.TRACKS}
    seen: set[str] = set()
    for track, loop in loops.items():
        if loop is None or not all(isinstance(s, str) and s in data.SQUARES for s in loop):
            raise InvalidConfig(_("'board.{track}' must list squares of our edition by id, "
                                  "such as \"c1\", \"idx3\" or \"bonds\"."), track=track)
        if sorted(s for s in loop if s in data.CORNERS) != sorted(data.CORNERS):
            raise InvalidConfig(_("'board.{track}' must hold each of the four corners exactly "
                                  "once."), track=track)
        for square in loop:
            if (square in seen and square not in data.CORNERS) or loop.count(square) > 1:
                raise InvalidConfig(_("The square {square} is on the board more than once."),
                                    square=square)
            seen.add(square)
    if data.START not in loops[data.INNER]:
        raise InvalidConfig(_("The Start square must be on the inner track."))
    kinds = {data.SQUARES[s].kind for s in seen}
    if data.ADVERTISER in kinds and data.COMPANY not in kinds:
        raise InvalidConfig(_("A board with Advertisers needs a Company for them to send "
                              "players to."))
    return {t: list(loop) for t, loop in loops.items() if loop is not None}


def check_index_track(value: Any) -> list[list[Any]]:
    """Config ``index_track``: the Inflation Index's spaces clockwise from space 1, each
    ``{"effect": "election" | "tax" | "bonds" | "salary", "value": n >= 1}``."""
    kinds = (data.ELECTION, data.TAX, data.BOND_INTEREST_SPACE, data.SALARY)
    if not isinstance(value, list) or not value or not all(
            isinstance(space, Mapping) and set(space) == {"effect", "value"} and
            space["effect"] in kinds and _is_count(space["value"]) and space["value"] >= 1
            for space in value):
        raise InvalidConfig(_("'index_track' must list the Inflation Index's spaces clockwise "
                              "from space 1, each with an 'effect' (election, tax, bonds or "
                              "salary) and a 'value' (a whole number of at least 1)."))
    return [[space["effect"], space["value"]] for space in value]


def new_state(config: Mapping[str, Any], seed: int) -> GameState:
    check_config(config, seed, CONFIG_KEYS)
    names = player_names(config)
    if not data.MIN_PLAYERS <= len(names) <= data.MAX_PLAYERS:
        raise InvalidConfig(_("Poleconomy needs 2 to 6 players, not {n}."), n=len(names))
    rounds = config.get("rounds", data.DEFAULT_ROUNDS)
    if not _is_count(rounds) or rounds < 1:
        raise InvalidConfig(_("'rounds' must be a whole number of at least 1."))
    mode = config.get("consent_mode", "ballot")
    if mode not in ("ballot", "orders"):
        raise InvalidConfig(_("'consent_mode' must be \"ballot\" or \"orders\"."))
    dice = config.get("dice", [])
    if not isinstance(dice, list) or not all(
            isinstance(d, list) and len(d) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in d)
            for d in dice):
        raise InvalidConfig(_("'dice' must list pairs of dice, each from 1 to 6, such as "
                              "[[3, 4], [6, 6]]."))
    draws = config.get("buyback_draws", [])
    if not isinstance(draws, list) or any(n not in names for n in draws):
        raise InvalidConfig(_("'buyback_draws' must list players of this game."))
    board = check_board(config["board"]) if "board" in config else None
    index_track = check_index_track(config["index_track"]) if "index_track" in config else None
    players = [Player(name=n, seat=i) for i, n in enumerate(names)]
    state = GameState(seed=seed, players=players, rounds=rounds, consent_mode=mode,
                      dice_pin=[list(d) for d in dice], buyback_pin=list(draws),
                      board=board, index_track=index_track)
    state.multiplier = state.layout().index_values[0]  # the marker starts on space 1
    return state


def set_up(state: GameState, config: Mapping[str, Any], events: list[Event]) -> None:
    """Set-up steps 1 and 4: Basic Incomes by 2d6, the Bank's $3,000, the starting cash."""
    state.bank = state.money_supply = data.BANK_CAPITAL
    for p in state.players:
        a, b = roll(state, events, p.name, "basic-income")
        p.bi = a + b
        emit(state, events, {"type": "basic_income", "player": p.name, "bi": p.bi})
    for p in state.players:
        move(state, events, BANK, account(p.name), 4 * p.bi + 10, "starting-cash")
    state.phase = PARTIES


def stated_situation(state: GameState, start: Any, events: list[Event]) -> None:
    """Begin at the orders of ``start["round"]`` from a stated situation (see the docs)."""
    if not isinstance(start, Mapping):
        raise InvalidConfig(_("'start' must be an object."))
    unknown = sorted(set(start) - START_KEYS)
    if unknown:
        raise InvalidConfig(_("Unknown 'start' keys: {keys}."), keys=", ".join(unknown))
    names = state.names
    layout = state.layout()

    def per_player(key: str, default: Any, ok: Any) -> dict[str, Any]:
        value = start.get(key, {})
        if not isinstance(value, Mapping) or any(n not in names for n in value) or \
                not all(ok(v) for v in value.values()):
            raise InvalidConfig(_("'start.{key}' must map players of this game to valid "
                                  "values."), key=key)
        return {n: value.get(n, default(n)) for n in names}

    bis = per_player("basic_incomes", lambda n: None, lambda v: _is_count(v) and 2 <= v <= 12)
    if any(v is None for v in bis.values()):
        raise InvalidConfig(_("'start.basic_incomes' must give every player a Basic Income "
                              "from 2 to 12."))
    cash = per_player("cash", lambda n: 4 * bis[n] + 10, _is_count)
    positions = per_player("positions", lambda n: data.START, lambda v: v in layout.squares)
    # A player off the corners is on their square's track; on a corner the stated track is the
    # one they arrived by, the inner one unless stated.
    tracks = per_player("tracks", lambda n: layout.track_of(positions[n]) or data.INNER,
                        lambda v: v in data.TRACKS)
    for n in names:
        own = layout.track_of(positions[n])
        if own is not None and tracks[n] != own:
            texts = {data.INNER: _("'start.tracks' cannot put {player} on the outer track: "
                                   "{square} is on the inner track."),
                     data.OUTER: _("'start.tracks' cannot put {player} on the inner track: "
                                   "{square} is on the outer track.")}
            raise InvalidConfig(texts[own], player=n, square=positions[n])
    life = per_player("life_insurance", lambda n: 0, _is_count)
    bonds = per_player("bonds", lambda n: 0, _is_count)
    votes = per_player("votes", lambda n: 7, _is_count)
    insured = start.get("business_insurance", [])
    if not isinstance(insured, list) or any(n not in names for n in insured):
        raise InvalidConfig(_("'start.business_insurance' must list players of this game."))
    if len(set(insured)) > data.INSURANCE_POLICIES or sum(life.values()) > \
            data.INSURANCE_POLICIES:
        raise InvalidConfig(_("There are only 5 policies of each kind of insurance."))
    issued = start.get("bonds_issued", sum(bonds.values()))
    if not _is_count(issued) or not sum(bonds.values()) <= issued <= data.TREASURY_BONDS:
        raise InvalidConfig(_("'start.bonds_issued' must be at least the players' Bonds and "
                              "at most 30."))
    firms = start.get("firms", {})
    if not isinstance(firms, Mapping) or any(
            f not in layout.firms or o not in names for f, o in firms.items()):
        raise InvalidConfig(_("'start.firms' must map firms on the board to their owners."))
    index = start.get("index", {})
    spaces = len(layout.index_kinds)
    if not isinstance(index, Mapping) or set(index) - {"space", "direction"} or \
            index.get("direction", data.CLOCKWISE) not in (data.CLOCKWISE, data.ANTICLOCKWISE) \
            or not (_is_count(index.get("space", 1)) and 1 <= index.get("space", 1) <= spaces):
        if spaces == len(data.INDEX_KINDS):
            raise InvalidConfig(_("'start.index' must give a space from 1 to 20 and a "
                                  "direction, \"clockwise\" or \"anticlockwise\"."))
        raise InvalidConfig(_("'start.index' must give a space from 1 to {spaces} (the spaces "
                              "of 'index_track') and a direction, \"clockwise\" or "
                              "\"anticlockwise\"."), spaces=spaces)
    rnd = start.get("round", 1)
    treasury = start.get("treasury", 0)
    bank = start.get("bank", data.BANK_CAPITAL - sum(cash.values()) - treasury)
    if not (_is_count(rnd) and 1 <= rnd <= state.rounds) or not _is_count(treasury) or \
            not _is_count(bank):
        raise InvalidConfig(_("'start.round' must be a round of the game, and the Bank and "
                              "the Treasury hold zero dollars or more."))
    auction = start.get("auction", [])
    if not isinstance(auction, list) or any(f not in layout.firms or f in firms
                                            for f in auction):
        raise InvalidConfig(_("'start.auction' must list unowned firms."))
    state.parties = check_parties(start.get("parties", {}), names)
    government = start.get("government")
    pm = start.get("pm")
    if pm not in names:
        raise InvalidConfig(_("'start.pm' must name the Prime Minister, a player."))
    government = government if government is not None else [pm]
    cabinet = start.get("cabinet", [])
    if not isinstance(government, list) or pm not in government or any(
            n not in names for n in government) or not isinstance(cabinet, list) or any(
            n not in government or n == pm for n in cabinet):
        raise InvalidConfig(_("'start.government' must list players including the PM, and "
                              "'start.cabinet' members of the Government other than the PM."))
    try:
        salaries = orders.check_salaries(start.get("salaries", {}), names)
        tax = orders.tax_rule(start.get("tax", {"per_company": data.TAX_PER_COMPANY}), names)
    except InvalidAction as exc:
        raise InvalidConfig(exc.reason, **exc.params) from None
    first = start.get("first", pm)
    if first not in names:
        raise InvalidConfig(_("'start.first' must name a player."))
    for p in state.players:
        p.bi, p.position, p.track = bis[p.name], positions[p.name], tracks[p.name]
        p.life_insurance, p.bonds, p.votes = life[p.name], bonds[p.name], votes[p.name]
        p.business_insurance = p.name in insured
        p.party = next((k for k, v in state.parties.items() if p.name in v), None)
    state.round, state.owners, state.auction = rnd, dict(firms), list(auction)
    state.bonds_issued = issued
    state.index_space = index.get("space", 1)
    state.direction = index.get("direction", data.CLOCKWISE)
    state.multiplier = layout.index_values[state.index_space - 1]
    state.government, state.pm, state.cabinet = list(government), pm, list(cabinet)
    state.pm_salary = salaries.get("pm", data.BASE_SALARY)
    state.minister_salaries = dict(salaries.get("ministers", {}))
    state.tax_rule = tax
    state.first = state.player(first).seat
    state.money_supply = bank + treasury + sum(cash.values())
    state.bank = state.money_supply
    for p in state.players:
        move(state, events, BANK, account(p.name), cash[p.name], "stated-situation")
    move(state, events, BANK, TREASURY, treasury, "stated-situation")
    state.phase = ORDERS
