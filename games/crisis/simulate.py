"""Self-play with bot teams: whole games as records, statistics and the edition's balance
targets (our edition notes; each band in docs/engines/crisis.md, "Balance"). Pure functions;
``manage.py simulate --game crisis`` only parses arguments and prints ``format_report``.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.core import Action
from games.crisis import bots, cards, data, rules, views
from games.crisis.setup import new_game
from games.crisis.state import OVER, GameState

BANDS = {data.EASY: (85.0, 100.0), data.MEDIUM: (55.0, 75.0), data.DIFFICULT: (25.0, 45.0)}


def bot_names(players: int) -> list[str]:
    return [f"Team {i + 1}" for i in range(players)]


def play(policies: Sequence[str], seed: int, *, difficulty: str = data.MEDIUM,
         config: dict[str, Any] | None = None) -> tuple[GameState, dict[str, Any]]:
    """One whole game; returns the final state and its record (decisions only)."""
    names = bot_names(len(policies))
    cfg = {"players": names, "difficulty": difficulty, **(config or {})}
    state = new_game(cfg, seed)
    rng = random.Random(f"bots:{seed}")
    by_name = dict(zip(names, policies, strict=True))
    actions: list[Action] = []
    while state.phase != OVER:
        for decision in views.decisions(state):
            action = bots.act(by_name[decision.deciders[0]], state, decision, rng)
            rules.step(state, action)
            actions.append(action)
            if state.phase == OVER:
                break
    record = {"game": rules.GAME_ID, "version": 1, "seed": seed, "config": cfg,
              "actions": actions}
    return state, record


def simulate(*, games: int, seed: int, policy: str = "sensible", players: int = 4,
             difficulty: str = data.MEDIUM, cheaters: int = 0, goals: Sequence[int] | None = None,
             **options: Any) -> dict[str, Any]:
    """Statistics of ``games`` seeded games; ``cheaters`` seats (the first ones) play greedy;
    ``goals`` tries other Austerity Plan goals (the card's levels)."""
    config = None
    if goals is not None:
        card = data.plan_for(players, difficulty)
        config = {"plan": {"levels": list(card.levels), "goals": list(goals)}}
    policies = ["greedy"] * cheaters + [policy] * (players - cheaters)
    survived = 0
    final_status = []
    margins = []
    scores: dict[str, list[int]] = {n: [] for n in bot_names(players)}
    wins: Counter[str] = Counter()
    levels_bought: Counter[str] = Counter()
    openings: Counter[str] = Counter()
    opening_wins: Counter[str] = Counter()
    for g in range(games):
        state, record = play(policies, seed + g, difficulty=difficulty, config=config)
        survived += not state.bankrupt
        final_status.append(state.status)
        final = views.scores(state)
        for name, s in final.items():
            scores[name].append(s["score"])
            if s.get("winner"):
                wins[name] += 1
        eligible = sorted((s["score"] for s in final.values() if s["eligible"]), reverse=True)
        if len(eligible) >= 2:
            margins.append(eligible[0] - eligible[1])
        first = {}
        for action in record["actions"]:
            if action["type"] == "place" and action["player"] not in first:
                first[action["player"]] = action["space"]
        for name, space in first.items():
            openings[space] += 1
            if final[name].get("winner"):
                opening_wins[space] += 1
        for p in state.players:
            levels_bought.update(cards.COMPANIES[c].level for c in p.companies)
    return {
        "games": games, "players": players, "policy": policy, "difficulty": difficulty,
        "cheaters": cheaters, **options,
        "survival_pct": 100.0 * survived / games,
        "bankrupt_pct": 100.0 * (games - survived) / games,
        "final_status_mean": statistics.mean(final_status),
        "mean_score": {n: statistics.mean(v) for n, v in scores.items()},
        "wins": dict(wins),
        "winner_margin_median": statistics.median(margins) if margins else 0,
        "levels_bought": dict(levels_bought),
        "opening_win_pct": {s: 100.0 * opening_wins[s] / n for s, n in openings.items()},
        "openings": dict(openings),
    }


def black_market_pairs(*, games: int, seed: int, players: int = 4,
                       difficulty: str = data.MEDIUM) -> dict[str, Any]:
    """Target 2 as paired games: every seed is played once with every team sensible and once
    with the first seat greedy (then once with every seat greedy). ``gain``: the first seat's
    mean score difference (``gain_se``: its standard error over the seeds);
    ``gain_both_survive``: the same over the seeds where Axia survives both games;
    ``bankruptcies_caused``: seeds (in %) where only the game with the greedy seat
    goes bankrupt; ``extra_credits`` and ``vp_lost``: the first seat's mean difference in final
    credits and VP (before the credits exchange); ``tokens``: tokens it sold on the black market
    per game; ``ratio``: bankruptcies with every seat greedy over all honest."""
    honest = ["sensible"] * players
    one = ["greedy"] + ["sensible"] * (players - 1)
    first = bot_names(players)[0]
    gains, both, caused, credits, vp, tokens = [], [], 0, [], [], []
    bankrupt = {"honest": 0, "everyone": 0}
    for g in range(games):
        a, _ = play(honest, seed + g, difficulty=difficulty)
        b, record = play(one, seed + g, difficulty=difficulty)
        c, _ = play(["greedy"] * players, seed + g, difficulty=difficulty)
        gain = views.scores(b)[first]["score"] - views.scores(a)[first]["score"]
        gains.append(gain)
        if not a.bankrupt and not b.bankrupt:
            both.append(gain)
        caused += b.bankrupt and not a.bankrupt
        credits.append(b.player(first).credits - a.player(first).credits)
        vp.append(a.player(first).vp - b.player(first).vp)
        tokens.append(sum(x["amount"] for x in record["actions"]
                          if x["type"] == "black_market" and x["player"] == first))
        bankrupt["honest"] += a.bankrupt
        bankrupt["everyone"] += c.bankrupt
    rates = {k: 100.0 * v / games for k, v in bankrupt.items()}
    return {
        "games": games, "gain": statistics.mean(gains),
        "gain_se": statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0,
        "gain_both_survive": statistics.mean(both) if both else 0.0,
        "bankruptcies_caused": 100.0 * caused / games,
        "extra_credits": statistics.mean(credits), "vp_lost": statistics.mean(vp),
        "tokens": statistics.mean(tokens),
        "bankrupt_pct": rates, "ratio": rates["everyone"] / max(rates["honest"], 0.1),
    }


def event_effects(*, games: int, seed: int, players: int = 4,
                  rnd: int = 4) -> dict[str, dict[str, float]]:
    """Each Event's effect, as an experiment: sensible teams play to the last decision of round
    ``rnd - 1``; from there the same game goes on once with the Event on top of every Event
    deck and once with no Event at all. ``track``: the mean difference of the Crisis track at
    the end of round ``rnd`` (positive helps Axia); ``bankrupt``: how many more games (in %)
    end bankrupt."""
    names = bot_names(players)
    starts = []
    for g in range(games):
        state = new_game({"players": names}, seed + g)
        rng = random.Random(f"bots:{seed + g}")
        while state.phase != OVER and state.round < rnd:
            decision = views.decisions(state)[0]
            action = bots.act("sensible", state, decision, rng)
            before = state.clone()
            rules.step(state, action)
            if state.round == rnd:
                starts.append((before, action, seed + g))
    baseline = [_go_on(before, action, None, s) for before, action, s in starts]
    out = {}
    for event in data.EVENT_CARDS:
        runs = [_go_on(before, action, event, s) for before, action, s in starts]
        n = max(1, len(runs))
        out[event] = {
            "track": sum(r[0] - b[0] for r, b in zip(runs, baseline, strict=True)) / n,
            "bankrupt": 100.0 * sum(r[1] - b[1] for r, b in zip(runs, baseline, strict=True))
            / n}
    return out


def _go_on(before: GameState, action: Action, event: str | None,
           seed: int) -> tuple[int, int]:
    state = before.clone()
    state.event_decks = {z: [event] if event else [] for z in data.ZONES}
    rnd = state.round + 1
    rules.step(state, action)
    rng = random.Random(f"bots:after:{seed}")
    while state.phase != OVER:
        decision = views.decisions(state)[0]
        rules.step(state, bots.act("sensible", state, decision, rng))
    return state.history[rnd - 1]["status"] if len(state.history) >= rnd and \
        "status" in state.history[rnd - 1] else state.status, int(state.bankrupt)


def balance_targets(*, games: int, seed: int, quick: bool = False) -> dict[str, Any]:
    """Each target of our edition notes: the figure, the band, met or not (``quick``:
    only 4 teams for target 1 and a small Event experiment, for tests)."""
    targets: dict[str, Any] = {}
    for players in (4,) if quick else (2, 3, 4, 5):
        for difficulty, (low, high) in BANDS.items():
            r = simulate(games=games, seed=seed, players=players, difficulty=difficulty)
            pct = r["survival_pct"]
            targets[f"1. survival {players} teams {difficulty}"] = {
                "figure": pct, "band": f"{low:.0f}-{high:.0f} %", "met": low <= pct <= high}
    honest = simulate(games=games, seed=seed, players=4)
    pairs = black_market_pairs(games=games, seed=seed)
    gain = pairs["gain"]
    targets["2a. one black-marketeer gains VP"] = {
        "figure": round(gain, 1), "band": "> 0 VP", "met": gain > 0,
        "detail": (f"standard error {pairs['gain_se']:.2f} VP over {pairs['games']} seeds; "
                   f"{pairs['gain_both_survive']:+.1f} VP when Axia survives both games; "
                   f"{pairs['bankruptcies_caused']:.0f} % of seeds bankrupt only with it; "
                   f"{pairs['tokens']:.1f} tokens sold, {pairs['vp_lost']:.1f} VP lost, "
                   f"{pairs['extra_credits']:+.1f} credits at the end")}
    ratio = pairs["ratio"]
    rates = pairs["bankrupt_pct"]
    targets["2b. everyone black-markets: bankruptcy x"] = {
        "figure": round(ratio, 2), "band": ">= 2x", "met": ratio >= 2,
        "detail": f"{rates['everyone']:.0f} % vs {rates['honest']:.0f} %"}
    levels = honest["levels_bought"]
    targets["3a. every Company level is bought"] = {
        "figure": levels, "band": "I, II, III > 0",
        "met": all(levels.get(lv, 0) > 0 for lv in ("I", "II", "III"))}
    top = max(honest["opening_win_pct"].values(), default=0.0)
    targets["3b. best opening placement's win rate"] = {
        "figure": round(top, 1), "band": "<= 40 %", "met": top <= 40}
    margin = honest["winner_margin_median"]
    targets["3c. winner's median margin"] = {"figure": margin, "band": "<= 10 VP",
                                             "met": margin <= 10}
    effects = event_effects(games=1 if quick else max(10, games // 4), seed=seed)
    by_zone = {z: statistics.mean(effects[c.id]["track"] for c in data.EVENTS[z])
               for z in data.ZONES}
    targets["4a. green Events help, red ones hurt (track steps)"] = {
        "figure": {z: round(v, 1) for z, v in by_zone.items()}, "band": "green > 0 > red",
        "met": by_zone[data.GREEN] > 0 > by_zone[data.RED]}
    worst = max(effects, key=lambda e: effects[e]["bankrupt"])
    targets["4b. no Event ends the game by itself (most added bankruptcies)"] = {
        "figure": f"{worst} +{effects[worst]['bankrupt']:.0f} %", "band": "<= 15 %",
        "met": effects[worst]["bankrupt"] <= 15}
    return targets


def format_report(report: dict[str, Any]) -> str:
    """Plain-text table of a ``simulate`` or ``balance_targets`` result."""
    lines = []
    width = max((len(k) for k in report), default=10)
    for key, value in report.items():
        if isinstance(value, dict) and "met" in value:
            mark = "met" if value["met"] else "NOT MET"
            lines.append(f"{key:<{width}}  {value['figure']!s:<28} {value['band']:<16} {mark}")
            if value.get("detail"):
                lines.append(f"{'':<{width}}  ({value['detail']})")
        else:
            lines.append(f"{key:<{width}}  {value}")
    return "\n".join(lines)
