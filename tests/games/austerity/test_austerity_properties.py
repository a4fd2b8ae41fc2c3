"""Invariants of random Austerity games (seeded loops over every scenario and module).

- cubes are conserved: the counts in the bag, Current, Used, the Treasury, the institutions
  and the Olympics box are exactly the start's counts plus the ``cubes`` events (supply in and
  out), at every step;
- tracks stay in 0..10 and a track at 0 means the game is lost;
- every listed decision option is accepted, and the decisions list exactly the legal actions;
- the record replays to the same state; an invalid action changes nothing.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

import games.austerity as engine
from games.austerity import data
from games.austerity.rules import step
from games.austerity.state import OVER, cube_counts
from games.core import InvalidAction
from games.registry import replay

CONFIGS = [
    {},
    {"scenario": "olympics", "extra_institutions": True},
    {"scenario": "organised-crime", "difficulty": "hard", "country": "tinpot-dictatorship",
     "policies": True},
    {"scenario": "war-footing", "country": "socialist-republic", "policies": True,
     "lone_debt_cuts": True},
    {"scenario": "random", "country": "random", "policies": True, "extra_institutions": True,
     "difficulty": "easier"},
]


def flat(counts: dict[str, dict[str, int]]) -> dict[tuple[str, str], int]:
    return {(place, colour): n for place, row in counts.items() for colour, n in row.items()
            if n}


def random_game(config: dict, seed: int, max_steps: int = 400):
    rng = random.Random(seed)
    state = engine.new_game(config, seed)
    ledger = defaultdict(int, flat(cube_counts(state)))
    actions = []
    while state.stage != OVER and len(actions) < max_steps:
        legal = engine.legal_actions(state, "government")
        assert legal == [{"type": d.action, "choice": o} for d in engine.decisions(state)
                         for o in d.options]
        main = [a for a in legal if a["type"] != "action"]
        action = rng.choice(legal if rng.random() < 0.3 else main)
        events = step(state, action)
        actions.append(action)
        for event in events:
            if event["type"] == "cubes":
                key = event["colour"]
                ledger[(event["from"], key)] -= event["count"]
                ledger[(event["to"], key)] += event["count"]
        counted = {k: v for k, v in ledger.items() if v and k[0] != "supply"}
        assert counted == flat(cube_counts(state)), action
        assert all(data.TRACK_MIN <= v <= data.TRACK_MAX for v in state.tracks.values())
        assert all(0 <= m.cuts < data.CUTS_STEPS for m in state.institutions.values())
        if min(state.tracks.values()) == 0:
            assert state.result == "lost"
    return state, actions


@pytest.mark.parametrize("config", CONFIGS)
def test_random_games_conserve_cubes_and_keep_the_tracks_in_bounds(config):
    for seed in range(25):
        random_game(config, seed)


@pytest.mark.parametrize("config", CONFIGS)
def test_a_random_game_replays_from_its_record(config):
    for seed in range(5):
        state, actions = random_game(config, seed)
        record = {"game": "austerity", "version": 1, "seed": seed, "config": config,
                  "actions": actions}
        assert engine.summary(replay(record).state) == engine.summary(state)
        assert engine.to_dict(engine.from_dict(engine.to_dict(state))) == engine.to_dict(state)


def test_an_invalid_action_at_any_moment_changes_nothing():
    rng = random.Random(5)
    state = engine.new_game({"policies": True, "extra_institutions": True}, 5)
    for _ in range(60):
        if state.stage == OVER:
            break
        before = engine.to_dict(state)
        with pytest.raises(InvalidAction):
            engine.apply(state, {"type": "cuts" if state.stage != "cuts" else "income",
                                 "choice": "private-enterprise"})
        assert engine.to_dict(state) == before
        legal = engine.legal_actions(state, "government")
        state, _ = engine.apply(state, rng.choice(legal))
