"""A player keeps the track they arrived by (rule decision 14), also when the game starts from a
stated situation that places them on a square of the outer track."""

from typing import Any

import pytest

from games.core import InvalidConfig
from games.poleconomy.rules import new_game, step


def two_players(dice: list[list[int]], **start: Any) -> Any:
    start = {"round": 1, "basic_incomes": {"Ann": 6, "Bea": 6}, "pm": "Bea", "first": "Ann",
             **start}
    return new_game({"players": ["Ann", "Bea"], "dice": dice, "start": start}, 1)


def round_of(state: Any, ann: Any) -> list[dict[str, Any]]:
    events = step(state, {"type": "orders", "player": "Ann", "orders": ann})
    return events + step(state, {"type": "orders", "player": "Bea", "orders": None})


def moves(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ann's moves (Bea sends no orders: she sits on her corner)."""
    return [e for e in events if e["type"] == "move" and e["player"] == "Ann"]


def test_a_player_placed_on_the_outer_track_arrives_at_a_corner_and_leaves_it_on_the_outer():
    state = two_players([[1, 1], [1, 2]], positions={"Ann": "idx15", "Bea": "life-insurance"})
    assert state.player("Ann").track == "outer"
    first = moves(round_of(state, {"move": {"roll": True}}))
    assert [(e["to"], e["track"]) for e in first] == [("bonds", "outer")]
    second = moves(round_of(state, {"move": {"roll": True}}))
    # Outer track from Bonds: c17, a23, idx16 (the inner one would give a7, idx5, inc7).
    assert [(e["to"], e["track"]) for e in second] == [("idx16", "outer")]
    assert state.player("Ann").position == "idx16" and state.player("Ann").track == "outer"


def test_naming_a_track_on_the_corner_still_chooses_it():
    state = two_players([[1, 1], [1, 2]], positions={"Ann": "idx15", "Bea": "life-insurance"})
    round_of(state, {"move": {"roll": True}})
    second = moves(round_of(state, {"move": {"roll": True, "track": "inner"}}))
    assert [(e["to"], e["track"]) for e in second] == [("inc7", "inner")]


def test_a_stated_track_on_a_corner_is_kept_and_defaults_to_the_inner_one():
    state = two_players([[1, 2]], positions={"Ann": "bonds", "Bea": "bonds"},
                        tracks={"Ann": "outer"})
    assert state.player("Ann").track == "outer" and state.player("Bea").track == "inner"
    assert [e["to"] for e in moves(round_of(state, {"move": {"roll": True}}))] == ["idx16"]


@pytest.mark.parametrize("square", ["idx15", "c20", "a9"])
def test_a_stated_outer_square_puts_the_player_on_the_outer_track(square: str) -> None:
    assert two_players([], positions={"Ann": square}).player("Ann").track == "outer"
    assert two_players([], positions={"Ann": square},
                       tracks={"Ann": "outer"}).player("Ann").track == "outer"


def test_a_stated_track_that_contradicts_the_square_is_refused():
    with pytest.raises(InvalidConfig, match="tracks"):
        two_players([], positions={"Ann": "idx15"}, tracks={"Ann": "inner"})
    with pytest.raises(InvalidConfig, match="tracks"):
        two_players([], positions={"Ann": "c1"}, tracks={"Ann": "outer"})
