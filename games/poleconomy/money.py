"""Every dollar the engine moves, as ledger transfers between ``bank``, ``treasury`` and
``player:<name>``; and the chance draws (pinned dice first, then the seeded rng).

Where the rulebook is silent (our decisions, see ``docs/engines/poleconomy.md``): purchase
prices, auction prices, the Takeover fee, insurance and Bond sales go to the Bank; profits and
Income come from the Bank; an issued Bond is bought by the Bank for $10 (paid to the Treasury),
so "issued but unpurchased" Bonds are the Bank's; a Bond bought back from the Bank returns $10
from the Treasury to the Bank. The Bank pays what it has: a payment it cannot make in full
empties it, and the game ends at the end of that turn.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.core import PUBLIC, Event, InvalidAction
from games.i18n import _
from games.poleconomy import data
from games.poleconomy.state import GameState

BANK = "bank"
TREASURY = "treasury"


class TreasuryDefault(Exception):
    """The Treasury cannot pay an obligation: the game ends in a loss for everyone."""


def account(name: str) -> str:
    return f"player:{name}"


def emit(state: GameState, events: list[Event], event: Event) -> None:
    """Report a public event and keep it in this round's history (the projector's replay)."""
    event = {"audience": PUBLIC, "round": state.round, **event}
    events.append(event)
    if not state.history or state.history[-1]["round"] != state.round:
        state.history.append({"round": state.round, "events": []})
    state.history[-1]["events"].append(event)


def _cash(state: GameState, acct: str) -> int:
    if acct == BANK:
        return state.bank
    if acct == TREASURY:
        return state.treasury
    return state.player(acct[7:]).cash


def _add(state: GameState, acct: str, amount: int) -> None:
    if acct == BANK:
        state.bank += amount
    elif acct == TREASURY:
        state.treasury += amount
    else:
        state.player(acct[7:]).cash += amount


def move(state: GameState, events: list[Event], src: str, dst: str, amount: int,
         reason: str, **params: Any) -> int:
    """Move up to ``amount`` from ``src`` to ``dst`` (never more than ``src`` holds).

    Returns what was moved. A Bank that cannot pay in full is empty (the game's end).
    """
    paid = min(amount, _cash(state, src))
    if src == BANK and paid < amount:
        state.bank_empty = True
    if paid <= 0:
        return 0
    _add(state, src, -paid)
    _add(state, dst, paid)
    emit(state, events, {"type": "transfer", "from": src, "to": dst, "amount": paid,
                         "reason": reason, **params})
    if src == BANK and state.bank == 0:
        state.bank_empty = True
    return paid


def unissued(state: GameState) -> int:
    return data.TREASURY_BONDS - state.bonds_issued


def bank_bonds(state: GameState) -> int:
    """Bonds issued but not bought by any player: the Bank holds them."""
    return state.bonds_issued - sum(p.bonds for p in state.players)


def issue(state: GameState, events: list[Event], n: int, why: str) -> int:
    n = min(n, unissued(state))
    if n <= 0:
        return 0
    state.bonds_issued += n
    emit(state, events, {"type": "bonds_issued", "count": n, "why": why,
                         "issued": state.bonds_issued})
    move(state, events, BANK, TREASURY, n * data.BOND_VALUE, "bonds-issued")
    return n


def treasury_pays(state: GameState, events: list[Event], amount: int, why: str) -> None:
    """Make sure the Treasury holds ``amount``, issuing Bonds automatically if it must.

    Exactly as many $10 Bonds as cover the shortfall are issued (whether or not the PM sent
    orders); if the Bonds left cannot cover it, the Treasury defaults.
    """
    short = amount - state.treasury
    if short > 0:
        issue(state, events, math.ceil(short / data.BOND_VALUE), "automatic")
    if state.treasury < amount:
        emit(state, events, {"type": "treasury_default", "owed": amount,
                             "treasury": state.treasury, "why": why})
        raise TreasuryDefault


def roll(state: GameState, events: list[Event], who: str, why: str) -> tuple[int, int]:
    """Two dice: the next pinned pair of config ``dice`` if any is left, else seeded."""
    if state.dice_used < len(state.dice_pin):
        a, b = state.dice_pin[state.dice_used]
        state.dice_used += 1
    else:
        rng = random.Random(f"{state.seed}:dice:{state.draws}")
        state.draws += 1
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    emit(state, events, {"type": "dice", "player": who, "dice": [a, b], "why": why})
    return a, b


def draw_seller(state: GameState, offers: dict[str, int]) -> str:
    """Which player's Bond the Treasury buys next when more are offered than wanted.

    Each offered Bond is equally likely; config ``buyback_draws`` pins the sellers in order.
    """
    if state.buyback_used < len(state.buyback_pin):
        name = state.buyback_pin[state.buyback_used]
        if offers.get(name, 0) <= 0:
            raise InvalidAction(_("The pinned Bond draw names {name}, who has no Bond on "
                                  "offer at that moment."), name=name)
        state.buyback_used += 1
        return name
    rng = random.Random(f"{state.seed}:bonds:{state.draws}")
    state.draws += 1
    pool = [n for n, k in sorted(offers.items()) for _i in range(k)]
    return pool[rng.randrange(len(pool))]
