"""A record's own board and Inflation Index track (config ``board`` / ``index_track``): for
tests and worked records that stage what our edition's board cannot, such as two Election
spaces in a row or a Company a given number of steps from a corner."""

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games.core import InvalidAction, InvalidConfig
from games.poleconomy import data
from games.poleconomy.bots import get_policy
from games.poleconomy.forms import reachable
from games.poleconomy.rules import new_game, step
from games.poleconomy.simulate import play
from games.poleconomy.state import from_dict, to_dict
from games.poleconomy.views import balances, public_view

BI, LI, TO, BO = data.CORNERS
# A small board: the corners, Start and a few squares on each track.
SMALL = {"inner": [BI, "start", "idx1", "c1", LI, "a1", "inc1", TO, "c2", BO, "idx2"],
         "outer": [BI, "c7", LI, "inc10", TO, "a9", "idx7", BO, "c8"]}
SPACES = [{"effect": "tax", "value": 1}, {"effect": "election", "value": 2},
          {"effect": "election", "value": 3}, {"effect": "salary", "value": 4}]


def game(dice: Any = (), board: Any = SMALL, index_track: Any = SPACES, **start: Any) -> Any:
    start = {"basic_incomes": {"Ana": 6, "Ben": 5}, "pm": "Ana", **start}
    config: dict[str, Any] = {"players": ["Ana", "Ben"], "dice": [list(d) for d in dice],
                              "start": start}
    if board is not None:
        config["board"] = board
    if index_track is not None:
        config["index_track"] = index_track
    return new_game(config, 1)


def orders(state: Any, **by_name: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for name in state.names:
        events += step(state, {"type": "orders", "player": name,
                               "orders": by_name.get(name)})
    return events


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


ROLL = {"move": {"roll": True}}


def test_two_election_spaces_in_a_row_call_one_election_at_the_end_of_the_round():
    # Rulebook, Inflation Index: "Any elections required in a round beyond the first are
    # ignored." Both players roll 2 from Business Insurance onto idx1 (+1): the marker stops
    # on space 2, then on space 3, both Election spaces.
    state = game(dice=[(1, 1), (1, 1), (2, 3), (1, 1)], positions={"Ana": BI, "Ben": BI})
    events = orders(state, Ana=ROLL, Ben=ROLL)
    moved = of(events, "index_moved")
    assert [(e["player"], e["space"], e["effect"], e["value"]) for e in moved] == [
        ("Ana", 2, "election", 2), ("Ben", 3, "election", 3)]
    assert len(of(events, "election_called")) == 1 and len(of(events, "election")) == 1
    # The next round's multiplier is the value of the space the marker stopped on.
    assert of(events, "round_end")[0]["multiplier"] == 3


def test_a_company_a_given_number_of_steps_from_a_corner():
    # Our edition has no Company three steps after Takeover; this board has c2 there.
    board = {"inner": [BI, "start", LI, TO, "a1", "inc1", "c2", BO]}
    state = game(dice=[(1, 2)], board=board, index_track=None, positions={"Ana": TO},
                 index={"space": 3})  # our edition's space 3: multiplier 2
    events = orders(state, Ana={"move": {"roll": True, "track": "inner"},
                                "buy": {"companies": True}})
    assert [(e["firm"], e["price"]) for e in of(events, "bought")] == [("c2", 20)]
    assert state.owners == {"c2": "Ana"} and state.player("Ana").position == "c2"


def test_the_marker_goes_round_a_shorter_index_track_both_ways():
    # Ben rolls 2 from c2 onto idx2 (+2) on SMALL's inner track; the track has 4 spaces.
    state = game(dice=[(1, 1)], positions={"Ana": LI, "Ben": "c2"}, first="Ben",
                 index={"space": 4})
    events = orders(state, Ben=ROLL)
    assert [(e["space"], e["effect"]) for e in of(events, "index_moved")] == [(2, "election")]
    state = game(dice=[(1, 1)], positions={"Ana": LI, "Ben": "c2"}, first="Ben",
                 index={"space": 1, "direction": "anticlockwise"})
    events = orders(state, Ben=ROLL)
    assert [(e["space"], e["value"]) for e in of(events, "index_moved")] == [(3, 3)]


def test_the_multiplier_starts_at_the_value_of_space_one_of_the_track():
    config = {"players": ["Ana", "Ben"], "index_track": [{"effect": "election", "value": 3},
                                                          {"effect": "tax", "value": 1}]}
    assert new_game(config, 1).multiplier == 3
    state = game(index={"space": 4})
    assert state.multiplier == 4 and public_view(state)["index"] == {
        "space": 4, "direction": "clockwise", "effect": "salary", "value": 4}


def test_only_the_boards_firms_are_in_the_game():
    state = game()
    assert public_view(state)["unsold"] == ["c1", "c2", "c7", "c8", "a1", "a9"]
    with pytest.raises(InvalidConfig, match="firms"):
        game(firms={"c3": "Ana"})
    with pytest.raises(InvalidConfig, match="auction"):
        game(auction=["a2"])
    with pytest.raises(InvalidConfig, match="positions"):
        game(positions={"Ana": "c3"})


def test_a_square_moves_to_the_track_it_is_listed_on():
    state = game(positions={"Ana": "inc10"})  # our edition's outer Opportunity square
    assert state.player("Ana").track == "outer"
    board = {"inner": [BI, "start", "idx11", LI, TO, BO], "outer": [BI, LI, TO, BO, "c1"]}
    state = game(board=board, index_track=None, positions={"Ana": "idx11", "Ben": "c1"})
    assert state.player("Ana").track == "inner" and state.player("Ben").track == "outer"


def test_the_nmr_rules_follow_the_boards_tracks():
    # NMR move: the nearest corner clockwise on the player's own track.
    state = game(positions={"Ana": "a9", "Ben": "c8"})
    orders(state)
    assert state.player("Ana").position == BO and state.player("Ben").position == BI
    # NMR routing from a1 (Ana rolls 5 from Business Insurance): a lap of the inner track,
    # then from the next corner (Takeover) a lap of the outer one.
    for owned, expected in ((["c1", "c7"], "c1"), (["c8"], "c8")):
        state = game(dice=[(2, 3)], positions={"Ana": BI},
                     firms={"a1": "Ben", **dict.fromkeys(owned, "Ben")})
        orders(state, Ana=ROLL)
        assert state.player("Ana").position == expected


def test_the_phones_reachable_squares_follow_the_board():
    out = reachable(game(positions={"Ana": TO}), "Ana")
    assert [r["square"] for r in out["roll"]["inner"][:3]] == [BO, "idx2", BI]
    assert [r["square"] for r in out["roll"]["outer"][:2]] == ["idx7", BO]


def test_orders_cannot_send_a_player_off_the_board():
    state = game()
    for bad in ({"opportunity": "c3"}, {"own_advertiser": "c3"}, {"send_to": "c3"},
                {"send_to": {"a1": "c4"}}, {"at": {"inc10": {"go": "inc4"}}}):
        with pytest.raises(InvalidAction, match="not on this game's board"):
            step(state, {"type": "orders", "player": "Ana", "orders": bad})
    assert not state.player("Ana").sent
    step(state, {"type": "orders", "player": "Ana", "orders": {"opportunity": "c1"}})


@pytest.mark.parametrize(("config", "words"), [
    ({"board": []}, "'board' must be an object"),
    ({"board": {}}, "'board' must be an object"),
    ({"board": {"middle": []}}, "'board' must be an object"),
    ({"board": {"inner": "start"}}, "'board.inner' must list squares"),
    ({"board": {"outer": [BI, LI, TO, BO, "moon"]}}, "'board.outer' must list squares"),
    ({"board": {"outer": [BI, LI, TO]}}, "'board.outer' must hold each of the four corners"),
    ({"board": {"outer": [BI, LI, TO, BO, BO]}}, "'board.outer' must hold each"),
    ({"board": {"outer": [BI, LI, TO, BO, "c1"]}}, "c1 is on the board more than once"),
    ({"board": {"inner": [BI, "start", LI, TO, BO, "c1", "c1"], "outer": [BI, LI, TO, BO]}},
     "c1 is on the board more than once"),
    ({"board": {"inner": [BI, LI, TO, BO], "outer": [BI, LI, TO, BO, "start"]}},
     "Start square must be on the inner track"),
    ({"board": {"inner": [BI, "start", LI, TO, BO, "a1"], "outer": [BI, LI, TO, BO]}},
     "needs a Company"),
    ({"index_track": []}, "'index_track' must list"),
    ({"index_track": [{"effect": "party", "value": 1}]}, "'index_track' must list"),
    ({"index_track": [{"effect": "tax", "value": 0}]}, "'index_track' must list"),
    ({"index_track": [{"effect": "tax", "value": True}]}, "'index_track' must list"),
    ({"index_track": [{"effect": "tax"}]}, "'index_track' must list"),
    ({"index_track": [{"effect": "tax", "value": 2}],
      "start": {"basic_incomes": {"Ana": 6, "Ben": 5}, "pm": "Ana", "index": {"space": 2}}},
     "from 1 to 1"),
])
def test_a_bad_board_or_index_track_is_refused_with_a_specific_reason(config, words):
    with pytest.raises(InvalidConfig, match=words):
        new_game({"players": ["Ana", "Ben"], **config}, 1)


def test_a_record_without_the_override_is_on_our_editions_board_and_snapshot():
    state = new_game({"players": ["Ana", "Ben"]}, 1)
    assert state.layout() is data.EDITION
    assert "board" not in to_dict(state) and "index_track" not in to_dict(state)
    assert from_dict(to_dict(state)).layout() is data.EDITION
    state = game()
    again = from_dict(json.loads(json.dumps(to_dict(state))))
    assert again.layout() == state.layout() and to_dict(again) == to_dict(state)
    assert again.layout().loops["inner"] == tuple(SMALL["inner"])


def random_board(rng: random.Random) -> dict[str, Any]:
    """A shuffled board: some of our edition's squares dealt to the two tracks."""
    others = [s for s in data.SQUARES if s not in data.CORNERS and s != data.START]
    chosen = rng.sample(others, rng.randint(4, 40))
    if not any(data.SQUARES[s].kind == data.COMPANY for s in chosen):
        chosen.append("c1")
    cut = rng.randint(0, len(chosen))
    inner = [*data.CORNERS, "start", *chosen[:cut]]
    outer = [*data.CORNERS, *chosen[cut:]]
    rng.shuffle(inner)
    rng.shuffle(outer)
    kinds = ["election", "tax", "bonds", "salary"]
    track = [{"effect": rng.choice(kinds), "value": rng.randint(1, 6)}
             for _i in range(rng.randint(1, 24))]
    return {"board": {"inner": inner, "outer": outer}, "index_track": track}


@pytest.mark.parametrize("seed", range(12))
def test_whole_games_on_random_boards_keep_every_invariant(seed):
    rng = random.Random(seed)
    config = {"rounds": 8, **random_board(rng)}
    policies = [get_policy(rng.choice(["builder", "random", "cautious"]))
                for _i in range(rng.randint(2, 6))]
    state, record = play(policies, seed, config=config)
    layout = state.layout()
    assert sum(balances(state).values()) == 0
    for p in state.players:
        assert p.position in layout.squares
        assert layout.track_of(p.position) in (None, p.track)
    assert set(state.owners) <= set(layout.firms)
    assert 1 <= state.index_space <= len(layout.index_kinds)
    moved = [e for r in state.history for e in r["events"] if e["type"] == "move"]
    assert all(e["to"] in layout.squares for e in moved)
    assert all(e["track"] == layout.track_of(e["to"]) for e in moved
               if "track" in e and e["to"] not in data.CORNERS)
    # The record replays to the same game.
    again = new_game({"players": state.names, **config}, seed)
    for action in record:
        step(again, action)
    assert to_dict(again) == to_dict(state)


def test_the_documented_example_board_plays_as_the_page_says():
    doc = Path(__file__).resolve().parents[3] / "docs" / "engines" / "poleconomy.md"
    blocks = re.findall(r"```json\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    config = json.loads(next(b for b in blocks if '"index_track"' in b))
    state = new_game(config, 1)
    events = orders(state, Ana=ROLL, Ben=ROLL)
    assert [e["space"] for e in of(events, "index_moved")] == [2, 3]
    assert len(of(events, "election")) == 1 and of(events, "round_end")[0]["multiplier"] == 3
