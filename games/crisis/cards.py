# ruff: noqa: E501  (the Company table is kept one card a line, as the rulebook prints it)
"""Crisis components exactly as the rulebook prints them.

Every entry here is ``"rulebook"``: the 48 Companies (the Index's table, parsed below), the
40 Employees, the 20 Foreign Employees, the Temp Employee, the 52 Export Contracts, the price
table, the Imports and Energy Exchange spaces and the Warehouse. Our edition (Events, Influence
cards, Austerity Plans, the track's colour zones) is in ``data.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.i18n import _

SOURCE: Final = "rulebook"

ENERGY, FOOD, MINERALS, CHEMICALS, INDUSTRIALS, MACHINES = (
    "energy", "food", "minerals", "chemicals", "industrials", "machines")
RESOURCES: Final = (ENERGY, FOOD, MINERALS, CHEMICALS, INDUSTRIALS, MACHINES)
RESOURCE_NAMES: Final = {ENERGY: _("Energy"), FOOD: _("Food"), MINERALS: _("Minerals"),
                         CHEMICALS: _("Chemicals"), INDUSTRIALS: _("Industrials"),
                         MACHINES: _("Machines")}
WAREHOUSE: Final = {ENERGY: 12, FOOD: 12, MINERALS: 12, CHEMICALS: 6, INDUSTRIALS: 6,
                    MACHINES: 6}
# The price table: import (VP lost, credits paid) and export (VP, credits earned) per token;
# the black market pays double the export credits and no VP. Energy cannot be exported.
IMPORT_PRICE: Final = {ENERGY: (1, 1), FOOD: (2, 4), MINERALS: (2, 4), CHEMICALS: (3, 6),
                       INDUSTRIALS: (4, 8), MACHINES: (6, 12)}
EXPORT_PRICE: Final = {FOOD: (1, 2), MINERALS: (1, 2), CHEMICALS: (2, 3), INDUSTRIALS: (2, 4),
                       MACHINES: (3, 6)}
BLACK_MARKET_LIMIT: Final = 4  # tokens of each type per player per round

WORKER, FARMER, ENGINEER, BANKER = "worker", "farmer", "engineer", "banker"
EMPLOYEE_TYPES: Final = (WORKER, FARMER, ENGINEER, BANKER)
EMPLOYEE_NAMES: Final = {WORKER: _("Worker"), FARMER: _("Farmer"), ENGINEER: _("Engineer"),
                         BANKER: _("Banker"), "TEMP": _("Temp Employee"),
                         "foreign": _("Foreign Employee"), "WF": _("Worker/Farmer")}


@dataclass(frozen=True)
class Tile:
    """An Employee tile kind: its skill in each type it can work as."""

    kind: str
    count: int
    skills: tuple[tuple[str, int], ...]
    foreign: bool = False

    def skill(self, role: str) -> int:
        """The skill this tile brings to a slot of type ``role`` (0: it cannot fill it)."""
        for name, level in self.skills:
            if name == role:
                return level
        return 0


TEMP: Final = "TEMP"  # the Temp Employee: any type, skill 1
TILES: Final = {t.kind: t for t in (
    Tile("W1", 15, ((WORKER, 1),)),
    Tile("F1", 4, ((FARMER, 1),)),
    Tile("F2", 2, ((FARMER, 2),)),
    Tile("WF", 4, ((WORKER, 2), (FARMER, 1))),
    Tile("E1", 2, ((ENGINEER, 1),)),
    Tile("E2", 5, ((ENGINEER, 2),)),
    Tile("E3", 3, ((ENGINEER, 3),)),
    Tile("B1", 3, ((BANKER, 1),)),
    Tile("B2", 2, ((BANKER, 2),)),
    Tile("FW", 5, ((WORKER, 1),), foreign=True),
    Tile("FF", 5, ((FARMER, 1),), foreign=True),
    Tile("FE", 5, ((ENGINEER, 1),), foreign=True),
    Tile("FB", 5, ((BANKER, 1),), foreign=True),
    Tile(TEMP, 1, tuple((t, 1) for t in EMPLOYEE_TYPES)),
)}
FOREIGN_KIND: Final = {WORKER: "FW", FARMER: "FF", ENGINEER: "FE", BANKER: "FB"}
BAG_KINDS: Final = tuple(k for k, t in TILES.items() if not t.foreign and k != TEMP)


def tile_ids(kind: str) -> list[str]:
    """The ids of every tile of a kind: ``W1-1`` … ``W1-15``; the Temp Employee is ``TEMP``."""
    return [TEMP] if kind == TEMP else [f"{kind}-{i}" for i in range(1, TILES[kind].count + 1)]


def kind_of(tile_id: str) -> str:
    return tile_id.split("-", 1)[0]


# Export Contracts per level: (resource, maximum tokens) and how many tiles of it.
CONTRACTS: Final = {
    "I": {"food-4": 6, "food-6": 4, "food-8": 2, "minerals-4": 4, "minerals-6": 2,
          "chemicals-2": 1, "chemicals-3": 1, "chemicals-4": 1, "industrials-2": 1,
          "industrials-3": 1, "industrials-4": 1},
    "II": {"food-8": 5, "minerals-8": 2, "chemicals-4": 4, "industrials-4": 4, "machines-4": 1},
    "III": {"food-10": 4, "chemicals-4": 3, "industrials-4": 3, "machines-4": 2},
}
LEVELS: Final = ("I", "II", "III")
CONTRACTS_REMOVED: Final = {"I": 8, "II": 8, "III": 0}  # removed unseen at setup


def contract_parts(contract: str) -> tuple[str, int]:
    """``"food-4"`` -> ``("food", 4)``."""
    resource, amount = contract.rsplit("-", 1)
    return resource, int(amount)


# The 8 Imports spaces: (resources per unit bought, most units, VP lost, credits) per unit.
# Baskets are bought whole (one unit). Refusing costs the VP of one unit in Penalty tiles.
IMPORTS: Final = {
    "import-energy": ({ENERGY: 1}, 2, 1, 1),
    "import-food": ({FOOD: 1}, 2, 2, 4),
    "import-minerals": ({MINERALS: 1}, 2, 2, 4),
    "import-chemicals": ({CHEMICALS: 1}, 2, 3, 6),
    "import-industrials": ({INDUSTRIALS: 1}, 2, 4, 8),
    "import-machines": ({MACHINES: 1}, 2, 6, 12),
    "import-basket-1": ({ENERGY: 2, MINERALS: 2}, 1, 5, 9),
    "import-basket-2": ({ENERGY: 2, CHEMICALS: 2}, 1, 6, 13),
}
# The 5 Energy Exchange spaces, one fixed option each: (credits per Energy, most Energy) for a
# purchase, or (resource given, Energy received) for a conversion.
ENERGY_BUY: Final = {"energy-1": (2, 2), "energy-2": (3, 3)}
ENERGY_CONVERT: Final = {"energy-3": (FOOD, 2), "energy-4": (MINERALS, 2),
                         "energy-5": (CHEMICALS, 3)}

SUBSIDY: Final = 4
LOAN_CREDITS: Final = 10
LOAN_VP: Final = 1
MAX_LOANS: Final = 4
INTEREST: Final = 1
START_VP: Final = 15
START_CREDITS: Final = (22, 24, 26, 28, 30)
MANAGERS: Final = 4
EXTRA_MANAGER_ICONS: Final = 3
START_STATUS: Final = 31
MAX_STATUS: Final = 45
ROUNDS: Final = 7
EVALUATION_INFLUENCE_ROUNDS: Final = (2, 4, 6)
CREDITS_PER_VP: Final = 5
UNPAID_LOAN_VP: Final = 2
BOARD_COMPANIES: Final = 6
BOARD_EMPLOYEES: Final = 5
EXPORT_SPACES: Final = 5
CONTRACT_COLUMNS: Final = 3  # two current columns and one of future contracts
CONTRACT_ROWS: Final = 4


@dataclass(frozen=True)
class Term:
    """One part of a Company's output: ``base`` (+ bonus skills), times ``each`` if printed."""

    what: str  # a resource, "vp" or "credits"
    base: int
    each: int | None = None  # the multiplier's value ("2× 5 credits": base 2, each 5)


@dataclass(frozen=True)
class Company:
    id: str
    level: str
    cost: int
    vp: int
    inputs: tuple[tuple[str, int], ...]
    staff: tuple[str, ...]  # necessary Employees, by type
    bonus: tuple[str, ...]  # bonus Employee slots, by type
    output: tuple[Term, ...]
    icons: int  # Extra Manager icons
    source: str = SOURCE

    @property
    def sector(self) -> str:
        """The name without its number (``"HEAVY INDUSTRY"``), which Events refer to."""
        return self.id.rsplit(" ", 1)[0]

    @property
    def number(self) -> str:
        """The card's number as printed (``"02"``)."""
        return self.id.rsplit(" ", 1)[1]


# Each Company type's name as a msgid: a card's name on screen is its type, translated, and
# its number (``company_name``). The ids (``"FARM 03"``) stay as printed: records use them.
SECTOR_NAMES: Final = {
    "BANK": _("Bank"), "COMMS": _("Comms"), "FARM": _("Farm"),
    "FOOD INDUSTRY": _("Food Industry"), "FREIGHTERS": _("Freighters"),
    "HEAVY INDUSTRY": _("Heavy Industry"), "MINES": _("Mines"),
    "PHARMACEUTICALS": _("Pharmaceuticals"), "PORT": _("Port"),
    "POWER PLANT": _("Power Plant"), "RESORT": _("Resort"), "SPACEPORT": _("Spaceport"),
    "TRAINS": _("Trains"),
}


def company_name(company_id: str) -> tuple[str, str]:
    """A Company's type as a msgid and its number: ``"HEAVY INDUSTRY 02"`` ->
    ``("Heavy Industry", "02")``; show ``f"{gettext(type)} {number}"``
    (``names.company_label``). ``KeyError`` for an id that is not a Company."""
    card = COMPANIES[company_id]
    return SECTOR_NAMES[card.sector], card.number


# The Index's Company table, as printed: name | level | cost | VP | input | necessary |
# bonus | output | Extra Manager icons.
COMPANY_TABLE: Final = """\
BANK 01 | I | 10 | 3 | 1 Energy | Banker | Worker, Banker | 2× 5 credits | 2
BANK 02 | II | 10 | 3 | 1 Energy | Banker | Worker, Worker, Banker | 3× 3 credits | 2
BANK 03 | II | 15 | 4 | 1 Energy | Banker | Worker, Worker, Banker | 3× 5 credits | 2
COMMS 01 | II | 15 | 3 | 1 Energy, 1 Industrials | Engineer | Worker, Engineer, Banker | 0 VP + 2× 5 credits | 2
FARM 01 | I | 5 | 1 | – | Farmer | Worker, Farmer | 1 Food | –
FARM 02 | I | 10 | 2 | – | Worker | Farmer | 1 Food | –
FARM 03 | I | 5 | 1 | 1 Energy | Farmer | Worker, Farmer | 2 Food | –
FARM 04 | I | 10 | 2 | 1 Energy | Farmer | Worker, Farmer | 3 Food | –
FARM 05 | I | 10 | 2 | 1 Energy | Worker | Worker, Worker, Farmer | 2 Food | –
FARM 06 | I | 5 | 2 | 1 Energy, 1 Chemicals | Farmer | Worker, Farmer | 6 Food | –
FARM 07 | II | 5 | 1 | 2 Energy | Farmer | Worker, Farmer | 4 Food | –
FARM 08 | II | 10 | 2 | 1 Chemicals | Worker | Worker, Worker, Farmer | 4 Food | –
FARM 09 | II | 10 | 3 | 1 Chemicals | Farmer | Farmer, Engineer | 4 Food | –
FARM 10 | II | 10 | 3 | 1 Energy, 1 Chemicals | Worker | Farmer, Engineer | 3 Food | 1
FARM 11 | II | 10 | 4 | 1 Energy, 1 Chemicals | Farmer | Worker, Engineer | 6 Food | 1
FARM 12 | III | 10 | 3 | 1 Energy, 1 Chemicals | Worker, Farmer | Worker, Worker, Farmer | 8 Food | –
FOOD INDUSTRY 01 | II | 15 | 3 | 1 Energy, 1 Food | Engineer | Worker, Farmer, Banker | 4 VP + 3× 3 credits | 1
FOOD INDUSTRY 02 | III | 25 | 6 | 1 Energy, 2 Food | Farmer | Worker, Worker, Banker | 2× 2 VP + 2× 5 credits | 1
FREIGHTERS 01 | III | 25 | 6 | 2 Energy, 1 Minerals | Worker, Engineer | Worker, Worker, Banker | 2× 2 VP + 2× 4 credits | 1
FREIGHTERS 02 | III | 25 | 6 | 2 Energy, 2 Food | Worker, Farmer | Worker, Worker, Banker | 2× 2 VP + 2× 4 credits | 1
FREIGHTERS 03 | III | 25 | 6 | 2 Energy, 2 Chemicals | Worker, Engineer | Worker, Worker, Engineer | 2× 2 VP + 3× 4 credits | 1
FREIGHTERS 04 | III | 30 | 7 | 2 Energy, 2 Industrials | Worker, Engineer | Engineer, Banker | 3× 2 VP + 3× 4 credits | –
HEAVY INDUSTRY 01 | I | 15 | 4 | 1 Energy, 1 Minerals | Engineer | Worker, Engineer | 2 Chemicals | 1
HEAVY INDUSTRY 02 | I | 20 | 5 | 1 Energy, 1 Minerals | Engineer | Worker, Engineer | 2 Industrials | 1
HEAVY INDUSTRY 03 | II | 15 | 3 | 1 Energy, 1 Food | Worker, Engineer | Worker, Farmer | 3 Chemicals | 1
HEAVY INDUSTRY 04 | II | 20 | 4 | 1 Energy, 1 Minerals | Engineer | Worker, Worker, Engineer | 2 Chemicals | 1
HEAVY INDUSTRY 05 | II | 20 | 4 | 1 Energy, 1 Minerals | Engineer | Worker, Worker, Engineer | 2 Industrials | 1
HEAVY INDUSTRY 06 | II | 20 | 4 | 1 Energy, 2 Minerals | Worker, Engineer | Worker, Engineer | 3 Industrials | 1
HEAVY INDUSTRY 07 | II | 20 | 5 | 1 Energy, 1 Industrials | Engineer | Worker, Worker | 2 Machines | 1
HEAVY INDUSTRY 08 | III | 15 | 4 | 1 Energy, 2 Minerals | Engineer | Worker, Banker | 2 Machines | 1
HEAVY INDUSTRY 09 | III | 25 | 6 | 2 Energy, 2 Minerals | Engineer | Worker, Worker, Engineer | 2 Machines | 1
MINES 01 | I | 10 | 2 | 1 Energy | Worker | Worker, Engineer | 1 Minerals | –
MINES 02 | I | 15 | 3 | 1 Energy | Engineer | Worker, Engineer | 2 Minerals | –
MINES 03 | I | 10 | 4 | 1 Energy, 1 Chemicals | Engineer | Worker, Engineer | 6 Minerals | 1
PHARMACEUTICALS 01 | I | 15 | 3 | 1 Energy, 1 Food | Worker | Worker, Farmer | 1 Chemicals | 1
PORT 01 | III | 20 | 5 | 2 Energy, 1 Chemicals | Worker, Engineer | Worker, Worker, Banker | 2 VP + 4× 5 credits | 2
POWER PLANT 01 | I | 10 | 3 | – | Engineer | Worker, Farmer | 2 Energy | 1
POWER PLANT 02 | I | 10 | 4 | 1 Minerals | Engineer | Worker, Engineer | 4 Energy | 1
POWER PLANT 03 | II | 10 | 4 | 1 Minerals | Engineer | Worker | 3 Energy | 1
POWER PLANT 04 | II | 5 | 2 | 1 Minerals | Engineer | Worker, Worker | 4 Energy | 1
POWER PLANT 05 | III | 10 | 3 | 1 Minerals | Engineer | Worker, Engineer | 4 Energy | 1
RESORT 01 | I | 10 | 2 | 1 Food | Worker | Worker, Worker, Banker | 2 VP + 2× 2 credits | –
RESORT 02 | I | 10 | 2 | 1 Energy, 1 Food | Worker | Worker, Banker | 3 VP + 2× 2 credits | –
RESORT 03 | II | 15 | 3 | 1 Energy, 1 Food | Worker | Worker, Farmer, Banker | 2 VP + 2× 3 credits | –
RESORT 04 | II | 20 | 5 | 1 Energy, 2 Food | Worker | Worker, Farmer, Banker | 1× 2 VP + 4× 3 credits | 1
RESORT 05 | III | 25 | 6 | 2 Energy, 2 Food | Worker | Farmer, Banker | 3× 2 VP + 2× 4 credits | 1
SPACEPORT 01 | III | 25 | 6 | 2 Energy, 2 Machines | Worker, Engineer | Worker, Worker, Banker | 3 VP + 6× 5 credits | 2
TRAINS 01 | I | 8 | 3 | 1 Energy | Engineer | Worker, Banker | 2× 4 credits | 2
"""


def _amounts(text: str) -> tuple[tuple[str, int], ...]:
    if text.strip() in ("–", "-", ""):
        return ()
    parts = [p.strip().split(" ", 1) for p in text.split(",")]
    return tuple((name.strip().lower(), int(n)) for n, name in parts)


def _types(text: str) -> tuple[str, ...]:
    return tuple(t.strip().lower() for t in text.split(","))


def _output(text: str) -> tuple[Term, ...]:
    terms = []
    for part in text.split("+"):
        words = part.strip().split()
        what = words[-1].lower()
        what = {"vp": "vp"}.get(what, what)
        if len(words) == 3:  # "2× 5 credits"
            terms.append(Term(what, int(words[0].rstrip("×")), int(words[1])))
        else:  # "2 Food", "0 VP"
            terms.append(Term(what, int(words[0])))
    return tuple(terms)


def _companies() -> dict[str, Company]:
    companies = {}
    for line in COMPANY_TABLE.splitlines():
        name, level, cost, vp, inputs, staff, bonus, output, icons = (
            c.strip() for c in line.split("|"))
        companies[name] = Company(
            id=name, level=level, cost=int(cost), vp=int(vp), inputs=_amounts(inputs),
            staff=_types(staff), bonus=_types(bonus), output=_output(output),
            icons=0 if icons in ("–", "-") else int(icons))
    return companies


COMPANIES: Final = _companies()
