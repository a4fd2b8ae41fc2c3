"""An election's result by party totals (``views.election_result``): what phones and the
projector show after an election (rulebook, Set up step 3 and the Election space)."""

from typing import Any

from games.poleconomy.rules import new_game, step
from games.poleconomy.views import election_result

NAMES = ["Ana", "Ben", "Cai", "Dee"]
BI = [[3, 4], [2, 3], [5, 5], [1, 1]]


def elected(election: list[list[int]], parties: dict[str, list[str]]) -> Any:
    return new_game({"players": NAMES, "dice": BI + election, "parties": parties}, 3)


def test_no_majority_lists_party_totals_and_the_smallest_coalitions():
    state = elected([[6, 5], [1, 2], [2, 3], [1, 3]], {"Reds": ["Ben", "Cai"]})
    out = election_result(state)
    # Ana 11, Reds 3 + 5 = 8, Dee 4: 23 votes, a majority is 12 (more than half).
    assert (out["number"], out["total"], out["majority_at"]) == (1, 23, 12)
    assert [(b["name"], b["party"], b["members"], b["votes"], b["short"])
            for b in out["blocs"]] == [("Ana", False, ["Ana"], 11, 1),
                                       ("Reds", True, ["Ben", "Cai"], 8, 4),
                                       ("Dee", False, ["Dee"], 4, 8)]
    assert out["majority"] is None
    assert out["coalitions"] == [["Ana", "Reds"], ["Ana", "Dee"], ["Reds", "Dee"]]
    assert (out["decided"], out["government"], out["pm"]) == (False, None, None)
    assert "rolls" not in out and all("votes" not in str(m) for b in out["blocs"]
                                      for m in b["members"])
    step(state, {"type": "government", "members": ["Ben", "Cai", "Dee"], "pm": "Dee"})
    out = election_result(state)
    assert (out["decided"], out["government"], out["pm"]) == (
        True, ["Ben", "Cai", "Dee"], "Dee")


def test_exactly_half_is_no_majority_and_a_coalition_must_need_every_bloc():
    state = elected([[5, 4], [1, 2], [3, 4], [1, 4]], {"Reds": ["Ana", "Ben"]})
    out = election_result(state)
    assert (out["total"], out["majority_at"], out["majority"]) == (24, 13, None)
    assert [(b["name"], b["votes"]) for b in out["blocs"]] == [("Reds", 12), ("Cai", 7),
                                                               ("Dee", 5)]
    # Cai + Dee have 12, not a majority; Reds + Cai + Dee is not the smallest.
    assert out["coalitions"] == [["Reds", "Cai"], ["Reds", "Dee"]]


def test_a_majority_bloc_needs_no_coalition():
    state = elected([[6, 5], [1, 2], [6, 6], [6, 6], [1, 2]], {})
    out = election_result(state)
    assert out["majority"] == "Cai" and out["coalitions"] == []
    assert out["blocs"][0] == {"name": "Cai", "party": False, "members": ["Cai"],
                               "votes": 24, "short": 0}
    assert (out["decided"], out["government"], out["pm"]) == (True, ["Cai"], "Cai")


def test_a_stated_situation_reports_its_electoral_votes():
    state = new_game({"players": NAMES, "start": {
        "basic_incomes": dict.fromkeys(NAMES, 6), "pm": "Ana", "government": ["Ana", "Ben"],
        "parties": {"Blues": ["Ana", "Ben"]}, "votes": {"Ana": 9, "Ben": 5, "Cai": 8,
                                                        "Dee": 2}}}, 1)
    out = election_result(state)
    assert (out["number"], out["total"], out["majority"]) == (0, 24, "Blues")
    assert out["government"] == ["Ana", "Ben"] and out["pm"] == "Ana"
