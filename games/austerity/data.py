"""Austerity's content: cubes, tracks, the Cube Draw Results, institutions, scenarios,
starting countries and our policy cards.

Every entry says where it comes from (``source``):

- ``"rulebook"``: printed in the rulebook (the events, institutions, actions, setup);
- ``"rulebook-derived"``: a fact the rulebook refers to and our edition notes record;
- ``"fan port"``: the mechanics a public fan port encodes (scenarios, countries, the Income
  icons of the Employment track: 0 on spaces 0–4, 1 on 5–8, 2 on 9–10);
- ``"ours"``: this project's design (the six policy cards).

Effects are lists of operations, in the rulebook's vocabulary:

- ``("track", TRACK, DELTA)``: move a track (capped at 10; reaching 0 loses the game);
- ``("add", COLOUR, N)``: Add (to Used); ``("add_bag", COLOUR, N)``: Add to Bag;
- ``("remove", COLOUR, N)``: Remove (Current first, then Used or the Treasury);
- ``("spend", N)``: Spend N Income (from the Treasury or Current);
- ``("cuts_all",)``: advance the Cuts track of every institution in play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.i18n import _

Op = tuple  # ("track", "wealth", -1), ("add", "crime", 1), ...

# --------------------------------------------------------------------------- cubes and tracks

DEBT, WELFARE, SECURITY, CRIME, INCOME = "debt", "welfare", "security", "crime", "income"
COLOURS = (DEBT, WELFARE, SECURITY, CRIME, INCOME)
COLOUR_NAMES = {DEBT: _("Debt"), WELFARE: _("Welfare"), SECURITY: _("Security"),
                CRIME: _("Crime"), INCOME: _("Income")}

EMPLOYMENT, SAFETY, WEALTH, HEALTH, POPULARITY = (
    "employment", "public-safety", "wealth", "health", "popularity")
TRACKS = (EMPLOYMENT, SAFETY, WEALTH, HEALTH, POPULARITY)
TRACK_NAMES = {EMPLOYMENT: _("Employment"), SAFETY: _("Public Safety"), WEALTH: _("Wealth"),
               HEALTH: _("Health"), POPULARITY: _("Popularity")}
TRACK_MIN, TRACK_MAX = 0, 10  # 0 is the shaded losing space
CUTS_STEPS = 3  # the third Cuts step is the final one: penalty, then back to the start


def income_icons(employment: int) -> int:
    """Income icons printed on the Employment track's space (fan port: 0–4 → 0, 5–8 → 1, 9+ → 2)."""
    return 0 if employment <= 4 else 1 if employment <= 8 else 2


def pair_key(cubes: list[str] | tuple[str, ...]) -> str:
    """A drawn pair's name in the canonical colour order, e.g. ``"debt+security"``."""
    return "+".join(sorted(cubes, key=COLOURS.index))


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Option:
    id: str
    text: str
    ops: tuple[Op, ...]


@dataclass(frozen=True)
class Event:
    id: str
    name: str
    text: str
    always: tuple[Op, ...] = ()  # applied whatever is chosen
    options: tuple[Option, ...] = ()  # pick one (none: the event has no choice)
    fund_again: bool = False  # Budget Surplus: may Spend both cubes to fund again
    source: str = "rulebook"


def _opt(id_: str, text: str, *ops: Op) -> Option:
    return Option(id_, text, tuple(ops))


EVENTS: dict[str, Event] = {e.id: e for e in (
    Event("debt+debt", _("Economic Downturn"),
          _("Wealth goes down by 1 and every institution suffers Cuts."),
          always=(("track", WEALTH, -1), ("cuts_all",))),
    Event("debt+security", _("Underfunded Police Force"),
          _("Spend an Income cube, or add a Crime cube."),
          options=(_opt("spend", _("Spend an Income cube."), ("spend", 1)),
                   _opt("add-crime", _("Add a Crime cube."), ("add", CRIME, 1)))),
    Event("debt+crime", _("Political Corruption"), _("Popularity goes down by 1."),
          always=(("track", POPULARITY, -1),)),
    Event("crime+income", _("Anti-Austerity Protests"),
          _("Remove the Income and Crime cubes, or gain 1 Popularity and add a Debt cube."),
          options=(_opt("remove", _("Remove an Income cube and a Crime cube."),
                        ("remove", INCOME, 1), ("remove", CRIME, 1)),
                   _opt("popularity", _("Gain 1 Popularity and add a Debt cube."),
                        ("track", POPULARITY, 1), ("add", DEBT, 1)))),
    Event("crime+crime", _("Industrial Violations"), _("Public Safety goes down by 2."),
          always=(("track", SAFETY, -2),)),
    Event("welfare+crime", _("Welfare Cheats"), _("Employment goes down by 2."),
          always=(("track", EMPLOYMENT, -2),)),
    Event("welfare+welfare", _("Back-to-Work Programme"), _("Employment goes up by 1."),
          always=(("track", EMPLOYMENT, 1),)),
    Event("income+income", _("Budget Surplus"),
          _("Wealth goes up by 1. You may spend both Income cubes to fund an institution "
            "that was already funded this year."),
          always=(("track", WEALTH, 1),), fund_again=True),
    Event("debt+income", _("Early Repayments"),
          _("You may spend an Income cube to remove the Debt cube."),
          options=(_opt("repay", _("Spend an Income cube and remove a Debt cube."),
                        ("spend", 1), ("remove", DEBT, 1)),
                   _opt("decline", _("Keep your money.")))),
    Event("security+income", _("Security Spending"),
          _("Gain 1 Popularity or 1 Public Safety."),
          options=(_opt("popularity", _("Gain 1 Popularity."), ("track", POPULARITY, 1)),
                   _opt("public-safety", _("Gain 1 Public Safety."), ("track", SAFETY, 1)))),
    Event("security+security", _("Falling Crime Rates"), _("Public Safety goes up by 2."),
          always=(("track", SAFETY, 2),)),
    Event("security+crime", _("Special Operations"),
          _("Remove the Security and Crime cubes, or lose 1 Public Safety."),
          options=(_opt("remove", _("Remove a Security cube and a Crime cube."),
                        ("remove", SECURITY, 1), ("remove", CRIME, 1)),
                   _opt("lose-safety", _("Lose 1 Public Safety."), ("track", SAFETY, -1)))),
    Event("welfare+security", _("Welfare Cheat Crackdown"),
          _("Remove the Welfare cube, or gain 1 Employment and lose 1 Popularity."),
          options=(_opt("remove", _("Remove a Welfare cube."), ("remove", WELFARE, 1)),
                   _opt("employment", _("Gain 1 Employment and lose 1 Popularity."),
                        ("track", EMPLOYMENT, 1), ("track", POPULARITY, -1)))),
    Event("welfare+income", _("Nationalised Healthcare Spending"), _("Health goes up by 2."),
          always=(("track", HEALTH, 2),)),
    Event("debt+welfare", _("Welfare Budget Problems"),
          _("Spend an Income cube, or lose 1 Health."),
          options=(_opt("spend", _("Spend an Income cube."), ("spend", 1)),
                   _opt("lose-health", _("Lose 1 Health."), ("track", HEALTH, -1)))),
)}

# --------------------------------------------------------------------------- institutions


@dataclass(frozen=True)
class Institution:
    id: str
    name: str
    fund: tuple[Op, ...]  # the reward (Investment: when its second cube of the year lands)
    cuts: tuple[Op, ...]  # the penalty of the final Cuts step
    cut_by: tuple[str, ...]  # the colours that, drawn with a Debt cube, make it eligible
    fund_text: str
    cuts_text: str
    extra: bool = False
    cubes_per_year: int = 1
    source: str = "rulebook"


PRIVATE, NATIONAL, SOCIAL = "private-enterprise", "national-security", "social-welfare"
INFRASTRUCTURE, INVESTMENT, EDUCATION = "infrastructure", "investment", "higher-education"

INSTITUTIONS: dict[str, Institution] = {i.id: i for i in (
    Institution(PRIVATE, _("Private Enterprise"), (("track", EMPLOYMENT, 1),),
                (("track", EMPLOYMENT, -2),), (INCOME, CRIME, WELFARE),
                _("Gain 1 Employment."), _("Lose 2 Employment.")),
    Institution(NATIONAL, _("National Security"), (("add", SECURITY, 1),),
                (("add", CRIME, 1),), (CRIME, SECURITY),
                _("Add a Security cube."), _("Add a Crime cube.")),
    Institution(SOCIAL, _("Social Welfare"), (("add", WELFARE, 1),),
                (("track", HEALTH, -2),), (SECURITY, INCOME, WELFARE),
                _("Add a Welfare cube."), _("Lose 2 Health.")),
    Institution(INFRASTRUCTURE, _("Infrastructure"), (("track", WEALTH, 1),),
                (("track", HEALTH, -1),), (SECURITY,),
                _("Gain 1 Wealth."), _("Lose 1 Health."), extra=True),
    Institution(INVESTMENT, _("Investment"), (("add", INCOME, 1),),
                (("add", DEBT, 1),), (CRIME,),
                _("Fund it twice in one year to add an Income cube."), _("Add a Debt cube."),
                extra=True, cubes_per_year=2),
    Institution(EDUCATION, _("Higher Education"),
                (("track", EMPLOYMENT, 1), ("track", WEALTH, -1)),
                (("add", CRIME, 1),), (INCOME,),
                _("Gain 1 Employment and lose 1 Wealth."), _("Add a Crime cube."), extra=True),
)}
BOARD_INSTITUTIONS = (PRIVATE, NATIONAL, SOCIAL)
EXTRA_INSTITUTIONS = (INFRASTRUCTURE, INVESTMENT, EDUCATION)
EXTRA_INSTITUTION_COST = 2  # Spend two Income to bring one into play

# --------------------------------------------------------------------------- actions

BORROW, RAISE_TAXES, PAY_LOAN = "borrow", "raise-taxes", "pay-loan"
FEED_WAR, OPEN = "feed-war", "open"  # War Footing's action; bringing in an extra institution
FINANCE_OLYMPICS = "finance-olympics"  # the Olympics' action: an Income cube into the box
ACTIONS: dict[str, tuple[Op, ...]] = {
    BORROW: (("add", INCOME, 2), ("add_bag", DEBT, 1)),
    RAISE_TAXES: (("add_bag", INCOME, 1), ("add_bag", CRIME, 1)),
    PAY_LOAN: (("remove", INCOME, 2), ("remove", DEBT, 1)),
    FEED_WAR: (("spend", 1), ("track", EMPLOYMENT, -1)),
    FINANCE_OLYMPICS: (("spend", 1),),  # the cube goes into the Olympics box, not the supply
}
ACTION_NAMES = {BORROW: _("Borrow Money"), RAISE_TAXES: _("Raise Taxes"),
                PAY_LOAN: _("Pay Loan"), FEED_WAR: _("Feed the War"),
                FINANCE_OLYMPICS: _("Finance the Olympics"),
                OPEN: _("Open a new institution")}

# --------------------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    tracks: tuple[int, int, int, int, int]  # Employment, Public Safety, Wealth, Health, Popularity
    extra: tuple[tuple[str, int], tuple[str, int], tuple[str, int]]  # cubes: Easy, Normal, Hard
    goal: str
    levels: tuple[int, int, int] = (0, 0, 0)  # the goal's figure for Easy / Normal / Hard
    events: dict[str, tuple[Op, ...]] = field(default_factory=dict)  # replaced events
    event_texts: dict[str, str] = field(default_factory=dict)  # the replaced events' texts
    source: str = "fan port"


ECONOMIC_CRASH, OLYMPICS, ORGANISED_CRIME, WAR_FOOTING = (
    "economic-crash", "olympics", "organised-crime", "war-footing")
SCENARIOS: dict[str, Scenario] = {s.id: s for s in (
    Scenario(ECONOMIC_CRASH, _("Economic Crash"), (5, 5, 5, 5, 5),
             ((DEBT, 0), (DEBT, 1), (DEBT, 2)),
             _("Win at Year End when no Debt cube is in Used.")),
    Scenario(OLYMPICS, _("Olympics"), (7, 4, 5, 4, 7), ((INCOME, 0), (INCOME, 0), (INCOME, 0)),
             _("After 8 years, win if Public Safety is 6 or more and the Olympics box holds "
               "{level} Income cubes or more."), levels=(2, 3, 4)),
    Scenario(ORGANISED_CRIME, _("Organised Crime"), (6, 4, 4, 6, 7),
             ((CRIME, 0), (CRIME, 1), (CRIME, 2)),
             _("Win at Year End when no Crime cube is in Used."),
             events={"debt+crime": (("add", CRIME, 1), ("track", POPULARITY, -1))},
             event_texts={"debt+crime": _("Political Corruption: add a Crime cube and lose 1 "
                                          "Popularity.")}),
    Scenario(WAR_FOOTING, _("War Footing"), (5, 7, 6, 6, 4), ((DEBT, 0), (DEBT, 0), (DEBT, 0)),
             _("Feed the War to move the war marker up; win when it reaches {level}, lose "
               "if it falls to 0."), levels=(5, 6, 7)),
)}
DIFFICULTIES = ("easy", "normal", "hard")
EASIER = "easier"  # the rulebook's easier base game: Easy plus two Income cubes in the bag
EASIER_INCOME = 2
OLYMPICS_YEARS, OLYMPICS_SAFETY = 8, 6
WAR_START = 2

# --------------------------------------------------------------------------- countries


@dataclass(frozen=True)
class Country:
    id: str
    name: str
    bag: tuple[str, ...]  # the ten starting cubes
    policy: tuple[str, str]  # (card, face) the country dictates
    fixed: bool  # True: a permanent condition of the country (the card cannot be turned)
    source: str = "rulebook-derived"


def _bag(letters: str) -> tuple[str, ...]:
    codes = {"K": DEBT, "W": WELFARE, "B": SECURITY, "R": CRIME, "Y": INCOME}
    return tuple(codes[c] for c in letters.split())


BASE_BAG = _bag("K K K K W B B R R Y")  # the rulebook's Setup
COUNTRIES: dict[str, Country] = {c.id: c for c in (
    Country("capitalist-democracy", _("Capitalist Democracy"), BASE_BAG,
            ("trade", "free-trade"), fixed=False),
    Country("liberal-democracy", _("Liberal Democracy"), _bag("K K K K W W W R R Y"),
            ("welfare", "welfare-state"), fixed=False),
    Country("socialist-republic", _("Socialist Republic"), _bag("K K K B B W W R R Y"),
            ("ownership", "nationalised"), fixed=True),
    Country("tinpot-dictatorship", _("Tinpot Dictatorship"), _bag("K K K K K B B B B Y"),
            ("policing", "police-state"), fixed=True),
)}

# --------------------------------------------------------------------------- policy cards (ours)


@dataclass(frozen=True)
class Face:
    """One face of a policy card: it changes one rule (an event, a reward, a penalty, an action)."""

    id: str
    name: str
    text: str
    target: tuple[str, str]  # ("event", pair): its whole effect; ("option", "pair:option");
    # ("fund", institution): its reward; ("cuts", institution): its penalty; ("action", id)
    ops: tuple[Op, ...]


@dataclass(frozen=True)
class PolicyCard:
    id: str
    name: str
    faces: tuple[Face, Face]
    source: str = "ours"


POLICY_TURN_COST = (("track", POPULARITY, -1),)  # turning a card at Year End: a U-turn

POLICY_CARDS: dict[str, PolicyCard] = {c.id: c for c in (
    PolicyCard("policing", _("Policing"), (
        Face("police-state", _("Police State"),
             _("Special Operations: remove the Crime cube and lose 1 Popularity."),
             ("event", "security+crime"), (("remove", CRIME, 1), ("track", POPULARITY, -1))),
        Face("civil-liberties", _("Civil Liberties"),
             _("Funding National Security gives 1 Popularity and 1 Public Safety instead of "
               "a Security cube."),
             ("fund", NATIONAL), (("track", POPULARITY, 1), ("track", SAFETY, 1))))),
    PolicyCard("trade", _("Trade"), (
        Face("free-trade", _("Free Trade"),
             _("Funding Private Enterprise gives 1 Employment and 1 Wealth."),
             ("fund", PRIVATE), (("track", EMPLOYMENT, 1), ("track", WEALTH, 1))),
        Face("protectionism", _("Protectionism"),
             _("Welfare Cheats: lose 1 Employment and 1 Wealth instead of 2 Employment."),
             ("event", "welfare+crime"), (("track", EMPLOYMENT, -1), ("track", WEALTH, -1))))),
    PolicyCard("welfare", _("Welfare"), (
        Face("welfare-state", _("Welfare State"),
             _("Funding Social Welfare adds a Welfare cube and gives 1 Health."),
             ("fund", SOCIAL), (("add", WELFARE, 1), ("track", HEALTH, 1))),
        Face("workfare", _("Workfare"),
             _("Back-to-Work Programme: gain 2 Employment and lose 1 Health."),
             ("event", "welfare+welfare"), (("track", EMPLOYMENT, 2), ("track", HEALTH, -1))))),
    PolicyCard("tax", _("Tax"), (
        Face("high-taxes", _("High Taxes"),
             _("Raise Taxes adds two Income cubes and two Crime cubes to the bag."),
             ("action", RAISE_TAXES), (("add_bag", INCOME, 2), ("add_bag", CRIME, 2))),
        Face("low-taxes", _("Low Taxes"),
             _("Raise Taxes adds one Income cube to the bag and two Crime cubes to Used."),
             ("action", RAISE_TAXES), (("add_bag", INCOME, 1), ("add", CRIME, 2))))),
    PolicyCard("ownership", _("Public Ownership"), (
        Face("nationalised", _("Nationalised Industry"),
             _("Economic Downturn: lose 2 Wealth and 1 Popularity, but no institution suffers "
               "Cuts."),
             ("event", "debt+debt"), (("track", WEALTH, -2), ("track", POPULARITY, -1))),
        Face("privatised", _("Privatised Industry"),
             _("Pay Loan also gives 1 Wealth: state companies are sold to pay the debt."),
             ("action", PAY_LOAN),
             (("remove", INCOME, 2), ("remove", DEBT, 1), ("track", WEALTH, 1))))),
    PolicyCard("central-bank", _("Central Bank"), (
        Face("independent-bank", _("Independent Central Bank"),
             _("Early Repayments: spending an Income cube to remove the Debt cube also gives "
               "1 Wealth."),
             ("option", "debt+income:repay"), (("spend", 1), ("remove", DEBT, 1), ("track", WEALTH, 1))),
        Face("state-bank", _("State-Run Central Bank"),
             _("Borrow Money adds three Income cubes to Used and a Debt cube to the bag, and "
               "costs 2 Wealth."),
             ("action", BORROW), (("add", INCOME, 3), ("add_bag", DEBT, 1), ("track", WEALTH, -2))))),
)}
FACES: dict[str, tuple[str, Face]] = {f.id: (c.id, f) for c in POLICY_CARDS.values()
                                      for f in c.faces}
