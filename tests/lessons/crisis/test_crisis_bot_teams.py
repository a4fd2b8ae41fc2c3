"""The teacher can ask for whole rival bot teams, so a class of 5 plays
against two rival companies (the option ``bot_teams``; the lobby says what Start makes)."""

from __future__ import annotations

import pytest

from facilitator import selectors, services
from facilitator.errors import ServiceError
from facilitator.lessons.crisis.forms import OptionsForm
from facilitator.lessons.crisis.lesson import LESSON
from facilitator.lessons.crisis.seating import seating_plan
from facilitator.models import Seat
from facilitator.screens import projector_context
from games import crisis as engine
from tests.facilitator.lesson import fresh, join, make_teacher
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    playable,  # noqa: F401 (autouse)
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


def test_a_class_of_5_plays_against_two_rival_bot_companies() -> None:
    session = started(5, team_size=3, bot_teams=2)
    (table,) = session.tables.all()
    state = state_of(table)
    assert len(state.names) == 4
    bots = Seat.objects.filter(table=table, is_bot=True)
    assert bots.count() == 2
    bot_teams = {b.player_name for b in bots}
    assert len(bot_teams) == 2 and bot_teams <= set(state.names)
    students = Seat.objects.filter(table=table, is_bot=False)
    assert not {s.player_name for s in students} & bot_teams  # no bot in a students' team
    assert sorted(students.values_list("player_name", flat=True)).count(
        students.first().player_name) in (2, 3)
    for _n in range(6):  # the bot teams play their turns; the round ends
        session = advance(session)
        if session.stage == "evaluation" or engine.is_over(state_of(table)):
            break
    assert session.stage == "evaluation"
    assert len(state_of(table).history[0]["evaluation"]["vp"]) == 4


def test_bot_teams_seat_beside_every_table_of_students() -> None:
    plan = seating_plan(20, None, 3, 2)
    assert plan is not None
    assert all(p[-2:] == (1, 1) for p in plan.parties)
    assert all(2 <= len(p) <= 5 for p in plan.parties)
    assert sum(sum(p[:-2]) for p in plan.parties) == 20
    assert plan.bots == 2 * len(plan.tables)


def test_the_lobby_says_start_adds_the_bot_teams() -> None:
    session = services.session_create(owner=make_teacher(), game="crisis",
                                      options={"team_size": 3, "bot_teams": 2})
    join(session, 5)
    page = projector_context(selectors.projector_view(fresh(session)))
    assert page["seating"]["text"] == (
        "Start makes 1 table: the students' teams (3 + 2) and 2 bot teams.")
    assert not page["next_blocked"]


def test_bot_teams_need_bots_allowed_and_the_form_offers_them() -> None:
    with pytest.raises(ServiceError):
        LESSON.check_options({**LESSON.default_options, "bot_teams": 2, "bots_allowed": False})
    with pytest.raises(ServiceError):
        LESSON.check_options({**LESSON.default_options, "bot_teams": 5})
    form = OptionsForm(data={"team_size": 3, "difficulty": "medium", "rounds": 7,
                             "turn_seconds": 30, "production_seconds": 90,
                             "bots_allowed": "on", "bot_teams": 2})
    assert form.is_valid(), form.errors
    LESSON.check_options({**LESSON.default_options, **form.options()})
    assert form.options()["bot_teams"] == 2
