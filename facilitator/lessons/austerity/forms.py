"""Austerity's options on the new-lesson page (the engine's config keys:
``docs/engines/austerity.md``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from facilitator.lessons.austerity import options as lesson_options

OFF = "off"  # the length rule off: the rulebook's game


def min_years(value: str | None) -> int | None:
    """The form's shortest game as the option: 2, 3 or 4 years, None when off; a form
    posted without it (an older page) gets the default."""
    if value == OFF:
        return None
    return int(value) if value else lesson_options.DEFAULTS["min_years"]


class OptionsForm(forms.Form):
    seating = forms.ChoiceField(
        label=_("Tables"), initial=lesson_options.TABLES,
        choices=[(lesson_options.TABLES, _("Tables of 4 to 8, each its own country")),
                 (lesson_options.CLASS, _("One country for the whole class"))])
    scenario = forms.ChoiceField(label=_("Scenario"), initial="economic-crash",
                                 choices=lesson_options.scenario_choices)
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), initial="easy",
        choices=[("easier", _("Easier (two more Income cubes)")), ("easy", _("Easy")),
                 ("normal", _("Normal")), ("hard", _("Hard"))])
    levels = forms.ChoiceField(
        label=_("Difficulty levels"), initial=lesson_options.OURS, required=False,
        choices=[(lesson_options.OURS, _("This edition's levels")),
                 (lesson_options.CLASSIC, _("Classic levels (from the fan-made computer "
                                            "version)"))],
        help_text=_("This edition's levels set each scenario's starting bag and tracks so "
                    "that Easy is easy. The Classic levels only add Debt or Crime cubes."))
    min_years = forms.ChoiceField(
        label=_("Shortest game"), required=False,
        initial=str(lesson_options.DEFAULTS["min_years"]),
        choices=[("2", _("At least 2 years")), ("3", _("At least 3 years")),
                 ("4", _("At least 4 years")), (OFF, _("Off: the rulebook's game"))],
        help_text=_("Our rule: a country cannot win before the Year End of that year, so the "
                    "class plays several budgets. Losing can still happen at any time."))
    country = forms.ChoiceField(label=_("Country"), initial="", required=False,
                                choices=lesson_options.country_choices)
    extra_institutions = forms.BooleanField(label=_("Extra institutions"), required=False,
                                            initial=False)
    policies = forms.BooleanField(label=_("Policy cards"), required=False, initial=False)
    year_limit = forms.TypedChoiceField(
        label=_("Year limit"), coerce=int, empty_value=None, required=False, initial="",
        choices=[("", _("No limit")), *[(n, str(n)) for n in range(3, 13)]],
        help_text=_("A country that has not won by the Year End of that year has lost, so the "
                    "lesson ends on time."))
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=True,
        help_text=_("A bot takes the Finance Minister's chair in its year and votes on its "
                    "own; bots are marked as bots."))

    same_start = forms.BooleanField(
        label=_("Every table the same starting bag"), required=False, initial=False,
        help_text=_("All tables get the same seed, so the debrief can compare their choices; "
                    "the draws part once the choices change the bag."))
    portfolios = forms.BooleanField(
        label=_("Cabinet portfolios"), required=False, initial=False,
        help_text=_("Each student defends one part of the country (Labour, Interior, "
                    "Economy, Health, Press office, Treasury)."))
    decision_seconds = forms.IntegerField(
        label=_("Seconds for each of the minister's decisions"), required=False,
        min_value=lesson_options.TIMER_MIN, max_value=lesson_options.TIMER_MAX,
        initial=lesson_options.DEFAULT_TIMERS["event"],
        help_text=_("An event or Cuts; Income gets about half of it and the draw a quarter. "
                    "When it runs out, the sensible choice is taken."))
    ballot_seconds = forms.IntegerField(
        label=_("Seconds for each table vote"), required=False,
        min_value=lesson_options.TIMER_MIN, max_value=lesson_options.TIMER_MAX,
        initial=lesson_options.DEFAULT_TIMERS["ballot"])

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"seating": data["seating"], "scenario": data["scenario"],
                "difficulty": data["difficulty"], "country": data["country"] or None,
                "levels": data.get("levels") or lesson_options.OURS,
                "min_years": min_years(data.get("min_years")),
                "extra_institutions": data["extra_institutions"],
                "policies": data["policies"], "year_limit": data["year_limit"],
                "bots_allowed": data["bots_allowed"], "same_start": data["same_start"],
                "portfolios": data["portfolios"],
                "timers": form_timers(data.get("decision_seconds"),
                                      data.get("ballot_seconds"))}


def form_timers(decision: int | None, ballot: int | None) -> dict[str, int]:
    """The form's two numbers as the lesson's timers: an event and Cuts get the decision's
    seconds, Income and the draw the defaults' share of it (their choice is quicker)."""
    timers = dict(lesson_options.DEFAULT_TIMERS)
    if decision is not None:
        timers.update(event=decision, cuts=decision,
                      income=max(lesson_options.TIMER_MIN, round(decision * 8 / 15)),
                      draw=max(lesson_options.TIMER_MIN, round(decision * 4 / 15)))
    if ballot is not None:
        timers["ballot"] = ballot
    return timers
