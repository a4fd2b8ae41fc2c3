"""A phone never shows the round's outcome before the projector's replay
reaches it. Every screen shows the board as replayed so far (the engine's ``view_so_far``):
the phone's square, cash and prices at step 1 are those of before the round, and its player's
turn changes them only once the replay has shown that turn."""

from __future__ import annotations

import re
from typing import Any

import pytest

from facilitator.lessons.poleconomy import options, script
from facilitator.lessons.poleconomy.models import RoundBoard
from facilitator.log import record_actions
from games.poleconomy import views as engine_views
from games.poleconomy.elections import majority_bloc
from tests.lessons.poleconomy.test_poleconomy_lesson_screens import Lesson

pytestmark = pytest.mark.django_db

START = "Starting square"
FACT = re.compile(r"<dt>(My cash|I stand on|Prices)</dt><dd>(.*?)</dd>", re.S)


def facts(page: str) -> dict[str, str]:
    return {k: re.sub(r"<[^>]+>|\s+", " ", v).strip() for k, v in FACT.findall(page)}


def to_replay() -> Lesson:
    lesson = Lesson()
    lesson.start()
    lesson.to_proposal()
    lesson.advance()  # the orders open
    lesson.advance()  # the close: every player NMR; the replay shows step 1
    assert lesson.now.stage == script.REPLAY
    return lesson


def test_at_the_replays_first_step_every_phone_shows_the_board_before_the_round() -> None:
    lesson = to_replay()
    before = {p["name"]: p for p in RoundBoard.objects.get().board["players"]}
    after = {p.name: p for p in lesson.state().players}
    moved = [n for n in before if before[n]["position"] != after[n].position]
    assert moved, "the NMR rule moves every player off Start"
    for name in before:
        shown = facts(lesson.phone_page(name))
        assert shown["I stand on"] == START, (name, shown)
        assert shown["My cash"] == f"${before[name]['cash']}", (name, shown)
        assert "×1" in shown["Prices"]
    assert START in lesson.projector()


def test_a_players_turn_reaches_their_phone_when_the_replay_shows_it_and_not_before() -> None:
    lesson = to_replay()
    table = lesson.table
    order = script.beats(lesson.state(), 1)[0][0]["order"]  # round 1's movement order
    last = order[-1]
    while lesson.now.stage == script.REPLAY:
        shown = script.beats_shown(lesson.now)
        expected = engine_views.view_so_far(
            table.config, table.seed, record_actions(table), last, shown + 1, 1)
        me = next(p for p in expected["players"] if p["name"] == last)
        page = facts(lesson.phone_page(last))
        assert page["My cash"] == f"${me['cash']}", shown
        if shown + 1 < len(order) + 1:  # the last player's turn is not shown yet
            assert page["I stand on"] == START, shown
        lesson.advance()
    assert facts(lesson.phone_page(last))["I stand on"] != START


def test_during_the_replay_no_phone_is_asked_for_a_coalition_the_projector_has_not_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 1 ends in an election with no majority: until the replay shows it, the phones
    say "Watch the projector", never "Nobody has a majority"."""
    plain = options.table_config

    def staged(names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        # Ana rolls 1 + 3 onto +1: space 8, an Election; then 5, 6 and 4 votes, no majority
        return {**plain(names, options_), "dice": [[1, 3], [2, 3], [2, 4], [1, 3]], "start": {
            "basic_incomes": dict.fromkeys(names, 6), "pm": names[0], "first": names[0],
            "index": {"space": 7}}}

    monkeypatch.setattr(options, "table_config", staged)
    lesson = Lesson()
    lesson.start()
    lesson.advance()  # no parties to form: the stated situation has a Government
    lesson.advance()
    assert lesson.now.stage == script.PROPOSAL
    lesson.advance()  # the orders open
    lesson.phone("Ana").post("/play/act/", {"type": "order_form", "move": "roll:",
                                            "expected": lesson.now.stage_id})
    lesson.advance()  # the close
    state = lesson.state()
    assert state.phase == "government" and majority_bloc(state) is None
    while lesson.now.stage == script.REPLAY:
        for name in ("Ana", "Ben", "Cai"):
            page = lesson.phone_page(name)
            assert "Watch the projector" in page, name
            assert "Coalition with" not in page and "majority" not in page, name
        lesson.advance()
    assert "Coalition with" in lesson.phone_page("Ben")
