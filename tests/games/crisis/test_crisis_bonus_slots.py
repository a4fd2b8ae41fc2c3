"""4.13 Production: a plan may name each Employee's slot (the rulebook lets the player choose
where a bonus Employee sits); the engine's best seating stays the default and its suggestion,
and records made before named slots replay exactly as they did."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import InvalidAction
from games.crisis import apply, cards, preview_production, summary
from games.crisis.production import auto_plan, seated_plan
from games.registry import replay
from tests.games.crisis.crisis_support import act, events_of, staged

RECORDS = Path(__file__).with_name("crisis_records_before_slots.json")


def producing(companies, employees, warehouse):
    """Blue holds these; Red holds a Company too, so Production waits for both."""
    return staged(2, phase="production", players={
        "Blue": {"companies": companies, "employees": employees, "warehouse": warehouse},
        "Red": {"companies": ["RESORT 05"]}})


def farm_03(bonus):
    return [{"company": "FARM 03", "staff": ["F1"], "bonus": bonus}]


# --------------------------------------------------------------------------- the rulebook


def test_a_worker_farmer_in_farm_03s_farmer_slot_makes_2_plus_1_food():
    state = producing(["FARM 03"], ["F1", "WF"], {"energy": 1})
    plan = farm_03([{"employee": "WF", "slot": 2}])
    preview = preview_production(state, "Blue", plan)
    assert preview["ok"] and preview["output"] == {"food": 3}
    seats = preview["companies"][0]["seats"]["bonus"]
    assert seats == [{"slot": 1, "role": "worker", "tile": None, "skill": 0},
                     {"slot": 2, "role": "farmer", "tile": "WF-1", "skill": 1}]
    events = act(state, type="produce", player="Blue", plan=plan)
    assert state.player("Blue").warehouse == {**state.player("Blue").warehouse, "food": 3}
    (produced,) = events_of(events, "produced")
    assert produced["companies"][0]["seats"]["bonus"][1]["tile"] == "WF-1"


def test_unnamed_the_engine_still_seats_the_worker_farmer_where_it_adds_most():
    state = producing(["FARM 03"], ["F1", "WF"], {"energy": 1})
    preview = preview_production(state, "Blue", farm_03(["WF"]))
    assert preview["output"] == {"food": 2 + 2}
    assert preview["companies"][0]["seats"]["bonus"][0]["tile"] == "WF-1"


def test_named_and_unnamed_employees_mix_the_unnamed_take_the_best_slot_left():
    state = producing(["FARM 05"], ["W1", "WF", "W1", "F2"], {"energy": 1})
    # FARM 05: necessary Worker; bonus Worker, Worker, Farmer. WF named on the Farmer slot.
    plan = [{"company": "FARM 05", "staff": ["W1"],
             "bonus": [{"employee": "WF", "slot": 3}, "W1"]}]
    out = preview_production(state, "Blue", plan)
    assert out["output"] == {"food": 2 + 1 + 1}
    assert [s["tile"] for s in out["companies"][0]["seats"]["bonus"]] == [
        "W1-2", None, "WF-1"]


def test_necessary_slots_can_be_named_too():
    # FREIGHTERS 02 needs a Worker and a Farmer: the Temp Employee and a Worker/Farmer can
    # sit either way round.
    state = producing(["FREIGHTERS 02"], ["WF", "TEMP"], {"energy": 2, "food": 2})
    plan = [{"company": "FREIGHTERS 02", "bonus": [],
             "staff": [{"employee": "TEMP", "slot": 1}, {"employee": "WF", "slot": 2}]}]
    out = preview_production(state, "Blue", plan)
    assert out["ok"], out
    assert out["companies"][0]["seats"]["staff"] == [
        {"slot": 1, "role": "worker", "tile": "TEMP"},
        {"slot": 2, "role": "farmer", "tile": "WF-1"}]


def test_the_seated_plan_names_the_engines_seating_and_produces_the_same():
    state = producing(["FARM 03", "MINES 01"], ["F1", "WF", "W1", "E2"], {"energy": 2})
    blue = state.player("Blue")
    plan = auto_plan(state, blue)
    named = seated_plan(state, blue, plan)
    assert all(isinstance(e, dict) for row in named for e in row["staff"] + row["bonus"])
    assert preview_production(state, "Blue", named) == preview_production(state, "Blue", plan)


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(("bonus", "message"), [
    ([{"employee": "WF", "slot": 3}],
     "FARM 03 has no bonus slot 3: its bonus slots are numbered from 1 to 2."),
    ([{"employee": "WF", "slot": 0}],
     "FARM 03 has no bonus slot 0: its bonus slots are numbered from 1 to 2."),
    ([{"employee": "WF", "slot": "2"}],
     "Name a slot by its number: 1 for the card's leftmost slot."),
    ([{"employee": "WF", "slot": True}],
     "Name a slot by its number: 1 for the card's leftmost slot."),
    ([{"employee": "WF"}],
     "Name a seated Employee with 'employee' (its tile id or kind) and 'slot' (the slot's "
     "number, 1 for the leftmost)."),
    ([{"employee": "WF", "slot": 1, "skill": 2}],
     "Name a seated Employee with 'employee' (its tile id or kind) and 'slot' (the slot's "
     "number, 1 for the leftmost)."),
    ([{"employee": "E2", "slot": 2}],
     "Employee E2-1 cannot work as a Farmer, which FARM 03's bonus slot 2 needs."),
    ([{"employee": "E2", "slot": 1}],
     "Employee E2-1 cannot work as a Worker, which FARM 03's bonus slot 1 needs."),
    ([{"employee": "WF", "slot": 2}, {"employee": "TEMP", "slot": 2}],
     "Two Employees cannot take FARM 03's bonus slot 2."),
    ([{"employee": "WF", "slot": 1}, "E2"],
     "These bonus Employees do not fit FARM 03's slots: worker, farmer."),
    ([{"employee": 7, "slot": 1}],
     "Name each Employee by its tile id or kind, e.g. 'E3-1' or 'E3'."),
])
def test_a_named_slot_is_checked_like_every_input(bonus, message):
    state = producing(["FARM 03"], ["F1", "WF", "E2", "TEMP"], {"energy": 1})
    before = summary(state)
    with pytest.raises(InvalidAction) as caught:
        apply(state, {"type": "produce", "player": "Blue", "plan": farm_03(bonus)})
    assert str(caught.value) == message
    assert caught.value.reason.startswith(("{company}", "Employee {tile}", "Two", "Name",
                                           "These"))
    assert summary(state) == before


def test_a_named_necessary_slot_that_does_not_fit_is_refused():
    state = producing(["FARM 03"], ["W1"], {"energy": 1})
    with pytest.raises(InvalidAction, match=r"^Employee W1-1 cannot work as a Farmer, which "
                                            r"FARM 03's necessary slot 1 needs\.$"):
        act(state, type="produce", player="Blue",
            plan=[{"company": "FARM 03", "staff": [{"employee": "W1", "slot": 1}],
                   "bonus": []}])
    with pytest.raises(InvalidAction, match="has no necessary slot 2"):
        act(state, type="produce", player="Blue",
            plan=[{"company": "FARM 03", "staff": [{"employee": "W1", "slot": 2}],
                   "bonus": []}])


# --------------------------------------------------------------------------- properties

STAFFED = [c for c in cards.COMPANIES.values() if len(c.staff) == 1 and c.id != "RESORT 05"]
KINDS = list(cards.TILES)
STAFF_KIND = {"worker": "W1", "farmer": "F1", "engineer": "E1", "banker": "B1"}


def available(kinds):
    """No more tiles of a kind than the box holds (one of the staff kind is taken)."""
    return all(kinds.count(k) + (k in STAFF_KIND.values()) <= cards.TILES[k].count
               for k in kinds)


def brute_force_best(slots, tiles):
    best = None
    for chosen in permutations(range(len(slots)), len(tiles)):
        levels = [cards.TILES[cards.kind_of(t)].skill(slots[s]) for t, s in
                  zip(tiles, chosen, strict=True)]
        if all(levels):
            best = max(best or 0, sum(levels))
    return best


@settings(max_examples=150, deadline=None)
@given(company=st.sampled_from(STAFFED),
       kinds=st.lists(st.sampled_from(KINDS), max_size=3).filter(available), data=st.data())
def test_a_plan_that_names_no_slot_gets_the_best_seating_and_any_named_seating_no_more(
        company, kinds, data):
    card = company
    staff_kind = STAFF_KIND[card.staff[0]]
    state = producing([card.id], [staff_kind, *kinds],
                      {r: cards.WAREHOUSE[r] // 2 for r in cards.RESOURCES})
    blue = state.player("Blue")
    bonus = blue.employees[1:1 + len(card.bonus)]
    unnamed = preview_production(state, "Blue", [{"company": card.id, "staff": [staff_kind],
                                                  "bonus": bonus}])
    best = brute_force_best(card.bonus, bonus)
    assert unnamed["ok"] == (best is not None or not bonus)
    if not unnamed["ok"]:
        return
    assert unnamed["companies"][0]["skill"] == (best or 0)
    # Any seating the player names: its own skill, never more than the engine's best.
    slots = data.draw(st.permutations(range(len(card.bonus))))[:len(bonus)]
    named = [{"employee": t, "slot": s + 1} for t, s in zip(bonus, slots, strict=True)]
    out = preview_production(state, "Blue", [{"company": card.id, "staff": [staff_kind],
                                              "bonus": named}])
    levels = [cards.TILES[cards.kind_of(t)].skill(card.bonus[s]) for t, s in
              zip(bonus, slots, strict=True)]
    if all(levels):
        assert out["ok"] and out["companies"][0]["skill"] == sum(levels) <= (best or 0)
    else:
        assert not out["ok"] and "cannot work as" in out["message"]


# --------------------------------------------------------------------------- old records


def test_records_made_before_named_slots_replay_exactly_as_they_did():
    """Two bot games recorded (and fingerprinted) with the engine as it was before plans
    could name slots: every production plan in them names none."""
    for game in json.loads(RECORDS.read_text(encoding="utf-8")):
        out = summary(replay(game["record"]).state)
        expected = game["expected"]
        assert (out["round"], out["status"], out["bankrupt"]) == \
            (expected["round"], expected["status"], expected["bankrupt"])
        for name, player in expected["players"].items():
            assert {k: out["players"][name][k] for k in player} == player
        assert [h.get("production") for h in out["history"]] == expected["production"]
