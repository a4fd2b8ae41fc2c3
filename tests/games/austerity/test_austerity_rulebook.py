"""Austerity's rules, one behaviour per test, with the draws pinned (``config.draws``)."""

from __future__ import annotations

from typing import Any

import pytest

from games.austerity import apply, data, decisions, legal_actions, new_game
from games.austerity.state import GameState
from games.core import InvalidAction

GOV = "government"


def game(*draws: list[str], **config: Any) -> GameState:
    return new_game({"draws": [list(d) for d in draws], **config}, 7)


def play(state: GameState, *moves: str) -> GameState:
    """Moves written as "draw", "event:remove", "income:treasury", "action:pay-loan"."""
    for move in moves:
        kind, _, choice = move.partition(":")
        action = {"type": kind} if kind == "draw" else {"type": kind, "choice": choice}
        state, _events = apply(state, action)
    return state


def options(state: GameState) -> list[str]:
    return list(decisions(state)[0].options)


def staged(**start: Any) -> dict[str, Any]:
    return {"start": start}


# One pair in the bag and a Debt cube in Used (so the year ends without a win).
ONE_PAIR_LEFT = staged(bag={"income": 1, "security": 1}, used={"debt": 1})


# --------------------------------------------------------------------------- setup


def test_setup_puts_the_rulebook_bag_and_every_track_on_5():
    state = new_game({}, 1)
    assert state.bag == {"debt": 4, "welfare": 1, "security": 2, "crime": 2, "income": 1}
    assert set(state.tracks.values()) == {5}
    assert {i: m.cuts for i, m in state.institutions.items()} == dict.fromkeys(
        data.BOARD_INSTITUTIONS, 0)
    assert options(state) == ["draw"]


def test_the_rulebook_example_security_spending_then_funding_private_enterprise():
    state = play(game(["income", "security"]), "draw")
    assert state.pair == ["income", "security"] and options(state) == ["popularity",
                                                                       "public-safety"]
    state = play(state, "event:popularity", "income:fund:private-enterprise")
    assert state.tracks["popularity"] == 6 and state.tracks["employment"] == 6
    assert state.institutions["private-enterprise"].funded == 1
    assert state.used["security"] == 1 and state.current == []
    assert state.stage == "draw"


# --------------------------------------------------------------------------- events


def test_an_event_without_a_choice_resolves_by_itself():
    state = play(game(["security", "security"]), "draw")
    assert state.tracks["public-safety"] == 7 and state.stage == "draw"


@pytest.mark.parametrize(("pair", "choice", "changes"), [
    (["crime", "crime"], None, {"public-safety": 3}),
    (["welfare", "crime"], None, {"employment": 3}),
    (["welfare", "welfare"], None, {"employment": 6}),
    (["welfare", "income"], None, {"health": 7}),
    (["security", "crime"], "lose-safety", {"public-safety": 4}),
    (["security", "welfare"], "employment", {"employment": 6, "popularity": 4}),
    (["crime", "income"], "popularity", {"popularity": 6}),
])
def test_track_events_move_the_tracks_the_table_says(pair, choice, changes):
    bag = {colour: 2 for colour in data.COLOURS}
    state = play(game(pair, **staged(bag=bag)), "draw", *([f"event:{choice}"] if choice else []))
    for track, level in changes.items():
        assert state.tracks[track] == level


def test_beyond_its_maximum_a_track_stops_at_10():
    state = play(game(["security", "security"], **staged(tracks={"public-safety": 9})), "draw")
    assert state.tracks["public-safety"] == 10
    state = play(game(["income", "security"], **staged(tracks={"popularity": 10})), "draw")
    assert "popularity" in options(state)  # the option may still be taken
    assert play(state, "event:popularity").tracks["popularity"] == 10


def test_protests_either_remove_both_cubes_or_add_debt():
    removed = play(game(["crime", "income"]), "draw", "event:remove")
    assert removed.used["crime"] == 0 and removed.current == [] and removed.stage == "draw"
    protest = play(game(["crime", "income"]), "draw", "event:popularity")
    assert protest.used["debt"] == 1 and protest.stage == "income"


def test_special_operations_remove_removes_security_and_crime_from_current():
    state = play(game(["security", "crime"]), "draw", "event:remove")
    assert state.used == dict.fromkeys(data.COLOURS, 0) and state.current == []


def test_underfunded_police_adds_crime_when_there_is_no_money():
    state = play(game(["debt", "security"]), "draw")
    assert state.used["crime"] == 1  # the only option: resolved by itself
    assert state.stage == "cuts"


def test_underfunded_police_may_spend_treasury_income_instead():
    state = play(game(["debt", "security"], **staged(treasury=1)), "draw")
    assert options(state) == ["spend", "add-crime"]
    state = play(state, "event:spend")
    assert state.treasury == 0 and state.used["crime"] == 0


def test_early_repayments_spend_the_drawn_income_to_remove_the_debt():
    state = play(game(["income", "debt"], **staged(treasury=1)), "draw")
    assert options(state) == ["repay", "repay:current", "decline"]
    state = play(state, "event:repay:current")
    assert state.treasury == 1 and state.current == [] and state.stage == "draw"
    from_treasury = play(game(["income", "debt"], **staged(treasury=1)), "draw", "event:repay")
    assert from_treasury.treasury == 0 and from_treasury.current == ["income"]


def test_welfare_budget_problems_cost_health_without_money():
    state = play(game(["debt", "welfare"]), "draw")
    assert state.tracks["health"] == 4


def test_welfare_cheat_crackdown_can_remove_the_welfare_cube():
    state = play(game(["security", "welfare"]), "draw", "event:remove")
    assert state.used["welfare"] == 0 and state.used["security"] == 1


def test_a_remove_with_no_such_cube_anywhere_is_still_allowed():
    # Pay Loan first takes the drawn Income from Current; the protest's Remove then finds none.
    state = play(game(["crime", "income"], **staged(treasury=2, used={"debt": 1})), "draw",
                 "action:pay-loan")
    assert "remove" in options(state)
    state = play(state, "event:remove")
    assert state.current == [] and state.treasury == 0


# --------------------------------------------------------------------------- cuts


def test_a_single_debt_cube_after_the_event_asks_for_cuts_among_the_eligible():
    state = play(game(["debt", "crime"]), "draw")
    assert state.tracks["popularity"] == 4
    assert options(state) == ["private-enterprise", "national-security"]
    state = play(state, "cuts:national-security")
    assert state.institutions["national-security"].cuts == 1


@pytest.mark.parametrize(("partner", "eligible"), [
    ("income", ["private-enterprise", "social-welfare"]),
    ("crime", ["private-enterprise", "national-security"]),
    ("welfare", ["private-enterprise", "social-welfare"]),
    ("security", ["national-security", "social-welfare"]),
])
def test_the_pair_decides_which_institutions_are_eligible(partner, eligible):
    state = play(game(["debt", partner]), "draw")
    if state.stage == "event":
        state = play(state, f"event:{options(state)[-1]}")
    assert state.stage == "cuts" and options(state) == eligible


def test_economic_downturn_cuts_every_institution_and_asks_for_no_other_cuts():
    state = play(game(["debt", "debt"]), "draw")
    assert state.tracks["wealth"] == 4 and state.stage == "draw"
    assert all(m.cuts == 1 for m in state.institutions.values())


def test_the_third_cut_applies_the_penalty_and_resets_the_marker():
    start = staged(institutions={"private-enterprise": {"cuts": 2},
                                 "national-security": {"cuts": 2},
                                 "social-welfare": {"cuts": 2}})
    state = play(game(["debt", "debt"], **start), "draw")
    assert all(m.cuts == 0 for m in state.institutions.values())
    assert state.tracks["employment"] == 3 and state.tracks["health"] == 3
    assert state.used["crime"] == 1


def test_repaying_the_debt_in_the_event_avoids_the_cuts():
    state = play(game(["income", "debt"]), "draw", "event:repay")
    assert state.stage == "draw" and all(m.cuts == 0 for m in state.institutions.values())


def test_an_action_between_the_event_and_the_cuts_check_can_pay_the_debt_off():
    state = play(game(["debt", "crime"], **staged(treasury=2)), "draw")
    assert state.stage == "cuts"
    state = play(state, "action:pay-loan")
    assert state.stage == "draw" and state.treasury == 0
    assert all(m.cuts == 0 for m in state.institutions.values())


# --------------------------------------------------------------------------- income


def test_income_banked_in_the_treasury_never_returns_to_the_bag():
    state = play(game(["income", "security"], **staged(
        bag={"income": 1, "security": 1}, used={"debt": 1}, tracks={"employment": 4})),
        "draw", "event:popularity", "income:treasury")  # Employment 4: no Income icon
    assert state.treasury == 1 and state.year == 2 and state.bag["income"] == 0


def test_income_put_in_used_returns_to_the_bag_at_year_end():
    state = play(game(["income", "security"], **ONE_PAIR_LEFT), "draw", "event:popularity",
                 "income:used")
    assert state.year == 2 and state.bag["income"] == 1


def test_each_institution_takes_one_cube_a_year():
    state = play(game(["income", "welfare"], **staged(
        institutions={"private-enterprise": {"funded": 1}})), "draw")
    assert "fund:private-enterprise" not in options(state)
    assert "fund:social-welfare" in options(state)


def test_two_income_cubes_of_one_draw_may_fund_two_institutions():
    state = play(game(["income", "income"], **staged(bag={"income": 2, "debt": 2})), "draw",
                 "income:fund:private-enterprise")
    assert state.stage == "income" and decisions(state)[0].id == "y1.d1.income2"
    state = play(state, "income:fund:national-security")
    assert state.tracks["employment"] == 6 and state.used["security"] == 1
    assert state.tracks["wealth"] == 6  # Budget Surplus


def test_budget_surplus_funds_an_already_funded_institution_again_and_claims_its_reward():
    state = play(game(["income", "income"], **staged(
        bag={"income": 2, "debt": 2}, institutions={"private-enterprise": {"funded": 1}})),
        "draw")
    assert options(state) == ["fund-again:private-enterprise", "decline"]
    state = play(state, "event:fund-again:private-enterprise")
    assert state.tracks["employment"] == 6 and state.current == []
    assert state.institutions["private-enterprise"].funded == 1  # both cubes were spent


def test_funding_cubes_go_back_into_the_bag_at_year_end():
    state = play(game(["income", "security"], **ONE_PAIR_LEFT), "draw", "event:popularity",
                 "income:fund:social-welfare")
    assert state.year == 2 and state.bag["income"] == 1 and state.bag["welfare"] == 1
    assert state.institutions["social-welfare"].funded == 0


# --------------------------------------------------------------------------- actions


def test_borrow_adds_two_income_to_used_and_a_debt_to_the_bag():
    state = play(game(), "action:borrow")
    assert state.used["income"] == 2 and state.bag["debt"] == 5


def test_raise_taxes_adds_income_and_crime_to_the_bag():
    state = play(game(), "action:raise-taxes")
    assert state.bag["income"] == 2 and state.bag["crime"] == 3


def test_pay_loan_removes_from_current_first_then_used_or_the_treasury():
    state = play(game(["income", "debt"], **staged(treasury=1, used={"income": 1})), "draw")
    # One Income in Current; the second from Used (or, with ":treasury", the Treasury).
    assert {"pay-loan", "pay-loan:treasury"} <= set(legal_choices(state))
    used_first = play(state, "action:pay-loan")
    assert used_first.current == [] and used_first.used["income"] == 0
    assert used_first.treasury == 1
    treasury_first = play(game(["security", "debt"], **staged(
        treasury=2, used={"income": 2})), "draw", "event:add-crime", "action:pay-loan:treasury")
    assert treasury_first.treasury == 0 and treasury_first.used["income"] == 2


def legal_choices(state: GameState) -> list[str]:
    return [a["choice"] for a in legal_actions(state, GOV) if a["type"] == "action"]


def test_pay_loan_needs_two_income_and_a_debt_it_can_reach():
    assert "pay-loan" not in legal_choices(game(**staged(treasury=1, used={"debt": 1})))
    assert "pay-loan" not in legal_choices(game(**staged(treasury=2)))  # debt only in the bag
    assert "pay-loan" in legal_choices(game(**staged(treasury=2, used={"debt": 1})))


def test_actions_stop_once_the_bag_is_empty_even_while_the_last_pair_resolves():
    state = play(game(["debt", "crime"], **staged(bag={"debt": 1, "crime": 1}, treasury=2)),
                 "draw")
    assert state.stage == "cuts" and legal_choices(state) == []
    with pytest.raises(InvalidAction, match="bag is empty"):
        play(state, "action:borrow")


def test_actions_may_be_taken_any_number_of_times():
    state = play(game(), "action:raise-taxes", "action:raise-taxes", "action:borrow")
    assert state.bag["income"] == 3 and state.bag["debt"] == 5 and state.actions_taken == 3


# --------------------------------------------------------------------------- the lone cube


def test_a_single_last_cube_goes_to_used_and_is_ignored():
    state = play(game(["security", "security"], ["debt"], **staged(
        bag={"security": 2, "debt": 1}, used={"debt": 1})), "draw", "draw")
    assert state.year == 2 and all(m.cuts == 0 for m in state.institutions.values())
    assert state.this_year["log"] == [] and state.bag["debt"] == 2


def test_a_lone_income_cube_is_lost_for_the_year():
    state = play(game(["security", "security"], ["income"], **staged(
        bag={"security": 2, "income": 1}, used={"debt": 1}, tracks={"employment": 4})),
        "draw", "draw")
    assert state.year == 2 and state.treasury == 0 and state.bag["income"] == 1


def test_an_ignored_lone_debt_cube_does_not_block_the_win():
    # "place it directly into the Used area and ignore it for this Year": Year End's win
    # check is part of this year.
    state = play(game(["security", "security"], ["debt"], **staged(
        bag={"security": 2, "debt": 1})), "draw", "draw")
    assert state.result == "won" and state.reason == "debt-free" and state.used["debt"] == 1


def test_a_lone_debt_cube_that_the_teachers_option_cuts_blocks_the_win():
    state = play(game(["security", "security"], ["debt"], lone_debt_cuts=True, **staged(
        bag={"security": 2, "debt": 1})), "draw", "draw", "cuts:social-welfare")
    assert state.result is None and state.year == 2


def test_an_ignored_lone_crime_cube_does_not_block_organised_crimes_win():
    state = play(game(["security", "security"], ["crime"], scenario="organised-crime",
                      **staged(bag={"security": 2, "crime": 1})), "draw", "draw")
    assert state.result == "won" and state.reason == "crime-free"


def test_the_teachers_option_makes_a_lone_debt_cube_cut_any_institution():
    state = play(game(["security", "security"], ["debt"], lone_debt_cuts=True, **staged(
        bag={"security": 2, "debt": 1})), "draw", "draw")
    assert state.stage == "cuts" and options(state) == list(data.BOARD_INSTITUTIONS)
    state = play(state, "cuts:social-welfare")
    assert state.institutions["social-welfare"].cuts == 1 and state.year == 2


# --------------------------------------------------------------------------- year end, win, loss


def test_year_end_checks_the_win_before_anything_else():
    state = play(game(["security", "security"], **staged(bag={"security": 2})), "draw")
    assert state.result == "won" and state.reason == "debt-free" and state.treasury == 0


def test_year_end_income_icons_then_wealth_health_and_popularity_move_one_step():
    start = staged(bag={"security": 2, "debt": 1}, used={"debt": 1}, tracks={
        "employment": 9, "public-safety": 8, "wealth": 5, "health": 5, "popularity": 4})
    state = play(game(["security", "security"], ["debt"], **start), "draw", "draw")
    # Safety 8 + 2 = 10; Employment 9 gives two Income icons.
    assert state.treasury == 2
    assert state.tracks["wealth"] == 6 and state.tracks["health"] == 6
    assert state.tracks["popularity"] == 6  # towards Wealth 6, then towards Health 6


def test_a_track_at_0_loses_the_game_at_once_mid_year():
    state = play(game(["crime", "crime"], **staged(tracks={"public-safety": 2})), "draw")
    assert state.result == "lost" and state.reason == "public-safety"
    assert legal_actions(state, GOV) == [] and decisions(state) == []
    with pytest.raises(InvalidAction, match="over"):
        play(state, "draw")


def test_treasury_income_is_not_counted_as_a_cube_in_used_at_year_end():
    state = play(game(["security", "security"], **staged(bag={"security": 2}, treasury=3)),
                 "draw")
    assert state.result == "won" and state.treasury == 3


def test_a_year_that_starts_with_an_empty_bag_ends_at_once():
    # The last pair is removed and its Income banked: nothing goes back into the bag.
    state = play(game(["crime", "income"], scenario="olympics", **staged(
        bag={"crime": 1, "income": 1}, tracks={"employment": 4})), "draw", "event:remove")
    assert state.year == 8 and state.result == "lost" and state.reason == "olympics"
