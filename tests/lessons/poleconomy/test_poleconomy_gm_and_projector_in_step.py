"""The game master's page and the projector in step. The game
master's page rolling the election moves the projector and the phones to its result (by
party totals, from the engine's ``election_result``) and the console's button only goes on;
every screen says who has a majority as the state does; with no majority "Start the round"
is disabled with its reason beside it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from facilitator.lessons.poleconomy import options, script
from games.poleconomy.views import election_result
from tests.lessons.poleconomy.test_poleconomy_lesson_screens import Lesson

pytestmark = pytest.mark.django_db

BASIC_INCOMES = [[2, 3], [2, 4], [1, 3]]
NO_MAJORITY = [[2, 3], [2, 4], [1, 3]]  # 5, 6 and 4 votes of 15: 8 needed
ANA_WINS = [[6, 5], [1, 2], [1, 3]]  # 11 of 18


def pinned(monkeypatch: pytest.MonkeyPatch, election: list[list[int]]) -> Lesson:
    plain = options.table_config

    def config(names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return {**plain(names, options_), "dice": BASIC_INCOMES + election}

    monkeypatch.setattr(options, "table_config", config)
    lesson = Lesson()
    lesson.start()
    return lesson


def declare(lesson: Lesson, **post: Any) -> None:
    response = lesson.console.post(
        f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/act/",
        {"type": "master_parties", "table": "1", "expected": lesson.now.stage_id, **post})
    assert response.status_code == 302, response.content[:300]


def next_button(page: str) -> str:
    found = re.search(r'<button[^>]*value="next"[^>]*>[^<]*</button>', page)
    assert found, "the console has a next button"
    return found.group(0)


def test_the_game_masters_election_moves_the_projector_and_the_phones_to_its_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = pinned(monkeypatch, NO_MAJORITY)
    assert "Roll the election ▶" in lesson.projector()
    declare(lesson, party1="Blues", members1=["Ana", "Cai"])
    assert lesson.now.stage == script.PARTIES
    result = election_result(lesson.state())
    assert result["majority"] == "Blues"  # 5 + 4 of 15
    projector = lesson.projector()
    assert "Form your parties" not in projector and "Roll the election ▶" not in projector
    assert "On to the Government ▶" in projector
    assert "Election result" in projector and "Blues (Ana, Cai)" in projector
    assert "Blues has a majority: 9 of 15 votes." in projector
    for name in ("Ana", "Ben", "Cai"):
        phone = lesson.phone_page(name)
        assert "Blues has a majority: 9 of 15 votes." in phone, name
        assert "Nobody has a majority" not in phone and "Coalition with" not in phone, name
    assert "Blues has a majority: 9 of 15 votes." in lesson.master()
    lesson.advance()  # on to the Government: the stage only moves on
    assert lesson.now.stage == script.GOVERNMENT
    assert election_result(lesson.state()) == result


def test_with_no_majority_start_the_round_is_disabled_with_its_reason_and_phones_say_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = pinned(monkeypatch, NO_MAJORITY)
    lesson.advance()  # the console rolls the election: everyone stands alone
    assert lesson.now.stage == script.GOVERNMENT
    assert election_result(lesson.state())["majority"] is None
    projector = lesson.projector()
    button = next_button(projector)
    assert "Start the round" in button and "disabled" in button
    assert "Table 1 has no majority: confirm a coalition Government" in projector
    assert "Nobody has a majority: a Government needs 8 of 15 votes" in projector
    phone = lesson.phone_page("Ben")
    assert "Nobody has a majority: a Government needs 8 of 15 votes" in phone
    assert "Coalition with" in phone
    lesson.console.post(f"/teacher/lessons/{lesson.session.pk}/poleconomy/master/act/",
                        {"type": "master_government", "table": "1", "members": ["Ana", "Ben"],
                         "pm": "Ben", "expected": lesson.now.stage_id})
    button = next_button(lesson.projector())
    assert "disabled" not in button
    assert "Ben is Prime Minister." in lesson.phone_page("Cai")


def test_a_majority_reaches_every_phone_as_a_majority(monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = pinned(monkeypatch, ANA_WINS)
    lesson.advance()
    state = lesson.state()
    if state.phase == "government":  # a majority alone waits for the game master
        for name in ("Ben", "Cai"):
            assert "Nobody has a majority" not in lesson.phone_page(name)
    assert "disabled" not in next_button(lesson.projector())
