"""Our board edition of Poleconomy: squares, names and the Inflation Index.

The rulebook prints the counts of each kind of square and Inflation Index space (its
"Statistical Distribution") but not the board. Everything positional here is **ours** and
marked with its source; the counts are checked against the rulebook by the tests.

Layout: two loops joined at the four corners. Clockwise, each loop runs
Business Insurance, segment 1, Life Insurance, segment 2, Takeover, segment 3, Bonds,
segment 4 and back to Business Insurance. The inner loop also holds the Start square (no
effect), the first square after Business Insurance.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.i18n import _

RULEBOOK = "rulebook"
DERIVED = "rulebook-derived"
OURS = "ours"

INNER = "inner"
OUTER = "outer"
TRACKS = (INNER, OUTER)

BUSINESS_INSURANCE = "business-insurance"
LIFE_INSURANCE = "life-insurance"
TAKEOVER = "takeover"
BONDS_CORNER = "bonds"
CORNERS = (BUSINESS_INSURANCE, LIFE_INSURANCE, TAKEOVER, BONDS_CORNER)
START = "start"

CORNER = "corner"
COMPANY = "company"
ADVERTISER = "advertiser"
INCOME = "income"
INDEX = "index"
BLANK = "start"

# Money facts (rulebook).
BANK_CAPITAL = 3000
BOND_VALUE = 10
BOND_BUYBACK_FROM_PLAYERS = 20
TREASURY_BONDS = 30
INSURANCE_POLICIES = 5
INSURANCE_PRICE = 10
LIFE_VALUE = 100
LIFE_SELL_BACK = 8
TAKEOVER_FEE = 3
COMPANY_FACTOR = 10
ADVERTISER_FACTOR = 1
TAX_PER_COMPANY = 5
BASE_SALARY = 10
BOND_INTEREST = 10
# Our edition: elections in a row with no Government before the largest bloc governs alone.
MAX_FAILED_ELECTIONS = 3
# Our edition: the lesson length (rounds) when the teacher sets none; see the balance page.
DEFAULT_ROUNDS = 12
MIN_PLAYERS, MAX_PLAYERS = 2, 6

COMPANY_NAMES = (
    _("Northwind Rail"), _("Bluebell Dairy"), _("Harbour Steel"), _("Sunrise Bakery"),
    _("Greenfield Farms"), _("Riverside Textiles"), _("Summit Mining"), _("Cobalt Motors"),
    _("Lighthouse Shipping"), _("Maple Furniture"), _("Silverline Telecom"),
    _("Orchard Juices"), _("Granite Cement"), _("Beacon Energy"), _("Willow Paper"),
    _("Falcon Airways"), _("Crystal Glassworks"), _("Meadow Foods"), _("Pioneer Chemicals"),
    _("Oakridge Timber"),
)
ADVERTISER_NAMES = (
    _("Morning Gazette"), _("Evening Chronicle"), _("Channel Nine"), _("Metro Radio"),
    _("Bus Shelter Posters"), _("Stadium Screens"), _("Weekly Shopper"), _("Cinema Adverts"),
    _("Town Crier"), _("Skyline Billboards"), _("Pop Magazine"), _("Sports Weekly"),
    _("Wave FM"), _("Station Posters"), _("Flyer Express"), _("Neon Signs"), _("Taxi Tops"),
    _("Web Banners"), _("Corner Noticeboard"), _("Airship Adverts"), _("Youth Magazine"),
    _("Local News 24"), _("Jingle Studio"), _("Poster Vans"), _("Sunday Supplement"),
)
CORNER_NAMES = {
    BUSINESS_INSURANCE: _("Business Insurance"), LIFE_INSURANCE: _("Life Insurance"),
    TAKEOVER: _("Takeover"), BONDS_CORNER: _("Bonds"),
}

# Segments between corners, clockwise (ours). C Company, A Advertiser, $ Income, + Index,
# S the Start square.
INNER_SEGMENTS = ("SA$C+A$C", "A+$CA$+", "$AC+A$C", "A+$CA$+")
OUTER_SEGMENTS = ("AC+AC$A+CA+A", "CA+CAA+C$A+C", "AC+AC$A+CA+A", "CA+CA+AC$++C")
INNER_INCOME = (2, 4, 5, 2, 2, 5, 4, 2)  # in clockwise order from Start (ours)
OUTER_OPPORTUNITY = (False, True, True, True)  # the four outer 10x squares, in order (ours)
INDEX_STEPS = (1, 2, 3, 4, 1, 2, 3, 1, 2, 4, 5, 1, 2, 3, 4, 1, 2, 3, 4)  # inner then outer

# The Inflation Index: 20 spaces clockwise from space 1 ("1, Election"); kinds are the
# rulebook's counts, order and values are ours (prices climb to 6 clockwise, then fall).
ELECTION = "election"
SALARY = "salary"
TAX = "tax"
BOND_INTEREST_SPACE = "bonds"
INDEX_KINDS = ("election", "tax", "bonds", "salary", "tax", "bonds", "tax", "election",
               "bonds", "salary", "tax", "bonds", "salary", "tax", "election", "bonds",
               "salary", "tax", "bonds", "salary")
INDEX_VALUES = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2)
CLOCKWISE = "clockwise"
ANTICLOCKWISE = "anticlockwise"


@dataclass(frozen=True)
class Square:
    id: str
    kind: str
    name: str = ""
    track: str | None = None  # None for a corner (it is on both tracks)
    factor: int = 0  # Income: x BI; Index: +steps
    opportunity: bool = False
    source: str = OURS


def _build() -> tuple[dict[str, Square], dict[str, tuple[str, ...]]]:
    squares: dict[str, Square] = {c: Square(c, CORNER, CORNER_NAMES[c], source=RULEBOOK)
                                  for c in CORNERS}
    counts = {"C": 0, "A": 0, "$": 0, "+": 0}
    incomes = iter(INNER_INCOME)
    opportunities = iter(OUTER_OPPORTUNITY)
    steps = iter(INDEX_STEPS)
    loops: dict[str, tuple[str, ...]] = {}
    for track, segments in ((INNER, INNER_SEGMENTS), (OUTER, OUTER_SEGMENTS)):
        loop: list[str] = []
        for corner, segment in zip(CORNERS, segments, strict=True):
            loop.append(corner)
            for mark in segment:
                if mark == "S":
                    squares[START] = Square(START, BLANK, _("Starting square"), INNER, source=RULEBOOK)
                    loop.append(START)
                    continue
                counts[mark] += 1
                n = counts[mark]
                if mark == "C":
                    sq = Square(f"c{n}", COMPANY, COMPANY_NAMES[n - 1], track)
                elif mark == "A":
                    sq = Square(f"a{n}", ADVERTISER, ADVERTISER_NAMES[n - 1], track)
                elif mark == "$":
                    factor = next(incomes) if track == INNER else 10
                    opp = track == OUTER and next(opportunities)
                    sq = Square(f"inc{n}", INCOME, "", track, factor, opp)
                else:
                    sq = Square(f"idx{n}", INDEX, "", track, next(steps))
                squares[sq.id] = sq
                loop.append(sq.id)
        loops[track] = tuple(loop)
    return squares, loops


SQUARES, LOOPS = _build()
COMPANIES = tuple(s for s in SQUARES if SQUARES[s].kind == COMPANY)
ADVERTISERS = tuple(s for s in SQUARES if SQUARES[s].kind == ADVERTISER)
FIRMS = COMPANIES + ADVERTISERS


@dataclass(frozen=True)
class Board:
    """A game's board and Inflation Index track: our edition's, or a record's override.

    ``squares`` holds exactly the squares on the board, each with the track it is on (a corner:
    ``None``); ``loops`` each track's squares clockwise; the Inflation Index has
    ``len(index_kinds)`` spaces, space ``n`` being ``index_kinds[n - 1]`` at multiplier
    ``index_values[n - 1]``. Firms keep our edition's order.
    """

    squares: dict[str, Square]
    loops: dict[str, tuple[str, ...]]
    index_kinds: tuple[str, ...]
    index_values: tuple[int, ...]

    @property
    def firms(self) -> tuple[str, ...]:
        return tuple(f for f in FIRMS if f in self.squares)

    def track_of(self, square: str) -> str | None:
        """The track a square is on; ``None`` for a corner (it is on both)."""
        return self.squares[square].track

    def loop_of(self, square: str, track: str | None = None) -> tuple[str, ...]:
        """The loop a square is on (a corner is on both: ``track`` says which)."""
        return self.loops[self.squares[square].track or track or INNER]

    def ahead(self, square: str, steps: int, track: str | None = None) -> str:
        """The square ``steps`` clockwise from ``square`` on its track (``track`` for a
        corner)."""
        loop = self.loop_of(square, track)
        return loop[(loop.index(square) + steps) % len(loop)]


EDITION = Board(SQUARES, LOOPS, INDEX_KINDS, INDEX_VALUES)


@lru_cache(maxsize=64)
def _custom(key: str) -> Board:
    inner, outer, index = json.loads(key)
    squares: dict[str, Square] = {}
    for track, loop in ((INNER, inner), (OUTER, outer)):
        for sq in loop:
            squares[sq] = replace(SQUARES[sq], track=None if sq in CORNERS else track)
    return Board(squares, {INNER: tuple(inner), OUTER: tuple(outer)},
                 tuple(kind for kind, _value in index), tuple(value for _kind, value in index))


def board_for(board: dict[str, list[str]] | None, index_track: list[list[Any]] | None
              ) -> Board:
    """The board of a game whose config overrides ``board`` and/or ``index_track`` (both as
    ``setup`` checked and normalised them: ``{"inner": [...], "outer": [...]}`` and
    ``[[kind, value], ...]``); ``None`` for both is our edition, the same object each time."""
    if board is None and index_track is None:
        return EDITION
    loops = board or {t: list(LOOPS[t]) for t in TRACKS}
    index = index_track or [[k, v] for k, v in zip(INDEX_KINDS, INDEX_VALUES, strict=True)]
    return _custom(json.dumps([loops[INNER], loops[OUTER], index]))


def loop_of(square: str, track: str | None = None) -> tuple[str, ...]:
    """The loop a square is on in our edition (a corner is on both: ``track`` says which)."""
    return EDITION.loop_of(square, track)


def ahead(square: str, steps: int, track: str | None = None) -> str:
    """The square ``steps`` clockwise from ``square`` on its track in our edition (``track``
    for a corner)."""
    return EDITION.ahead(square, steps, track)


def price(firm: str, multiplier: int) -> int:
    """What a firm costs, earns and charges at this multiplier: $10 or $1 x inflation."""
    factor = COMPANY_FACTOR if SQUARES[firm].kind == COMPANY else ADVERTISER_FACTOR
    return factor * multiplier
