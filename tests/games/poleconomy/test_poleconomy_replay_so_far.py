"""The game as far as the projector's replay of a round has gone (``views.state_so_far``):
phones show the board only as far as the class has seen it."""

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games.core import InvalidAction
from games.poleconomy.bots import get_policy
from games.poleconomy.rules import new_game, round_beats, step
from games.poleconomy.simulate import bot_names, play
from games.poleconomy.state import to_dict
from games.poleconomy.views import balances, public_view, state_so_far, view_so_far

DOC = Path(__file__).resolve().parents[3] / "docs" / "engines" / "poleconomy.md"


def worked_record() -> dict[str, Any]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return json.loads(next(b for b in blocks if '"actions"' in b and '"dice"' in b))


def replayed(config: dict[str, Any], seed: int, actions: list[Any]) -> Any:
    state = new_game(config, seed)
    for action in actions:
        step(state, action)
    return state


def flat(beats: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [e for beat in beats for e in beat]


def round_events(state: Any, round_: int) -> list[dict[str, Any]]:
    return next(r["events"] for r in state.history if r["round"] == round_)


def test_the_worked_record_beat_by_beat():
    rec = worked_record()
    config, seed, actions = rec["config"], rec["seed"], rec["actions"]
    full = replayed(config, seed, actions)
    beats = round_beats(full, 2)
    # Round 2: the start and the auction of c2, Ben's, Cai's and Ana's turns, the end.
    assert len(beats) == 5
    assert [e["type"] for e in beats[0]] == ["round_start", "transfer", "auction"]
    assert [beat[0].get("player") for beat in beats[1:4]] == ["Ben", "Cai", "Ana"]
    assert beats[4][0]["type"] == "round_end"
    where = []
    for k in range(7):
        state = state_so_far(config, seed, actions, k)
        where.append({p.name: (p.position, p.cash) for p in state.players})
        assert sum(balances(state).values()) == 0
        if k < 5:
            assert round_beats(state, 2) == beats[:k]
            assert state.round == 2 and state.phase == "orders"
        else:
            assert to_dict(state) == to_dict(full)
    # Before the round: as round 1 left them (Ana paid $10 for c1 and $5 tax); then Cai buys
    # c2 at the auction ($8).
    assert where[0] == {"Ana": ("c1", 23), "Ben": ("c2", 30), "Cai": ("idx1", 50)}
    assert where[1]["Cai"] == ("idx1", 42) and state_so_far(
        config, seed, actions, 1).owners == {"c1": "Ana", "c2": "Cai"}
    # Ben's turn: onto idx2, the Government Salary space: Ana +12, Ben +10.
    assert where[2] == {"Ana": ("c1", 35), "Ben": ("idx2", 40), "Cai": ("idx1", 42)}
    assert where[3]["Cai"] == ("life-insurance", 42) and where[3]["Ana"] == ("c1", 35)
    assert where[4]["Ana"] == ("bonds", 25)  # one Bond bought, as the page's summary says
    assert where[4] == where[5] == where[6]


def test_a_phone_sees_only_the_beats_shown():
    rec = worked_record()
    config, seed, actions = rec["config"], rec["seed"], rec["actions"]
    out = view_so_far(config, seed, actions, "Cai", 2)
    shown = [e for e in out["history"][-1]["events"] if e["type"] == "turn"]
    assert [e["player"] for e in shown] == ["Ben"]
    assert out["me"]["name"] == "Cai"
    assert {p["name"]: p["position"] for p in out["players"]}["Ana"] == "c1"
    assert "orders" not in view_so_far(config, seed, actions, "public", 2)


def test_an_earlier_round_and_a_record_with_nothing_adjudicated():
    rec = worked_record()
    config, seed, actions = rec["config"], rec["seed"], rec["actions"]
    state = state_so_far(config, seed, actions, 1, round_=1)
    assert state.round == 1 and {p.position for p in state.players} == {"start"}
    with pytest.raises(InvalidAction, match="Round 3 has not been played yet"):
        state_so_far(config, seed, actions, 1, round_=3)
    early = state_so_far(config, seed, actions[:4], 1)
    assert to_dict(early) == to_dict(replayed(config, seed, actions[:4]))


def test_a_treasury_default_is_the_last_beat():
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    rec = json.loads(next(b for b in blocks if '"start"' in b and '"actions"' in b))
    full = replayed(rec["config"], rec["seed"], rec["actions"])
    beats = round_beats(full, 5)
    assert len(beats) == 2 and beats[-1][-1]["type"] == "game_over"
    state = state_so_far(rec["config"], rec["seed"], rec["actions"], 1)
    assert state.phase == "orders" and state.treasury == 0
    assert state_so_far(rec["config"], rec["seed"], rec["actions"], 2).phase == "over"


def triggers(config: dict[str, Any], seed: int, actions: list[Any]) -> dict[int, int]:
    """Each adjudicated round: the index of the decision that set it off."""
    state, out = new_game(config, seed), {}
    for i, action in enumerate(actions):
        for e in step(state, action):
            if e["type"] == "round_start":
                out[e["round"]] = i
    return out


@pytest.mark.parametrize("seed", range(8))
def test_every_beat_of_simulated_games_is_the_full_rounds_prefix(seed):
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    policies = [get_policy(rng.choice(["builder", "random"])) for _i in range(players)]
    config = {"rounds": 4, "consent_mode": rng.choice(["ballot", "orders"])}
    _state, actions = play(policies, seed, config=config)
    config = {"players": bot_names(players), **config}
    for round_, cut in triggers(config, seed, actions).items():
        upto = actions[:cut + 1]
        full = replayed(config, seed, upto)
        before = replayed(config, seed, actions[:cut])
        beats = round_beats(full, round_)
        events = round_events(full, round_)
        for k in range(len(beats) + 1):
            state = state_so_far(config, seed, upto, k)
            assert sum(balances(state).values()) == 0
            if k == len(beats):
                assert to_dict(state) == to_dict(full)
                continue
            assert round_beats(state, round_) == beats[:k]
            # Only the beats shown have happened: the rest of the round is still to come.
            assert round_events(state, round_) == events[:len(events) - len(flat(beats[k:]))]
            if k == 0:
                assert [(p.position, p.cash) for p in state.players] == [
                    (p.position, p.cash) for p in before.players]
            # The same beats of an earlier round, from the whole record.
            again = state_so_far(config, seed, actions, k, round_=round_)
            assert to_dict(again) == to_dict(state)


def test_the_engines_beats_are_the_projectors():
    script = pytest.importorskip("facilitator.lessons.poleconomy.script")
    for seed in range(4):
        state, _actions = play([get_policy("random") for _i in range(4)], seed,
                               config={"rounds": 5})
        for round_ in range(1, 6):
            assert round_beats(state, round_) == script.beats(state, round_)


def test_public_view_of_a_partial_state_keeps_the_rounds_orders_sealed_to_others():
    rec = worked_record()
    out = public_view(state_so_far(rec["config"], rec["seed"], rec["actions"], 2))
    assert "orders" not in out and all(p["orders_sent"] for p in out["players"])
