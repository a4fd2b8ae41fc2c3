"""What an event and each choice do, as the cards in force make them (``explain``)."""

from __future__ import annotations

import random
import re

import pytest

import games.austerity as engine
from games.austerity import data, explain
from games.austerity.state import OVER


def texts(effect_lines):
    """The lines as English sentences (the placeholders filled, as a screen would)."""
    return [line["text"].format(**line["params"]) for line in effect_lines]


def game(**config):
    return engine.new_game(config, 1)


def test_special_operations_as_printed_offers_its_choice():
    effect = explain.event_effect(game(), "security+crime")
    assert effect["text"] == effect["printed"] == data.EVENTS["security+crime"].text
    assert effect["changed_by"] is None and effect["choice"]
    assert {o["id"]: texts(o["lines"]) for o in effect["options"]} == {
        "remove": ["Remove 1 Security cube.", "Remove 1 Crime cube."],
        "lose-safety": ["Lose 1 Public Safety."]}


def test_police_state_makes_special_operations_a_no_choice_popularity_cost():
    effect = explain.event_effect(game(policies={"policing": "police-state"}),
                                  "security+crime")
    assert effect["printed"] == "Remove the Security and Crime cubes, or lose 1 Public Safety."
    assert not effect["choice"] and effect["options"] == []
    assert texts(effect["always"]) == ["Remove 1 Crime cube.", "Lose 1 Popularity."]
    assert effect["changed_by"]["kind"] == "policy"
    assert (effect["changed_by"]["card"], effect["changed_by"]["face"]) == (
        "policing", "police-state")
    assert effect["text"] == data.FACES["police-state"][1].text


@pytest.mark.parametrize("face", sorted(f for f, (_c, fc) in data.FACES.items()
                                        if fc.target[0] in ("event", "option")))
def test_every_face_that_changes_an_event_is_named_by_its_event(face):
    card, rule = data.FACES[face]
    key = rule.target[1].split(":")[0]
    plain = explain.event_effect(game(), key)
    changed = explain.event_effect(game(policies={card: face}), key)
    assert plain["changed_by"] is None
    assert changed["changed_by"]["face"] == face and changed["text"] == rule.text
    assert changed["printed"] == plain["printed"]
    assert changed != plain


def test_the_scenario_names_its_own_change_of_political_corruption():
    effect = explain.event_effect(game(scenario="organised-crime"), "debt+crime")
    assert effect["changed_by"] == {"kind": "scenario", "scenario": "organised-crime",
                                    "name": "Organised Crime"}
    assert texts(effect["always"]) == ["Add 1 Crime cube to Used.", "Lose 1 Popularity."]
    assert effect["text"].startswith("Political Corruption")


def test_the_independent_bank_changes_one_option_of_early_repayments():
    effect = explain.event_effect(game(policies={"central-bank": "independent-bank"}),
                                  "debt+income")
    repay = next(o for o in effect["options"] if o["id"] == "repay")
    assert texts(repay["lines"]) == ["Spend an Income cube.", "Remove 1 Debt cube.",
                                     "Gain 1 Wealth."]
    assert repay["changed_by"]["face"] == "independent-bank"
    decline = next(o for o in effect["options"] if o["id"] == "decline")
    assert decline["changed_by"] is None


def test_raise_taxes_adds_an_income_and_a_crime_cube_and_two_of_each_with_high_taxes():
    plain = explain.choice_effect(game(), "action", "raise-taxes")
    assert texts(plain["lines"]) == ["Add 1 Income cube to the bag.",
                                     "Add 1 Crime cube to the bag."]
    assert plain["changed_by"] == []
    high = explain.choice_effect(game(policies={"tax": "high-taxes"}), "action", "raise-taxes")
    assert texts(high["lines"]) == ["Add 2 Income cubes to the bag.",
                                    "Add 2 Crime cubes to the bag."]
    assert high["changed_by"][0]["face"] == "high-taxes"
    twice = explain.choice_effect(game(), "action", "raise-taxes", times=2)
    assert texts(twice["lines"]) == ["Add 2 Income cubes to the bag.",
                                     "Add 2 Crime cubes to the bag."]
    none = explain.choice_effect(game(), "action", "raise-taxes", times=0)
    assert texts(none["lines"]) == ["Nothing changes."]


def test_the_rulebooks_actions_in_its_words():
    state = game()
    assert texts(explain.choice_effect(state, "action", "borrow")["lines"]) == [
        "Add 2 Income cubes to Used.", "Add 1 Debt cube to the bag."]
    assert texts(explain.choice_effect(state, "action", "pay-loan")["lines"]) == [
        "Remove 2 Income cubes.", "Remove 1 Debt cube."]


def test_turning_a_card_names_its_other_face_and_its_cost():
    effect = explain.choice_effect(game(policies={"tax": "high-taxes"}), "policy", "turn:tax")
    turn = effect["lines"][0]
    assert (turn["card"], turn["face"]) == ("tax", "low-taxes")
    assert turn["params"]["face"] == "Low Taxes"
    assert texts(effect["lines"])[1:] == ["Lose 1 Popularity."]
    keep = explain.choice_effect(game(policies=True), "policy", "keep")
    assert texts(keep["lines"]) == ["Keep every policy card as it is."]


def test_funding_and_cuts_as_the_cards_in_force_make_them():
    state = game(policies={"policing": "civil-liberties"},
                 start={"bag": {"security": 2}, "current": ["crime", "income"],
                        "institutions": {"social-welfare": {"cuts": 2}}})
    fund = explain.choice_effect(state, "income", "fund:national-security")
    assert texts(fund["lines"]) == ["Place the Income cube on National Security.",
                                    "Gain 1 Popularity.", "Gain 1 Public Safety."]
    assert fund["changed_by"][0]["face"] == "civil-liberties"
    cuts = explain.choice_effect(state, "cuts", "social-welfare")
    assert texts(cuts["lines"])[0] == "Social Welfare suffers Cuts: step 3 of 3."
    assert texts(cuts["lines"])[-1] == "Lose 2 Health."
    first = explain.choice_effect(state, "cuts", "private-enterprise")
    assert texts(first["lines"]) == ["Private Enterprise suffers Cuts: step 1 of 3."]


def test_a_spend_from_current_first_says_so():
    state = game(start={"bag": {"security": 2}, "current": ["debt", "income"], "treasury": 1})
    assert "repay:current" in engine.decisions(state)[0].options
    effect = explain.choice_effect(state, "event", "repay:current")
    assert effect["lines"][-1]["variant"] == "current"


PLACEHOLDER = re.compile(r"{(\w+)}")


@pytest.mark.parametrize("config", [
    {"policies": True, "extra_institutions": True},
    {"scenario": "olympics", "levels": "ours"},
    {"scenario": "war-footing", "policies": {"tax": "low-taxes", "central-bank": "state-bank"}},
    {"scenario": "organised-crime", "country": "tinpot-dictatorship", "policies": True},
])
def test_every_option_of_every_decision_of_a_played_game_is_explained(config):
    """A random playout: every pending option has lines whose placeholders are all given."""
    rng = random.Random(3)
    state = engine.new_game(config, 2)
    for _step in range(250):
        if state.stage == OVER:
            break
        explained = explain.decision_effects(state)
        assert set(explained) == {d.id for d in engine.decisions(state)}
        for decision in engine.decisions(state):
            assert set(explained[decision.id]) == set(decision.options)
            for effect in explained[decision.id].values():
                assert effect["lines"]
                for line in effect["lines"]:
                    assert set(PLACEHOLDER.findall(line["text"])) <= set(line["params"])
        if state.stage == "event":
            key = data.pair_key(state.pair)
            effect = explain.event_effect(state, key)
            ids = {o["id"] for o in effect["options"]}
            assert {o.split(":")[0] for o in engine.decisions(state)[0].options
                    if not o.startswith(("fund-again", "decline"))} <= ids
        state, _ = engine.apply(state, rng.choice(engine.legal_actions(state, "government")))
