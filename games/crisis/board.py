"""The board's locations and action spaces (4.1–4.14), and what each reserved space offers
when it is resolved (the options of its decision)."""

from __future__ import annotations

from typing import Final

from games.crisis import cards, ops
from games.crisis.state import GameState, Player
from games.i18n import _

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
LOCATION_NAMES: Final = {
    "shady-business": _("Shady Business"), "government-subsidy": _("Government Subsidy"),
    "leadership": _("Leadership"), "initiative": _("Initiative"), "loan": _("Loan"),
    "domestic-industry": _("Domestic Industry"), "temp-employee": _("Temp Employee"),
    "foreign-employees": _("Foreign Employees"), "employees": _("Employees"),
    "companies": _("Companies"), "imports": _("Imports"), "energy-exchange": _("Energy Exchange"),
    "production": _("Production"), "exports": _("Exports"),
}
# What each Imports and Energy Exchange space offers, in words.
SPACE_TEXTS: Final = {
    "import-energy": _("Import 1–2 Energy: 1 credit and 1 VP each."),
    "import-food": _("Import 1–2 Food: 4 credits and 2 VP each."),
    "import-minerals": _("Import 1–2 Minerals: 4 credits and 2 VP each."),
    "import-chemicals": _("Import 1–2 Chemicals: 6 credits and 3 VP each."),
    "import-industrials": _("Import 1–2 Industrials: 8 credits and 4 VP each."),
    "import-machines": _("Import 1–2 Machines: 12 credits and 6 VP each."),
    "import-basket-1": _("Import 2 Energy and 2 Minerals for 9 credits and 5 VP."),
    "import-basket-2": _("Import 2 Energy and 2 Chemicals for 13 credits and 6 VP."),
    "energy-1": _("Buy 1–2 Energy at 2 credits each."),
    "energy-2": _("Buy 1–3 Energy at 3 credits each."),
    "energy-3": _("Change 1 Food into 2 Energy."),
    "energy-4": _("Change 1 Minerals into 2 Energy."),
    "energy-5": _("Change 1 Chemicals into 3 Energy."),
}
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
