"""The tax vote (and what ballots and counts are for both votes), ties and tie-breaks.

Rulebook: "The option with the most votes wins. In a tie, the player with the lowest Income
decides; if their vote is not among the tied options, the player with the next lowest Income
decides, and between two players with the same Income, the one in the lower class. Anyone who
doesn't vote abstains. If nobody votes, the previous round's tax carries over (in round 1, tax A)."
"""

import dataclasses

import pytest

from games.core import InvalidAction
from games.state_in_class import data, rules
from games.state_in_class.audiences import player_view, public_view
from games.state_in_class.state import BUDGET_VOTE, PACT, TAX_VOTE, TIE_BREAK, to_dict
from tests.games.state_in_class.state_in_class_support import (
    advance_to,
    ballots,
    count,
    give,
    new_table,
    play_round,
    started,
    tax_vote,
    tie_break,
    vote,
)

CLASS_ORDER = {"working": 0, "middle": 1, "upper": 2}  # "the one in the lower class" first


def lowest_income_first(state, among=None):
    """The rulebook's order of deciders, computed here from the role cards."""
    players = [p for p in state.players if among is None or p.name in among]
    return [p.name for p in sorted(players, key=lambda p: (
        data.ROLES[p.role].income, CLASS_ORDER[data.ROLES[p.role].klass], p.seat))]


def rejected(state, action, match=None):
    """The action raises InvalidAction and leaves the state exactly as it was."""
    before = to_dict(state)
    with pytest.raises(InvalidAction, match=match):
        rules.step(state, action)
    assert to_dict(state) == before


def with_income(monkeypatch, **incomes):
    """Give role cards other Incomes for one test (keyword: role id with _ for -)."""
    for key, value in incomes.items():
        role = key.replace("_", "-")
        monkeypatch.setitem(data.ROLES, role, dataclasses.replace(data.ROLES[role], income=value))


# --------------------------------------------------------------------------- ballots


def test_a_ballot_is_a_receipt_without_an_option():
    state = started()
    events = ballots(state, "tax", ["Cai"])
    assert state.receipts == ["Cai"]
    assert {"type": "ballot_receipt", "audience": "Cai", "kind": "tax"} in events
    assert {"type": "ballot_progress", "audience": "public", "kind": "tax", "voted": 1,
            "of": 8} in events
    assert player_view(state, "Cai")["me"]["has_voted"] is True
    assert player_view(state, "Ana")["me"]["has_voted"] is False
    assert public_view(state)["vote"] == {"kind": "tax", "voted": 1, "of": 8}


def test_a_ballot_cannot_carry_the_option_voted():
    state = started()
    rejected(state, {"type": "ballot", "kind": "tax", "player": "Ana", "option": "C"})


def test_a_second_ballot_in_the_same_vote_is_rejected():
    state = started()
    ballots(state, "tax", ["Ana"])
    rejected(state, {"type": "ballot", "kind": "tax", "player": "Ana"}, "already voted")


def test_the_same_player_votes_again_in_the_budget_vote():
    state = started()
    vote(state, "tax", {"C": 8})
    assert state.phase == BUDGET_VOTE and state.receipts == []
    ballots(state, "budget", ["Ana"])
    assert state.receipts == ["Ana"]


def test_the_order_of_the_ballots_is_not_kept():
    a, b = started(), started()
    ballots(a, "tax", ["Ana", "Hal", "Cai"])
    ballots(b, "tax", ["Cai", "Ana", "Hal"])
    assert to_dict(a) == to_dict(b)


def test_a_ballot_from_an_unknown_player_is_rejected():
    rejected(started(), {"type": "ballot", "kind": "tax", "player": "Zoe"})


@pytest.mark.parametrize("kind", ["budget", "Tax", "pact", None])
def test_a_ballot_of_the_wrong_kind_is_rejected(kind):
    rejected(started(), {"type": "ballot", "kind": kind, "player": "Ana"})


def test_no_ballot_during_the_pact():
    state = new_table()
    rejected(state, {"type": "ballot", "kind": "tax", "player": "Ana"}, "not open")


def test_no_ballot_during_a_tie_break():
    state = started()
    vote(state, "tax", {"A": 4, "C": 4})
    assert state.phase == TIE_BREAK
    rejected(state, {"type": "ballot", "kind": "tax", "player": "Ana"})
    rejected(state, {"type": "ballot", "kind": "budget", "player": "Ana"})


# --------------------------------------------------------------------------- counts


def test_the_count_must_add_up_to_the_ballots_in_the_bag():
    state = started()
    ballots(state, "tax", ["Ana", "Ben", "Cai"])
    rejected(state, {"type": "count", "kind": "tax", "tally": {"C": 2}}, "3 ballots")
    rejected(state, {"type": "count", "kind": "tax", "tally": {"C": 4}}, "3 ballots")
    count(state, "tax", {"C": 3})
    assert state.tax == "C"


@pytest.mark.parametrize("tally", [
    {"E": 1}, {"health": 1}, {"a": 1}, {"C": -1, "A": 2}, {"C": 1.0}, {"C": True},
    {"C": "1"}, ["C"], "C", None,
])
def test_a_tax_count_with_an_unknown_option_or_a_bad_number_is_rejected(tally):
    state = started()
    ballots(state, "tax", ["Ana"])
    rejected(state, {"type": "count", "kind": "tax", "tally": tally})


def test_a_budget_count_only_knows_the_three_services():
    state = started()
    tax_vote(state, "C")
    ballots(state, "budget", ["Ana"])
    rejected(state, {"type": "count", "kind": "budget", "tally": {"C": 1}})
    rejected(state, {"type": "count", "kind": "budget", "tally": {"defence": 1}})


def test_a_count_of_the_wrong_kind_or_in_the_wrong_phase_is_rejected():
    state = new_table()
    assert state.phase == PACT
    rejected(state, {"type": "count", "kind": "tax", "tally": {}})
    state = started()
    rejected(state, {"type": "count", "kind": "budget", "tally": {}}, "not open")
    rejected(state, {"type": "count", "kind": "tax", "tally": {}, "player": "Ana"})


def test_those_who_do_not_vote_abstain():
    state = started()
    vote(state, "tax", {"B": 3, "D": 2}, voters=["Ana", "Ben", "Cai", "Dee", "Eli"])
    assert state.tax == "B"
    assert state.current["tax"] == {"tally": {"A": 0, "B": 3, "C": 0, "D": 2}, "voters": 5,
                                    "winner": "B", "decided_by": "plurality"}


def test_if_nobody_votes_in_round_1_tax_a_applies():
    state = started()
    count(state, "tax", {})
    assert state.tax == "A" and state.phase == BUDGET_VOTE
    assert state.current["tax"]["decided_by"] == "carried_over"


def test_if_nobody_votes_the_previous_rounds_tax_carries_over():
    state = started()
    give(state, 100)
    play_round(state, tax="D")
    assert state.round == 2
    count(state, "tax", {"A": 0, "B": 0})
    assert state.tax == "D"


def test_after_the_midlife_crossroads_the_tax_of_round_3_carries_over():
    state = advance_to(started(), 3, tax="B")
    give(state, 100)
    play_round(state, tax="D")
    assert state.round == 5 and state.phase == TAX_VOTE
    count(state, "tax", {})
    assert state.tax == "D"


@pytest.mark.parametrize(("tally", "winner"), [
    ({"A": 1, "B": 2, "C": 3, "D": 2}, "C"),
    ({"A": 5, "D": 3}, "A"),
    ({"D": 1}, "D"),
    ({"B": 4, "C": 3, "A": 1}, "B"),
])
def test_the_option_with_most_votes_wins(tally, winner):
    state = started()
    vote(state, "tax", tally)
    assert state.tax == winner
    assert state.phase == BUDGET_VOTE


def test_once_the_tax_is_decided_everyone_is_paid_and_the_budget_vote_opens():
    state = started()
    events = vote(state, "tax", {"C": 8})
    kinds = [e["type"] for e in events]
    assert kinds.index("tax_decided") < kinds.index("revenue")
    assert state.phase == BUDGET_VOTE and state.receipts == []


# --------------------------------------------------------------------------- tax ties


def test_a_tax_tie_asks_the_lowest_income_voter():
    state = started()
    events = vote(state, "tax", {"A": 4, "C": 4})
    order = lowest_income_first(state)
    assert state.phase == TIE_BREAK
    assert state.tie.options == ["A", "C"]
    assert state.tie.deciders == order
    assert {"type": "tie_break_needed", "audience": "public", "kind": "tax",
            "options": ["A", "C"], "decider": order[0]} in events


def test_the_decider_picks_one_of_the_tied_options():
    state = started()
    vote(state, "tax", {"A": 3, "B": 3, "D": 2})
    decider = lowest_income_first(state)[0]
    tie_break(state, decider, "B")
    assert state.tax == "B" and state.phase == BUDGET_VOTE
    assert state.current["tax"]["decided_by"] == "tie_break"
    assert state.current["tie_breaks"] == [
        {"kind": "tax", "options": ["A", "B"], "player": decider, "choice": "B"}]


def test_a_decider_whose_vote_was_not_tied_passes_to_the_next_lowest_income():
    state = started()
    vote(state, "tax", {"A": 4, "C": 4})
    first, second, third = lowest_income_first(state)[:3]
    events = tie_break(state, first, None)
    assert state.phase == TIE_BREAK and state.tie.deciders[0] == second
    assert {"type": "tie_break_needed", "audience": "public", "kind": "tax",
            "options": ["A", "C"], "decider": second} in events
    tie_break(state, second, None)
    tie_break(state, third, "A")
    assert state.tax == "A"


def test_between_equal_incomes_the_lower_class_decides_first(monkeypatch):
    # Shop owner (middle, seat 3) and factory worker (working, seat 5) both earn 5.
    with_income(monkeypatch, shop_owner=5, factory_worker=5, care_worker=9,
                precarious_freelancer=9, office_worker=9, secondary_teacher=9)
    state = started()
    vote(state, "tax", {"B": 4, "D": 4})
    assert state.tie.deciders[:2] == ["Fay", "Dee"]


def test_between_equal_incomes_in_the_same_class_the_lower_seat_decides_first(monkeypatch):
    with_income(monkeypatch, factory_worker=2, care_worker=2, precarious_freelancer=2)
    state = started()
    vote(state, "tax", {"B": 4, "D": 4})
    assert state.tie.deciders[:3] == ["Fay", "Gus", "Hal"]


def test_players_who_did_not_vote_are_not_asked():
    state = started()
    order = lowest_income_first(state)
    voters = order[2:]  # the two lowest Incomes abstain
    vote(state, "tax", {"A": 3, "C": 3}, voters=voters)
    assert state.tie.deciders == voters
    rejected(state, {"type": "tie_break", "player": order[0], "choice": "A"}, "turn")


def test_only_the_current_decider_may_break_the_tie():
    state = started()
    vote(state, "tax", {"A": 4, "C": 4})
    order = lowest_income_first(state)
    rejected(state, {"type": "tie_break", "player": order[1], "choice": "A"}, "turn")
    rejected(state, {"type": "tie_break", "player": "Zoe", "choice": "A"})


@pytest.mark.parametrize("choice", ["B", "D", "health", "", 1, ["A"]])
def test_the_choice_must_be_one_of_the_tied_options(choice):
    state = started()
    vote(state, "tax", {"A": 4, "C": 4})
    rejected(state, {"type": "tie_break", "player": state.tie.deciders[0], "choice": choice})


def test_a_tie_break_must_name_the_kind_of_the_tie_if_it_names_one():
    state = started()
    vote(state, "tax", {"A": 4, "C": 4})
    decider = state.tie.deciders[0]
    rejected(state, {"type": "tie_break", "player": decider, "choice": "A", "kind": "budget"})
    rules.step(state, {"type": "tie_break", "player": decider, "choice": "A", "kind": "tax"})
    assert state.tax == "A"


def test_no_tie_break_without_a_tie():
    state = started()
    rejected(state, {"type": "tie_break", "player": "Hal", "choice": "A"}, "no tie")


def test_while_a_tie_is_open_no_count_is_accepted():
    state = started()
    vote(state, "tax", {"A": 4, "C": 4})
    rejected(state, {"type": "count", "kind": "tax", "tally": {}})


def _all_pass(seed):
    state = started(seed=seed)
    vote(state, "tax", {"B": 4, "C": 4})
    while state.phase == TIE_BREAK:
        tie_break(state, state.tie.deciders[0], None)
    return state


def test_if_every_voter_passes_a_tied_option_is_drawn_by_the_seed():
    drawn = {seed: _all_pass(seed).tax for seed in range(20)}
    assert set(drawn.values()) == {"B", "C"}  # both can be drawn
    assert all(_all_pass(seed).tax == tax for seed, tax in drawn.items())  # deterministic
    assert _all_pass(3).current["tax"]["decided_by"] == "drawn"
    assert _all_pass(3).phase == BUDGET_VOTE


def test_every_voter_is_asked_before_the_draw():
    state = started()
    vote(state, "tax", {"B": 3, "C": 3}, voters=["Ana", "Cai", "Dee", "Fay", "Gus", "Hal"])
    asked = []
    while state.phase == TIE_BREAK:
        asked.append(state.tie.deciders[0])
        tie_break(state, asked[-1], None)
    assert asked == lowest_income_first(state, ["Ana", "Cai", "Dee", "Fay", "Gus", "Hal"])


def test_a_three_way_tax_tie_is_settled_by_one_decision():
    state = started()
    vote(state, "tax", {"A": 2, "B": 2, "C": 2, "D": 2})
    assert state.tie.options == ["A", "B", "C", "D"]
    tie_break(state, state.tie.deciders[0], "D")
    assert state.tax == "D" and state.phase == BUDGET_VOTE


def test_the_engine_tie_order_is_lowest_income_then_lower_class_then_seat():
    for n in (6, 7, 8):
        state = started(n)
        assert [p.name for p in rules.tie_order(state)] == lowest_income_first(state)
