"""The round and its end (rulebook: "The round", "Social Tension").

"At the end of the round, in this order: if all three services are at Level 4 or above, Tension
goes down by 1. From round 2 onwards, Tension goes up by 1 for each service still at Level 1.
And at the end of rounds 3 and 6 comes obsolescence: all three services drop one level; any
loose coins in the funds stay there."
"If it reaches 10, the State fails: the game ends at that moment and everyone loses."
"""

import pytest

from games.core import InvalidAction
from games.state_in_class import rules
from games.state_in_class.audiences import legal_actions, public_view
from games.state_in_class.rules import scores
from games.state_in_class.state import BUDGET_VOTE, OVER, TAX_VOTE, TIE_BREAK, to_dict
from tests.games.state_in_class.state_in_class_support import (
    advance_to,
    by_role,
    close_budget,
    give,
    levels,
    moved,
    play_round,
    started,
    statement,
    tax_vote,
    tension_changes,
    vote,
)

RULEBOOK_EVENTS = [
    "economic-boom", "seasonal-flu", "cost-of-living-crisis", "midlife-crossroads",
    "tech-breakthrough", "great-storm", "social-peace", "the-legacy",
]


def play_whole_game(**kwargs):
    state = started(**kwargs)
    while state.phase != OVER:
        give(state, 100)
        state.tension = 1
        play_round(state, "C")
    return state


# --------------------------------------------------------------------------- structure


def test_eight_rounds_with_the_events_in_the_rulebook_order():
    state = play_whole_game()
    assert [r["round"] for r in state.history] == list(range(1, 9))
    assert [r["event"] for r in state.history] == RULEBOOK_EVENTS
    assert state.round == 8 and state.phase == OVER


def test_each_round_has_a_tax_vote_then_a_budget_vote_except_round_4():
    state = play_whole_game()
    for entry in state.history:
        has_votes = {"tax", "budget", "split"} <= set(entry)
        assert has_votes is (entry["round"] != 4)


def test_after_round_3s_budget_count_the_engine_goes_straight_to_round_5s_tax_vote():
    state = advance_to(started(), 3, BUDGET_VOTE)
    events = vote(state, "budget", {"health": 3, "education": 2, "shield": 1})
    assert state.round == 5 and state.phase == TAX_VOTE
    started_rounds = [e["round"] for e in events if e["type"] == "round_started"]
    assert started_rounds == [4, 5]
    assert [e["event"] for e in events if e["type"] == "event"] == [
        "midlife-crossroads", "tech-breakthrough"]


def test_in_round_4_everyone_collects_income_and_pays_no_tax_or_cost_of_living():
    state = advance_to(started(), 5)
    for p in state.players:
        reasons = {e["reason"] for e in statement(p, round_no=4)}
        assert "income" in reasons
        assert not reasons & {"tax", "cost_of_living"}
        assert all(r == "income" or r.startswith("midlife:") for r in reasons)
    assert "tax" not in state.history[3] and "budget" not in state.history[3]


def test_the_final_count_follows_round_8_and_then_nothing_is_accepted():
    state = advance_to(started(), 8, BUDGET_VOTE)
    events = vote(state, "budget", {"health": 3, "education": 2, "shield": 1})
    assert state.phase == OVER and rules.is_over(state)
    final = [e for e in events if e["type"] == "final_count"]
    assert len(final) == 1 and final[0]["audience"] == "public"
    with pytest.raises(InvalidAction, match="over"):
        rules.step(state, {"type": "ballot", "kind": "tax", "player": "Ana"})
    assert legal_actions(state, "Ana") == [] and legal_actions(state, None) == []


def test_phases_in_order():
    state = started()
    assert state.phase == TAX_VOTE
    vote(state, "tax", {"A": 4, "B": 4})
    assert state.phase == TIE_BREAK
    rules.step(state, {"type": "tie_break", "player": state.tie.deciders[0], "choice": "A"})
    assert state.phase == BUDGET_VOTE
    vote(state, "budget", {"health": 1, "education": 1})
    assert state.phase == TIE_BREAK
    rules.step(state, {"type": "tie_break", "player": state.tie.deciders[0],
                       "choice": "health"})
    assert state.phase == TAX_VOTE and state.round == 2


# --------------------------------------------------------------------------- tension


def test_all_three_services_at_level_4_or_more_lower_tension_by_1():
    state = started()
    tax_vote(state, "A")
    close_budget(state, 4, 5, 4, tension=5)
    assert state.tension == 4
    assert tension_changes(state, 1) == [{"delta": -1, "value": 4, "reason": "strong_services"}]


def test_one_service_below_4_keeps_tension():
    state = started()
    tax_vote(state, "A")
    close_budget(state, 4, 3, 5, tension=5)
    assert state.tension == 5


def test_tension_never_goes_below_1():
    state = started()
    tax_vote(state, "A")
    close_budget(state, 4, 4, 4, tension=1)
    assert state.tension == 1


def test_in_round_1_services_at_level_1_do_not_raise_tension():
    state = started()
    tax_vote(state, "A")
    close_budget(state, 1, 1, 1, tension=2)
    assert state.tension == 2


@pytest.mark.parametrize(("lv", "rise"), [((1, 1, 1), 3), ((1, 2, 1), 2), ((3, 1, 2), 1),
                                          ((2, 2, 2), 0)])
def test_from_round_2_each_service_at_level_1_raises_tension_by_1(lv, rise):
    state = started()
    play_round(state, "A")
    tax_vote(state, "A")
    close_budget(state, *lv, tension=2)
    assert state.round == 3
    assert state.tension == 2 + rise
    at_1 = [c["service"] for c in tension_changes(state, 2) if c["reason"] ==
            "service_at_level_1"]
    assert at_1 == [s for s, v in zip(("health", "education", "shield"), lv, strict=True)
                    if v == 1]


@pytest.mark.parametrize("round_no", [3, 6])
def test_obsolescence_after_rounds_3_and_6_drops_every_service_one_level(round_no):
    state = advance_to(started(), round_no, BUDGET_VOTE)
    close_budget(state, 5, 2, 1, tension=2)
    assert levels(state) == (4, 1, 1)
    assert state.history[round_no - 1]["obsolescence"] is True


def test_obsolescence_keeps_the_loose_coins_in_the_funds():
    state = advance_to(started(), 3, BUDGET_VOTE)
    state.pot = 6  # SET: Health gets 3, Education 2, Shield 1
    for service in state.services.values():
        service.level, service.fund = 3, 4
    vote(state, "budget", {"health": 3, "education": 2, "shield": 1})
    assert levels(state) == (2, 2, 2)
    assert [state.services[s].fund for s in ("health", "education", "shield")] == [7, 6, 5]


@pytest.mark.parametrize("round_no", [1, 2, 5, 7])
def test_no_obsolescence_in_other_rounds(round_no):
    state = advance_to(started(), round_no, BUDGET_VOTE)
    close_budget(state, 3, 2, 4, tension=2)
    assert levels(state) == (3, 2, 4)
    assert "obsolescence" not in state.history[round_no - 1]


def test_no_obsolescence_after_the_midlife_round():
    state = advance_to(started(), 3, BUDGET_VOTE)
    close_budget(state, 4, 4, 4, tension=2)
    assert state.history[2]["levels"] == {"health": 3, "education": 3, "shield": 3}
    assert state.history[3]["levels"] == {"health": 3, "education": 3, "shield": 3}
    assert "obsolescence" not in state.history[3]


def test_end_of_round_order_strong_services_before_obsolescence():
    state = advance_to(started(), 3, BUDGET_VOTE)
    close_budget(state, 4, 4, 4, tension=5)
    assert state.tension == 4  # counted at 4-4-4, before dropping to 3-3-3
    assert levels(state) == (3, 3, 3)


def test_end_of_round_order_level_1_counted_before_obsolescence():
    state = advance_to(started(), 3, BUDGET_VOTE)
    close_budget(state, 2, 2, 2, tension=2)
    assert [c["reason"] for c in tension_changes(state, 3)] == []
    assert levels(state) == (1, 1, 1)


def test_the_end_of_round_steps_apply_in_the_midlife_round_too():
    state = advance_to(started(), 3, BUDGET_VOTE)
    close_budget(state, 2, 2, 3, tension=2)  # -> 1, 1, 2 for round 4
    at_1 = [c for c in tension_changes(state, 4) if c["reason"] == "service_at_level_1"]
    assert [c["service"] for c in at_1] == ["health", "education"]


# --------------------------------------------------------------------------- the State fails


def assert_failed(state):
    assert state.failed and state.phase == OVER and state.tension == 10
    assert rules.is_over(state)
    assert scores(state)["winners"] == []
    assert public_view(state)["failed"] is True
    before = to_dict(state)
    for action in ({"type": "ballot", "kind": "tax", "player": "Ana"},
                   {"type": "count", "kind": "tax", "tally": {}},
                   {"type": "pact", "player": "Ana", "coins": 1},
                   {"type": "tie_break", "player": "Ana", "choice": None}):
        with pytest.raises(InvalidAction, match="over"):
            rules.step(state, action)
    assert to_dict(state) == before
    assert all(legal_actions(state, n) == [] for n in [*state.names, None])


def test_tension_10_at_the_end_of_a_round_fails_the_state():
    state = started()
    play_round(state, "A")
    tax_vote(state, "A")
    events = close_budget(state, 1, 1, 2, tension=8)
    assert_failed(state)
    assert {"type": "state_failed", "audience": "public", "round": 2} in events
    assert state.round == 2  # the game ends at that moment: no round 3


def test_tension_10_in_the_middle_of_paying_ends_the_game_at_that_moment():
    state = started()
    give(state, 100)
    first = by_role(state, "shop-owner")
    give(state, {first.name: 0})
    state.tension = 7
    state.surcharge = 50  # SET: the shop owner cannot pay
    tax_vote(state, "A")
    assert_failed(state)
    later = [p for p in state.players if p.seat > first.seat]
    assert all(moved(p, round_no=1, reason="tax") == 0 for p in later)
    assert state.history[0]["exclusions"][0]["player"] == first.name


def test_tension_10_from_the_great_storm_fails_the_state_before_coins_are_lost():
    state = advance_to(started(), 5, BUDGET_VOTE)
    close_budget(state, 3, 3, 3, tension=9)
    assert_failed(state)
    assert state.round == 6
    assert all(moved(p, round_no=6, reason="storm") == 0 for p in state.players)


def test_nobody_wins_when_the_state_fails():
    state = started()
    play_round(state, "A")
    tax_vote(state, "A")
    close_budget(state, 1, 1, 1, tension=9)
    final = scores(state)
    assert final["failed"] is True and final["winners"] == []
    assert set(final["players"]) == set(state.names)
