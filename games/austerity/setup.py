"""Setting up a game from its config: scenario, difficulty, country, policy cards, options,
pinned draws and a stated starting situation (``start``). See ``docs/engines/austerity.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.austerity import data, levels
from games.austerity.rules import draw_staged, year_entry
from games.austerity.state import GameState, Institution, in_order, no_cubes
from games.core import InvalidConfig, check_config
from games.i18n import _

CONFIG_KEYS = {"scenario", "difficulty", "country", "policies", "extra_institutions",
               "lone_debt_cuts", "year_limit", "draws", "start", "levels", "min_years"}
START_KEYS = {"year", "draw", "tracks", "bag", "current", "used", "treasury", "institutions",
              "olympics", "war", "war_fed"}
RANDOM = "random"
MIN_YEARS = (2, 3, 4)  # the lesson length rule's allowed years (None: off, the rulebook's game)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _pick(seed: int, purpose: str, value: Any, known: Mapping[str, Any], default: str | None,
          message: str) -> str | None:
    """A config choice: an id, ``"random"`` (drawn from the seed) or absent (``default``)."""
    if value is None:
        return default
    if value == RANDOM:
        return random.Random(f"{seed}:{purpose}").choice(sorted(known))
    if not isinstance(value, str) or value not in known:
        raise InvalidConfig(message, value=value, known=", ".join(sorted(known)))
    return value


def new_game(config: Mapping[str, Any], seed: int) -> GameState:
    check_config(config, seed, CONFIG_KEYS)
    scenario = _pick(seed, "scenario", config.get("scenario"), data.SCENARIOS,
                     data.ECONOMIC_CRASH,
                     _("Unknown scenario {value!r}; the scenarios are: {known}."))
    assert scenario is not None
    difficulty = config.get("difficulty", "easy")
    if difficulty not in (*data.DIFFICULTIES, data.EASIER):
        raise InvalidConfig(_("'difficulty' must be one of: easier, easy, normal, hard."))
    country = _pick(seed, "country", config.get("country"), data.COUNTRIES, None,
                    _("Unknown country {value!r}; the countries are: {known}."))
    for flag in ("extra_institutions", "lone_debt_cuts"):
        if not isinstance(config.get(flag, False), bool):
            raise InvalidConfig(_("'{key}' must be true or false."), key=flag)
    limit = config.get("year_limit")
    if limit is not None and not (_is_count(limit) and limit >= 1):
        raise InvalidConfig(_("'year_limit' must be a whole number of years (1 or more)."))
    edition = config.get("levels", levels.DEFAULT)
    if edition not in levels.EDITIONS:
        raise InvalidConfig(_("'levels' must be ours or classic."))
    min_years = config.get("min_years")
    if min_years is not None and (not _is_count(min_years) or min_years not in MIN_YEARS):
        raise InvalidConfig(_("'min_years' must be 2, 3 or 4 years, or null (no length rule)."))
    if min_years is not None and limit is not None and limit < min_years:
        raise InvalidConfig(_("'year_limit' cannot come before 'min_years': the country could "
                              "never win."))
    level = levels.level_of(edition, scenario, difficulty)
    bag = no_cubes()
    for cube in (data.COUNTRIES[country].bag if country else data.BASE_BAG):
        bag[cube] += 1
    bag = levels.start_bag(bag, level)
    if difficulty == data.EASIER:
        bag[data.INCOME] += data.EASIER_INCOME
    policies, fixed = _policies(config.get("policies"), country)
    state = GameState(
        seed=seed, scenario=scenario, difficulty=difficulty, country=country,
        tracks=dict(zip(data.TRACKS, levels.start_tracks(scenario, level), strict=True)),
        bag=bag,
        institutions={i: Institution() for i in data.BOARD_INSTITUTIONS},
        policies=policies, fixed_policies=fixed,
        extra_institutions=config.get("extra_institutions", False),
        lone_debt_cuts=config.get("lone_debt_cuts", False), year_limit=limit,
        levels=edition, min_years=min_years,
        pins=_pins(config.get("draws")),
        war=data.WAR_START if scenario == data.WAR_FOOTING else None,
    )
    start = config.get("start")
    if start is not None:
        _stated(state, start)
    state.history.append(year_entry(state))
    if state.current:
        draw_staged(state)
    return state


def _policies(raw: Any, country: str | None) -> tuple[dict[str, str], list[str]]:
    if raw is None or raw is False:
        return {}, []
    if raw is True:
        chosen = {card.id: card.faces[0].id for card in data.POLICY_CARDS.values()}
    elif isinstance(raw, Mapping):
        chosen = {}
        for card, face in raw.items():
            if card not in data.POLICY_CARDS or data.FACES.get(face, ("",))[0] != card:
                raise InvalidConfig(_("'policies' maps a card to one of its faces: {card!r} "
                                      "cannot show {face!r}."), card=card, face=face)
            chosen[card] = face
    else:
        raise InvalidConfig(_("'policies' must be true, false or an object of card: face."))
    fixed: list[str] = []
    if country:
        card, face = data.COUNTRIES[country].policy
        if chosen.get(card, face) != face:
            raise InvalidConfig(_("{country} dictates the face {face!r} of the card {card!r}."),
                                country=country, face=face, card=card)
        chosen[card] = face
        if data.COUNTRIES[country].fixed:
            fixed.append(card)
    order = list(data.POLICY_CARDS)
    return dict(sorted(chosen.items(), key=lambda kv: order.index(kv[0]))), fixed


def _cubes(raw: Any) -> list[str]:
    if not isinstance(raw, list) or not all(c in data.COLOURS for c in raw):
        raise InvalidConfig(_("A list of cubes must name colours: debt, welfare, security, "
                              "crime, income."))
    return list(raw)


def _pins(raw: Any) -> list[list[str]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidConfig(_("'draws' must be a list of draws, each a list of 1 or 2 cubes."))
    pins = [_cubes(pin) for pin in raw]
    if any(len(pin) not in (1, 2) for pin in pins):
        raise InvalidConfig(_("'draws' must be a list of draws, each a list of 1 or 2 cubes."))
    return pins


def _counts(raw: Any, key: str) -> dict[str, int]:
    if not isinstance(raw, Mapping) or not all(
            c in data.COLOURS and _is_count(n) for c, n in raw.items()):
        raise InvalidConfig(_("'start.{key}' must map colours to cube counts."), key=key)
    return {**no_cubes(), **raw}


def _stated(state: GameState, start: Any) -> None:
    """Start from a stated situation (a teacher's scenario, a worked example mid-game)."""
    if not isinstance(start, Mapping):
        raise InvalidConfig(_("'start' must be an object."))
    unknown = sorted(set(start) - START_KEYS)
    if unknown:
        raise InvalidConfig(_("Unknown 'start' keys: {keys}."), keys=", ".join(unknown))
    for key in ("year", "draw", "treasury", "olympics", "war"):
        if key in start and not _is_count(start[key]):
            raise InvalidConfig(_("'start.{key}' must be a whole number."), key=key)
    if start.get("year", 1) < 1:
        raise InvalidConfig(_("'start.year' must be 1 or more."))
    tracks = start.get("tracks", {})
    if not isinstance(tracks, Mapping) or not all(
            t in data.TRACKS and _is_count(v) and 1 <= v <= data.TRACK_MAX
            for t, v in tracks.items()):
        raise InvalidConfig(_("'start.tracks' must map tracks to levels from 1 to 10."))
    state.tracks.update(tracks)
    if "bag" in start:
        state.bag = _counts(start["bag"], "bag")
    if "used" in start:
        state.used = _counts(start["used"], "used")
    current = _cubes(start.get("current", []))
    if len(current) not in (0, 2):
        raise InvalidConfig(_("'start.current' must be empty or a drawn pair of 2 cubes."))
    state.current = current
    insts = start.get("institutions", {})
    if not isinstance(insts, Mapping):
        raise InvalidConfig(_("'start.institutions' must map institutions to their state."))
    for name, raw in insts.items():
        _stated_institution(state, name, raw)
    state.year = start.get("year", 1)
    state.draw = start.get("draw", 1 if current else 0)
    state.treasury = start.get("treasury", 0)
    state.olympics = start.get("olympics", 0)
    if "war" in start or "war_fed" in start:
        if state.scenario != data.WAR_FOOTING:
            raise InvalidConfig(_("'start.war' and 'start.war_fed' belong to War Footing."))
        if not isinstance(start.get("war_fed", False), bool):
            raise InvalidConfig(_("'start.war_fed' must be true or false."))
        state.war = start.get("war", state.war)
        state.war_fed = start.get("war_fed", False)
    if not current and not sum(state.bag.values()):
        raise InvalidConfig(_("The stated situation has nothing to draw: the bag is empty."))


def _stated_institution(state: GameState, name: Any, raw: Any) -> None:
    if name not in data.INSTITUTIONS:
        raise InvalidConfig(_("Unknown institution {name!r}."), name=name)
    if data.INSTITUTIONS[name].extra and not state.extra_institutions:
        raise InvalidConfig(_("{name!r} is an extra institution: turn on "
                            "'extra_institutions'."), name=name)
    if not isinstance(raw, Mapping) or set(raw) - {"cuts", "funded"}:
        raise InvalidConfig(_("An institution's state is an object with 'cuts' and 'funded'."))
    cuts, funded = raw.get("cuts", 0), raw.get("funded", 0)
    limit = data.INSTITUTIONS[name].cubes_per_year
    if not (_is_count(cuts) and cuts < data.CUTS_STEPS and _is_count(funded)
            and funded <= limit):
        raise InvalidConfig(_("{name!r}: 'cuts' must be 0, 1 or 2 and 'funded' at most "
                              "{limit}."), name=name, limit=limit)
    state.institutions[name] = Institution(cuts=cuts, funded=funded)
    state.institutions = in_order(state.institutions, data.INSTITUTIONS)
