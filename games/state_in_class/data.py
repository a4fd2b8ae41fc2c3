"""Game data for *A State in Class · Who Pays for Us All?*.

Facts fixed by the rulebook are marked ``"rulebook"``; numbers the rulebook does not print (the
role cards) are this project's edition, marked ``"project design"`` and tuned by simulation (see ``docs/balance.md``).
Every text is an English msgid marked for translation; the wording is ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.i18n import _

UPPER: Final = "upper"
MIDDLE: Final = "middle"
WORKING: Final = "working"
CLASSES: Final = (UPPER, MIDDLE, WORKING)
# Lower class first: used for tie-break order ("the one in the lower class").
CLASS_RANK: Final = {WORKING: 0, MIDDLE: 1, UPPER: 2}
CLASS_NAMES: Final = {UPPER: _("Upper class"), MIDDLE: _("Middle class"), WORKING: _("Working class")}
CLASS_UP: Final = {WORKING: MIDDLE, MIDDLE: UPPER}
CLASS_DOWN: Final = {UPPER: MIDDLE, MIDDLE: WORKING}

HEALTH: Final = "health"
EDUCATION: Final = "education"
SHIELD: Final = "shield"
SERVICES: Final = (HEALTH, EDUCATION, SHIELD)
SERVICE_NAMES: Final = {HEALTH: _("Health"), EDUCATION: _("Education"), SHIELD: _("Social Shield")}
SERVICE_EFFECTS: Final = {
    HEALTH: _("Level 4 or more: everyone's cost of living is 1 coin lower."),
    EDUCATION: _("Level 3 or more: the middle and working classes earn 1 more coin."),
    SHIELD: _("Level 3 or more: the working class pays no cost of living."),
}
MIN_LEVEL: Final = 1
MAX_LEVEL: Final = 5

ROUNDS: Final = 8
MIDLIFE_ROUND: Final = 4
OBSOLESCENCE_ROUNDS: Final = (3, 6)
START_COINS: Final = 3
MAX_PACT: Final = 3
FAIL_TENSION: Final = 10
MIN_TENSION: Final = 1


@dataclass(frozen=True)
class Role:
    id: str
    name: str
    klass: str
    income: int
    cost_of_living: int
    get_by: int
    live_well: int
    thrive: int
    spare: bool
    source: str
    description: str


def _role(
    id: str, name: str, klass: str, numbers: tuple[int, int, int, int, int], *,
    spare: bool = False, source: str = "project design", description: str,
) -> Role:
    income, cost, get_by, live_well, thrive = numbers
    return Role(id, name, klass, income, cost, get_by, live_well, thrive, spare, source, description)


# (income, cost of living, Get By, Live Well, Thrive) per round / at the final count.
# Tuned with the bot simulator so the five balance targets hold (docs/balance.md): every
# margin (income - cost) is chosen on purpose - director and landlord 10, doctor 8, middle
# class 4, factory worker, freelancer and waiter 2, home care worker 1 (the one role that a
# 2- or 3-coin pact leaves unable to absorb the round-2 and round-3 surcharges under tax C).
# Goals are set from the final coins of a decent game (always tax C, 8 players).
ROLES: Final[dict[str, Role]] = {
    r.id: r
    for r in (
        _role("company-director", _("Company director"), UPPER, (17, 7, 24, 35, 40),
              description=_("You run a big firm. Your money grows fast, and so do your hopes.")),
        _role("specialist-doctor", _("Specialist doctor"), UPPER, (15, 7, 10, 19, 24),
              description=_("You earn well in a private clinic, but you still need the country to work.")),
        _role("landlord", _("Landlord"), UPPER, (16, 6, 22, 33, 40), spare=True,
              source="rulebook (name); project design (numbers)",
              description=_("You live on the rent of the flats you own.")),
        _role("secondary-teacher", _("Secondary school teacher"), MIDDLE, (10, 6, 10, 18, 26),
              source="rulebook (name, Live Well 18); project design (other numbers)",
              description=_("You teach teenagers every day and count on public services.")),
        _role("shop-owner", _("Small shop owner"), MIDDLE, (11, 7, 11, 19, 27),
              description=_("Your shop does fine when your neighbours have money to spend.")),
        _role("office-worker", _("Office worker"), MIDDLE, (9, 5, 9, 17, 25),
              source="rulebook (name); project design (numbers)",
              description=_("A steady desk job with a modest salary.")),
        _role("nurse", _("Nurse"), MIDDLE, (10, 6, 10, 18, 26), spare=True,
              source="rulebook (name); project design (numbers)",
              description=_("You work long shifts at the public hospital.")),
        _role("factory-worker", _("Factory worker"), WORKING, (6, 4, 12, 21, 28),
              description=_("Hard work on the line for a small wage.")),
        _role("care-worker", _("Home care worker"), WORKING, (5, 4, 9, 17, 23),
              description=_("You look after elderly people in their homes.")),
        _role("precarious-freelancer", _("Precarious freelancer"), WORKING, (4, 2, 8, 14, 21),
              source="rulebook (name); project design (numbers)",
              description=_("Gig after gig, never sure of next month.")),
        _role("waiter", _("Waiter"), WORKING, (6, 4, 12, 21, 28), spare=True,
              source="rulebook (name); project design (numbers)",
              description=_("You serve tables for a wage and tips.")),
    )
}
SPARE_ROLE: Final = {UPPER: "landlord", MIDDLE: "nurse", WORKING: "waiter"}

BASE_ROLES: Final = (
    "company-director", "specialist-doctor",
    "secondary-teacher", "shop-owner", "office-worker",
    "factory-worker", "care-worker", "precarious-freelancer",
)


@dataclass(frozen=True)
class Setup:
    left_out: tuple[str, ...]
    price: int
    # Minimum pact total for Tension 1, 2 and 3; anything lower gives Tension 4.
    tension_thresholds: tuple[int, int, int]


# Rulebook: class mix 2/3/3, 2/2/3, 2/2/2; left-out roles; price of a level; the Tension table.
SETUPS: Final[dict[int, Setup]] = {
    8: Setup((), 10, (20, 17, 13)),
    7: Setup(("office-worker",), 9, (18, 15, 11)),
    6: Setup(("office-worker", "precarious-freelancer"), 8, (15, 13, 10)),
}
PLAYER_COUNTS: Final = tuple(sorted(SETUPS))

TAX_OPTIONS: Final = ("A", "B", "C", "D")
TAXES: Final[dict[str, dict[str, int]]] = {
    "A": {UPPER: 2, MIDDLE: 2, WORKING: 2},
    "B": {UPPER: 5, MIDDLE: 2, WORKING: 1},
    "C": {UPPER: 7, MIDDLE: 3, WORKING: 1},
    "D": {UPPER: 10, MIDDLE: 4, WORKING: 2},
}
TAX_NAMES: Final = {
    "A": _("Flat tax"), "B": _("Proportional"), "C": _("Progressive"), "D": _("Maximum effort"),
}
FIRST_ROUND_TAX: Final = "A"
SPLIT_PASS: Final = (3, 2, 1)

BOOM: Final = "economic-boom"
FLU: Final = "seasonal-flu"
CRISIS: Final = "cost-of-living-crisis"
MIDLIFE: Final = "midlife-crossroads"
TECH: Final = "tech-breakthrough"
STORM: Final = "great-storm"
PEACE: Final = "social-peace"
LEGACY: Final = "the-legacy"
# The rulebook fixes one event per round, in this order.
EVENTS: Final = (BOOM, FLU, CRISIS, MIDLIFE, TECH, STORM, PEACE, LEGACY)
EVENT_NAMES: Final = {
    BOOM: _("Economic boom"),
    FLU: _("Seasonal flu"),
    CRISIS: _("Cost-of-living crisis"),
    MIDLIFE: _("The Midlife Crossroads"),
    TECH: _("Tech breakthrough"),
    STORM: _("Great storm"),
    PEACE: _("Social peace"),
    LEGACY: _("The Legacy"),
}
EVENT_TEXTS: Final = {
    BOOM: _("Business is booming: everyone gets 2 coins."),
    FLU: _("If Health is at level 2 or lower, everyone's cost of living is 2 coins higher this round."),
    CRISIS: _("If Social Shield is at level 2 or lower, everyone's cost of living is 2 coins higher "
              "this round."),
    MIDLIFE: _("Everyone collects their income, with no tax and no cost of living. Then each player "
               "draws a life card and reads it aloud."),
    TECH: _("If Education is at level 3 or higher, the middle and working classes earn 2 more coins "
            "every round until the end of the game."),
    STORM: _("Tension rises by 1. If Health and Social Shield are both at level 2 or lower, everyone "
             "loses 3 coins; otherwise everyone loses 1."),
    PEACE: _("If Tension is 3 or lower, 15 extra coins go into this round's budget."),
    LEGACY: _("The last round. After it comes the final count."),
}
BOOM_COINS: Final = 2
SURCHARGE: Final = 2
TECH_BONUS: Final = 2
EDUCATION_BONUS: Final = 1
PEACE_COINS: Final = 15
PEACE_MAX_TENSION: Final = 3
INHERITANCE_BUDGET: Final = 4


@dataclass(frozen=True)
class Outcome:
    """What a Midlife card does at one band of levels.

    ``loss`` is a number of coins, ``"all"`` (lose everything) or ``"half+2"``;
    ``token_if_short``: an Exclusion token when the loss cannot be paid in full
    (for ``"all"``: when the player already had 0). ``to_zero``: the player drops to 0 coins.
    """

    text: str
    gain: int = 0
    loss: int | str = 0
    token_if_short: bool = False
    to_zero: bool = False
    move: int = 0  # +1 up a class, -1 down
    budget: int = 0  # coins the bank sets aside for round 5's budget
    tension: int = 0


@dataclass(frozen=True)
class MidlifeCard:
    id: str
    name: str
    measures: str  # a service, or "country" for the sum of the three levels
    low: Outcome  # Health/Shield/Education at 1-2 (country: sum 5 or less)
    mid: Outcome  # level 3 (country: sum 6-10)
    high: Outcome  # level 4-5 (country: sum 11 or more)


NOTHING: Final = Outcome(_("Nothing happens."))


def _lose(n: int, token: bool = True) -> Outcome:
    if token:
        return Outcome(_("You lose {n} coins; an Exclusion token if you cannot pay."), loss=n,
                       token_if_short=True)
    if n == 1:  # no "1 coins" (the engine cannot use ngettext: one text per number)
        return Outcome(_("You lose 1 coin."), loss=n)
    return Outcome(_("You lose {n} coins."), loss=n)


MIDLIFE_CARDS: Final[dict[str, MidlifeCard]] = {
    c.id: c
    for c in (
        MidlifeCard("serious-illness", _("Serious illness"), HEALTH,
                    Outcome(_("You lose everything; an Exclusion token if you already had nothing."),
                            loss="all", token_if_short=True),
                    NOTHING, NOTHING),
        MidlifeCard("mother-needs-care", _("Your mother can no longer cope alone"), HEALTH,
                    Outcome(_("You lose half your coins (rounded up) plus 2."), loss="half+2"),
                    _lose(2, token=False), _lose(2, token=False)),
        MidlifeCard("rock-bottom", _("You hit rock bottom"), HEALTH,
                    _lose(13), _lose(3, token=False), NOTHING),
        MidlifeCard("waiting-list", _("The waiting list"), HEALTH,
                    _lose(11), _lose(1, token=False), _lose(1, token=False)),
        MidlifeCard("eviction", _("Eviction"), SHIELD, _lose(10), NOTHING, NOTHING),
        MidlifeCard("out-of-work", _("Nine months out of work"), SHIELD,
                    _lose(12), _lose(2, token=False), _lose(2, token=False)),
        MidlifeCard("daughter-born", _("Your daughter is born"), SHIELD,
                    _lose(11), _lose(1, token=False), _lose(1, token=False)),
        MidlifeCard("the-inheritance", _("The inheritance"), SHIELD,
                    Outcome(_("You inherit 8 coins."), gain=8),
                    Outcome(_("You get 2 coins, and 4 coins go to next round's budget."), gain=2,
                            budget=INHERITANCE_BUDGET),
                    Outcome(_("You get 2 coins, and 4 coins go to next round's budget."), gain=2,
                            budget=INHERITANCE_BUDGET)),
        MidlifeCard("job-obsolete", _("Your job becomes obsolete"), EDUCATION,
                    Outcome(_("You move down a class."), move=-1), NOTHING,
                    Outcome(_("You retrain and move up a class."), move=1)),
        MidlifeCard("daughters-degree", _("Your daughter's degree"), EDUCATION,
                    Outcome(_("You lose 6 coins and move down a class."), loss=6, move=-1),
                    _lose(5, token=False), NOTHING),
        MidlifeCard("civil-service-exam", _("The civil service exam"), EDUCATION,
                    _lose(7, token=False), _lose(2, token=False),
                    Outcome(_("You pass: you drop to 0 coins and move up a class."), to_zero=True,
                            move=1)),
        MidlifeCard("nothing-happens", _("Nothing happens to you"), "country",
                    Outcome(_("The country is weak: you lose 6 coins and Tension rises by 1."),
                            loss=6, tension=1),
                    NOTHING,
                    Outcome(_("The country is strong: you get 2 coins."), gain=2)),
    )
}
COUNTRY_LOW_MAX: Final = 5  # sum of levels 5 or less
COUNTRY_HIGH_MIN: Final = 11  # sum of levels 11 or more
CLASS_DOWN_FROM_WORKING_LOSS: Final = 5
CLASS_UP_FROM_UPPER_GAIN: Final = 5

# Final count (rulebook).
POINTS_PER_LEVEL: Final = 2
LEGACY_LEVELS: Final = 12
LEGACY_POINTS: Final = 5
GOAL_POINTS: Final = {"falls-short": -4, "get-by": 0, "live-well": 8, "thrive": 12}
GOAL_NAMES: Final = {
    "falls-short": _("Falls short"), "get-by": _("Gets by"), "live-well": _("Lives well"),
    "thrive": _("Thrives"),
}
EXCLUSION_POINTS: Final = -5
TENSION_PENALTIES: Final = ((8, 9, -5), (5, 7, -2))

# Tension changes (rulebook).
EXCLUSION_TENSION: Final = 3
MIDLIFE_EXCLUSION_TENSION: Final = 2
STORM_TENSION: Final = 1
STRONG_SERVICES_LEVEL: Final = 4
