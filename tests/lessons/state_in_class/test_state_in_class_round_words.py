"""What a round's screens say: a budget tie for second place is asked as one (not "goes
first"), and the revenue names the coins it holds besides tax (the inheritance, Social peace)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation

from facilitator.lessons.state_in_class.presenters import revenue_notes
from games.state_in_class import data, rules
from games.state_in_class.audiences import public_view
from games.state_in_class.state import TieBreak


def tie_phone(place: int) -> str:
    table = {"tie_break": {"kind": "budget", "place": place, "after_passes": False,
                           "pairs": [("education", "Education"), ("shield", "Social Shield")]}}
    return render_to_string("state_in_class/phone/_tie_break.html",
                            {"table": table, "session": {"stage_id": "x"}},
                            request=RequestFactory().get("/play/"))


def test_a_budget_tie_for_second_place_asks_which_goes_second():
    second, first = tie_phone(2), tie_phone(1)
    assert "goes second in the budget" in second and "goes first" not in second
    assert "goes first in the budget" in first


def test_the_public_view_says_which_place_a_budget_tie_is_for():
    state = rules.new_game({"players": [f"P{i}" for i in range(7)]}, seed=3)
    state.phase = "tie_break"
    state.tie = TieBreak("budget", ["education", "shield"], ["P0"], ranked=["health"])
    assert public_view(state)["tie_break"]["place"] == 2


def test_the_revenue_after_the_midlife_names_the_inheritance():
    history = [{"round": data.MIDLIFE_ROUND, "midlife": [
        {"card": "the-inheritance", "player": "P1", "budget": data.INHERITANCE_BUDGET}]}]
    entry = {"round": data.MIDLIFE_ROUND + 1, "revenue": 27}
    with translation.override("en"):
        notes = revenue_notes(history, entry)
        plain = revenue_notes(history, {"round": data.MIDLIFE_ROUND + 2})
    assert notes == [f"including {data.INHERITANCE_BUDGET} coins from the inheritance"]
    assert plain == []


def board(table: dict) -> str:
    base = {"number": 1, "services": [], "tension_track": range(1, 11), "tension": 4,
            "seats": [], "event": {"name": "The Midlife Crossroads", "effect": ""}}
    return render_to_string("state_in_class/projector/_table.html",
                            {"table": {**base, **table}, "grid": False,
                             "session": {"id": 1, "stage": "end_of_round", "round": 4,
                                         "stage_id": "x"}},
                            request=RequestFactory().get("/"))


def test_the_end_of_the_midlife_says_when_nobody_changes_class():
    card = {"player": "Ana", "card": "The inheritance", "token": False}
    with translation.override("en"):
        quiet = board({"midlife": [card], "class_changes": []})
        moved = board({"midlife": [card], "class_changes": ["Ana moved up a class."]})
    assert "After the Midlife Crossroads" in quiet
    assert "Nobody at this table changes class." in quiet
    assert "Ana moved up a class." in moved and "Nobody at this table" not in moved


def test_the_pact_status_and_its_result_are_separate_lines():
    with translation.override("en"):
        html = render_to_string("state_in_class/projector/_table.html", {
            "table": {"number": 1, "services": [], "tension_track": range(1, 11), "tension": 4,
                      "seats": [], "pact": {"done": 7, "of": 7, "total": 8}},
            "grid": True, "session": {"id": 1, "stage": "pact", "round": 0, "stage_id": "x"}},
            request=RequestFactory().get("/"))
    lines = [line for line in html.split("<p") if "pact-line" in line.split(">")[0]]
    assert len(lines) == 2  # each its own line in a compact row (projector.css: pact-line)
    assert "7 of 7 have chosen" in lines[0] and "Pact: 8 coins" in lines[1]


def test_a_table_whose_state_failed_at_the_midlife_is_not_told_about_class_changes():
    card = {"player": "Ana", "card": "Nine months out of work", "token": True}
    with translation.override("en"):
        failed = board({"midlife": [card], "class_changes": [], "failed": True})
    assert "changes class" not in failed
