"""Austerity's part of "What if we had…?" (``games.whatif``, docs/what-if.md).

Public decisions that may be changed: a budget item (an optional action: borrow, raise taxes,
pay a loan, ...), an event's option and a Cuts target; the alternatives are the other options
the game offered at that moment. Austerity has no secret ballot: the minister's answers are
public, so the record is used as it is.

Measure: won or lost, then the year the game ended, then the sum of the five tracks. The
default lesson bot is ``sensible``. The main tracks are the five tracks and Debt (the Debt
cubes in the bag and on the table this year).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.austerity import data
from games.austerity.bots import get_policy
from games.austerity.state import GameState
from games.austerity.views import decisions
from games.core import Action, Decision, Engine
from games.i18n import _
from games.whatif import Alternative, Choice

GAME_ID = "austerity"
BOT_POLICY = "sensible"
TRACKS = (*data.TRACKS, "debt")
CHANGEABLE = {"action": _("Budget item in year {year}"),
              "event": _("Event option in year {year}"),
              "cuts": _("Cuts target in year {year}")}


def prepare(record: Mapping[str, Any]) -> list[Action]:
    return [dict(a) for a in record["actions"]]


def choices(engine: Engine, state: GameState, actions: Sequence[Action], index: int
            ) -> list[Choice]:
    action = actions[index]
    kind = action.get("type")
    if kind not in CHANGEABLE:
        return []
    decision = next((d for d in decisions(state) if d.action == kind), None)
    if decision is None:
        return []
    played = str(action.get("choice"))
    alts = tuple(Alternative(o, _("option {option}"), {"option": o}, ({**action, "choice": o},))
                 for o in decision.options if o != played)
    if not alts:
        return []
    params: dict[str, Any] = {"year": state.year, "kind": kind}
    if kind == "event":  # the event card whose options these are
        params["event"] = data.pair_key(state.pair)
    return [Choice(index, index, index + 1, CHANGEABLE[kind], params, played, alts)]


def bot(state: GameState, decision: Decision, rng: random.Random) -> list[Action]:
    """The default lesson bot's next answer (it may take an optional action first)."""
    return [get_policy(BOT_POLICY)(state, rng)]


def step(state: GameState) -> int:
    return state.year


def point(state: GameState) -> dict[str, int]:
    out = {t: state.tracks[t] for t in data.TRACKS}
    out["debt"] = state.bag.get(data.DEBT, 0) + state.current.count(data.DEBT)
    return out


def measure(state: GameState) -> dict[str, Any]:
    return {"result": state.result or "unfinished", "year": state.year,
            "tracks": sum(state.tracks[t] for t in data.TRACKS)}


def impact(real: Mapping[str, Any], alt: Mapping[str, Any]) -> tuple[float, ...]:
    return (float(real["result"] != alt["result"]), float(abs(alt["year"] - real["year"])),
            float(abs(alt["tracks"] - real["tracks"])))


RESULTS = {"won": _("The government would have won in year {year}."),
           "lost": _("The government would have lost in year {year}."),
           "unfinished": _("The game would still have been going in year {year}.")}


def outcome_differences(real: Mapping[str, Any], alt: Mapping[str, Any]
                        ) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if alt["result"] != real["result"] or alt["year"] != real["year"]:
        out.append({"msgid": RESULTS[alt["result"]], "params": {"year": alt["year"]}})
    if alt["tracks"] != real["tracks"]:
        out.append({"msgid": _("The five tracks would have added up to {alt} instead of "
                               "{real}."),
                    "params": {"alt": alt["tracks"], "real": real["tracks"]}})
    return out
