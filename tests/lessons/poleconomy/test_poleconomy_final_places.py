"""The end of the game shows places: the projector's final scores give each player a place
(tied players share it), and every phone shows its own score and place."""

from __future__ import annotations

import re

import pytest

from facilitator.lessons.poleconomy import presenters, script
from games.core import PUBLIC
from tests.lessons.poleconomy.test_poleconomy_lesson_screens import Lesson

pytestmark = pytest.mark.django_db


def game(scores: dict[str, int]) -> dict[str, object]:
    breakdown = {"cash": 0, "companies": 0, "advertisers": 0, "life_insurance": 0, "bonds": 0}
    best = max(scores.values())
    return {"over": True, "final": {
        "players": {n: {"score": s, "breakdown": breakdown} for n, s in scores.items()},
        "winners": [n for n, s in scores.items() if s == best], "all_lose": False}}


def test_tied_players_share_a_place_and_the_next_place_is_skipped() -> None:
    rows = presenters.final_rows(game({"Ana": 50, "Ben": 80, "Cai": 50, "Dee": 80, "Eli": 20}))
    assert [(r["name"], r["place_name"], r["tied"]) for r in rows] == [
        ("Ben", "1st", True), ("Dee", "1st", True), ("Ana", "3rd", True),
        ("Cai", "3rd", True), ("Eli", "5th", False)]


def test_the_projector_lists_places_and_each_phone_shows_its_own_score_and_place() -> None:
    lesson = Lesson(rounds=1)
    lesson.start()
    lesson.to_proposal()
    lesson.advance()  # the orders open
    lesson.advance()  # the close
    while lesson.now.stage == script.REPLAY:
        lesson.advance()
    projector = lesson.projector()
    assert "Final scores" in projector and ">1st" in projector
    final = presenters.final_rows(presenters.engine_views.view(lesson.state(), PUBLIC))
    for row in final:
        phone = lesson.phone_page(row["name"])
        assert f"Your score: ${row['score']}, {row['place_name']} of 3." in phone
    assert re.search(r"1st.*★", projector, re.S)
