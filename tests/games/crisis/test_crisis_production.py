"""4.13 Production: the rulebook's examples, Employees, inputs and Warehouse limits."""

import pytest

from games.core import InvalidAction
from games.crisis import preview_production
from games.crisis.production import auto_plan
from tests.games.crisis.crisis_support import act, events_of, staged


def producing(companies, employees, warehouse, event=None):
    """Blue holds these; Red holds a Company too, so Production waits for both."""
    return staged(2, phase="production", event=event, players={
        "Blue": {"companies": companies, "employees": employees, "warehouse": warehouse},
        "Red": {"companies": ["RESORT 05"]}})


def test_farm_03_with_a_worker_as_bonus_produces_3_food():
    state = producing(["FARM 03"], ["F1", "W1"], {"energy": 1})
    result = preview_production(state, "Blue", [{"company": "FARM 03", "staff": ["F1"],
                                                 "bonus": ["W1"]}])
    assert result["ok"] and result["output"] == {"food": 3}
    act(state, type="produce", player="Blue",
        plan=[{"company": "FARM 03", "staff": ["F1-1"], "bonus": ["W1-1"]}])
    blue = state.player("Blue")
    assert blue.warehouse["food"] == 3 and blue.warehouse["energy"] == 0


def test_port_01_with_a_foreign_worker_and_a_skill_2_banker_makes_5_vp_and_35_credits():
    state = producing(["PORT 01"], ["W1", "E1", "FW", "B2"],
                      {"energy": 2, "chemicals": 1})
    blue = state.player("Blue")
    vp, credits = blue.vp, blue.credits
    events = act(state, type="produce", player="Blue",
                 plan=[{"company": "PORT 01", "staff": ["W1", "E1"], "bonus": ["FW", "B2"]}])
    assert (blue.vp - vp, blue.credits - credits) == (5, 35)
    assert sum(e["amount"] for e in events_of(events, "transfer")) == 35


def test_without_bonus_employees_port_01_makes_its_printed_2_vp_and_20_credits():
    state = producing(["PORT 01"], ["W1", "E1"], {"energy": 2, "chemicals": 1})
    out = preview_production(state, "Blue", [{"company": "PORT 01", "staff": ["W1", "E1"],
                                              "bonus": []}])
    assert out["output"] == {"vp": 2, "credits": 20}


def test_comms_01s_zero_vp_is_raised_by_bonus_skills_like_port_01s_vp():
    state = producing(["COMMS 01"], ["E1", "W1", "B2"], {"energy": 1, "industrials": 1})
    out = preview_production(state, "Blue", [{"company": "COMMS 01", "staff": ["E1"],
                                              "bonus": ["W1", "B2"]}])
    assert out["output"] == {"vp": 3, "credits": (2 + 3) * 5}


def test_a_worker_farmer_brings_skill_2_as_a_worker_and_1_as_a_farmer():
    state = producing(["FARM 01"], ["F1", "WF"], {})
    as_worker = preview_production(state, "Blue", [{"company": "FARM 01", "staff": ["F1"],
                                                    "bonus": ["WF"]}])
    assert as_worker["output"] == {"food": 1 + 2}  # seated on the Worker bonus slot
    state = producing(["FARM 01"], ["WF"], {})
    as_farmer = preview_production(state, "Blue", [{"company": "FARM 01", "staff": ["WF"],
                                                    "bonus": []}])
    assert as_farmer["output"] == {"food": 1}


def test_the_temp_employee_fills_any_slot_at_skill_1():
    state = producing(["MINES 02"], ["W1"], {"energy": 1})
    state.player("Blue").employees.append("TEMP")
    out = preview_production(state, "Blue", [{"company": "MINES 02", "staff": ["TEMP"],
                                              "bonus": ["W1"]}])
    assert out["output"] == {"minerals": 3}


def test_an_employee_works_in_only_one_company_per_round():
    state = producing(["FARM 01", "FARM 02"], ["WF"], {})
    out = preview_production(state, "Blue", [
        {"company": "FARM 01", "staff": ["WF-1"], "bonus": []},
        {"company": "FARM 02", "staff": ["WF-1"], "bonus": []}])
    assert not out["ok"] and "only one Company" in out["message"]


def test_a_company_needs_its_necessary_employees():
    state = producing(["PORT 01"], ["W1"], {"energy": 2, "chemicals": 1})
    out = preview_production(state, "Blue", [{"company": "PORT 01", "staff": ["W1"],
                                              "bonus": []}])
    assert not out["ok"] and "worker, engineer" in out["message"]


def test_inputs_must_be_in_the_warehouse_at_the_start_of_production():
    # POWER PLANT 02 would make Energy for FARM 03, but not in the same round.
    state = producing(["POWER PLANT 02", "FARM 03"], ["E1", "F1"], {"minerals": 1})
    with pytest.raises(InvalidAction, match="needs 1 energy"):
        act(state, type="produce", player="Blue", plan=[
            {"company": "POWER PLANT 02", "staff": ["E1"], "bonus": []},
            {"company": "FARM 03", "staff": ["F1"], "bonus": []}])
    assert state.player("Blue").warehouse["minerals"] == 1  # unchanged


def test_output_beyond_the_warehouse_returns_to_the_supply():
    state = producing(["FARM 06"], ["F2", "W1"], {"energy": 1, "chemicals": 1, "food": 10})
    act(state, type="produce", player="Blue",
        plan=[{"company": "FARM 06", "staff": ["F2"], "bonus": ["W1"]}])
    assert state.player("Blue").warehouse["food"] == 12


def test_an_event_reduces_the_base_output_before_multipliers():
    state = producing(["RESORT 01"], ["W1", "B2"], {"food": 1}, event="tourism-slump")
    out = preview_production(state, "Blue", [{"company": "RESORT 01", "staff": ["W1"],
                                              "bonus": ["B2"]}])
    assert out["output"] == {"vp": 1 + 2, "credits": (1 + 2) * 2}


def test_a_player_need_not_activate_every_company():
    state = producing(["FARM 01"], ["F1"], {})
    act(state, type="produce", player="Blue", plan=[])
    assert "Blue" in state.produced
    with pytest.raises(InvalidAction, match="already produced"):
        act(state, type="produce", player="Blue", plan=[])


def test_the_automatic_plan_is_valid_and_uses_spare_employees_as_bonus():
    state = producing(["FARM 03", "MINES 01"], ["F1", "W1", "W1", "E2"],
                      {"energy": 2})
    plan = auto_plan(state, state.player("Blue"))
    out = preview_production(state, "Blue", plan)
    assert out["ok"] and {r["company"] for r in out["companies"]} == {"FARM 03", "MINES 01"}
    assert sum(len(r["bonus"]) for r in out["companies"]) == 2
