"""State in Class's options on the new-lesson page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.state_in_class import bots


class OptionsForm(forms.Form):
    debate_seconds = forms.TypedChoiceField(
        label=_("Debate timer"), coerce=int, initial=120,
        choices=[(60, _("1 minute")), (120, _("2 minutes (as in the rules)")),
                 (180, _("3 minutes")), (300, _("5 minutes"))])
    bots_allowed = forms.BooleanField(
        label=_("Bots may fill empty seats"), required=False, initial=True,
        help_text=_("A table needs 6 to 8 players. Bots vote on their own and are marked "
                    "as bots."))
    bot_policy = forms.ChoiceField(
        label=_("How bots play"), initial="civic",
        choices=[("civic", _("Civic: progressive tax, spread budget")),
                 ("class-selfish", _("Selfish: pay as little as possible")),
                 ("random", _("Random"))])

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        assert data["bot_policy"] in bots.POLICIES
        return {"debate_seconds": data["debate_seconds"], "bots_allowed": data["bots_allowed"],
                "bot_policy": data["bot_policy"]}
