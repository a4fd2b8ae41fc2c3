"""Every budget ballot option and every Finance Minister choice says what it does, in the
rulebook's words, in one line, as the policy cards in force make it; a policy turn names the
card's other face."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from facilitator.lessons.austerity import presenters, script
from games import austerity as engine

HIGH_TAXES = {"tax": "high-taxes"}
LOW_TAXES = {"tax": "low-taxes"}


def board(**config: Any) -> dict[str, Any]:
    """The public view of a new game (no draw yet)."""
    return engine.view(engine.new_game(config, 1), "public")


def ballot(item: str, options: list[str], game: dict[str, Any]) -> dict[str, Any]:
    """The phone's budget ballot of ``item`` at a table showing ``game``."""
    table = {"number": 1, "game": game, "seats": [], "minister": None,
             "screens": {"vote": {"decision": "y1.taxes", "voted": 0, "of": 5,
                                  "options": options}}}
    session = {"stage": script.budget_stage(item), "round": 1}
    vote = presenters.table_context(table, session)["vote"]
    assert vote is not None
    return vote


def effects(vote: dict[str, Any]) -> dict[str, str]:
    return {o["value"]: o["effect"] for o in vote["options"]}


def test_raise_taxes_says_which_cubes_go_into_the_bag() -> None:
    said = effects(ballot(script.TAXES, ["0", "1", "2"], board()))
    assert said["0"] == ""
    assert said["2"] == "Add 2 Income cubes to the bag. Add 2 Crime cubes to the bag."
    said = effects(ballot(script.TAXES, ["0", "1"], board(policies=HIGH_TAXES)))
    assert said["1"] == ("Add 2 Income cubes to the bag. Add 2 Crime cubes to the bag. "
                         "(with High Taxes)")


def test_borrowing_and_paying_a_loan_say_their_cubes() -> None:
    said = effects(ballot(script.BORROW, ["0", "1"], board()))
    assert said["1"] == "Add 2 Income cubes to Used. Add 1 Debt cube to the bag."
    said = effects(ballot(script.LOAN, [script.NO, script.YES], board()))
    assert said[script.YES] == "Remove 2 Income cubes. Remove 1 Debt cube."


def test_a_policy_turn_names_the_other_face_and_its_cost() -> None:
    vote = ballot(script.POLICY_ITEM, [script.KEEP, "turn:tax"], board(policies=LOW_TAXES))
    turn = vote["options"][1]
    assert turn["label"] == "Turn Tax to High Taxes"
    # the label names the face; the line says its rule, then the cost
    assert turn["effect"].startswith("Raise Taxes adds two Income cubes")
    assert turn["effect"].endswith("Lose 1 Popularity.")


def test_the_phone_ballot_shows_each_effect_in_spanish_too() -> None:
    game = board(policies=HIGH_TAXES)
    page = render_to_string("austerity/phone/_ballot.html", {
        "vote": ballot(script.TAXES, ["0", "1"], game), "can": {}, "session": {}})
    assert 'class="effect"' in page and "(with High Taxes)" in page
    with translation.override("es"):
        vote = ballot(script.TAXES, ["0", "1"], game)
        spanish = vote["options"][1]["effect"]
    assert spanish and "Income" not in spanish and "with" not in spanish


def test_every_minister_choice_says_what_it_does() -> None:
    state = engine.new_game({"draws": [["debt", "income"]]}, 1)
    state, _e = engine.replay_actions(state, [{"type": "draw"}])
    game = engine.view(state, "public")
    for decision in game["decisions"]:
        block = presenters.decision_block(decision, game)
        for option in block["options"]:
            assert option["effect"], (decision["action"], option["value"])
    page = render_to_string("austerity/phone/_year.html", {
        "table": {"year_done": False, "event": presenters.event_block(game)},
        "decide": presenters.decision_block(game["decisions"][0], game),
        "actions": None, "session": {"stage_id": "x"}})
    assert page.count('class="effect"') == len(game["decisions"][0]["options"])


def test_funding_an_institution_says_its_reward_as_the_cards_make_it() -> None:
    state = engine.new_game({"draws": [["income", "welfare"]]}, 1)
    state, _e = engine.replay_actions(state, [{"type": "draw"}])
    game = engine.view(state, "public")
    income = next(d for d in game["decisions"] if d["action"] == "income")
    fund = next(o for o in presenters.decision_block(income, game)["options"]
                if o["value"].startswith("fund:"))
    assert fund["label"].startswith("Fund ") and ":" not in fund["label"]
    assert fund["effect"].startswith("Place the Income cube on ")
