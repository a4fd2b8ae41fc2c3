"""Austerity's side of the debrief's "What if we had…?" (docs/what-if.md): the engines'
what-if core, and the game's own words for it: a budget item, an event's option and a Cuts
target as the board names them, the five tracks and Debt by year, and a discussion question
for each kind of turning point."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from facilitator.kit.whatif import Chart, WhatIf
from facilitator.lessons.austerity import words
from games import whatif as core
from games.austerity import data

BOT_DECISIONS = {"draw": lambda: _("a draw"), "event": lambda: _("an event's option"),
                 "cuts": lambda: _("a Cuts target"), "income": lambda: _("where Income went"),
                 "action": lambda: _("a budget item"),
                 "policy": lambda: _("the year's policy turn")}


class AusterityWhatIf(WhatIf):
    def option(self, choice: Mapping[str, Any], key: str) -> str:
        params = choice["params"]
        kind = params.get("kind")
        if isinstance(kind, str):
            return words.option_label(kind, key, params.get("event"))
        return super().option(choice, key)

    def step_name(self) -> str:
        return _("Year")

    def at_step(self, step: int) -> str:
        return _("year %(n)d") % {"n": step}

    def in_sentence(self, step: int) -> str:
        return pgettext("a step inside a sentence", "year %(n)d") % {"n": step}

    def track(self, key: str) -> str:
        if key in data.TRACK_NAMES:
            return words.track_name(key)
        if key == "debt":
            return _("Debt (cubes)")
        return key

    def charts(self, keys: Sequence[str]) -> list[Chart]:
        """The five tracks on their whole range (0 loses), then the Debt cubes."""
        out = [Chart(t, self.track(t), data.TRACK_MIN, data.TRACK_MAX) for t in data.TRACKS]
        out.append(Chart("debt", self.track("debt"), 0))
        return [c for c in out if c.track in keys]

    def bot_decision(self, taken: Mapping[str, Any]) -> str:
        named = BOT_DECISIONS.get(str(taken.get("type")))
        return named() if named else ""

    def measure(self) -> str:
        return _("First whether the government would have won or lost, then the year the "
                 "game would have ended, then the five tracks added up.")

    def question(self, point: Mapping[str, Any]) -> str:
        choice = point["choice"]
        params = {"played": self.option(choice, choice["played"]),
                  "alternative": self.option(choice, point["alternative"]),
                  "year": choice["params"].get("year", 0)}
        kind = choice["params"].get("kind")
        if kind == "action":
            return _("In year %(year)d the government chose “%(played)s”. What would "
                     "“%(alternative)s” have cost, and who would have paid for it?") % params
        if kind == "event":
            return _("Faced with the event of year %(year)d, why did your table choose "
                     "“%(played)s” rather than “%(alternative)s”?") % params
        if kind == "cuts":
            return _("%(alternative)s instead of %(played)s in year %(year)d: who would "
                     "have been hurt, and why did your table choose as it did?") % params
        return super().question(point)


WHATIF = AusterityWhatIf(core)
