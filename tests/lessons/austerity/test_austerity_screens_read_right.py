"""Screens that read right: an unfinished country says the lesson ended after its year (the
header's year, not the engine's next one); a unanimous tally says so once; a settled event
stands apart from the next, unrelated decision; a table done with its year shows the board as
its last draw left it until the teacher's Year End, and says so."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import selectors
from facilitator.lessons.austerity import presenters, script
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.models import ClassSession
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    advance,
    minister_answers,
    seats_of,
    started,
    state_of,
    to_the_year,
)


@pytest.fixture()
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def words_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def phone_text(seat: Any) -> str:
    ctx = presenters.phone_context(selectors.seat_view(seat))
    return words_of(render_to_string("austerity/phone/_screen.html", ctx))


def projector_table(session: ClassSession) -> tuple[dict[str, Any], str]:
    ctx = presenters.projector_context(selectors.projector_view(fresh(session)))
    table = ctx["tables"][0]
    return table, words_of(render_to_string("austerity/projector/_now.html",
                                            {**ctx, "table": table}))


def year_one_played() -> ClassSession:
    session = to_the_year(started(5))
    minister_answers(session, session.tables.get())
    return fresh(session)


@pytest.mark.django_db
def test_an_unfinished_country_says_the_lesson_ended_after_its_year(playable: None) -> None:
    session = advance(year_one_played())
    assert session.stage == script.YEAR_END
    aus_services.lesson_end_now(session=session, expected=session.stage_id, confirm=True)
    table = fresh(session).tables.get()
    assert state_of(table).year == 2  # the engine already counts the next year
    text = phone_text(seats_of(table)[1])
    assert "The lesson ended after year 1, before the game did" in text
    assert "Scored on the tracks as they stand:" in text
    assert "not over" not in text and "Year 2" not in text
    _table, card = projector_table(session)
    assert "The lesson ended after year 1, before the game did" in card


def test_a_unanimous_tally_says_it_once() -> None:
    item = presenters.item_block(script.TAXES, "1", 5, 5, tally={"0": 0, "1": 5, "2": 0})
    html = words_of(render_to_string("austerity/projector/_items.html",
                                     {"table": {"items": [item]}}))
    assert html == "Raise taxes: once (5 of 5 voted, all the same way)"
    split = presenters.item_block(script.TAXES, "1", 5, 5, tally={"0": 2, "1": 3})
    html = words_of(render_to_string("austerity/projector/_items.html",
                                     {"table": {"items": [split]}}))
    assert html == "Raise taxes: once (5 of 5 voted: no 2, once 3)"


def test_a_settled_event_stands_apart_from_the_next_decision() -> None:
    event = {"name": "Tax Evasion", "text": "Remove the Income cube.", "changed": "",
             "cubes": []}
    cuts = {"id": "y1.d1.cuts", "kind": "cuts", "prompt": "Choose an institution to suffer Cuts.",
            "options": [{"value": "health", "label": "Cuts to Health", "short": "Health",
                         "effect": ""}]}
    table = {"number": 1, "year_done": False, "event": event, "decision": cuts,
             "minister": None}
    phone = words_of(render_to_string("austerity/phone/_year.html", {
        "table": table, "decide": cuts, "actions": None, "session": {"stage_id": "x"}}))
    assert phone.index("Event · settled") < phone.index("Your next decision") \
        < phone.index("Choose an institution")
    projector = render_to_string("austerity/projector/_now.html", {
        "session": {"stage": "year"}, "table": table, "year": 1})
    assert 'event-card settled' in projector and "Event · settled" in projector
    on_event = {**table, "decision": {**cuts, "kind": "event"}}
    html = render_to_string("austerity/phone/_year.html", {
        "table": on_event, "decide": on_event["decision"], "actions": None,
        "session": {"stage_id": "x"}})
    assert "settled" not in html and "Your next decision" not in html


@pytest.mark.django_db
def test_a_table_done_with_its_year_shows_no_year_end_before_the_teacher(
        playable: None) -> None:
    session = year_one_played()
    assert session.stage == script.YEAR
    real = state_of(session.tables.get())
    assert real.year == 2 or real.stage == "policy"
    table, card = projector_table(session)
    assert table["year_done"] and table["year_end_held"]
    assert table["used_total"] > 0  # Used not yet back in the bag
    assert table["bag_total"] == 0
    assert "Year End comes when the teacher moves on" in card
    # the only table is done: nobody to wait for
    assert "Year 1 is done" in card and "Waiting for the other tables" not in card
    phone = phone_text(seats_of(session.tables.get())[1])
    assert "Year 1 is done" in phone and "Year End comes when the teacher moves on" in phone
    session = advance(session)  # the teacher's Year End
    table, _card = projector_table(session)
    assert not table["year_end_held"] and table["used_total"] == 0
