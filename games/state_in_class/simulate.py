"""Self-play with bots: whole games as records, and the balance statistics.

``play`` is the bag in software: it asks every bot for its vote, puts one ballot per voter
through the engine, and hands the engine only the tally, exactly like the facilitator does.

``simulate`` plays many seeded games with every seat on one policy; ``pact_dilemma`` is the
experiment behind balance target 5; ``balance_targets`` checks the five targets of
our edition notes (each with its band in ``docs/balance.md``). Everything here is pure
(no Django): ``manage.py simulate`` only parses arguments and prints these results.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import Action
from games.state_in_class import data
from games.state_in_class.bots import FixedPact, Policy, get_policy
from games.state_in_class.rules import goal_reached, new_game, scores, step
from games.state_in_class.state import BUDGET_VOTE, OVER, PACT, TAX_VOTE, TIE_BREAK, GameState

GOALS = ("falls-short", "get-by", "live-well", "thrive")
# Rounds whose events can catch a player short right after the pact (boom, flu, crisis).
EARLY_ROUNDS = 3


def bot_names(players: int) -> list[str]:
    return [f"Bot {i + 1}" for i in range(players)]


def next_decisions(state: GameState, policies: Sequence[Policy],
                   rng: random.Random) -> list[Action]:
    """The bots' decisions for the current phase (a whole bag's worth for a vote)."""
    if state.phase == PACT:
        return [{"type": "pact", "player": p.name, "coins": policies[p.seat].pact(state, p, rng)}
                for p in state.players if p.pact is None]
    if state.phase in (TAX_VOTE, BUDGET_VOTE):
        kind = "tax" if state.phase == TAX_VOTE else "budget"
        tally: dict[str, int] = defaultdict(int)
        actions: list[Action] = []
        for p in state.players:
            if p.name in state.receipts:
                continue
            tally[policies[p.seat].vote(state, p, kind, rng)] += 1
            actions.append({"type": "ballot", "kind": kind, "player": p.name})
        # The bag may already hold the ballots of others (e.g. humans); bots only add theirs.
        actions.append({"type": "count", "kind": kind, "tally": dict(tally)})
        return actions
    if state.phase == TIE_BREAK and state.tie:
        decider = state.player(state.tie.deciders[0])
        choice = policies[decider.seat].tie_break(state, decider, state.tie.kind,
                                                  list(state.tie.options), rng)
        return [{"type": "tie_break", "player": decider.name, "choice": choice}]
    return []


def play(policies: Sequence[Policy], seed: int, *, bot_seed: int | None = None,
         config: dict[str, Any] | None = None) -> tuple[GameState, list[Action]]:
    """Play one whole game; returns the final state and the record's actions."""
    names = bot_names(len(policies))
    state = new_game({"players": names, **(config or {})}, seed)
    rng = random.Random(seed if bot_seed is None else bot_seed)
    record: list[Action] = []
    while state.phase != OVER:
        for action in next_decisions(state, policies, rng):
            step(state, action)
            record.append(action)
    return state, record


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` of a run started with ``seed``."""
    return seed * 1_000_003 + i


# --------------------------------------------------------------------------- facts of a game


def start_tension(state: GameState) -> int:
    """Where the opening pact put Tension (the final value minus every recorded change)."""
    changes = sum(c["delta"] for r in state.history for c in r.get("tension", []))
    return (state.tension or 0) - changes


def exclusions(state: GameState) -> list[tuple[int, dict[str, Any]]]:
    """Every Exclusion token as (round, {"player", "role", "reason"})."""
    return [(r["round"], e) for r in state.history for e in r.get("exclusions", [])]


def coins_after(state: GameState, name: str, last_round: int) -> int:
    """A player's coins at the end of ``last_round`` (or when the State failed before it)."""
    balance = data.START_COINS
    for line in state.player(name).statement:
        if line["round"] > last_round:
            break
        balance = line["balance"]
    return balance


def roles_held(state: GameState) -> set[str]:
    """Every role card that was in someone's hands during the game (spares included)."""
    held = {p.role for p in state.players if p.role}
    held |= {c["from_role"] for r in state.history for c in r.get("class_changes", [])
             if c.get("result") == "changed"}
    return held


# --------------------------------------------------------------------------- statistics


def _mean(values: Sequence[float], digits: int = 1) -> float:
    return round(statistics.fmean(values), digits) if values else 0.0


def _pct(n: int, of: int) -> float:
    return round(100.0 * n / of, 1) if of else 0.0


@dataclass
class Stats:
    """Totals over many games. Coins and scores are grouped by the class (and role) each player
    holds at the final count; an Exclusion is counted against the role held when it happened."""

    policy: str
    players: int
    seed: int = 0
    games: int = 0
    failures: int = 0
    legacies: int = 0
    with_exclusion: int = 0
    upper_or_middle_excluded: int = 0
    exclusions: list[int] = field(default_factory=list)
    start_tension: list[int] = field(default_factory=list)
    tension: list[int] = field(default_factory=list)
    coins: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    score: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    role_held: Counter[str] = field(default_factory=Counter)
    role_excluded: Counter[str] = field(default_factory=Counter)
    role_coins: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    role_goals: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, state: GameState) -> None:
        self.games += 1
        self.failures += state.failed
        final = scores(state)
        self.legacies += final["legacy"] and not state.failed
        tokens = exclusions(state)
        self.with_exclusion += bool(tokens)
        excluded_roles = {e["role"] for _, e in tokens}
        excluded_classes = {data.ROLES[r].klass for r in excluded_roles}
        self.upper_or_middle_excluded += bool(excluded_classes & {data.UPPER, data.MIDDLE})
        self.exclusions.append(len(tokens))
        self.start_tension.append(start_tension(state))
        self.tension.append(state.tension or 0)
        self.role_held.update(roles_held(state))
        self.role_excluded.update(excluded_roles)
        for p in state.players:
            assert p.role is not None and p.klass is not None
            self.coins[p.klass].append(p.coins)
            self.score[p.klass].append(final["players"][p.name]["score"])
            self.role_coins[p.role].append(p.coins)
            self.role_goals[p.role][goal_reached(p)] += 1

    def pct(self, n: int) -> float:
        return _pct(n, self.games)

    def roles(self) -> dict[str, dict[str, Any]]:
        out = {}
        for role in data.ROLES:
            if not self.role_held[role]:
                continue
            finals = len(self.role_coins[role])
            out[role] = {
                "class": data.ROLES[role].klass,
                "games_held": self.role_held[role],
                "excluded_pct": _pct(self.role_excluded[role], self.role_held[role]),
                "final_holders": finals,
                "mean_coins": _mean(self.role_coins[role]),
                "goals_pct": {g: _pct(self.role_goals[role][g], finals) for g in GOALS},
            }
        return out

    def row(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "state_failure_pct": self.pct(self.failures),
            "legacy_pct": self.pct(self.legacies),
            "any_exclusion_pct": self.pct(self.with_exclusion),
            "upper_or_middle_exclusion_pct": self.pct(self.upper_or_middle_excluded),
            "mean_exclusions": _mean(self.exclusions, 2),
            "mean_start_tension": _mean(self.start_tension, 2),
            "mean_final_tension": _mean(self.tension, 2),
            "mean_coins": {k: _mean(self.coins[k]) for k in data.CLASSES if self.coins[k]},
            "mean_score": {k: _mean(self.score[k]) for k in data.CLASSES if self.score[k]},
            "roles": self.roles(),
        }


def _check(games: int, players: int) -> None:
    if players not in data.SETUPS:
        raise ValueError(f"State in Class is for 6, 7 or 8 players, not {players}")
    if games < 1:
        raise ValueError("play at least one game")


def simulate(policy: str, *, games: int, players: int = 8, seed: int = 0,
             pact: int | None = None) -> dict[str, Any]:
    """Play ``games`` seeded games with every seat on ``policy``; returns the statistics.

    ``pact``: make every seat give that many coins instead of the policy's own contribution
    (to see how much a result depends on the starting Tension).
    """
    _check(games, players)
    get_policy(policy)  # fail early on an unknown name
    if pact is not None and not 0 <= pact <= data.MAX_PACT:
        raise ValueError(f"a pact contribution is 0 to {data.MAX_PACT} coins, not {pact}")
    stats = Stats(policy, players, seed)
    for i in range(games):
        policies: list[Policy] = [get_policy(policy) for _ in range(players)]
        if pact is not None:
            policies = [FixedPact(p, pact) for p in policies]
        state, _ = play(policies, game_seed(seed, i))
        stats.add(state)
    row = stats.row()
    row["pact"] = pact
    return row


# --------------------------------------------------------------------------- target 5


def pact_dilemma(policy: str = "always-C", *, games: int, players: int = 8,
                 seed: int = 0) -> dict[str, Any]:
    """Balance target 5: does giving to the pact lower Tension but expose the giver?

    Paired games ("what if I had given nothing?"). In game ``i`` every seat votes like
    ``policy`` and gives a pact drawn at random (0–3 coins, uniformly, seeded), so each table
    mixes givers and keepers; one seat (it rotates) is the focus. The game is played twice with
    the same seed, the same roles and the same Midlife cards: once with the focus giving 3 coins
    and once giving 0; nothing else differs. Averaged over the games:

    - ``start_tension``: where the pact put Tension (the table's benefit);
    - ``excluded_r1_3_pct``: how often the focus got an Exclusion token in rounds 1–3 (the
      economic boom, the seasonal flu and the cost-of-living crisis), also by dealt class;
    - ``coins_after_r3``, ``own_score``: what it cost the focus;
    - ``table_failure_pct``, ``others_score``: what it did for the rest of the table.

    ``tension_drop`` = start Tension when giving 0 minus when giving 3; ``exposure_pp`` = the
    increase in the focus's rounds 1–3 Exclusion rate, in percentage points.
    """
    _check(games, players)
    get_policy(policy)
    runs: dict[int, dict[str, list[float]]] = {c: defaultdict(list) for c in (0, data.MAX_PACT)}
    by_class: dict[str, dict[int, list[bool]]] = {k: defaultdict(list) for k in data.CLASSES}
    for i in range(games):
        gseed = game_seed(seed, i)
        pact_rng = random.Random(f"pact-dilemma:{gseed}")
        pacts = [pact_rng.randrange(data.MAX_PACT + 1) for _ in range(players)]
        focus = i % players
        for coins, row in runs.items():
            pacts[focus] = coins
            state, _ = play([FixedPact(get_policy(policy), c) for c in pacts], gseed)
            me = state.players[focus]
            final = scores(state)["players"]
            early = any(e["player"] == me.name for rnd, e in exclusions(state)
                        if rnd <= EARLY_ROUNDS)
            row["start_tension"].append(start_tension(state))
            row["excluded"].append(early)
            row["coins_after_r3"].append(coins_after(state, me.name, EARLY_ROUNDS))
            row["own_score"].append(final[me.name]["score"])
            row["others_score"].append(statistics.fmean(
                v["score"] for name, v in final.items() if name != me.name))
            row["failed"].append(state.failed)
            by_class[_dealt_classes(state)[me.name]][coins].append(early)
    out: dict[str, Any] = {"policy": policy, "players": players, "games": games, "seed": seed}
    for coins, row in runs.items():
        out[f"gave_{coins}"] = {
            "start_tension": _mean(row["start_tension"], 2),
            "excluded_r1_3_pct": _pct(sum(row["excluded"]), games),
            "coins_after_r3": _mean(row["coins_after_r3"], 2),
            "own_score": _mean(row["own_score"], 2),
            "others_score": _mean(row["others_score"], 2),
            "table_failure_pct": _pct(sum(row["failed"]), games),
        }
    give, keep = out[f"gave_{data.MAX_PACT}"], out["gave_0"]
    out["excluded_r1_3_pct_by_class"] = {
        k: {"gave_0": _pct(sum(v[0]), len(v[0])),
            f"gave_{data.MAX_PACT}": _pct(sum(v[data.MAX_PACT]), len(v[data.MAX_PACT])),
            "seats": len(v[0])}
        for k, v in by_class.items()}
    out["tension_drop"] = round(keep["start_tension"] - give["start_tension"], 2)
    out["exposure_pp"] = round(give["excluded_r1_3_pct"] - keep["excluded_r1_3_pct"], 1)
    out["own_cost"] = round(keep["own_score"] - give["own_score"], 2)
    out["table_failure_change_pp"] = round(
        give["table_failure_pct"] - keep["table_failure_pct"], 1)
    return out


def _dealt_classes(state: GameState) -> dict[str, str]:
    """Each player's class as dealt (before any Midlife class change)."""
    dealt = {p.name: p.klass or "" for p in state.players}
    for r in state.history:
        for c in r.get("class_changes", []):
            if c.get("result") == "changed":
                dealt[c["player"]] = c["from_class"]
    return dealt


# --------------------------------------------------------------------------- the five targets

# Target 5 thresholds (this project's reading of "a real dilemma"): a player's 3 coins must
# lower their table's starting Tension noticeably, while the giver is noticeably more exposed
# in rounds 1-3 and worse off for it.
MIN_TENSION_DROP = 0.3
MIN_EXPOSURE_PP = 5.0


def balance_targets(*, games: int, players: int = 8, seed: int = 0,
                    rows: Mapping[str, dict[str, Any]] | None = None,
                    dilemma: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Check the five balance targets; each entry has its figures and whether it holds.

    ``rows`` (policy name -> ``simulate`` result) and ``dilemma`` (a ``pact_dilemma`` result
    with always-C votes) may hand over runs already made with the same games, players and seed.
    """
    known = dict(rows or {})
    for policy in ("always-A", "always-C", "always-D"):
        row = known.get(policy)
        if row is None or row.get("pact") is not None or (
                row["games"], row["players"], row["seed"]) != (games, players, seed):
            known[policy] = simulate(policy, games=games, players=players, seed=seed)
    a, c, d = known["always-A"], known["always-C"], known["always-D"]
    if dilemma is None or dilemma["policy"] != "always-C" or (
            dilemma["games"], dilemma["players"], dilemma["seed"]) != (games, players, seed):
        dilemma = pact_dilemma("always-C", games=games, players=players, seed=seed)
    coins_a = a["mean_coins"]
    richest = max(coins_a, key=coins_a.__getitem__)
    return [
        {"target": 1, "text": "always-A: an Exclusion in >= 90% of games; State fails in >= 30%",
         "figures": {"any_exclusion_pct": a["any_exclusion_pct"],
                     "state_failure_pct": a["state_failure_pct"]},
         "holds": a["any_exclusion_pct"] >= 90 and a["state_failure_pct"] >= 30},
        {"target": 2, "text": "always-C: Legacy in >= 60% of games; State fails in < 5%",
         "figures": {"legacy_pct": c["legacy_pct"], "state_failure_pct": c["state_failure_pct"]},
         "holds": c["legacy_pct"] >= 60 and c["state_failure_pct"] < 5},
        {"target": 3, "text": "always-D: an upper- or middle-class Exclusion in >= 50% of games",
         "figures": {"upper_or_middle_exclusion_pct": d["upper_or_middle_exclusion_pct"]},
         "holds": d["upper_or_middle_exclusion_pct"] >= 50},
        {"target": 4, "text": "every class scores more under always-C than under always-A; "
                              "under always-A the upper class ends with the most coins",
         "figures": {"mean_score_C": c["mean_score"], "mean_score_A": a["mean_score"],
                     "mean_coins_A": coins_a},
         "holds": all(c["mean_score"].get(k, 0) > a["mean_score"].get(k, 0)
                      for k in data.CLASSES) and richest == data.UPPER},
        {"target": 5, "text": "pact dilemma (always-C votes, mixed pacts, paired games): giving 3 "
                              f"coins instead of 0 lowers the starting Tension by >= "
                              f"{MIN_TENSION_DROP}, and the giver is excluded in rounds 1-3 >= "
                              f"{MIN_EXPOSURE_PP} points more often and scores less",
         "figures": {"tension_drop": dilemma["tension_drop"],
                     "excluded_r1_3_pct_gave_0": dilemma["gave_0"]["excluded_r1_3_pct"],
                     "excluded_r1_3_pct_gave_3": dilemma["gave_3"]["excluded_r1_3_pct"],
                     "exposure_pp": dilemma["exposure_pp"],
                     "own_cost": dilemma["own_cost"],
                     "table_failure_change_pp": dilemma["table_failure_change_pp"]},
         "holds": dilemma["tension_drop"] >= MIN_TENSION_DROP
         and dilemma["exposure_pp"] >= MIN_EXPOSURE_PP and dilemma["own_cost"] > 0},
    ]


# --------------------------------------------------------------------------- a lesson's outcomes


def lesson_outcomes(seats: Sequence[str], *, games: int, players: int = 7, seed: int = 0,
                    pact: int | None = None, rich_coins: int = 45) -> dict[str, Any]:
    """How often a class sees the outcomes teachers ask about, for a table whose seats play
    ``seats`` (policy names, repeated over the seats in order: ``["always-C"] * 5 +
    ["class-selfish"] * 2`` is a table voting mostly C). ``pact``: every seat gives that many.

    Returns the State's failure rate (and by the Midlife round, 4), the Legacy rate and, over
    the games that reached the final count with the State standing: how often the upper class
    scored below every other player, the factory worker's and the company director's coins
    (mean, 90th percentile, highest), how often the factory worker ended with ``rich_coins``
    or more, and with more coins than the director.
    """
    _check(games, players)
    failed = failed_by_midlife = legacy = finished = upper_last = 0
    rich = worker_ahead = both = 0
    worker: list[int] = []
    director: list[int] = []
    for i in range(games):
        policies: list[Policy] = [get_policy(seats[s % len(seats)]) for s in range(players)]
        if pact is not None:
            policies = [FixedPact(p, pact) for p in policies]
        state, _ = play(policies, game_seed(seed, i))
        if state.failed:
            failed += 1
            failed_by_midlife += state.round <= data.MIDLIFE_ROUND
            continue
        finished += 1
        final = scores(state)
        legacy += bool(final["legacy"])
        rows = final["players"]
        upper = [rows[p.name]["score"] for p in state.players if p.klass == data.UPPER]
        others = [rows[p.name]["score"] for p in state.players if p.klass != data.UPPER]
        upper_last += bool(upper and others and max(upper) < min(others))
        held = {p.role: p.coins for p in state.players}
        if "factory-worker" in held:
            worker.append(held["factory-worker"])
            rich += held["factory-worker"] >= rich_coins
        if "company-director" in held:
            director.append(held["company-director"])
        if "factory-worker" in held and "company-director" in held:
            both += 1
            worker_ahead += held["factory-worker"] > held["company-director"]

    def spread(values: list[int]) -> dict[str, float]:
        if not values:
            return {"mean": 0.0, "p90": 0.0, "max": 0.0}
        ordered = sorted(values)
        return {"mean": _mean(values), "p90": float(ordered[int(0.9 * (len(ordered) - 1))]),
                "max": float(ordered[-1])}

    return {
        "seats": list(seats), "players": players, "games": games, "seed": seed, "pact": pact,
        "state_failure_pct": _pct(failed, games),
        "failed_by_midlife_pct": _pct(failed_by_midlife, games),
        "legacy_pct": _pct(legacy, games),
        "finished": finished,
        "upper_last_pct": _pct(upper_last, finished),
        "factory_worker_coins": spread(worker),
        "company_director_coins": spread(director),
        "factory_worker_rich_pct": _pct(rich, len(worker)),
        "factory_worker_ahead_of_director_pct": _pct(worker_ahead, both),
    }
