"""Austerity's lesson options, their checks and the engine config they give a table."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.errors import ServiceError
from games.austerity import data

TABLES, CLASS = "tables", "class"
RANDOM = "random"
DIFFICULTIES = ("easier", *data.DIFFICULTIES)
DEFAULTS: dict[str, Any] = {
    "seating": TABLES, "scenario": data.ECONOMIC_CRASH, "difficulty": "easy", "country": None,
    "extra_institutions": False, "policies": False, "year_limit": None, "bots_allowed": True,
    "bot_policy": "sensible",
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
    for flag in ("extra_institutions", "policies", "bots_allowed"):
        if not isinstance(options[flag], bool):
            raise bad(_("'%(option)s' must be yes or no.") % {"option": flag})
    limit = options["year_limit"]
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                              or not 1 <= limit <= 20):
        raise bad(_("The year limit must be between 1 and 20 years."))
    from games.austerity import bots

    if options["bot_policy"] not in bots.POLICIES:
        raise bad(_("Unknown bot behaviour."))


def table_config(options: dict[str, Any]) -> dict[str, Any]:
    """The engine config of every table: the whole table is the engine's one player,
    ``"government"``, so no player names go in (``docs/engines/austerity.md``)."""
    config: dict[str, Any] = {"scenario": options["scenario"],
                              "difficulty": options["difficulty"],
                              "extra_institutions": options["extra_institutions"],
                              "policies": options["policies"]}
    if options["country"] is not None:
        config["country"] = options["country"]
    if options["year_limit"] is not None:
        config["year_limit"] = options["year_limit"]
    return config
