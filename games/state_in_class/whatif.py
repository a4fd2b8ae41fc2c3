"""State in Class's part of "What if we had…?" (``games.whatif``, docs/what-if.md).

Public decisions that may be changed: a counted tax vote (any single winning option), a
counted budget vote (any order of the services a count of that bag could give) and the pact
total (any total the players could have paid). The pact's split between players is secret, so
every line spreads the pact total over the players by a fixed rule (``pact_split``): one coin
at a time in seat order, never more than a player may pay. Ballots are never needed: a count
is changed by its public outcome.

Measure: whether the State failed, then the class's total final points, then the spread
between the classes' totals. The default lesson bot is ``civic`` on every seat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from games.core import Action, Decision, Engine
from games.i18n import _
from games.state_in_class import data
from games.state_in_class.bots import get_policy
from games.state_in_class.decisions import ballot_outcome
from games.state_in_class.rules import new_game, scores
from games.state_in_class.state import BUDGET_VOTE, PACT, TAX_VOTE, TIE_BREAK, GameState
from games.whatif import Alternative, Choice

GAME_ID = "state-in-class"
BOT_POLICY = "civic"
TRACKS = ("tension", *(f"level:{s}" for s in data.SERVICES), *(f"fund:{s}" for s in data.SERVICES))


def pact_split(state: GameState, total: int) -> dict[str, int]:
    """The pact ``total`` spread one coin at a time over the players in seat order, each up
    to what they may pay (``MAX_PACT`` and their coins)."""
    cap = {p.name: min(data.MAX_PACT, p.coins) for p in state.players}
    split = dict.fromkeys(cap, 0)
    left = min(total, sum(cap.values()))
    while left:
        for p in state.players:
            if left and split[p.name] < cap[p.name]:
                split[p.name] += 1
                left -= 1
    return split


def _pacts(state: GameState, players: Sequence[str], total: int) -> list[Action]:
    split = pact_split(state, total)
    return [{"type": "pact", "player": n, "coins": split[n]} for n in players]


def prepare(record: Mapping[str, Any]) -> list[Action]:
    """The record's actions with the pact split replaced by ``pact_split`` of its total."""
    actions = [dict(a) for a in record["actions"]]
    spots = [i for i, a in enumerate(actions) if a.get("type") == "pact"]
    if not spots:
        return actions
    state = new_game(record["config"], record["seed"])
    total = sum(int(actions[i].get("coins") or 0) for i in spots)
    for i, act in zip(spots, _pacts(state, [actions[i]["player"] for i in spots], total),
                      strict=True):
        actions[i] = act
    return actions


def _vote_id(state: GameState) -> str:
    return f"{state.round}:{'tax' if state.phase == TAX_VOTE else 'budget'}"


def choices(engine: Engine, state: GameState, actions: Sequence[Action], index: int
            ) -> list[Choice]:
    action = actions[index]
    if action.get("type") == "pact" and state.phase == PACT and all(
            p.pact is None for p in state.players):
        end = index
        while end < len(actions) and actions[end].get("type") == "pact":
            end += 1
        players = [a["player"] for a in actions[index:end]]
        played = sum(int(a["coins"]) for a in actions[index:end])
        most = sum(min(data.MAX_PACT, p.coins) for p in state.players)
        alts = tuple(Alternative(str(t), _("a pact total of {total}"), {"total": t},
                                 tuple(_pacts(state, players, t)))
                     for t in range(most + 1) if t != played)
        return [Choice(index, index, end, _("Pact total"), {}, str(played), alts)]
    if action.get("type") != "count" or state.phase not in (TAX_VOTE, BUDGET_VOTE):
        return []
    bag = len(state.receipts)
    if bag == 0:
        return []
    vote = _vote_id(state)
    outcome = action.get("outcome")
    if outcome is None:
        outcome = ballot_outcome(state, vote, action.get("tally") or {})
    kind = "tax" if state.phase == TAX_VOTE else "budget"
    base = {"type": "count", "kind": kind}
    if kind == "tax":
        played = "=".join(outcome[0]) if outcome else "-"
        alts = tuple(Alternative(o, _("tax {option}"), {"option": o},
                                 ({**base, "outcome": [[o]]},))
                     for o in data.TAX_OPTIONS if o != played)
        return [Choice(index, index, index + 1, _("Tax vote, round {round}"),
                       {"round": state.round}, played, alts)]
    if bag < 3:
        return []
    seen: dict[str, Any] = {}
    for a, b, c in permutations(data.SERVICES):
        tally = {a: bag - 3, b: 2, c: 1} if bag >= 6 else {a: bag - 1, b: 1}
        ranked = ballot_outcome(state, vote, tally)
        key = ">".join(g[0] for g in ranked)
        seen.setdefault(key, ranked)
    played = ">".join("=".join(g) for g in outcome)
    alts = tuple(Alternative(k, _("budget order {order}"), {"order": k},
                             ({**base, "outcome": r},)) for k, r in seen.items() if k != played)
    return [Choice(index, index, index + 1, _("Budget vote, round {round}"),
                   {"round": state.round}, played, alts)]


def bot(state: GameState, decision: Decision, rng: random.Random) -> list[Action]:
    """The default lesson bot's answer: a whole bag (receipts, then the count of the bots'
    votes for every ballot in it), a tie-break or a pact."""
    policy = get_policy(BOT_POLICY)
    if state.phase == PACT:
        p = state.player(decision.deciders[0]) if decision.deciders else next(
            q for q in state.players if q.pact is None)
        return [{"type": "pact", "player": p.name, "coins": policy.pact(state, p, rng)}]
    if state.phase in (TAX_VOTE, BUDGET_VOTE):
        kind = "tax" if state.phase == TAX_VOTE else "budget"
        acts: list[Action] = [{"type": "ballot", "kind": kind, "player": p.name}
                              for p in state.players if p.name not in state.receipts]
        voters = set(state.receipts) | {a["player"] for a in acts}
        tally: dict[str, int] = {}
        for p in state.players:
            if p.name in voters:
                option = policy.vote(state, p, kind, rng)
                tally[option] = tally.get(option, 0) + 1
        return [*acts, {"type": "count", "kind": kind, "tally": tally}]
    if state.phase == TIE_BREAK and state.tie:
        p = state.player(state.tie.deciders[0])
        return [{"type": "tie_break", "player": p.name,
                 "choice": policy.tie_break(state, p, state.tie.kind, list(state.tie.options),
                                            rng)}]
    return []


def step(state: GameState) -> int:
    return state.round


def point(state: GameState) -> dict[str, int]:
    out = {"tension": state.tension or 0}
    for name, service in state.services.items():
        out[f"level:{name}"] = service.level
        out[f"fund:{name}"] = service.fund
    return out


def series(state: GameState) -> tuple[list[int], list[dict[str, int]]]:
    """One point per round: the levels, funds and Tension at the end of each round the game
    finished, then the state where it stopped (a failed State stops mid-round)."""
    steps: list[int] = []
    points: list[dict[str, int]] = []
    for h in state.history:
        if "levels" in h and "funds" in h:
            steps.append(h["round"])
            point_ = {"tension": h.get("tension_after") or 0}
            for name in data.SERVICES:
                point_[f"level:{name}"] = h["levels"][name]
                point_[f"fund:{name}"] = h["funds"][name]
            points.append(point_)
    if not steps or steps[-1] != state.round:
        steps.append(state.round)
        points.append(point(state))
    return steps, points


def measure(state: GameState) -> dict[str, Any]:
    final = scores(state)
    by_class = dict.fromkeys(data.CLASSES, 0)
    for p in final["players"].values():
        by_class[p["class"]] += p["score"]
    played = [v for k, v in by_class.items()
              if any(p["class"] == k for p in final["players"].values())]
    return {"failed": bool(state.failed), "round": state.round, "tension": state.tension,
            "total": sum(by_class.values()), "classes": by_class,
            "spread": (max(played) - min(played)) if played else 0}


def impact(real: Mapping[str, Any], alt: Mapping[str, Any]) -> tuple[float, ...]:
    return (float(real["failed"] != alt["failed"]), float(abs(alt["total"] - real["total"])),
            float(abs(alt["spread"] - real["spread"])))


def outcome_differences(real: Mapping[str, Any], alt: Mapping[str, Any]
                        ) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if alt["failed"] and not real["failed"]:
        out.append({"msgid": _("The State would have failed in round {round}."),
                    "params": {"round": alt["round"]}})
    elif real["failed"] and not alt["failed"]:
        out.append({"msgid": _("The State would not have failed."), "params": {}})
    if alt["total"] != real["total"]:
        out.append({"msgid": _("The class would have ended with {alt} points in all "
                               "instead of {real}."),
                    "params": {"alt": alt["total"], "real": real["total"]}})
    if alt["spread"] != real["spread"]:
        out.append({"msgid": _("The gap between the classes would have been {alt} points "
                               "instead of {real}."),
                    "params": {"alt": alt["spread"], "real": real["spread"]}})
    return out
