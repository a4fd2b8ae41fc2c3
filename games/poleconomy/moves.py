"""One player's turn on the board: the move and the effect of the square landed on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import Event
from games.poleconomy import data
from games.poleconomy.money import BANK, account, bank_bonds, emit, move, roll
from games.poleconomy.state import GameState, Player
from games.poleconomy.turn import holds, move_index, pm_powers

SIT = {"corner": None, "act": False}


def orders_of(p: Player) -> Mapping[str, Any]:
    return p.orders or {}


def nmr_move(p: Player, board: data.Board = data.EDITION) -> dict[str, Any]:
    """The NMR rule: sit on a corner, else go to the nearest corner clockwise and sit."""
    if p.position in data.CORNERS:
        return {"corner": p.position, "act": False}
    loop = board.loop_of(p.position)
    i = loop.index(p.position)
    corner = next(s for s in loop[i + 1:] + loop[:i] if s in data.CORNERS)
    return {"corner": corner, "act": False}


def chosen_move(state: GameState, p: Player, won: dict[str, str | None]) -> dict[str, Any]:
    """The first of the player's moves whose conditions hold now; none (or NMR): the NMR move."""
    if p.nmr or "move" not in orders_of(p):
        return nmr_move(p, state.layout())
    moves = orders_of(p)["move"]
    for candidate in moves if isinstance(moves, list) else [moves]:
        if holds(state, p, candidate.get("if"), won):
            return dict(candidate)
    return nmr_move(p, state.layout())


def play_turn(state: GameState, events: list[Event], p: Player,
              won: dict[str, str | None]) -> None:
    orders = orders_of(p)
    emit(state, events, {"type": "turn", "player": p.name, "nmr": p.nmr})
    if p.name == state.pm and "pm" in orders:
        pm_powers(state, events, p, orders["pm"])
    sell = orders.get("sell", {})
    life = min(sell.get("life", 0), p.life_insurance)
    if life:
        p.life_insurance -= life
        emit(state, events, {"type": "life_sold", "player": p.name, "count": life})
        move(state, events, BANK, account(p.name), life * data.LIFE_SELL_BACK, "life-insurance")
    bonds = min(sell.get("bonds", 0), p.bonds)
    if bonds:
        p.bonds -= bonds
        emit(state, events, {"type": "bonds_sold", "player": p.name, "count": bonds})
        move(state, events, BANK, account(p.name), bonds * data.BOND_VALUE, "bonds-sold")
    chosen = chosen_move(state, p, won)
    if "corner" in chosen:
        p.position = chosen["corner"]
        emit(state, events, {"type": "move", "player": p.name, "to": p.position,
                             "how": "direct", "act": bool(chosen.get("act"))})
        if chosen.get("act"):
            corner_action(state, events, p, p.position, direct=True)
        return
    if p.position in data.CORNERS and chosen.get("track") in data.TRACKS:
        p.track = chosen["track"]
    # The track moved along: the square's own off a corner; on a corner the one named, else
    # the one the player arrived by.
    board = state.layout()
    p.track = board.track_of(p.position) or p.track
    a, b = roll(state, events, p.name, "move")
    if (a, b) == (6, 6):
        business_disaster(state, events, p)
        return
    target = board.ahead(p.position, a + b, p.track)
    relocate(state, p, target)  # off a corner the track is the square's own
    emit(state, events, {"type": "move", "player": p.name, "to": target, "how": "roll",
                         "steps": a + b, "track": p.track})
    land(state, events, p, target)


def business_disaster(state: GameState, events: list[Event], p: Player) -> None:
    """Double six: no move. Insured: only the policy goes back; else cash and firms do."""
    insured = p.business_insurance
    emit(state, events, {"type": "business_disaster", "player": p.name, "insured": insured})
    if insured:
        p.business_insurance = False
        return
    move(state, events, account(p.name), BANK, p.cash, "business-disaster")
    for firm in [f for f, owner in state.owners.items() if owner == p.name]:
        del state.owners[firm]
        emit(state, events, {"type": "firm_lost", "player": p.name, "firm": firm})


def _at(p: Player, square: str) -> Mapping[str, Any]:
    return orders_of(p).get("at", {}).get(square, {})


def land(state: GameState, events: list[Event], p: Player, square: str) -> None:
    sq = data.SQUARES[square]
    if sq.kind == data.CORNER:
        act = _at(p, square).get("act", square in orders_of(p).get("corners", {}))
        if act:
            corner_action(state, events, p, square, direct=False)
    elif sq.kind in (data.COMPANY, data.ADVERTISER):
        firm_square(state, events, p, square)
    elif sq.kind == data.INCOME:
        move(state, events, BANK, account(p.name), p.bi * sq.factor, "income", square=square)
        if sq.opportunity:
            choice = _at(p, square)
            go = choice["go"] if "go" in choice else orders_of(p).get("opportunity")
            if go and go != square:
                relocate(state, p, go)
                emit(state, events, {"type": "move", "player": p.name, "to": go,
                                     "how": "opportunity"})
                land(state, events, p, go)
    elif sq.kind == data.INDEX:
        move_index(state, events, sq.factor, p)


def relocate(state: GameState, p: Player, square: str) -> None:
    p.position = square
    p.track = state.layout().track_of(square) or p.track


def corner_action(state: GameState, events: list[Event], p: Player, corner: str,
                  direct: bool) -> None:
    spec = orders_of(p).get("corners", {})
    if corner == data.BUSINESS_INSURANCE:
        left = data.INSURANCE_POLICIES - sum(q.business_insurance for q in state.players)
        if spec.get(corner, True) and not p.business_insurance and left and \
                p.cash >= data.INSURANCE_PRICE:
            p.business_insurance = True
            emit(state, events, {"type": "insurance_bought", "player": p.name, "kind": corner})
            move(state, events, account(p.name), BANK, data.INSURANCE_PRICE, "insurance")
    elif corner == data.LIFE_INSURANCE:
        left = data.INSURANCE_POLICIES - sum(q.life_insurance for q in state.players)
        if spec.get(corner, True) and left and p.cash >= data.INSURANCE_PRICE:
            p.life_insurance += 1
            emit(state, events, {"type": "insurance_bought", "player": p.name, "kind": corner})
            move(state, events, account(p.name), BANK, data.INSURANCE_PRICE, "insurance")
    elif corner == data.BONDS_CORNER:
        n = min(spec.get(corner, 1), bank_bonds(state), p.cash // data.BOND_VALUE)
        if n > 0:
            p.bonds += n
            emit(state, events, {"type": "bonds_bought", "player": p.name, "count": n})
            move(state, events, account(p.name), BANK, n * data.BOND_VALUE, "bonds-bought")
    else:
        takeover(state, events, p, spec.get(corner))


def takeover(state: GameState, events: list[Event], p: Player, targets: Any) -> None:
    """$3 to the Bank, 2d6: doubles buy the Company from its owner at half its value."""
    wanted = targets if isinstance(targets, list) else [targets] if targets else []
    firm = next((f for f in wanted if state.owners.get(f) not in (None, p.name)), None)
    if firm is None or p.cash < data.TAKEOVER_FEE:
        emit(state, events, {"type": "takeover", "player": p.name, "firm": firm,
                             "result": "no-target" if firm is None else "no-cash"})
        return
    move(state, events, account(p.name), BANK, data.TAKEOVER_FEE, "takeover-fee", firm=firm)
    a, b = roll(state, events, p.name, "takeover")
    half = data.price(firm, state.multiplier) // 2
    owner = state.owners[firm]
    if a != b:
        result = "failed"
    elif p.cash < half:
        result = "no-cash"
    else:
        result = "success"
        move(state, events, account(p.name), account(owner), half, "takeover", firm=firm)
        state.owners[firm] = p.name
    emit(state, events, {"type": "takeover", "player": p.name, "firm": firm, "owner": owner,
                         "result": result, "price": half})


def wants_to_buy(p: Player, firm: str, price: int) -> bool:
    choice = _at(p, firm)
    if "buy" in choice:
        return bool(choice["buy"])
    buy = orders_of(p).get("buy", {})
    kind = "companies" if data.SQUARES[firm].kind == data.COMPANY else "advertisers"
    if firm in buy.get("never", []):
        return False
    if "only" in buy:
        return firm in buy["only"] and price <= buy.get("max_price", price)
    return bool(buy.get(kind, False)) and price <= buy.get("max_price", price)


def firm_square(state: GameState, events: list[Event], p: Player, firm: str,
                sender: str | None = None) -> None:
    owner = state.owners.get(firm)
    price = data.price(firm, state.multiplier)
    if owner is None:
        if wants_to_buy(p, firm, price) and p.cash >= price:
            move(state, events, account(p.name), BANK, price, "purchase", firm=firm)
            state.owners[firm] = p.name
            emit(state, events, {"type": "bought", "player": p.name, "firm": firm,
                                 "price": price})
        elif firm not in state.unbought:
            state.unbought.append(firm)
            emit(state, events, {"type": "not_bought", "player": p.name, "firm": firm})
        return
    is_company = data.SQUARES[firm].kind == data.COMPANY
    if is_company and owner == p.name:
        move(state, events, BANK, account(p.name), price, "profit", firm=firm)
    elif is_company and sender is not None and owner != sender:
        due = min(price, p.cash)  # shared equally; an odd dollar goes to the Company's owner
        move(state, events, account(p.name), account(owner), due - due // 2, "rent", firm=firm)
        move(state, events, account(p.name), account(sender), due // 2, "rent-share", firm=firm)
    elif is_company:
        move(state, events, account(p.name), account(owner), price, "rent", firm=firm)
    elif owner == p.name:
        target = orders_of(p).get("own_advertiser")
        if target:
            _send(state, events, p, target, None)
    else:
        _send(state, events, p, send_target(state, owner, firm, p.name), owner)


def _send(state: GameState, events: list[Event], p: Player, company: str,
          sender: str | None) -> None:
    relocate(state, p, company)
    emit(state, events, {"type": "move", "player": p.name, "to": company,
                         "how": "advertiser", "by": sender or p.name})
    firm_square(state, events, p, company, sender)


def search_order(square: str, board: data.Board = data.EDITION) -> list[str]:
    """The NMR search: a full lap of the square's track clockwise, then from the next corner a
    lap of the other track."""
    loop = board.loop_of(square)
    i = loop.index(square)
    lap = list(loop[i + 1:] + loop[:i + 1])
    corner = next(s for s in lap if s in data.CORNERS)
    other = board.loops[data.OUTER if board.track_of(square) == data.INNER else data.INNER]
    j = other.index(corner)
    return lap + list(other[j:] + other[:j])


def send_target(state: GameState, owner: str, advertiser: str, mover: str) -> str:
    """Where an Advertiser's owner sends a player: the owner's order, else the NMR rule."""
    send = orders_of(state.player(owner)).get("send_to")
    if isinstance(send, str):
        return send
    if isinstance(send, Mapping) and (advertiser in send or "*" in send):
        return send.get(advertiser, send.get("*"))
    companies = [s for s in search_order(advertiser, state.layout())
                 if data.SQUARES[s].kind == data.COMPANY]
    for wanted in (lambda o: o == owner, lambda o: o not in (None, mover), lambda o: o is None):
        found = next((c for c in companies if wanted(state.owners.get(c))), None)
        if found:
            return found
    return companies[0]
