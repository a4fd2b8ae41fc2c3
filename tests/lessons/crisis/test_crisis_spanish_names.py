"""A Spanish class reads Crisis in Spanish: Company names by type and
number («Granja 03», never "FARM 03"), resources and units through the catalogue on every
button, the planner's reasons, and the class handout's VP per team («Equipo A: 8 PV»)."""

from __future__ import annotations

import html

import pytest
from django.utils import translation

from facilitator.lessons.crisis import costs, debrief
from facilitator.log import save_state
from games.crisis import previews
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    captain,
    human_table,
    playable,  # noqa: F401 (autouse)
    started,
    state_of,
    to_stage,
    waiting,
)
from tests.lessons.crisis.test_crisis_lesson_screens import phone_html

pytestmark = pytest.mark.django_db


def test_a_spanish_captain_reads_company_names_and_their_costs_in_spanish() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    state = state_of(table)
    state.board_companies[0] = "FARM 03"
    save_state(table, state)
    with translation.override("es"):
        page = phone_html(captain(session, table, team))
        line = costs.company(previews.company_preview(state_of(table), team, "FARM 03"))
    assert "Granja 03: 5 créditos, 1 PV" in page
    assert "FARM 03" not in page.replace('value="FARM 03"', "")
    assert line.startswith("Cuesta 5 créditos · Necesita ") and "Energía cada ronda" in line
    assert line.endswith("Da 1 PV")


def test_the_class_handout_says_each_teams_vp_with_its_name() -> None:
    session = to_stage(advance(started(4, team_size=2)), "evaluation")
    session.language = "es"
    page = html.unescape(debrief.DEBRIEF.class_html(session, paper="a4", language="es"))
    vp = state_of(human_table(session)).history[0]["evaluation"]["vp"]
    first = next(iter(vp.values()))
    assert f"Equipo A: {first} PV" in page
