"""Poleconomy's side of the debrief's "What if we had…?" (docs/what-if.md): the engines'
what-if core, and the game's own words for it: Parliament's consent (its outcome only) and
the Prime Minister's Inflation Index reversal, inflation and each player's wealth by round,
and a discussion question for each kind of turning point."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from facilitator.kit.whatif import Chart, WhatIf
from facilitator.lessons.poleconomy import events
from games import whatif as core

# The engine's msgids naming each kind of changeable decision (games/poleconomy/whatif.py).
CONSENT, INDEX = "Consent to the {kind} in round {round}", "The Index's direction in round {round}"
BOT_DECISIONS = {"orders": lambda: _("a player's orders"),
                 "consent": lambda: _("Parliament's consent"),
                 "parties": lambda: _("the parties"), "government": lambda: _("a Government")}


def _option(key: str) -> str:
    return {"carried": _("Parliament consented"),
            "not-carried": _("Parliament did not consent"),
            "kept": _("the Index kept its direction"),
            "reversed": _("the Prime Minister reversed the Index")}.get(key, key)


class PoleconomyWhatIf(WhatIf):
    def decision(self, choice: Mapping[str, Any]) -> str:
        params = choice["params"]
        if choice["label"] == CONSENT:
            return _("Consent to %(kind)s in round %(round)d") % {
                "kind": events.consent_kind(str(params.get("kind"))),
                "round": params.get("round", 0)}
        return super().decision(choice)

    def option(self, choice: Mapping[str, Any], key: str) -> str:
        return _option(key)

    def track(self, key: str) -> str:
        if key == "inflation":
            return _("Prices (the Index's multiplier)")
        if key.startswith("wealth:"):
            return _("Wealth of %(player)s") % {"player": self.name(key[len("wealth:"):])}
        return key

    def charts(self, keys: Sequence[str]) -> list[Chart]:
        """Prices, then every player's wealth (a player's final wealth is public)."""
        return [Chart(k, self.track(k), 0 if k.startswith("wealth:") else None)
                for k in keys if k == "inflation" or k.startswith("wealth:")][:self.MAX_CHARTS]

    def bot_decision(self, taken: Mapping[str, Any]) -> str:
        decision = str(taken.get("decision") or "")
        for part, named in BOT_DECISIONS.items():
            if f".{part}" in decision or decision.startswith(part):
                return named()
        return ""

    def measure(self) -> str:
        return _("First how many players would have been ruined, then how much the players' "
                 "final wealth would have changed, added up.")

    def question(self, point: Mapping[str, Any]) -> str:
        choice = point["choice"]
        params = {"round": choice["params"].get("round", 0),
                  "kind": events.consent_kind(str(choice["params"].get("kind"))),
                  "played": _option(choice["played"]),
                  "alternative": _option(point["alternative"])}
        if choice["label"] == CONSENT:
            return _("In round %(round)d, on %(kind)s: %(played)s. Had it gone the other way, "
                     "who would have gained and who lost? What should a Parliament weigh "
                     "before it consents?") % params
        if choice["label"] == INDEX:
            return _("In round %(round)d %(played)s. Who gains when prices rise and who "
                     "loses, and why might a Prime Minister turn the Index?") % params
        return super().question(point)


WHATIF = PoleconomyWhatIf(core)
