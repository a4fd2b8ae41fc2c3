"""The board's locations and action spaces (4.1–4.14), and what each reserved space offers
when it is resolved (the options of its decision)."""

from __future__ import annotations

from typing import Final

from games.crisis import cards, ops
from games.crisis.state import GameState, Player

EMPLOYEE_SPACES: Final = tuple(f"employee-{i}" for i in range(1, cards.BOARD_EMPLOYEES + 1))
COMPANY_SPACES: Final = tuple(f"company-{i}" for i in range(1, cards.BOARD_COMPANIES + 1))
ENERGY_SPACES: Final = (*cards.ENERGY_BUY, *cards.ENERGY_CONVERT)
EXPORTS: Final = "exports"

# Locations in the order Operations resolves them, each with its action spaces.
LOCATIONS: Final = (
    ("shady-business", ("shady-business",)),
    ("government-subsidy", ("government-subsidy",)),
    ("leadership", ("leadership",)),
    ("initiative", ("initiative",)),
    ("loan", ("loan",)),
    ("domestic-industry", ("domestic-industry",)),
    ("temp-employee", ("temp-employee",)),
    ("foreign-employees", ("foreign-employees",)),
    ("employees", EMPLOYEE_SPACES),
    ("companies", COMPANY_SPACES),
    ("imports", tuple(cards.IMPORTS)),
    ("energy-exchange", ENERGY_SPACES),
    ("exports", (EXPORTS,)),
)
LOCATION_OF: Final = {s: loc for loc, spaces in LOCATIONS for s in spaces}
SPACES: Final = tuple(LOCATION_OF)
MULTI: Final = frozenset({"shady-business", "government-subsidy"})  # any number of Managers
REFUSE: Final = "refuse"
# Spaces whose resolution asks the player (the rest resolve by themselves).
CHOOSING: Final = frozenset({"domestic-industry", "foreign-employees", *COMPANY_SPACES,
                             *cards.IMPORTS, *ENERGY_SPACES})


def refusal_penalty(state: GameState, space: str) -> int:
    """The Penalty tiles (in VP) for being unable or unwilling to use a reserved space."""
    if space in COMPANY_SPACES:
        company = state.board_companies[COMPANY_SPACES.index(space)]
        return cards.COMPANIES[company].vp if company else 0
    if space in cards.IMPORTS:
        return cards.IMPORTS[space][2]
    return 1


def options(state: GameState, space: str, p: Player) -> list[str]:
    """What ``p`` may do on ``space`` now, the preferred (default) option first; the last
    option is always ``"refuse"`` (take the Penalty tiles)."""
    opts: list[str] = []
    if space == "domestic-industry":
        opts = [r for r in cards.RESOURCES if p.credits >= cards.IMPORT_PRICE[r][1]]
    elif space == "foreign-employees":
        cost = ops.foreign_cost(state)
        opts = [t for t in cards.EMPLOYEE_TYPES
                if state.foreign[cards.FOREIGN_KIND[t]] and p.credits >= cost]
    elif space in COMPANY_SPACES:
        company = state.board_companies[COMPANY_SPACES.index(space)]
        if company and p.credits >= ops.company_cost(state, company):
            opts = ["buy"]
    elif space in cards.IMPORTS:
        goods, most, vp, price = cards.IMPORTS[space]
        units = sum(goods.values())
        unit_price = ops.import_price(state, price, units if most == 1 else 1)
        amounts = [n for n in range(1, most + 1)
                   if p.credits >= unit_price * n and p.vp >= vp * n]
        opts = ["buy"] if most == 1 and amounts else [str(n) for n in amounts]
    elif space in cards.ENERGY_BUY:
        price, most = cards.ENERGY_BUY[space]
        opts = [str(n) for n in range(1, most + 1) if p.credits >= price * n]
    elif space in cards.ENERGY_CONVERT:
        resource = cards.ENERGY_CONVERT[space][0]
        opts = ["convert"] if p.warehouse[resource] >= 1 else []
    return [*opts, REFUSE]
