"""Stated situations (``config.start``) at the end of the game (a bankrupt Axia, the final
scoring) and with the Temp Employee among a player's Employees."""

from __future__ import annotations

import pytest

from games.core import InvalidAction, InvalidConfig
from games.crisis import apply, decisions, is_over, preview_production, scores, summary
from games.crisis.state import OVER
from tests.games.crisis.crisis_support import act, staged

# --------------------------------------------------------------------------- over


def test_a_start_with_the_track_below_0_is_a_bankrupt_axia_and_only_the_goal_reachers_can_win():
    state = staged(round=3, phase="over", status=-4, goal=29, players={
        "Blue": {"vp": 23}, "Red": {"vp": 33, "credits": 40, "loans": 2, "penalty": 3},
        "Green": {"vp": 29, "penalty": 1}, "White": {"vp": 28}})
    assert is_over(state) and state.bankrupt and state.phase == OVER
    assert decisions(state) == []
    out = scores(state)
    # Credits count for nothing and loans are written off; Penalty tiles still count.
    assert out["Red"]["score"] == 33 - 3 and out["Red"]["eligible"]
    assert out["Green"]["score"] == 29 - 1 and out["Green"]["eligible"]
    assert not out["Blue"]["eligible"] and not out["White"]["eligible"]  # below 29
    assert [out[n]["place"] for n in ("Red", "Green", "Blue", "White")] == [1, 2, None, None]
    assert summary(state)["winners"] == ["Red"]
    last = state.history[-1]
    assert last["evaluation"]["differences"] == {"Blue": -6, "Red": 4, "Green": 0, "White": -1}
    assert last["evaluation"]["delta"] is None and last["evaluation"]["stated"]
    assert last["status"] == -4


def test_the_event_in_force_moves_the_goal_that_decides_who_may_win():
    # Grace period: this round's goal is 2 VP lower, so 27 VP reaches a goal of 29.
    state = staged(2, round=5, phase="over", status=-1, goal=29, event="grace-period",
                   players={"Blue": {"vp": 27}, "Red": {"vp": 26}})
    out = scores(state)
    assert out["Blue"]["eligible"] and not out["Red"]["eligible"]


def test_a_start_at_the_final_scoring_after_round_7():
    state = staged(2, round=7, phase="over", status=3, players={
        "Blue": {"vp": 40, "credits": 23, "loans": 1, "penalty": 2},
        "Red": {"vp": 41, "credits": 4}})
    assert is_over(state) and not state.bankrupt
    out = scores(state)
    assert out["Blue"]["score"] == 40 + 23 // 5 - 2 - 2 == 40
    assert out["Red"]["score"] == 41 + 0 and out["Red"]["place"] == 1


def test_a_game_over_takes_no_more_actions():
    state = staged(2, round=7, phase="over", status=3)
    with pytest.raises(InvalidAction, match="The game is over"):
        apply(state, {"type": "repay", "player": "Blue"})


@pytest.mark.parametrize(("start", "message"), [
    ({"phase": "planning", "status": -1}, "below 0 is a bankrupt Axia"),
    ({"phase": "evaluation", "status": -3}, "below 0 is a bankrupt Axia"),
    ({"status": -1}, "below 0 is a bankrupt Axia"),
    ({"phase": "over", "round": 5, "status": 10}, "ends only after round 7"),
    ({"phase": "over", "status": 46}, "up to 45"),
    ({"phase": "over", "round": 7, "status": "low"}, "up to 45"),
    ({"phase": "over", "round": 7, "status": True}, "up to 45"),
])
def test_an_impossible_end_is_refused(start, message):
    with pytest.raises(InvalidConfig, match=message):
        staged(2, **start)


# --------------------------------------------------------------------------- the Temp Employee


def test_the_temp_employee_can_be_given_at_production_and_works_any_slot_at_skill_1():
    state = staged(2, phase="production", players={
        "Blue": {"companies": ["MINES 02"], "employees": ["TEMP", "W1"],
                 "warehouse": {"energy": 1}},
        "Red": {"companies": ["FARM 01"], "employees": ["F1"]}})
    blue = state.player("Blue")
    assert blue.employees == ["TEMP", "W1-1"] and state.temp_holder == "Blue"
    out = preview_production(state, "Blue", [{"company": "MINES 02", "staff": ["TEMP"],
                                              "bonus": ["W1"]}])
    assert out["ok"] and out["output"] == {"minerals": 2 + 1}
    # It is not on the board this round, and it goes back there at the End of the Round.
    assert summary(state)["board"]["temp_employee"] is False
    act(state, type="produce", player="Blue", plan=[])
    act(state, type="produce", player="Red", plan=[])
    assert state.round == 2 and state.temp_holder is None
    assert "TEMP" not in blue.employees and summary(state)["board"]["temp_employee"]


@pytest.mark.parametrize("phase", ["exports", "evaluation"])
def test_the_temp_employee_can_be_given_later_in_the_round(phase):
    state = staged(2, phase=phase, players={"Red": {"employees": ["TEMP"]}})
    assert state.round == 2 and state.temp_holder is None  # the round ended: it went back


@pytest.mark.parametrize(("start", "message"), [
    ({"players": {"Blue": {"employees": ["TEMP"]}}}, "only from Operations"),
    ({"phase": "planning", "players": {"Blue": {"employees": ["TEMP"]}}},
     "only from Operations"),
    ({"phase": "production", "players": {"Blue": {"employees": ["TEMP", "TEMP"]}}},
     "No Employee of kind 'TEMP' is left"),
    ({"phase": "production", "players": {"Blue": {"employees": ["TEMP"]},
                                         "Red": {"employees": ["TEMP"]}}},
     "No Employee of kind 'TEMP' is left"),
    ({"phase": "production", "players": {"Blue": {"employees": [["E3"]]}}},
     "Give Employees by kind"),
    ({"phase": "production", "players": {"Blue": {"employees": ["E4"]}}},
     "No Employee of kind 'E4'"),
])
def test_the_temp_employee_is_one_tile_held_only_after_operations(start, message):
    with pytest.raises(InvalidConfig, match=message):
        staged(2, **start)
