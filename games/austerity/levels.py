"""The difficulty levels: our edition's (``levels: "ours"``) and the fan port's ("Classic
levels", ``levels: "classic"``).

The scenario cards' texts are not available. The fan port gives each scenario an Easy, a
Normal and a Hard level (Economic Crash and Organised Crime: extra Debt or Crime cubes in the
bag; Olympics and War Footing: the goal's figure); those are kept as the Classic levels
(``data.Scenario.extra`` and ``data.Scenario.levels``). **Ours** replace them by default in a
new lesson. An entry of ours sets only quantities the rulebook's vocabulary has, never a new
rule:

- ``bag``: cubes added to (or, with a negative count, taken out of) the starting bag, as the
  rulebook's own note on difficulty does ("add two yellow Income cubes to the bag", "add one
  or two extra black Debt cubes"). It applies to the starting bag in use (the base game's, or
  the country's with a ``country``); a colour never goes below 0 cubes;
- ``tracks``: the five start tracks (Employment, Public Safety, Wealth, Health, Popularity),
  as a scenario card sets them ("set the tracks to the numbers below the title"); ``None``
  keeps the scenario's.

The goal's figure (the Olympics box, the war marker) stays the scenario's for that difficulty
in both editions. Every entry of ours gives its ``source`` and the ``reason`` for its numbers
(the balance page, ``docs/engines/austerity-balance.md``, has the figures).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.austerity import data
from games.i18n import _

OURS, CLASSIC = "ours", "classic"
EDITIONS = (OURS, CLASSIC)
DEFAULT = CLASSIC  # a config without ``levels`` (every record made before our levels)


@dataclass(frozen=True)
class Level:
    scenario: str
    difficulty: str  # "easy", "normal" or "hard"
    bag: tuple[tuple[str, int], ...]  # (colour, cubes added; negative: taken out)
    tracks: tuple[int, int, int, int, int] | None  # start tracks; None: the scenario's
    reason: str
    source: str = "ours"


def _level(scenario: str, difficulty: str, bag: dict[str, int],
           tracks: tuple[int, int, int, int, int] | None, reason: str) -> Level:
    return Level(scenario, difficulty, tuple(bag.items()), tracks, reason)


E, N, H = data.DIFFICULTIES
EC, OL, OC, WF = data.ECONOMIC_CRASH, data.OLYMPICS, data.ORGANISED_CRIME, data.WAR_FOOTING
K, W, B, R, Y = data.DEBT, data.WELFARE, data.SECURITY, data.CRIME, data.INCOME

OUR_LEVELS: dict[tuple[str, str], Level] = {(lv.scenario, lv.difficulty): lv for lv in (
    _level(EC, E, {Y: 1}, (5, 6, 5, 5, 5),
           _("The base game with one more Income cube and Public Safety 6: the easy start "
             "the rulebook's note on difficulty asks for, for a game of three years.")),
    _level(EC, N, {}, None,
           _("The rulebook's base game, played to last three years.")),
    _level(EC, H, {K: 1, Y: 1}, None,
           _("One more Debt cube and one more Income cube: more borrowing to pay back.")),
    _level(OC, E, {K: -2, R: -1, Y: 1, B: 1}, None,
           _("Two Debt cubes and a Crime cube fewer, one Income and one Security cube more: "
             "the gangs can be beaten by year 3.")),
    _level(OC, N, {K: -2, R: -1}, None,
           _("Two Debt cubes and a Crime cube fewer.")),
    _level(OC, H, {K: -2}, None,
           _("Two Debt cubes fewer: both Crime cubes stay.")),
    _level(OL, E, {K: -3, R: -1}, (7, 6, 5, 6, 7),
           _("One Debt and one Crime cube in the bag, Public Safety and Health 6: the money "
             "can go to the Games.")),
    _level(OL, N, {K: -3, R: -1}, (6, 6, 5, 5, 7),
           _("As Easy, with Employment and Health 1 lower.")),
    _level(OL, H, {K: -2}, (7, 6, 5, 6, 7),
           _("Two Debt cubes and both Crime cubes, Public Safety and Health 6.")),
    _level(WF, E, {}, (7, 7, 6, 6, 5),
           _("Employment 7 and Popularity 5: feeding the war costs Employment every year.")),
    _level(WF, N, {K: -1}, (7, 7, 6, 6, 5),
           _("As Easy with one Debt cube fewer, for a longer war.")),
    _level(WF, H, {K: -1}, (7, 7, 6, 6, 5),
           _("As Normal, for the longest war.")),
)}


def classic_level(scenario: str, difficulty: str) -> Level:
    """The fan port's level as a ``Level`` (for the views and the explanations)."""
    setup = data.SCENARIOS[scenario]
    colour, extra = setup.extra[data.DIFFICULTIES.index(difficulty)]
    return Level(scenario, difficulty, ((colour, extra),) if extra else (), None,
                 _("The fan port's level."), source="fan port")


def level_of(edition: str, scenario: str, difficulty: str) -> Level:
    """The level in force (``difficulty`` "easier" is Easy, plus the rulebook's two Income)."""
    difficulty = "easy" if difficulty == data.EASIER else difficulty
    if edition == OURS:
        return OUR_LEVELS[scenario, difficulty]
    return classic_level(scenario, difficulty)


def start_bag(bag: dict[str, int], level: Level) -> dict[str, int]:
    """``bag`` with the level's cubes added (or taken out, never below 0)."""
    out = dict(bag)
    for colour, count in level.bag:
        out[colour] = max(0, out[colour] + count)
    return out


def start_tracks(scenario: str, level: Level) -> tuple[int, int, int, int, int]:
    return level.tracks or data.SCENARIOS[scenario].tracks
