"""Poleconomy's options on the new-lesson page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from facilitator.lessons.poleconomy import options as lesson_options


class OptionsForm(forms.Form):
    rounds = forms.TypedChoiceField(
        label=_("Rounds"), coerce=int, initial=lesson_options.DEFAULTS["rounds"],
        choices=[(n, str(n)) for n in range(2, 21)],
        help_text=_("About 4 minutes a round: 12 rounds fill a 50-minute lesson."))
    players = forms.TypedChoiceField(
        label=_("Players per table"), coerce=int, initial=0, required=False, empty_value=0,
        choices=[(0, _("As the class splits (3 to 6)")), *((n, str(n)) for n in range(3, 7))],
        help_text=_("With a number, every table has that many players: with more students "
                    "than places some double up into teams, with fewer bots can play the "
                    "empty places."))
    team_size = forms.TypedChoiceField(
        label=_("Team size"), coerce=int, initial=1,
        choices=[(1, _("Each student plays alone")), (2, _("Teams of 2")),
                 (3, _("Teams of 3")), (4, _("Teams of 4"))],
        help_text=_("A team's captain sends its orders; teammates see them and suggest. With "
                    "a number of players per table this is the largest team, and teams and "
                    "students alone share a table."))
    bot_players = forms.TypedChoiceField(
        label=_("Bot players at each table"), coerce=int, initial=0, required=False,
        empty_value=0, choices=[(n, str(n)) for n in lesson_options.BOT_PLAYERS],
        help_text=_("With a number of players per table: how many of them are bots, however "
                    "many students come."))
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty places"), required=False, initial=True,
        help_text=_("A bot sends its own orders every round; bots are marked as bots."))

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"rounds": data["rounds"], "team_size": data["team_size"],
                "players": data["players"], "bot_players": data["bot_players"],
                "bots_allowed": data["bots_allowed"],
                "bot_policy": lesson_options.DEFAULTS["bot_policy"]}
