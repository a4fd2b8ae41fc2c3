"""Invariants over seeded random and bot playouts: the ledger, resources, purity, replay."""

import json
import random

import pytest

from games.core import InvalidAction
from games.crisis import (
    apply,
    balances,
    bots,
    cards,
    decisions,
    from_dict,
    legal_actions,
    new_game,
    replay_actions,
    summary,
    to_dict,
    view,
)
from games.crisis.simulate import play
from games.crisis.state import OVER
from games.registry import replay
from tests.games.crisis.crisis_support import config

GAMES = [(policy, seed, n) for seed, (policy, n) in enumerate(
    [("random", 2), ("random", 3), ("random", 5), ("sensible", 4), ("greedy", 3),
     ("sensible", 5), ("random", 4), ("greedy", 2)])]


def transfers_total(events):
    totals = {}
    for e in events:
        if e["type"] == "transfer":
            totals[e["from"]] = totals.get(e["from"], 0) - e["amount"]
            totals[e["to"]] = totals.get(e["to"], 0) + e["amount"]
    return totals


@pytest.mark.parametrize(("policy", "seed", "n"), GAMES)
def test_a_whole_game_keeps_every_invariant(policy, seed, n):
    state = new_game(config(n), seed)
    rng = random.Random(seed)
    events = list(state.opening)
    steps = 0
    while state.phase != OVER:
        decision = decisions(state)[0]
        action = bots.act(policy, state, decision, rng)
        # sometimes an extra move that is allowed at any time (repay, influence)
        extras = [a for a in legal_actions(state, decision.deciders[0])
                  if a["type"] in ("repay", "influence")]
        if extras and rng.random() < 0.3:
            action = rng.choice(extras)
        before = state.clone()
        new, new_events = apply(state, action)
        assert state == before  # the old state is untouched
        state = new
        events += new_events
        steps += 1
        ledger = balances(state)
        assert sum(ledger.values()) == 0
        assert {k: v for k, v in ledger.items() if v} == \
            {k: v for k, v in transfers_total(events).items() if v}
        for p in state.players:
            assert p.credits >= 0 and p.vp >= 0 and 0 <= p.loans <= cards.MAX_LOANS
            assert all(0 <= p.warehouse[r] <= cards.WAREHOUSE[r] for r in cards.RESOURCES)
        held = {r: sum(p.warehouse[r] for p in state.players) for r in cards.RESOURCES}
        assert held == {r: state.supply_out.get(r, 0) for r in cards.RESOURCES}
        tiles = [t for p in state.players for t in p.employees]
        assert len(tiles) == len(set(tiles))
        assert state.status <= cards.MAX_STATUS
    assert steps > 10
    json.dumps(summary(state))


def test_replaying_a_record_rebuilds_the_same_game():
    state, record = play(["sensible", "greedy", "random"], 21)
    replayed = replay(json.loads(json.dumps(record)))
    assert to_dict(replayed.state) == to_dict(state)


def test_a_snapshot_round_trips_through_json():
    state, _record = play(["sensible", "sensible"], 5)
    raw = json.loads(json.dumps(to_dict(state)))
    assert to_dict(from_dict(raw)) == to_dict(state)


def test_an_invalid_action_leaves_the_state_unchanged():
    state = new_game(config(2), 1)
    before = to_dict(state)
    for bad in ({"type": "place", "player": "Red", "space": "loan"},
                {"type": "place", "player": "Blue", "space": "nowhere"},
                {"type": "produce", "player": "Blue", "plan": []},
                {"type": "dance"}, {"type": "repay", "player": "Blue"}):
        with pytest.raises(InvalidAction):
            apply(state, bad)
    assert to_dict(state) == before


def test_the_public_view_never_shows_a_hand_or_a_deck_order():
    state = new_game(config(4, start={"players": {"Blue": {"hand": ["bad-press"]}}}), 3)
    public = json.dumps(view(state, "public"))
    assert "bad-press" not in public and "influence_deck" not in public
    assert all(t not in public for t in state.bag[:5])
    assert view(state, "Blue")["hand"] == ["bad-press"]
    assert "hand" not in view(state, "Red")["players"]["Blue"]
    assert "bad-press" not in json.dumps(view(state, "Red"))
    master = view(state, "master")
    assert master["decks"]["influence"] == len(state.influence_deck)
    assert "bad-press" not in json.dumps(master)


def test_a_drawn_card_is_told_only_to_its_holder():
    state = new_game(config(2, influence_order=["tax-audit"]), 1)
    _state, events = apply(state, {"type": "place", "player": "Blue", "space": "initiative"})
    rest = [e for e in events if "card" in e]
    assert all(e["audience"] == "Blue" for e in rest if e["type"] == "influence_card")


def test_every_open_decision_has_a_default_the_engine_accepts():
    rng = random.Random(2)
    state = new_game(config(3), 2)
    while state.phase != OVER:
        decision = decisions(state)[0]
        assert decision.default is not None and decision.id
        state, _events = apply(state, decision.default if rng.random() < 0.5 else
                               bots.act("sensible", state, decision, rng))


def test_an_invalid_action_in_a_replay_changes_nothing():
    _state, record = play(["sensible", "greedy"], 6)
    fresh = new_game(record["config"], record["seed"])
    fresh, _events = replay_actions(fresh, record["actions"][:30])
    before = fresh.clone()
    for bad in ({"type": "produce", "player": "Team 1", "plan": [{"company": "NOPE"}]},
                {"type": "export", "player": "Team 2", "contract": 99, "amount": 1},
                {"type": "resolve", "player": "Team 1", "space": "loan", "choice": "x"}):
        with pytest.raises(InvalidAction):
            replay_actions(fresh, [bad])
        assert fresh == before


PLAY = """
import json
from games.crisis.simulate import play
print(json.dumps([play(["sensible", "greedy", "random"], s)[1] for s in range(2)]))
"""


def test_the_same_game_comes_out_the_same_in_another_process():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    runs = [subprocess.run([sys.executable, "-c", PLAY], cwd=root, capture_output=True,
                           text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": h}).stdout for h in "12"]
    assert runs[0] == runs[1] and json.loads(runs[0])
