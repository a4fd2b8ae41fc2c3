"""Crisis's screens rendered from real lessons: the projector board at every beat of a round
(the Event, whose turn and its timer, the Crisis track, Evaluation without the next Event, the
final ranking) and a team's phone (its own board and hand, the captain's buttons, a teammate's
suggestions, the production planner with the engine's preview and its reason)."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from facilitator import parties, selectors
from facilitator.lessons.crisis import services as crisis
from facilitator.lessons.crisis import turns
from facilitator.lessons.crisis.lesson import LESSON
from facilitator.lessons.crisis.models import HeldMove
from facilitator.screens import phone_context, projector_context
from games import crisis as engine
from games.crisis import data
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    captain,
    human_table,
    place,
    playable,  # noqa: F401 (autouse: lessons of the module may be created)
    started,
    state_of,
    waiting,
)

pytestmark = pytest.mark.django_db


def console_html(session: Any) -> str:
    view = selectors.projector_view(session)
    return html.unescape(render_to_string("facilitator/_console_live.html",
                                          projector_context(view)))


def phone_html(seat: Any) -> str:
    return html.unescape(render_to_string("play/_screen.html",
                                          phone_context(selectors.seat_view(seat))))


def test_the_projector_shows_the_event_the_track_and_every_teams_figures() -> None:
    session = started(4, team_size=2)
    state = state_of(human_table(session))
    page = console_html(session)
    event = data.EVENT_CARDS[state.event]
    assert event.name in page and "Event in force" in page
    assert f"<strong>{state.status}</strong>" in page and "Green zone" in page
    for name in state.names:
        assert name in page
    assert "Open Planning" in page


def test_the_projector_says_whose_turn_it_is_with_the_turns_timer() -> None:
    session = advance(started(4, team_size=2, turn_seconds=45))
    table = human_table(session)
    letter = "AB"[state_of(table).names.index(waiting(table).deciders[0])]
    page = console_html(session)
    assert f'<span class="team team-{letter}">{letter}</span> to play' in page
    assert 'data-left="45"' in page or 'data-left="44"' in page
    assert "Time's up: play the default for late turns" in page
    place(session, table, "loan")
    assert "Loan</span> <span class=\"team team-" in console_html(session)


def test_evaluation_shows_the_rounds_result_and_not_the_next_event() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "loan")
    session = advance(session)
    assert session.stage == "evaluation"
    state = state_of(table)
    page = console_html(session)
    evaluation = state.history[0]["evaluation"]
    assert f"Goal: {evaluation['goal']} VP" in page
    assert "Event in force" not in page
    if state.event:
        assert data.EVENT_CARDS[state.event].name not in page  # round 2's Event, not shown yet
    seat = captain(session, table, state.names[0])
    phone = phone_html(seat)
    assert f"This round's goal: {evaluation['goal']} VP" in phone
    assert "Your team's board" not in phone  # it already holds round 2's interest


def test_the_captains_phone_has_a_button_per_legal_space_and_a_teammate_suggests() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    chief = captain(session, table, team)
    mate = next(s for s in parties.members(table.seats.all(), team) if s != chief)
    mine = phone_html(chief)
    assert "You are your team's captain this round." in mine
    assert mine.count('name="type" value="move"') >= len(waiting(table).options)
    assert "Government Subsidy" in mine
    theirs = phone_html(mate)
    assert 'value="suggest"' in theirs and 'value="move"' not in theirs
    crisis.suggest_submit(seat_id=mate.pk, decision=waiting(table).id,
                          action={"type": "place", "space": "leadership"})
    assert f"<strong>{mate.nickname}</strong>: Leadership" in phone_html(chief)
    assert "Play this" in phone_html(chief)


def test_a_teams_phone_shows_its_own_hand_and_another_team_never_sees_it() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    state = state_of(table)
    first, second = state.names
    chief = captain(session, table, first)
    from facilitator.log import save_state

    state.player(first).hand = ["tax-break"]
    save_state(table, state)
    assert "Tax break" in phone_html(chief)
    assert "Tax break" not in phone_html(captain(session, table, second))
    assert "Tax break" not in console_html(session)


def test_the_planner_shows_the_engines_preview_and_its_reason_in_plain_words() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "company-1")
    place(session, table, "exports")
    session = advance(session)
    assert session.stage == "production"
    state = state_of(table)
    owner = next(p for p in state.players if p.companies)
    decision = next(d for d in engine.decisions(state) if owner.name in d.deciders)
    chief = captain(session, table, owner.name)
    crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="company",
                       company=owner.companies[0])
    page = phone_html(chief)
    assert "needs these Employees to work" in page
    assert "disabled" in page and "Fix the plan first" in page
    crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="clear")
    page = phone_html(chief)
    assert "This plan fails: no Company works this round" in page
    assert json.dumps({"type": "produce", "plan": []}, sort_keys=True) in page


def test_the_final_screen_ranks_the_teams() -> None:
    session = started(4, team_size=2, here=False, rounds=5, difficulty="easy")
    for _n in range(60):
        if session.stage == "final":
            break
        session = advance(session)
    page = console_html(session)
    assert "crisis-ranking" in page and "Final score" in page


def test_the_console_page_and_the_phone_page_render_over_http() -> None:
    session = advance(started(4, team_size=2))
    teacher = Client()
    teacher.force_login(session.owner)
    page = teacher.get(f"/teacher/lessons/{session.pk}/")
    assert page.status_code == 200 and b"crisis.css" in page.content
    assert turns.round_of(session) == 1 and LESSON.templates["phone"]


def test_a_table_whose_game_ended_says_so_while_the_lesson_goes_on() -> None:
    from facilitator.log import save_state

    session = advance(started(12, team_size=2))  # two tables of three teams
    first, second = session.tables.order_by("number")
    state = state_of(first)
    state.phase, state.bankrupt, state.status = "over", True, -3
    save_state(first, state)
    page = console_html(session)
    assert page.count("the game at this table is over") == 1
    assert "to play" in page  # the other table plays on
    phone = phone_html(captain(session, first, state.names[0]))
    assert "The game at your table is over." in phone
    assert "The game at your table is over." not in phone_html(
        captain(session, second, state_of(second).names[0]))


def test_the_lobby_says_how_start_seats_the_teams_and_offers_the_bots_that_complete_them(
) -> None:
    from facilitator import services
    from tests.facilitator.lesson import fresh, join, make_teacher

    session = services.session_create(owner=make_teacher(), game="crisis",
                                      options={"team_size": 2})
    page = console_html(session)
    assert "Wait for the students to join." in page and 'value="start"' in page
    assert f"{session.join_code[:3]} {session.join_code[3:]}" in page
    join(session, 4)
    page = console_html(fresh(session))
    assert "Start makes 1 table: 2 teams of 2." in page and "disabled" not in page
    services.seat_join(code=session.join_code, nickname="Quinn")
    page = console_html(fresh(session))
    assert "5 students cannot be split into whole teams of 2. Choose:" in page
    assert 'name="fill" value="bots">Add 1 bot and start (3 teams)</button>' in page
    assert "Choose below how to fill the gaps." in page


def test_without_bots_the_lobby_says_why_start_cannot_seat_the_class() -> None:
    from facilitator import services
    from tests.facilitator.lesson import fresh, join, make_teacher

    session = services.session_create(owner=make_teacher(), game="crisis",
                                      options={"team_size": 2, "bots_allowed": False})
    join(session, 5)
    page = console_html(fresh(session))
    assert "5 students cannot be split into teams of 2" in page
    assert 'name="fill"' not in page
    assert "These students cannot be seated in whole teams." in page


def test_the_planners_reason_names_the_employees_in_the_phones_language() -> None:
    from django.utils import translation

    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "company-1")
    place(session, table, "exports")
    session = advance(session)
    state = state_of(table)
    owner = next(p for p in state.players if p.companies)
    decision = next(d for d in engine.decisions(state) if owner.name in d.deciders)
    chief = captain(session, table, owner.name)
    crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="company",
                       company=owner.companies[0])
    with translation.override("es"):
        page = phone_html(chief)
    reason = page.split('<p class="error">', 1)[1].split("</p>", 1)[0]
    assert "necesita estos Empleados para funcionar" in reason
    for english in ("worker", "farmer", "engineer", "banker"):
        assert english not in reason, reason


def test_once_the_rounds_last_move_is_held_the_projector_says_the_teacher_evaluates() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "company-1")
    place(session, table, "exports")
    while session.stage != "exports":
        session = advance(session)
    for _n in range(20):
        decision = waiting(table)
        chief = captain(session, table, decision.deciders[0])
        if crisis.move_submit(seat_id=chief.pk, decision=decision.id, action={"type": "pass"},
                              expected=session.stage_id) == "held":
            break
    page = console_html(session)
    assert "Round complete: the teacher evaluates it." in page
    assert "to play" not in page and "data-timer" not in page


def test_a_bot_teams_round_ending_move_waits_and_the_projector_says_so() -> None:
    session = advance(started(2, "bots", team_size=2))  # a team of students and one of bots
    table = human_table(session)
    session = advance(session)  # Planning closes with defaults; the bots bought a Company
    assert session.stage == "production"
    (decision,) = turns.stage_decisions(session, state_of(table))
    assert captain(session, table, decision.deciders[0]).is_bot
    assert not HeldMove.objects.exists()  # its plan would end the round: it waits
    page = console_html(session)
    assert "Round complete: the teacher evaluates it." in page
    assert "Still planning" not in page


def test_at_the_end_each_phone_shows_its_own_teams_place_and_score() -> None:
    from facilitator.lessons.crisis import scoring

    session = started(4, team_size=2, here=False, rounds=5, difficulty="easy")
    while session.stage != "final":
        session = advance(session)
    table = human_table(session)
    scores = scoring.final_scores(table, state_of(table), 5)
    for team, score in scores.items():
        page = phone_html(captain(session, table, team))
        if score.get("place"):
            assert f"Your team: place {score['place']} · score {score['score']}" in page
        else:
            assert f"Your team: score {score['score']} · not eligible to win" in page
        assert "captain this round" not in page


def test_export_buttons_name_the_contract_as_the_projector_numbers_it() -> None:
    from facilitator.lessons.crisis import words

    game = {"board": {"contracts": ["food-4", "minerals-6", "food-8"]}}
    labels = [words.move({"type": "export", "contract": slot, "amount": 1}, game)
              for slot in (0, 2)]
    assert labels == ["Contract 1: export 1 Food", "Contract 3: export 1 Food"]
    assert words.move({"type": "export", "contract": "food-8", "amount": 2}, game) == \
        "Export 2 Food on a contract"
