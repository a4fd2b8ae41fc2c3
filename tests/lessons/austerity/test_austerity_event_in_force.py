"""Projector, phones and handouts show an event as the policy cards in force make it, and say
which card changed it (issue 30, item 2): with Police State, Special Operations removes the
Crime cube and costs 1 Popularity, with no choice; with the Independent Central Bank, Early
Repayments' repayment also gives 1 Wealth."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from facilitator.lessons.austerity import presenters
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.debrief import story
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import Table
from games import austerity as engine
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import minister_of, pending, started, to_the_year

PRINTED = "Remove the Security and Crime cubes"
POLICE_STATE = "Special Operations: remove the Crime cube and lose 1 Popularity."


BANK = {"central-bank": "independent-bank"}
BANK_TEXT = ("Early Repayments: spending an Income cube to remove the Debt cube also gives "
             "1 Wealth.")
BANK_PRINTED = "You may spend an Income cube to remove the Debt cube."


def drawn(**config: Any) -> dict[str, Any]:
    """The public view just after Early Repayments was drawn (its choice waits)."""
    state = engine.new_game({"draws": [["debt", "income"]], **config}, 1)
    state, _e = engine.replay_actions(state, [{"type": "draw"}])
    return engine.view(state, "public")


def test_the_event_block_is_the_cards_with_the_card_named() -> None:
    block = presenters.event_block(drawn(policies=BANK))
    assert block is not None
    assert block["name"] == "Early Repayments" and block["text"] == BANK_TEXT
    assert block["changed"] == "changed by the policy card Independent Central Bank"
    plain = presenters.event_block(drawn())
    assert plain is not None and plain["text"] == BANK_PRINTED and plain["changed"] == ""
    with translation.override("es"):
        spanish = presenters.event_block(drawn(policies=BANK))
        assert spanish is not None and "Independent" not in spanish["changed"]
        assert "changed by" not in spanish["changed"] and spanish["changed"]


def test_the_phone_says_the_event_in_force_and_the_card() -> None:
    block = presenters.event_block(drawn(policies=BANK))
    page = render_to_string("austerity/phone/_year.html", {
        "table": {"year_done": False, "event": block, "decision": None, "minister": None,
                  "acting": None}, "decide": None, "actions": None})
    assert BANK_TEXT in page and "changed by the policy card Independent Central Bank" in page
    assert BANK_PRINTED not in page


@pytest.mark.django_db
def test_the_handout_tells_the_event_as_the_card_made_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)
    plain = LESSON.table_config
    monkeypatch.setattr(LESSON, "table_config", lambda names, options: {
        **plain(names, options), "draws": [["security", "crime"]]})
    session = to_the_year(started(5, seating="class", policies=True))
    table = session.tables.get()
    assert table.config["policies"] is True
    chair = minister_of(session, table)
    while pending(table).action != "draw":
        decision = pending(table)
        aus_services.decide(seat_id=chair.pk, decision=decision.id,
                            choice=decision.options[0], expected=fresh(session).stage_id)
    aus_services.decide(seat_id=chair.pk, decision=pending(table).id, choice="draw",
                        expected=fresh(session).stage_id)
    told = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
    draw = told.years[0].draws[0]
    assert draw.event_name == "Special Operations" and draw.event_text == POLICE_STATE
    assert draw.event_changed == "changed by the policy card Police State"
    page = render_to_string("austerity/reports/_year.html", {"y": told.years[0]})
    assert "(changed by the policy card Police State)" in page and PRINTED not in page
