"""Builders that bring a State in Class table to a given phase quickly (tests only).

Everything here drives the real engine through its decisions (``pact``, ``ballot``,
``count``, ``tie_break``). A few helpers also *set* parts of the state directly (levels,
funds, Tension, coins): that is fine for unit tests of one rule, and each such helper says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.core import Event
from games.state_in_class import data, rules
from games.state_in_class.state import BUDGET_VOTE, TAX_VOTE, GameState, Player

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]

# One role per seat: upper first, then middle, then working.
ROLES_BY_SEAT: dict[int, list[str]] = {
    8: ["company-director", "specialist-doctor", "secondary-teacher", "shop-owner",
        "office-worker", "factory-worker", "care-worker", "precarious-freelancer"],
    7: ["company-director", "specialist-doctor", "secondary-teacher", "shop-owner",
        "factory-worker", "care-worker", "precarious-freelancer"],
    6: ["company-director", "specialist-doctor", "secondary-teacher", "shop-owner",
        "factory-worker", "care-worker"],
}

# Midlife cards that never change anyone's class and never empty a wallet: the default deck
# of `started()`, so that games reaching round 5+ keep their roles.
QUIET_MIDLIFE = [
    "waiting-list", "daughter-born", "out-of-work", "mother-needs-care", "rock-bottom",
    "eviction", "the-inheritance", "nothing-happens",
]

# A budget tally with no tie (6 ballots), so a count never asks for a tie-break.
PLAIN_BUDGET = {"health": 3, "education": 2, "shield": 1}


def names(n: int = 8) -> list[str]:
    return NAMES[:n]


def pinned_roles(n: int = 8, order: Sequence[str] | None = None) -> dict[str, str]:
    """Every seat pinned: by default upper, upper, middle..., working... in seat order."""
    return dict(zip(names(n), order or ROLES_BY_SEAT[n], strict=True))


def config(n: int = 8, *, roles: Mapping[str, str] | None = None,
           midlife_order: Sequence[str] | None = None) -> dict[str, Any]:
    cfg: dict[str, Any] = {"players": names(n)}
    if roles is not None:
        cfg["roles"] = dict(roles)
    if midlife_order is not None:
        cfg["midlife_order"] = list(midlife_order)
    return cfg


def new_table(n: int = 8, *, seed: int = 7, roles: Mapping[str, str] | None = None,
              midlife_order: Sequence[str] | None = None) -> GameState:
    """A table in the pact phase (nothing pinned unless asked)."""
    return rules.new_game(config(n, roles=roles, midlife_order=midlife_order), seed)


def distribute(total: int, n: int) -> list[int]:
    """Pact contributions (0-3 each) of ``n`` players that add up to ``total``."""
    assert 0 <= total <= 3 * n
    return [min(3, max(0, total - 3 * i)) for i in range(n)]


def play_pact(state: GameState, coins: int | Sequence[int] = 1) -> list[Event]:
    """Everyone contributes (the same number, or one per seat); the engine then starts round 1."""
    amounts = [coins] * len(state.players) if isinstance(coins, int) else list(coins)
    events: list[Event] = []
    for p, c in zip(state.players, amounts, strict=True):
        events += rules.step(state, {"type": "pact", "player": p.name, "coins": c})
    return events


def started(n: int = 8, *, pact: int | Sequence[int] = 3, seed: int = 7,
            roles: Mapping[str, str] | None = None,
            midlife_order: Sequence[str] | None = QUIET_MIDLIFE) -> GameState:
    """Round 1's tax vote, roles pinned by seat (see ROLES_BY_SEAT) unless ``roles`` is given.

    The default pact of 3 coins each gives Tension 1 at every table size.
    """
    state = new_table(n, seed=seed, roles=pinned_roles(n) if roles is None else roles,
                      midlife_order=midlife_order)
    play_pact(state, pact)
    assert state.phase == TAX_VOTE and state.round == 1
    return state


def ballots(state: GameState, kind: str, voters: Iterable[str]) -> list[Event]:
    events: list[Event] = []
    for name in voters:
        events += rules.step(state, {"type": "ballot", "kind": kind, "player": name})
    return events


def count(state: GameState, kind: str, tally: Mapping[str, int]) -> list[Event]:
    return rules.step(state, {"type": "count", "kind": kind, "tally": dict(tally)})


def vote(state: GameState, kind: str, tally: Mapping[str, int],
         voters: Sequence[str] | None = None) -> list[Event]:
    """Ballots from ``voters`` (default: the first seats, one per vote), then the count."""
    if voters is None:
        voters = state.names[: sum(tally.values())]
    assert len(voters) == sum(tally.values())
    return ballots(state, kind, voters) + count(state, kind, tally)


def tie_break(state: GameState, player: str, choice: str | None) -> list[Event]:
    return rules.step(state, {"type": "tie_break", "player": player, "choice": choice})


def tax_vote(state: GameState, option: str) -> list[Event]:
    """Everyone votes ``option``: it wins, everyone is paid and pays."""
    return vote(state, "tax", {option: len(state.players)})


def budget_vote(state: GameState, tally: Mapping[str, int] = PLAIN_BUDGET) -> list[Event]:
    return vote(state, "budget", tally)


def play_round(state: GameState, tax: str = "C",
               budget: Mapping[str, int] = PLAIN_BUDGET) -> list[Event]:
    return tax_vote(state, tax) + budget_vote(state, budget)


def by_role(state: GameState, role: str) -> Player:
    return next(p for p in state.players if p.role == role)


def give(state: GameState, coins: int | Mapping[str, int]) -> None:
    """SET wallets directly (unit tests only: the ledger no longer balances)."""
    for p in state.players:
        if isinstance(coins, int):
            p.coins = coins
        elif p.name in coins:
            p.coins = coins[p.name]


def set_services(state: GameState, health: int | None = None, education: int | None = None,
                 shield: int | None = None, *, funds: int | None = 0) -> None:
    """SET levels (and, unless ``funds=None``, empty the funds) directly."""
    for service, level in ((data.HEALTH, health), (data.EDUCATION, education),
                           (data.SHIELD, shield)):
        if level is not None:
            state.services[service].level = level
        if funds is not None:
            state.services[service].fund = funds


def levels(state: GameState) -> tuple[int, int, int]:
    return tuple(state.services[s].level for s in data.SERVICES)  # type: ignore[return-value]


def close_budget(state: GameState, health: int, education: int, shield: int, *,
                 tension: int | None = None) -> list[Event]:
    """At a budget vote: SET the levels (funds and table emptied) and Tension, then count a
    plain budget vote. The round ends with exactly these levels going into the end-of-round
    steps (so the next round's event sees them, after obsolescence in rounds 3 and 6)."""
    assert state.phase == BUDGET_VOTE
    state.pot = 0
    set_services(state, health, education, shield)
    if tension is not None:
        state.tension = tension
    return budget_vote(state)


def advance_to(state: GameState, round_no: int, phase: str = TAX_VOTE, *,
               tax: str = "C", coins: int = 100) -> GameState:
    """Play whole rounds (everyone topped up to ``coins`` and Tension SET to 1 before each
    count, so nobody is excluded and the State never fails) until ``round_no``/``phase``."""
    while not (state.round == round_no and state.phase == phase):
        assert state.round <= round_no, "overshot"
        if state.phase == TAX_VOTE:
            give(state, coins)
            state.tension = 1
            tax_vote(state, tax)
        elif state.phase == BUDGET_VOTE:
            state.tension = 1
            budget_vote(state)
        else:
            raise AssertionError(f"advance_to cannot leave phase {state.phase}")
    return state


def statement(p: Player, *, round_no: int | None = None,
              reason: str | None = None) -> list[dict[str, Any]]:
    return [e for e in p.statement
            if (round_no is None or e["round"] == round_no)
            and (reason is None or e["reason"] == reason)]


def moved(p: Player, *, round_no: int | None = None, reason: str | None = None) -> int:
    """Net coins a player gained (+) or lost (-) for ``reason`` in ``round_no``."""
    return sum(e["amount"] for e in statement(p, round_no=round_no, reason=reason))


def transfers(events: Iterable[Event], reason: str | None = None) -> list[Event]:
    return [e for e in events if e["type"] == "transfer" and (reason is None
                                                              or e["reason"] == reason)]


def tension_changes(state: GameState, round_no: int) -> list[dict[str, Any]]:
    return list(state.history[round_no - 1].get("tension", []))


def as_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)
