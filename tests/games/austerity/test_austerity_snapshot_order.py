"""A snapshot read back from a store that reorders JSON keys (PostgreSQL's jsonb) plays on
exactly as the state it was taken from."""

from __future__ import annotations

import json
import random

from games.austerity import data
from games.austerity.bots import sensible_policy
from games.austerity.rules import apply
from games.austerity.setup import new_game
from games.austerity.state import from_dict, to_dict


def shuffled(value, rng):
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [shuffled(v, rng) for v in value]
    return value


def test_from_dict_gives_every_mapping_the_datas_order_back() -> None:
    state = new_game({"extra_institutions": True}, 3)
    raw = shuffled(json.loads(json.dumps(to_dict(state))), random.Random(1))
    back = from_dict(raw)
    assert list(back.institutions) == [k for k in data.INSTITUTIONS if k in back.institutions]
    assert list(back.tracks) == list(data.TRACKS)
    assert list(back.bag) == list(data.COLOURS) and list(back.used) == list(data.COLOURS)


def test_a_bot_reading_a_reordered_snapshot_plays_as_on_the_state_itself() -> None:
    rng = random.Random(5)
    live = new_game({"extra_institutions": True}, 11)
    for step in range(300):
        if live.stage == "over":
            break
        through = from_dict(shuffled(json.loads(json.dumps(to_dict(live))), rng))
        action = sensible_policy(live, random.Random(step))
        assert sensible_policy(through, random.Random(step)) == action
        live, _e = apply(live, action)
