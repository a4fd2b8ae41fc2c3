"""The snapshot the facilitator caches is the whole state, exactly, and detached from it."""

import dataclasses

import pytest

from games.state_in_class.bots import get_policy
from games.state_in_class.simulate import play
from games.state_in_class.state import from_dict, to_dict


@pytest.mark.parametrize("seed", range(5))
def test_the_snapshot_is_exactly_what_asdict_gives_and_round_trips(seed):
    state, _ = play([get_policy("random") for _ in range(7)], seed)
    snapshot = to_dict(state)
    assert snapshot == dataclasses.asdict(state)  # a new field cannot be forgotten
    assert from_dict(snapshot) == state


def test_the_snapshot_shares_no_list_with_the_state():
    state, _ = play([get_policy("civic") for _ in range(8)], 1)
    snapshot = to_dict(state)
    snapshot["history"][0]["event"] = "changed"
    snapshot["players"][0]["statement"].clear()
    assert state.history[0]["event"] != "changed" and state.players[0].statement
