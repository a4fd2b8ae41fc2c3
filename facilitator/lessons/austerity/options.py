"""Austerity's lesson options, their checks and the engine config they give a table."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.errors import ServiceError
from games.austerity import bots as engine_bots
from games.austerity import data

TABLES, CLASS = "tables", "class"
RANDOM = "random"
DIFFICULTIES = ("easier", *data.DIFFICULTIES)
# Whose difficulty levels: our edition's (each level sets the starting bag and tracks) or the
# Classic ones (the fan port's); and the lesson length rule (ours): no win before the Year End
# of that year, None = the rulebook's game (docs/engines/austerity.md).
OURS, CLASSIC = "ours", "classic"
LEVELS = (OURS, CLASSIC)
MIN_YEARS = (2, 3, 4)
# Each timed wait's default seconds: the minister's decisions by kind ("draw" is the window
# for Actions before the next pair is drawn) and every table ballot (a budget item, a motion,
# a decision the table votes on). docs/modules.md gives the pace they make.
TIMER_KINDS = ("draw", "event", "cuts", "income", "ballot")
DEFAULT_TIMERS: dict[str, int] = {"draw": 4, "event": 15, "cuts": 15, "income": 8,
                                  "ballot": 30}
TIMER_MIN, TIMER_MAX = 3, 600
TIMER_NAMES = {"draw": gettext_lazy("Before each draw"), "event": gettext_lazy("An event"),
               "cuts": gettext_lazy("Cuts"), "income": gettext_lazy("Income"),
               "ballot": gettext_lazy("Each table vote")}
DEFAULTS: dict[str, Any] = {
    "seating": TABLES, "scenario": data.ECONOMIC_CRASH, "difficulty": "easy", "country": None,
    "extra_institutions": False, "policies": False, "year_limit": None, "bots_allowed": True,
    "bot_policy": "sensible", "same_start": False, "portfolios": False,
    "timers": DEFAULT_TIMERS, "levels": OURS, "min_years": 3,
}


def scenario_choices() -> list[tuple[str, Any]]:
    # The engine's names are msgids translated in the catalogue already.
    return [(key, gettext_lazy(s.name)) for key, s in data.SCENARIOS.items()] + [
        (RANDOM, gettext_lazy("Random (each table draws one)"))]


def country_choices() -> list[tuple[str, Any]]:
    return [("", gettext_lazy("None (the rulebook's bag)"))] + [
        (key, gettext_lazy(c.name)) for key, c in data.COUNTRIES.items()] + [
        (RANDOM, gettext_lazy("Random (each table draws one)"))]


def check(options: dict[str, Any]) -> None:
    """``ServiceError("bad_options")`` for an option the engine or the lesson cannot run."""
    def bad(message: str) -> ServiceError:
        return ServiceError("bad_options", message)

    if options["seating"] not in (TABLES, CLASS):
        raise bad(_("Choose tables of 4 to 8 or one country for the whole class."))
    if options["scenario"] not in (*data.SCENARIOS, RANDOM):
        raise bad(_("Unknown scenario."))
    if options["difficulty"] not in DIFFICULTIES:
        raise bad(_("Unknown difficulty."))
    if options["country"] not in (None, *data.COUNTRIES, RANDOM):
        raise bad(_("Unknown country."))
    for flag in ("extra_institutions", "policies", "bots_allowed", "same_start", "portfolios"):
        if not isinstance(options[flag], bool):
            raise bad(_("'%(option)s' must be yes or no.") % {"option": flag})
    limit = options["year_limit"]
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                              or not 1 <= limit <= 20):
        raise bad(_("The year limit must be between 1 and 20 years."))
    if options["levels"] not in LEVELS:
        raise bad(_("Choose this edition's levels or the Classic levels."))
    least = options["min_years"]
    if least is not None and (isinstance(least, bool) or least not in MIN_YEARS):
        raise bad(_("A country may be kept from winning for 2, 3 or 4 years, or not at all."))
    if least is not None and limit is not None and limit < least:
        raise bad(_("The year limit cannot come before the shortest lesson: a country could "
                    "never win."))
    if options["bot_policy"] not in engine_bots.POLICIES:
        raise bad(_("Unknown bot behaviour."))
    check_timers(options["timers"])


def check_timers(timers: Any) -> None:
    """Every timed wait has its seconds, a whole number from 3 to 600."""
    if not isinstance(timers, dict) or set(timers) != set(TIMER_KINDS):
        raise ServiceError("bad_options", _("The timers must give seconds for: %(kinds)s.")
                           % {"kinds": ", ".join(TIMER_KINDS)})
    for kind, seconds in timers.items():
        if (not isinstance(seconds, int) or isinstance(seconds, bool)
                or not TIMER_MIN <= seconds <= TIMER_MAX):
            raise ServiceError("bad_options", _(
                "The %(kind)s timer must be between %(low)d and %(high)d seconds.")
                % {"kind": kind, "low": TIMER_MIN, "high": TIMER_MAX})


def timers(options: dict[str, Any]) -> dict[str, int]:
    """The lesson's seconds for each timed wait (a lesson stored before timers: defaults)."""
    return {**DEFAULT_TIMERS, **(options.get("timers") or {})}


def table_seeds(options: dict[str, Any], seeds: list[int]) -> list[int]:
    """``same_start``: every table the first table's seed, so every table starts with the same
    bag and the same first draws (they part once the tables' choices change the bag)."""
    return [seeds[0]] * len(seeds) if options.get("same_start") and seeds else seeds


def table_config(options: dict[str, Any]) -> dict[str, Any]:
    """The engine config of every table: the whole table is the engine's one player,
    ``"government"``, so no player names go in (``docs/engines/austerity.md``). Every new
    table names its ``levels`` and ``min_years`` (the engine reads a config without them as
    an older record: the Classic levels, no length rule); a lesson stored before these
    options gets this edition's defaults."""
    config: dict[str, Any] = {"scenario": options["scenario"],
                              "difficulty": options["difficulty"],
                              "levels": options.get("levels", DEFAULTS["levels"]),
                              "min_years": options.get("min_years", DEFAULTS["min_years"]),
                              "extra_institutions": options["extra_institutions"],
                              "policies": options["policies"]}
    if options["country"] is not None:
        config["country"] = options["country"]
    if options["year_limit"] is not None:
        config["year_limit"] = options["year_limit"]
    return config
