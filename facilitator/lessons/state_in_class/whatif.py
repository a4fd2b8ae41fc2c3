"""State in Class's side of the debrief's "What if we had…?" (docs/what-if.md): the engines'
what-if core, and the game's own words for it: a tax by its letter and name, a budget by the
services' order, the pact by its total, Tension and each service's level and fund, and a
discussion question for each kind of turning point."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.kit.whatif import Chart, WhatIf
from facilitator.lessons.state_in_class import words
from games import whatif as core
from games.state_in_class import data

# The engine's msgids naming each kind of changeable decision (games/state_in_class/whatif.py).
PACT, TAX, BUDGET = "Pact total", "Tax vote, round {round}", "Budget vote, round {round}"


def _tax(key: str) -> str:
    """"A · Flat tax"; a tied count (then settled by a tie-break) "a tie between A · Flat
    tax and C · Progressive"."""
    labels = [words.tax_label(o) for o in key.split("=") if o in data.TAX_OPTIONS]
    if len(labels) > 1:
        return _("a tie between %(first)s and %(last)s") % {
            "first": ", ".join(labels[:-1]), "last": labels[-1]}
    return labels[0] if labels else key


def _order(key: str) -> str:
    """A budget's ranking ("health>education=shield") in words: "Health, then Education =
    Social Shield"."""
    groups = [" = ".join(words.service_name(s) for s in g.split("=") if s in data.SERVICES)
              for g in key.split(">")]
    return _(", then ").join(g for g in groups if g) or key


class StateInClassWhatIf(WhatIf):
    def option(self, choice: Mapping[str, Any], key: str) -> str:
        if choice["label"] == PACT and key.isdigit():
            return ngettext("a pact of %(n)d coin", "a pact of %(n)d coins",
                            int(key)) % {"n": int(key)}
        if choice["label"] == TAX:
            return _tax(key)
        if choice["label"] == BUDGET:
            return _order(key)
        return super().option(choice, key)

    def track(self, key: str) -> str:
        kind, _sep, service = key.partition(":")
        if kind == "tension":
            return _("Tension")
        if kind == "level" and service in data.SERVICES:
            return _("%(service)s level") % {"service": words.service_name(service)}
        if kind == "fund" and service in data.SERVICES:
            return _("%(service)s fund") % {"service": words.service_name(service)}
        return key

    def charts(self, keys: Sequence[str]) -> list[Chart]:
        """Tension (its whole track), then each service's level (0 to 5), then its fund."""
        out = [Chart("tension", self.track("tension"), 0, data.FAIL_TENSION)]
        out += [Chart(f"level:{s}", self.track(f"level:{s}"), 0, data.MAX_LEVEL)
                for s in data.SERVICES]
        out += [Chart(f"fund:{s}", self.track(f"fund:{s}"), 0) for s in data.SERVICES]
        return [c for c in out if c.track in keys]

    def bot_decision(self, taken: Mapping[str, Any]) -> str:
        decision = str(taken.get("decision") or "")
        if decision.startswith("pact."):
            return _("a pact contribution")
        if ":tie:" in decision:
            return _("a tie-break")
        if decision.endswith(":tax"):
            return _("the tax vote")
        if decision.endswith(":budget"):
            return _("the budget vote")
        return ""

    def measure(self) -> str:
        return _("First whether the State would have failed, then the class's total points, "
                 "then the gap between the classes.")

    def question(self, point: Mapping[str, Any]) -> str:
        choice = point["choice"]
        params = {"played": self.option(choice, choice["played"]),
                  "alternative": self.option(choice, point["alternative"]),
                  "round": choice["params"].get("round", 0)}
        if choice["label"] == TAX:
            return _("With %(alternative)s instead of %(played)s in round %(round)d, who "
                     "would have paid more and who less? Why did your table not choose "
                     "it?") % params
        if choice["label"] == BUDGET:
            return _("Who would have gained and who lost if the budget of round %(round)d "
                     "had been %(alternative)s? What did your table put first, and "
                     "why?") % params
        if choice["label"] == PACT:
            return _("Your table made %(played)s. What would have had to happen for "
                     "everyone to agree to %(alternative)s?") % params
        return super().question(point)


WHATIF = StateInClassWhatIf(core)
