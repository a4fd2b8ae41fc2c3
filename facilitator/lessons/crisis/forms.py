"""Crisis's options on the new-lesson page (``options.py`` checks them)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from facilitator.lessons.crisis import options as lesson_options


def _seconds(values: tuple[int, ...], off: Any) -> list[tuple[int, Any]]:
    return [(n, off if n == 0 else _("%(n)d seconds") % {"n": n}) for n in values]


class OptionsForm(forms.Form):
    team_size = forms.TypedChoiceField(
        label=_("Students per team"), coerce=int, initial=3,
        choices=[(n, str(n)) for n in lesson_options.TEAM_SIZES],
        help_text=_("Each table has 2 to 5 teams; a class of 30 in teams of 3 is two tables "
                    "of five teams."))
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), initial="medium",
        choices=[("easy", _("Easy")), ("medium", _("Medium")), ("difficult", _("Difficult"))])
    rounds = forms.TypedChoiceField(
        label=_("Length"), coerce=int, initial=7,
        choices=[(7, _("The full game: 7 rounds")),
                 (lesson_options.SHORT_ROUNDS, _("Shorter: 5 rounds, scored at the end of "
                                                 "round 5"))])
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"), coerce=int, initial=30,
        choices=lambda: _seconds(lesson_options.TURN_SECONDS, _("No timer")),
        help_text=_("A turn not taken in time takes its default: a Manager goes to Government "
                    "Subsidy (no Penalty), an Exports turn passes."))
    production_seconds = forms.TypedChoiceField(
        label=_("Time for Production"), coerce=int, initial=90,
        choices=lambda: _seconds(lesson_options.PRODUCTION_SECONDS, _("No timer")))
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty team places"), required=False, initial=True,
        help_text=_("Bots complete a team or a table; a team with nobody connected when its "
                    "turn's time runs out is played by a bot."))

    bot_teams = forms.TypedChoiceField(
        label=_("Rival bot teams at each table"), coerce=int, initial=0, required=False,
        empty_value=0,
        choices=[(0, _("None")), *[(n, str(n)) for n in lesson_options.BOT_TEAMS if n]],
        help_text=_("Bots play whole companies against the students' teams: a class of 5 can "
                    "play against two rival companies."))

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"team_size": data["team_size"], "difficulty": data["difficulty"],
                "rounds": data["rounds"], "turn_seconds": data["turn_seconds"],
                "production_seconds": data["production_seconds"],
                "bots_allowed": data["bots_allowed"],
                "bot_teams": data["bot_teams"]}
