"""Pure helpers for the phone's order form: where a player could end up, and starting orders.

``reachable(state, name)`` lists every square the player could reach this round from where
they stand (direct moves to the four corners, and each 2d6 total on each track they may
take), with its chance, what would happen there at today's prices (before the other players'
turns change anything) and the ``at`` decision that square takes, so the form can ask one
question per square. ``suggested_orders`` is a reasonable first set of orders to edit;
``nmr_orders`` is what the NMR rule does for a player who sends nothing.
"""

from __future__ import annotations

from typing import Any

from games.poleconomy import data
from games.poleconomy.money import bank_bonds
from games.poleconomy.moves import nmr_move
from games.poleconomy.state import GameState

# Ways to roll each total with 2d6, leaving out double six (a Business disaster).
WAYS = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t and (a, b) != (6, 6))
        for t in range(2, 13)}


def consequence(state: GameState, name: str, square: str) -> dict[str, Any]:
    """What landing on ``square`` would do now, and which ``at`` decision it takes."""
    sq = data.SQUARES[square]
    p = state.player(name)
    out: dict[str, Any] = {"square": square, "kind": sq.kind, "name": sq.name}
    if sq.kind == data.CORNER:
        out.update(decision="act", effect=square)
        if square == data.BONDS_CORNER:
            out["bonds_for_sale"] = bank_bonds(state)
    elif sq.kind in (data.COMPANY, data.ADVERTISER):
        owner = state.owners.get(square)
        price = data.price(square, state.multiplier)
        out.update(owner=owner, price=price)
        if owner is None:
            out.update(decision="buy", effect="may-buy")
        elif owner == name:
            out["effect"] = "profit" if sq.kind == data.COMPANY else "go-to-any-company"
        else:
            out["effect"] = "pay-rent" if sq.kind == data.COMPANY else "sent-by-owner"
    elif sq.kind == data.INCOME:
        out.update(effect="income", amount=p.bi * sq.factor)
        if sq.opportunity:
            out.update(decision="go", opportunity=True)
    elif sq.kind == data.INDEX:
        out.update(effect="index", steps=sq.factor)
    else:
        out["effect"] = "nothing"
    return out


def reachable(state: GameState, name: str) -> dict[str, Any]:
    p = state.player(name)
    board = state.layout()
    direct = [consequence(state, name, c) for c in data.CORNERS]
    tracks = list(data.TRACKS) if p.position in data.CORNERS else [
        board.track_of(p.position) or p.track]
    rolls = {t: [{"total": total, "chance": f"{WAYS[total]}/36",
                  **consequence(state, name, board.ahead(p.position, total, t))}
                 for total in range(2, 12)] for t in tracks}
    return {"from": p.position, "on_corner": p.position in data.CORNERS, "direct": direct,
            "roll": rolls, "disaster_chance": "1/36", "nmr": nmr_move(p, board)}


def nmr_orders() -> None:
    """The orders of a player who sends none: ``None`` (the NMR rule applies)."""
    return None


def suggested_orders(state: GameState, name: str) -> dict[str, Any]:
    """Roll, buy what comes up, insure yourself: a starting point the student edits."""
    p = state.player(name)
    orders: dict[str, Any] = {"move": {"roll": True},
                              "buy": {"companies": True, "advertisers": True},
                              "corners": {data.BUSINESS_INSURANCE: True,
                                          data.LIFE_INSURANCE: True}}
    if p.position in data.CORNERS:
        orders["move"]["track"] = p.track
    return orders
