"""Austerity's advanced rules: scenarios, difficulty, countries, extra institutions and our
policy cards."""

from __future__ import annotations

from typing import Any

import pytest

from games.austerity import apply, data, decisions, legal_actions, new_game
from games.austerity.state import GameState
from games.core import InvalidConfig

GOV = "government"


def game(*draws: list[str], start: dict[str, Any] | None = None, **config: Any) -> GameState:
    return new_game({"draws": [list(d) for d in draws], **config,
                     **({"start": start} if start else {})}, 3)


def play(state: GameState, *moves: str) -> GameState:
    for move in moves:
        kind, _, choice = move.partition(":")
        state, _events = apply(state, {"type": kind} if kind == "draw"
                               else {"type": kind, "choice": choice})
    return state


def acts(state: GameState) -> list[str]:
    return [a["choice"] for a in legal_actions(state, GOV) if a["type"] == "action"]


LAST_PAIR = {"bag": {"security": 2}, "used": {"debt": 1}}  # one pair, then Year End


# --------------------------------------------------------------------------- scenarios


@pytest.mark.parametrize(("scenario", "tracks"), [
    ("economic-crash", (5, 5, 5, 5, 5)), ("olympics", (7, 4, 5, 4, 7)),
    ("organised-crime", (6, 4, 4, 6, 7)), ("war-footing", (5, 7, 6, 6, 4)),
])
def test_each_scenario_sets_its_starting_tracks(scenario, tracks):
    assert tuple(new_game({"scenario": scenario}, 1).tracks.values()) == tracks


@pytest.mark.parametrize(("scenario", "difficulty", "colour", "count"), [
    ("economic-crash", "normal", "debt", 5), ("economic-crash", "hard", "debt", 6),
    ("organised-crime", "normal", "crime", 3), ("organised-crime", "hard", "crime", 4),
    ("economic-crash", "easier", "income", 3),
])
def test_difficulty_adds_cubes_to_the_bag(scenario, difficulty, colour, count):
    state = new_game({"scenario": scenario, "difficulty": difficulty}, 1)
    assert state.bag[colour] == count


def test_organised_crime_changes_political_corruption_and_wins_without_crime_in_used():
    state = play(game(["debt", "crime"], scenario="organised-crime"), "draw")
    assert state.used["crime"] == 1 and state.tracks["popularity"] == 6
    won = play(game(["security", "security"], scenario="organised-crime",
                    start={"bag": {"security": 2}, "used": {"debt": 3}}), "draw")
    assert won.result == "won" and won.reason == "crime-free"


def test_olympics_income_can_go_to_the_olympics_box_and_the_games_are_judged_in_year_8():
    state = play(game(["income", "security"], scenario="olympics",
                      start={"bag": {"income": 1, "security": 1}}), "draw", "event:popularity")
    assert "olympics" in decisions(state)[0].options
    state = play(state, "income:olympics")
    assert state.olympics == 1 and state.result is None and state.year == 2
    won = play(game(["security", "security"], scenario="olympics", start={
        "year": 8, "olympics": 2, "bag": {"security": 2}, "tracks": {"public-safety": 4}}),
        "draw")
    assert won.result == "won"
    lost = play(game(["security", "security"], scenario="olympics", difficulty="normal", start={
        "year": 8, "olympics": 2, "bag": {"security": 2}, "tracks": {"public-safety": 4}}),
        "draw")
    assert lost.result == "lost" and lost.reason == "olympics"


def test_finance_the_olympics_is_an_action_that_puts_a_held_income_cube_in_the_box():
    # Our edition notes: 'an extra action "Finance the Olympics": put an Income cube on
    # the Olympics box'. An action may use any Income the government holds, like a Spend.
    state = game(scenario="olympics", start={"bag": {"security": 2}, "treasury": 2})
    assert "finance-olympics" in acts(state)
    state = play(state, "action:finance-olympics", "action:finance-olympics")
    assert state.olympics == 2 and state.treasury == 0
    assert "finance-olympics" not in acts(state) and "finance-olympics" not in acts(
        game(start={"bag": {"security": 2}, "treasury": 2}))


def test_war_footing_feeds_the_war_once_a_year_and_moves_the_marker_before_the_check():
    state = game(start={"tracks": {}, "treasury": 2, "bag": {"security": 2}, "war": 4},
                 scenario="war-footing")
    assert "feed-war" in acts(state)
    state = play(state, "action:feed-war")
    assert state.treasury == 1 and state.tracks["employment"] == 4 and state.war_fed
    assert "feed-war" not in acts(state)
    state = play(state, "draw")
    assert state.war == 5 and state.result == "won"


def test_war_footing_is_lost_when_the_marker_falls_to_0():
    state = play(game(scenario="war-footing", start={"bag": {"security": 2}, "war": 1}), "draw")
    assert state.result == "lost" and state.reason == "war"


def test_a_random_scenario_and_country_come_from_the_seed():
    first = new_game({"scenario": "random", "country": "random"}, 11)
    again = new_game({"scenario": "random", "country": "random"}, 11)
    assert (first.scenario, first.country) == (again.scenario, again.country)
    assert first.scenario in data.SCENARIOS and first.country in data.COUNTRIES


# --------------------------------------------------------------------------- countries


@pytest.mark.parametrize("country", list(data.COUNTRIES))
def test_a_country_replaces_the_bag_with_its_ten_cubes(country):
    state = new_game({"country": country}, 1)
    assert sum(state.bag.values()) == 10
    assert state.bag["debt"] == data.COUNTRIES[country].bag.count("debt")


def test_a_country_dictates_one_policy_face_and_some_faces_are_permanent():
    state = new_game({"country": "tinpot-dictatorship", "policies": True}, 1)
    assert state.policies["policing"] == "police-state"
    assert state.fixed_policies == ["policing"]
    with pytest.raises(InvalidConfig, match="dictates"):
        new_game({"country": "tinpot-dictatorship",
                  "policies": {"policing": "civil-liberties"}}, 1)


# --------------------------------------------------------------------------- extra institutions


def test_spending_two_income_brings_an_extra_institution_into_play():
    state = game(extra_institutions=True, start={"treasury": 2})
    assert "open:infrastructure" in acts(state)
    state = play(state, "action:open:infrastructure")
    assert "infrastructure" in state.institutions and state.treasury == 0
    assert "open:investment" not in acts(state)
    assert "open:infrastructure" not in acts(game(start={"treasury": 2}))  # module off


def test_investment_needs_two_cubes_in_one_year_to_add_an_income_cube():
    state = play(game(["income", "income"], extra_institutions=True, start={
        "bag": {"income": 2, "debt": 2}, "institutions": {"investment": {}}}),
        "draw", "income:fund:investment")
    assert state.used["income"] == 0
    state = play(state, "income:fund:investment")
    assert state.used["income"] == 1 and state.institutions["investment"].funded == 2


def test_extra_institutions_are_cut_by_their_own_pairs():
    state = play(game(["debt", "crime"], extra_institutions=True,
                      start={"institutions": {"investment": {}}}), "draw")
    assert decisions(state)[0].options == ("private-enterprise", "national-security",
                                           "investment")


# --------------------------------------------------------------------------- policy cards


def test_policy_cards_are_ours_two_faces_each_and_no_two_cards_change_the_same_rule():
    assert len(data.POLICY_CARDS) == 6
    assert all(card.source == "ours" and len(card.faces) == 2
               for card in data.POLICY_CARDS.values())
    owner: dict[tuple[str, str], str] = {}
    for card in data.POLICY_CARDS.values():
        for face in card.faces:
            assert owner.setdefault(face.target, card.id) == card.id, face.target


def test_a_policy_face_replaces_the_rule_it_names():
    state = play(game(["security", "crime"], policies={"policing": "police-state"}), "draw")
    assert state.tracks["popularity"] == 4 and state.stage == "draw"  # no choice any more
    state = play(game(policies={"tax": "high-taxes"}), "action:raise-taxes")
    assert state.bag["income"] == 3 and state.bag["crime"] == 4


def test_a_policy_face_can_change_one_option_of_an_event():
    state = play(game(["income", "debt"], policies={"central-bank": "independent-bank"}),
                 "draw", "event:repay")
    assert state.tracks["wealth"] == 6 and state.current == []


def test_the_budget_session_may_turn_one_policy_card_for_a_popularity():
    state = play(game(["security", "security"], policies={"trade": "free-trade"},
                      start=LAST_PAIR), "draw")
    decision = decisions(state)[0]
    assert decision.id == "y1.policy" and decision.kind == "year-end"
    assert decision.options == ("keep", "turn:trade")
    turned = play(state, "policy:turn:trade")
    assert turned.policies["trade"] == "protectionism" and turned.year == 2
    assert turned.tracks["popularity"] == state.tracks["popularity"] - 1


def test_a_permanent_country_card_cannot_be_turned():
    state = play(game(["security", "security"], country="socialist-republic", policies={
        "ownership": "nationalised"}, start=LAST_PAIR), "draw")
    assert state.year == 2 and state.stage == "draw"  # nothing to decide: no budget session
