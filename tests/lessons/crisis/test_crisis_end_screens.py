"""The round Axia goes bankrupt shows its Evaluation (the goal and
each team's result), the track's marker stays on the track below 0, the step is said in
words, the final ranking says who met the last goal, the console offers the final result
(not another round) and the final screen says what the teacher can do next."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import selectors
from facilitator.lessons.crisis import presenters
from facilitator.log import save_state
from facilitator.screens import projector_context
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    human_table,
    playable,  # noqa: F401 (autouse)
    started,
    state_of,
    to_stage,
)

pytestmark = pytest.mark.django_db


def console_html(session: Any) -> str:
    return html.unescape(render_to_string(
        "facilitator/_console_live.html", projector_context(selectors.projector_view(session))))


def bankrupt_round(goal: int = 60) -> Any:
    """A lesson of one table whose first Evaluation leaves Axia bankrupt (a goal nobody
    reaches with the track at 1)."""
    session = advance(started(4, team_size=2))
    table = human_table(session)
    state = state_of(table)
    state.status, state.goals = 1, [goal] * len(state.goals)
    save_state(table, state)
    return to_stage(session, "evaluation")


def test_the_bankrupt_rounds_evaluation_shows_the_goal_and_every_teams_result() -> None:
    session = bankrupt_round()
    table = human_table(session)
    state = state_of(table)
    assert state.status < 0
    page = console_html(session)
    assert "Goal: 60 VP" in page
    for name, vp in state.history[0]["evaluation"]["vp"].items():
        assert f"{vp} VP" in page and f"✖ {vp - 60}" in page, name
    assert "Axia went bankrupt: the game at this table is over." in page
    assert "Axia's Financial Status down" in page and f"1 → {state.status}" in page
    assert "▼ " not in re.sub(r"<span aria-hidden=\"true\">▼</span>", "", page)


def test_the_tracks_marker_never_vanishes_below_0() -> None:
    cells = presenters.track(-21)
    assert [c["n"] for c in cells if c["on"]] == [0]
    assert cells[0]["below"]
    assert [c["n"] for c in presenters.track(50) if c["on"]] == [45]
    page = console_html(bankrupt_round())
    assert 'class="z-red on below">▼</li>' in page


def test_after_a_bankruptcy_next_is_the_final_result_not_another_round() -> None:
    session = bankrupt_round()
    page = console_html(session)
    assert "Final result ▶" in page and "Next round" not in page


def test_the_final_ranking_says_who_met_the_last_goal_and_what_comes_next() -> None:
    session = advance(bankrupt_round())
    assert session.stage == "final"
    page = console_html(session)
    assert "Last goal" in page and "missed: cannot win" in page
    assert "only teams that met the last goal (60 VP) can win." in page
    assert "The game is over. Next: talk it through with the class" in page
    assert "Handouts and records" in page


def test_the_projector_never_cuts_the_lessons_title() -> None:
    """The title wraps rather than ending in "…" at 1280 px (the browser test's screenshots
    and fit check see the page itself)."""
    css = (Path(__file__).resolve().parents[3] / "facilitator" / "lessons" / "crisis" /
           "static" / "crisis" / "crisis.css").read_text(encoding="utf-8")
    rules = [r for r in re.findall(r"([^{}]+)\{([^}]*)\}", css) if ".title" in r[0]]
    assert rules
    for _selector, body in rules:
        assert "ellipsis" not in body and "nowrap" not in body


def test_after_a_bankruptcy_the_teams_that_cannot_win_are_listed_by_score() -> None:
    scores = {name: {"score": score, "place": place, "eligible": place is not None,
                     "winner": place == 1,
                     "score_breakdown": {"vp": score, "credits": 0, "loans": 0, "penalty": 0}}
              for name, score, place in (("Team A", 20, None), ("Team B", 24, 1),
                                         ("Bot 2", 22, None), ("Bot 1", 18, None))}
    rows = presenters.ranking(["Team A", "Team B", "Bot 2", "Bot 1"], scores)
    assert [r["letter"] for r in rows] == ["B", "C", "A", "D"]


def test_a_step_past_the_top_of_the_track_says_the_track_stops_there() -> None:
    game = {"players": {"Team A": {}, "Team B": {}},
            "history": [{"round": 1, "status_start": 43, "status": 45,
                         "evaluation": {"goal": 10, "delta": 7, "vp": {"Team A": 14, "Team B": 13},
                                        "differences": {"Team A": 4, "Team B": 3}}}]}
    evaluation = presenters.evaluation_of(game, 1)
    page = render_to_string("crisis/_track_move.html", {"e": evaluation})
    assert "up 7 steps: 43 → 45 (the track stops at 45)" in html.unescape(page)
    game["history"][0].update(status_start=30, status=37)
    page = render_to_string("crisis/_track_move.html", {"e": presenters.evaluation_of(game, 1)})
    assert "stops at" not in page
