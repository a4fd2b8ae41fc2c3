"""``rules.before_year_end``: the board an action leads to, stopped where Year End would
begin (what a lesson shows until its teacher's Year End)."""

from __future__ import annotations

from games import austerity as engine
from games.austerity import rules
from games.austerity.state import GameState


def last_decision_of_year_one() -> tuple[GameState, dict[str, str]]:
    """A game played with each decision's first option up to the action that ends year 1."""
    state = engine.new_game({}, 5)
    while True:
        decision = engine.decisions(state)[0]
        action = {"type": "draw"} if decision.action == "draw" else {
            "type": decision.action, "choice": decision.options[0]}
        after, _e = engine.apply(state, action)
        if after.year > 1 or after.stage in ("policy", "over"):
            return state, action
        state = after


def test_the_board_before_year_end_keeps_used_and_the_tracks() -> None:
    state, action = last_decision_of_year_one()
    held = rules.before_year_end(state, action)
    after, _e = engine.apply(state, action)
    assert held is not None and held.year == 1
    assert sum(held.bag.values()) == 0 and held.current == []
    assert sum(held.used.values()) > 0  # Year End has not put Used back into the bag
    assert sum(after.used.values()) == 0 or after.stage == "over"
    assert held.history[-1]["year"] == 1 and not engine.decisions(held)


def test_an_action_that_does_not_reach_year_end_gives_none_and_changes_nothing() -> None:
    state = engine.new_game({}, 5)
    before = state.to_dict() if hasattr(state, "to_dict") else repr(state)
    assert rules.before_year_end(state, {"type": "draw"}) is None
    assert (state.to_dict() if hasattr(state, "to_dict") else repr(state)) == before
