"""Crisis's side of the debrief's "What if we had…?" (docs/what-if.md): the engines' what-if
core, and the game's own words for it: an export turn's move (a contract, the black market,
a pass), Axia's Financial Status and each team's VP by round, and a discussion question for
a turning point."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from facilitator.kit.whatif import Chart, WhatIf
from facilitator.lessons.crisis import words
from facilitator.models import Table
from games import whatif as core

BOT_DECISIONS = {"place": lambda: _("a placement"), "resolve": lambda: _("a location's choice"),
                 "production": lambda: _("production"), "exports": lambda: _("an export turn")}


def _move(params: Mapping[str, Any]) -> str:
    kind = params.get("kind")
    if kind == "pass":
        return _("Pass (leave Exports for this round)")
    if kind == "export" and isinstance(params.get("contract"), int):
        # Numbered as the projector's export market lists them (1 to 8).
        return _("Contract %(slot)d: export %(n)d %(what)s") % {
            "slot": params["contract"] + 1, "n": params.get("amount", 0),
            "what": words.resource(str(params.get("resource") or ""))}
    if kind == "black_market":
        return _("Sell %(n)d %(what)s on the black market") % {
            "n": params.get("amount", 0), "what": words.resource(str(params.get("resource")))}
    return str(params.get("move", ""))


class CrisisWhatIf(WhatIf):
    def names(self, table: Table) -> dict[str, str]:
        """Each team as the debrief names it: "Team A", or "Team C (bot team)" for a team of
        bots only (its engine name is a bot's)."""
        names = list(table.config.get("players") or [])
        seats = list(table.seats.filter(shares__isnull=True, removed=False))
        out = {}
        for name in names:
            letter = words.team_letter(names, name)
            if any(s.player_name == name and not s.is_bot for s in seats):
                out[name] = _("Team %(letter)s") % {"letter": letter}
            else:
                out[name] = _("Team %(letter)s (bot team)") % {"letter": letter}
        return out

    def option(self, choice: Mapping[str, Any], key: str) -> str:
        if key == choice["played"] and choice.get("played_params"):
            return _move(choice["played_params"])
        for alt in choice["alternatives"]:
            if alt["key"] == key:
                return _move(alt["params"])
        return super().option(choice, key)

    def track(self, key: str) -> str:
        if key == "status":
            return _("Axia's Financial Status")
        if key.startswith("vp:"):
            return _("VP of %(team)s") % {"team": self.name(key[3:])}
        return key

    def charts(self, keys: Sequence[str]) -> list[Chart]:
        """Axia's Financial Status, then every team's VP."""
        return [Chart(k, self.track(k)) for k in keys
                if k == "status" or k.startswith("vp:")][:self.MAX_CHARTS]

    def bot_decision(self, taken: Mapping[str, Any]) -> str:
        parts = str(taken.get("decision") or "").split(".")
        named = BOT_DECISIONS.get(parts[1]) if len(parts) > 1 else None
        return named() if named else ""

    def measure(self) -> str:
        return _("First whether Axia would have gone bankrupt, then how many VP the teams "
                 "would have won or lost, added up.")

    def question(self, point: Mapping[str, Any]) -> str:
        choice = point["choice"]
        params = {"team": self.name(str(choice["params"].get("team", ""))),
                  "round": choice["params"].get("round", 0),
                  "played": self.option(choice, choice["played"]),
                  "alternative": self.option(choice, point["alternative"])}
        return _("Why did %(team)s choose “%(played)s” in round %(round)d? What does one "
                 "team's export do to Axia and to the other teams?") % params


WHATIF = CrisisWhatIf(core)
