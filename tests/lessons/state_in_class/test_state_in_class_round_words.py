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
