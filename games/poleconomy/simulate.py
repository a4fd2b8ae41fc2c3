"""Self-play with bots: whole games as records, and the balance figures.

``play`` stands in for the classroom: the game master confirms parties and Governments (pairs
of seats form parties; a coalition is built from the largest blocs), every bot sends orders,
and each consent ballot is cast and counted the way the platform would, by weighted votes,
handing the engine only the outcome. Everything here is pure (no Django).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.core import Action
from games.poleconomy import data
from games.poleconomy.bots import Policy, get_policy
from games.poleconomy.elections import blocs, majority_bloc, top_voter
from games.poleconomy.rules import new_game, scores, step
from games.poleconomy.state import GOVERNMENT, ORDERS, OVER, PARTIES, GameState


def bot_names(players: int) -> list[str]:
    return [f"Bot {i + 1}" for i in range(players)]


def pair_parties(names: Sequence[str]) -> dict[str, list[str]]:
    """Seats 1+2, 3+4, ... form parties; an odd last seat stands as an Independent."""
    return {f"Party {i // 2 + 1}": [names[i], names[i + 1]]
            for i in range(0, len(names) - 1, 2)}


def coalition(state: GameState) -> Action:
    win = majority_bloc(state)
    if win is not None:
        return {"type": "government", "members": win["members"], "pm": None}
    members: list[str] = []
    for b in sorted(blocs(state), key=lambda b: -b["votes"]):
        members += b["members"]
        if 2 * sum(state.player(m).votes for m in members) > state.total_votes:
            return {"type": "government", "members": members, "pm": top_voter(state, members)}
    return {"type": "no_government"}


def next_decisions(state: GameState, policies: Sequence[Policy], rng: random.Random
                   ) -> list[Action]:
    if state.phase == PARTIES:
        return [{"type": "parties", "parties": pair_parties(state.names)}]
    if state.phase == GOVERNMENT:
        return [coalition(state)]
    if state.phase != ORDERS:
        return []
    acts: list[Action] = []
    pm = state.pm
    ordered = sorted(state.players, key=lambda p: p.name != pm)  # the PM writes first
    for p in ordered:
        if not p.sent:
            acts.append({"type": "orders", "player": p.name,
                         "orders": policies[p.seat].orders(state, p.name, rng)})
    return acts


def _consents(state: GameState, policies: Sequence[Policy], rng: random.Random
              ) -> list[Action]:
    acts: list[Action] = []
    for c in state.consents:
        if c.outcome is not None:
            continue
        yes = 0
        for p in state.players:
            acts.append({"type": "ballot", "decision": c.id, "player": p.name})
            if policies[p.seat].consent(state, p.name, c.kind, c.proposal, rng):
                yes += p.votes
        outcome = "carried" if 2 * yes > state.total_votes else "not-carried"
        acts.append({"type": "count", "decision": c.id, "outcome": outcome})
    return acts


def play(policies: Sequence[Policy], seed: int, *, config: dict[str, Any] | None = None
         ) -> tuple[GameState, list[Action]]:
    """Play one whole game; returns the final state and the record's actions."""
    names = bot_names(len(policies))
    state = new_game({"players": names, **(config or {})}, seed)
    rng = random.Random(f"bots:{seed}")
    record: list[Action] = []
    while state.phase != OVER:
        acts = next_decisions(state, policies, rng)
        for i, action in enumerate(acts):
            step(state, action)
            record.append(action)
            if i == 0 and state.consents and state.phase == ORDERS:
                for ballot in _consents(state, policies, rng):
                    step(state, ballot)
                    record.append(ballot)
    return state, record


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def simulate(*, games: int, seed: int, policy: str, players: int = 4,
             rounds: int = data.DEFAULT_ROUNDS, pm_raise: int = 0,
             consent_mode: str = "ballot") -> dict[str, Any]:
    """Play ``games`` seeded games with every seat on ``policy``; returns the statistics."""
    if games < 1 or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise ValueError("games must be at least 1 and players 2 to 6")
    policies = [get_policy(policy, pm_raise=pm_raise) for _i in range(players)]
    reasons: Counter[str] = Counter()
    wins_by_seat: Counter[int] = Counter()
    multipliers: list[int] = []
    landed: Counter[str] = Counter()
    rounds_played: list[int] = []
    for i in range(games):
        state, _record = play(policies, game_seed(seed, i),
                              config={"rounds": rounds, "consent_mode": consent_mode})
        reasons[state.over_reason or "?"] += 1
        final = scores(state)
        first_movers = [e["order"][0] for r in state.history for e in r["events"]
                        if e["type"] == "round_start"][:1]
        for w in final["winners"]:
            wins_by_seat[state.player(w).seat] += 1
        if first_movers:
            wins_by_seat[-1] += first_movers[0] in final["winners"]
        seen = {e["multiplier"] for r in state.history for e in r["events"]
                if e["type"] in ("round_start", "round_end")}
        multipliers.append(len(seen))
        rounds_played.append(state.round)
        for r in state.history:
            for e in r["events"]:
                if e["type"] == "move" and e["how"] != "direct":
                    landed[e["to"]] += 1
    won = games - reasons["treasury"]
    return {
        "policy": policy, "players": players, "games": games, "seed": seed, "rounds": rounds,
        "pm_raise": pm_raise,
        "end": dict(sorted(reasons.items())),
        "winner_pct": round(100.0 * won / games, 1),
        "median_multipliers_seen": statistics.median(multipliers),
        "mean_rounds": round(statistics.fmean(rounds_played), 2),
        "first_mover_win_pct": round(100.0 * wins_by_seat[-1] / games, 1),
        "seat_win_pct": {s + 1: round(100.0 * wins_by_seat[s] / games, 1)
                         for s in range(players)},
        "never_landed": sorted(s for s in data.SQUARES
                               if not landed[s] and s != data.START),
    }


def balance_targets(*, games: int, seed: int) -> dict[str, Any]:
    """The three targets of our edition notes: each figure, its band, met or not."""
    rows = {n: simulate(games=games, seed=seed, policy="builder", players=n)
            for n in (4, 5, 6)}
    greedy = {n: simulate(games=games, seed=seed, policy="builder", players=n, pm_raise=20)
              for n in (4, 5, 6)}
    winner = [rows[n]["winner_pct"] for n in rows]
    greedy_winner = [greedy[n]["winner_pct"] for n in greedy]
    land = simulate(games=games, seed=seed, policy="random", players=6)
    fair = rows[4]
    first = fair["first_mover_win_pct"]
    rest_mean = (sum(fair["seat_win_pct"].values()) - first) / (fair["players"] - 1)
    targets = [
        {"target": "1a", "what": "games of the default length ending with a winner (4-6 bots)",
         "figure": winner, "band": "60-90 %", "met": all(60 <= w <= 90 for w in winner)},
        {"target": "1b", "what": "a PM raising their salary $20 a round defaults more often",
         "figure": greedy_winner, "band": "clearly fewer winners than 1a",
         "met": all(g + 10 <= w for g, w in zip(greedy_winner, winner, strict=True))},
        {"target": "2", "what": "different multipliers in the median game",
         "figure": [rows[n]["median_multipliers_seen"] for n in rows], "band": ">= 3",
         "met": all(rows[n]["median_multipliers_seen"] >= 3 for n in rows)},
        {"target": "3a", "what": f"squares never landed on in {land['games']} random games",
         "figure": land["never_landed"], "band": "none", "met": not land["never_landed"]},
        {"target": "3b", "what": "first mover's win rate vs each other player's (4 bots)",
         "figure": [first, round(rest_mean, 1)], "band": "within 10 points",
         "met": abs(first - rest_mean) <= 10},
    ]
    return {"games": games, "seed": seed, "targets": targets,
            "rows": {"builder": rows, "builder-pm-raise-20": greedy, "random-6": land}}


def format_report(report: dict[str, Any]) -> str:
    """Plain-text tables of a ``simulate`` or ``balance_targets`` result."""
    lines: list[str] = []
    if "targets" in report:
        lines.append(f"Poleconomy balance targets ({report['games']} games, seed "
                     f"{report['seed']})")
        lines.append(f"{'target':<7}{'met':<5}{'figure':<28}{'band':<32}what")
        for t in report["targets"]:
            lines.append(f"{t['target']:<7}{'yes' if t['met'] else 'NO':<5}"
                         f"{t['figure']!s:<28}{t['band']:<32}{t['what']}")
        return "\n".join(lines)
    lines.append(f"Poleconomy: {report['games']} games, {report['players']} x "
                 f"{report['policy']}, {report['rounds']} rounds, seed {report['seed']}")
    for key in ("end", "winner_pct", "median_multipliers_seen", "mean_rounds",
                "first_mover_win_pct", "seat_win_pct", "never_landed"):
        lines.append(f"  {key:<26}{report[key]}")
    return "\n".join(lines)
