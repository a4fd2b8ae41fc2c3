"""Our edition of what the Crisis rulebook does not print (docs/engines/crisis.md).

Every entry is marked with its source: ``"ours"`` (this project's design, in the rulebook's
own mechanics) or ``"rulebook-derived"`` (a number the rulebook implies). Balanced by simulation
against the edition's targets: see ``docs/engines/crisis.md`` (section *Balance*).

Effects are tuples ``(kind, value)`` or ``(kind, value, arg)``; ``effects.py`` applies them:

- ``credits n`` / ``vp n``: every player gains (or pays, loses) n; an unpaid credit is a 1 VP
  Penalty tile (the FAQ), VP never drops below 0.
- ``status n``: the Crisis track moves n steps (never above 45).
- ``closed LOCATION``: an Out of Service tile: nobody may place a Manager there this round.
- ``subsidy n``, ``company_cost n``, ``import_price n``, ``export_credits n``,
  ``foreign_cost n``, ``interest n``: this round's amount changes by n (never below 0; a
  per-unit price never below 1).
- ``output n SECTOR``: the base output of that sector's Companies changes by n this round,
  before multipliers (the FAQ); never below 0.
- ``black_market_limit n``: this round each player may sell at most n tokens of a type.
- ``goal n``: this round's Austerity Plan goal changes by n.
- ``energy n``: every player receives n Energy (Warehouse limits apply).
- ``penalty n``: every player takes Penalty tiles worth n VP.
- ``smuggling n m``: the black-market line every Event card carries (``SMUGGLING``), settled
  at the start of Evaluation: if exactly one player sold on the black market this round, it
  receives n times its black-market takings again; if two or more did, the Crisis track drops
  m steps. Nobody who does not sell on the black market is ever touched by it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from games.i18n import _

OURS: Final = "ours"
DERIVED: Final = "rulebook-derived"

RED, YELLOW, GREEN = "red", "yellow", "green"
ZONES: Final = (RED, YELLOW, GREEN)
ZONE_NAMES: Final = {RED: _("Red zone"), YELLOW: _("Yellow zone"), GREEN: _("Green zone")}
# The Crisis track's colour zones (the board is not printed): ours. 0–14 red, 15–29 yellow,
# 30–45 green; the game starts at 31, just inside green.
ZONE_FLOOR: Final = {RED: 0, YELLOW: 15, GREEN: 30}
ZONES_SOURCE: Final = OURS
# Foreign Employees cost 1, 3 or 5 credits in the red, yellow or green zone (rulebook).
FOREIGN_COST: Final = {RED: 1, YELLOW: 3, GREEN: 5}


def zone(status: int) -> str:
    if status >= ZONE_FLOOR[GREEN]:
        return GREEN
    if status >= ZONE_FLOOR[YELLOW]:
        return YELLOW
    return RED


EASY, MEDIUM, DIFFICULT = "easy", "medium", "difficult"
DIFFICULTIES: Final = (EASY, MEDIUM, DIFFICULT)
DIFFICULTY_NAMES: Final = {EASY: _("Easy"), MEDIUM: _("Medium"), DIFFICULT: _("Difficult")}


@dataclass(frozen=True)
class Plan:
    """An Austerity Plan card: the level and the VP goal of each of the 7 rounds."""

    id: str
    players: tuple[int, ...]
    difficulty: str
    levels: tuple[str, ...]
    goals: tuple[int, ...]
    source: str = OURS


LEVELS_3_2_2: Final = ("I", "I", "I", "II", "II", "III", "III")
LEVELS_2_3_2: Final = ("I", "I", "II", "II", "II", "III", "III")

# One card per number of players (2–5) and difficulty. The box holds 9 cards whose split the
# rulebook does not print; a card per count lets each count meet the same survival band. The
# 4-player Medium card has 29 VP in round 3, the rulebook's evaluation example
# ("rulebook-derived"). Goals tuned by simulation (docs/engines/crisis.md, Balance).
PLANS: Final = {p.id: p for p in (
    Plan("2-easy", (2,), EASY, LEVELS_3_2_2, (17, 22, 27, 31, 35, 40, 44)),
    Plan("2-medium", (2,), MEDIUM, LEVELS_3_2_2, (18, 23, 30, 34, 39, 45, 50)),
    Plan("2-difficult", (2,), DIFFICULT, LEVELS_2_3_2, (19, 25, 31, 36, 42, 48, 54)),
    Plan("3-easy", (3,), EASY, LEVELS_3_2_2, (17, 22, 27, 31, 35, 40, 44)),
    Plan("3-medium", (3,), MEDIUM, LEVELS_3_2_2, (18, 23, 30, 34, 39, 45, 50)),
    Plan("3-difficult", (3,), DIFFICULT, LEVELS_2_3_2, (18, 24, 30, 36, 43, 49, 55)),
    Plan("4-easy", (4,), EASY, LEVELS_3_2_2, (17, 21, 26, 30, 34, 38, 42)),
    Plan("4-medium", (4,), MEDIUM, LEVELS_3_2_2, (18, 23, 29, 34, 39, 44, 49), DERIVED),
    Plan("4-difficult", (4,), DIFFICULT, LEVELS_2_3_2, (18, 24, 29, 35, 40, 46, 51)),
    Plan("5-easy", (5,), EASY, LEVELS_3_2_2, (17, 21, 26, 30, 34, 38, 42)),
    Plan("5-medium", (5,), MEDIUM, LEVELS_3_2_2, (17, 22, 28, 33, 38, 43, 48)),
    Plan("5-difficult", (5,), DIFFICULT, LEVELS_2_3_2, (18, 23, 28, 33, 38, 43, 48)),
)}


def plan_for(players: int, difficulty: str) -> Plan:
    return next(p for p in PLANS.values() if players in p.players and p.difficulty == difficulty)


@dataclass(frozen=True)
class Card:
    """An Event or Influence card of our data."""

    id: str
    name: str
    text: str
    effects: tuple[tuple[Any, ...], ...] = ()
    copies: int = 1
    source: str = OURS


_EVENT_FRONTS: Final = {
    GREEN: (
        Card("export-boom", _("Export boom"),
             _("Foreign buyers are back: every exported token pays 1 more credit this round."),
             (("export_credits", 1),)),
        Card("union-funds", _("Union funds"),
             _("The Union sends money: Government Subsidy pays 6 credits per Manager this round."),
             (("subsidy", 2),)),
        Card("investor-confidence", _("Investor confidence"),
             _("Companies are cheap to buy: every Company costs 3 credits less this round."),
             (("company_cost", -3),)),
        Card("good-harvest", _("Good harvest"),
             _("Sun and rain at the right time: every Farm produces 1 more Food this round."),
             (("output", 1, "FARM"),)),
        Card("tourist-season", _("Tourist season"),
             _("The hotels are full: every Resort's output is 1 higher this round."),
             (("output", 1, "RESORT"),)),
        Card("cheap-energy", _("Cheap energy"),
             _("A mild winter leaves energy to spare: every player receives 2 Energy."),
             (("energy", 2),)),
        Card("union-praise", _("Praise from the Union"),
             _("The Union praises your efforts: every player gains 1 VP."),
             (("vp", 1),)),
        Card("low-rates", _("Low interest rates"),
             _("The banks relax: nobody pays loan interest this round."),
             (("interest", -1),)),
        Card("tax-rebate", _("Tax rebate"),
             _("The government gives back some tax: every player receives 3 credits."),
             (("credits", 3),)),
        Card("grace-period", _("Grace period"),
             _("The Union gives Axia some slack: this round's goal is 2 VP lower."),
             (("goal", -2),)),
    ),
    YELLOW: (
        Card("strike", _("Strike"),
             _("The factories stop: Domestic Industry is out of service this round."),
             (("closed", "domestic-industry"),)),
        Card("port-congestion", _("Port congestion"),
             _("Ships wait outside the port: Imports are out of service this round."),
             (("closed", "imports"),)),
        Card("price-rise", _("Price rise"),
             _("Prices abroad go up: every imported unit costs 1 more credit this round."),
             (("import_price", 1),)),
        Card("brain-drain", _("Brain drain"),
             _("Workers leave for better pay abroad: Foreign Employees cost 2 credits more this round."),
             (("foreign_cost", 2),)),
        Card("tight-credit", _("Tight credit"),
             _("The banks are nervous: the Loan location is out of service this round."),
             (("closed", "loan"),)),
        Card("drought", _("Drought"),
             _("No rain for weeks: every Farm produces 1 less Food this round."),
             (("output", -1, "FARM"),)),
        Card("energy-shortage", _("Energy shortage"),
             _("The grid is overloaded: the Energy Exchange is out of service this round."),
             (("closed", "energy-exchange"),)),
        Card("customs-checks", _("Customs checks"),
             _("The police watch the docks: each player may sell at most 2 tokens of a type on the black market this round."),
             (("black_market_limit", 2),)),
        Card("tourism-slump", _("Tourism slump"),
             _("Tourists stay away: every Resort's output is 1 lower this round."),
             (("output", -1, "RESORT"),)),
        Card("lobby-scandal", _("Lobby scandal"),
             _("Journalists are watching: Shady Business is out of service this round."),
             (("closed", "shady-business"),)),
    ),
    RED: (
        Card("bank-run", _("Bank run"),
             _("People empty their accounts: every player pays 3 credits."),
             (("credits", -3),)),
        Card("interest-hike", _("Interest hike"),
             _("Foreign banks raise their rates: loan interest is 2 credits per loan this round."),
             (("interest", 1),)),
        Card("recession", _("Recession"),
             _("The state is short of money: Government Subsidy pays only 2 credits per Manager this round."),
             (("subsidy", -2),)),
        Card("export-slump", _("Export slump"),
             _("Nobody abroad is buying: every exported token pays 1 credit less this round."),
             (("export_credits", -1),)),
        Card("general-strike", _("General strike"),
             _("The whole country stops: Domestic Industry and the Temp Employee are out of service this round."),
             (("closed", "domestic-industry"), ("closed", "temp-employee"))),
        Card("power-cuts", _("Power cuts"),
             _("The lights go out: every Power Plant produces 1 less Energy this round."),
             (("output", -1, "POWER PLANT"),)),
        Card("capital-flight", _("Capital flight"),
             _("Investors run away: every Company costs 3 credits more this round."),
             (("company_cost", 3),)),
        Card("sanctions", _("Sanctions"),
             _("The borders close: Imports and Foreign Employees are out of service this round."),
             (("closed", "imports"), ("closed", "foreign-employees"))),
        Card("union-warning", _("Warning from the Union"),
             _("The Union is unhappy with your companies: every player takes a 1 VP Penalty tile."),
             (("penalty", 1),)),
        Card("market-panic", _("Market panic"),
             _("The markets panic: Axia's Financial Status drops 2 steps."),
             (("status", -2),)),
    ),
}
# The black-market line printed at the bottom of every Event card (ours): a lone smuggler finds
# eager buyers and is paid three times the black-market price (twice its takings again); when
# two or more teams smuggle in the same round the goods flood the market, the Union's
# inspectors notice and Axia's Financial Status drops 8 steps. It is what makes selling on the
# black market pay for one team while it ruins Axia when every team does it (balance target 2;
# docs/engines/crisis.md, Balance).
SMUGGLING: Final = ("smuggling", 2, 8)
SMUGGLING_SOURCE: Final = OURS
SMUGGLING_TEXT: Final = _(
    "Black market: if only one player sells on the black market this round, it is paid three "
    "times the black-market price; if two or more players do, Axia's Financial Status drops 8 "
    "steps at Evaluation.")
EVENTS: Final = {zone: tuple(replace(c, effects=(*c.effects, SMUGGLING)) for c in deck)
                 for zone, deck in _EVENT_FRONTS.items()}
EVENT_CARDS: Final = {c.id: c for cards in EVENTS.values() for c in cards}
EVENT_ZONE: Final = {c.id: z for z, cards in EVENTS.items() for c in cards}

# Influence cards (28): played at any moment of a round the player chooses, one per round.
# ``target``: the card names another player; ``choice``: it asks which resource or type.
INFLUENCE: Final = {c.id: c for c in (
    Card("tax-break", _("Tax break"),
         _("A friendly tax inspector looks away: receive 5 credits."),
         (("credits", 5),), copies=4),
    Card("friends-in-government", _("Friends in government"),
         _("A minister praises your company on TV: gain 2 VP."),
         (("vp", 2),), copies=3),
    Card("energy-deal", _("Energy deal"),
         _("A power company owes you a favour: receive 3 Energy."),
         (("energy", 3),), copies=3),
    Card("smuggled-goods", _("Smuggled goods"),
         _("A truck arrives at night: receive 1 Food, Minerals, Chemicals or Industrials of your choice."),
         (("resource", 1),), copies=3),
    Card("headhunter", _("Headhunter"),
         _("A contact abroad finds you staff: take one Foreign Employee of your choice for free."),
         (("foreign", 1),), copies=3),
    Card("soft-loan", _("Soft loan"),
         _("A friendly banker helps you: take a loan (10 credits) without losing VP."),
         (("loan", 1),), copies=2),
    Card("debt-relief", _("Debt relief"),
         _("Part of your debt is forgiven: pay back one loan for only 5 credits."),
         (("repay", 5),), copies=2),
    Card("clean-record", _("Clean record"),
         _("A lawyer cleans up your file: discard Penalty tiles worth up to 2 VP."),
         (("clean", 2),), copies=3),
    Card("tax-audit", _("Tax audit"),
         _("You tip off the tax office: a rival of your choice pays 4 credits to the bank."),
         (("audit", 4),), copies=2),
    Card("bad-press", _("Bad press"),
         _("You leak a story to the papers: a rival of your choice loses 2 VP."),
         (("press", 2),), copies=3),
)}
INFLUENCE_DECK: Final = tuple(c.id for c in INFLUENCE.values() for _i in range(c.copies))
TARGETED: Final = frozenset({"tax-audit", "bad-press"})
CHOOSING: Final = frozenset({"smuggled-goods", "headhunter"})
