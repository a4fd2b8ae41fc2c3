"""The debrief tells the story of the game: what each team bought, hired, produced, exported
and sold on the black market, its loans, the crackdowns, the Financial Status round by round
against the Austerity Plan's goals and where Axia was saved or lost; each student's page says
what their team did and asks two questions about its own choices. Handouts count students,
never bots: a bot team is named as one. All from the record replayed (nothing stored)."""

from __future__ import annotations

import html
import re

import pytest

from facilitator.lessons.crisis import debrief
from facilitator.models import ClassSession, Seat
from games import crisis as engine
from tests.lessons.crisis.test_crisis_lesson import (
    human_table,
    playable,  # noqa: F401 (autouse)
    started,
    state_of,
    to_stage,
)
from tests.lessons.crisis.test_crisis_lesson_debrief import finished

pytestmark = pytest.mark.django_db


def with_bot_teams(difficulty: str = "easy", bot_teams: int = 3) -> ClassSession:
    """Four students in two teams against greedy bot teams: the bots sell on the black market
    and, with seed 5, Axia goes bankrupt before round 7."""
    return finished(rounds=7, difficulty=difficulty, bot_policy="greedy", bot_teams=bot_teams)


def text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_each_teams_story_adds_up_to_the_engines_game() -> None:
    session = with_bot_teams()
    table = human_table(session)
    state = state_of(table)
    start = engine.new_game(table.config, table.seed)
    (story,) = debrief.lesson_story(session)
    assert story.bankrupt and story.played == len(state.history)
    for team in story.teams:
        bought = [c for t in team.rounds for c, _paid in t.bought]
        assert sorted(bought) == sorted(set(state.player(team.name).companies)
                                        - set(start.player(team.name).companies))
        sold = sum(e["amount"] for h in state.history for e in h.get("export_log", [])
                   if e["player"] == team.name and e["move"] == "black_market")
        assert team.smuggled == sold
        assert team.vp_by_round == [h["evaluation"]["vp"][team.name] for h in state.history]
        assert team.track_share == sum(h["evaluation"]["differences"][team.name]
                                       for h in state.history)
    assert any(team.smuggled for team in story.teams)


def test_the_class_handout_tells_what_each_team_did_and_where_axia_was_lost() -> None:
    session = with_bot_teams()
    (story,) = debrief.lesson_story(session)
    page = text(debrief.DEBRIEF.class_html(session, paper="a4", language="en"))
    assert "Where Axia was saved or lost" in page and "What each team did" in page
    assert f"Axia went bankrupt in round {story.rounds[-1]['round']}" in page
    assert "Financial Status against the Austerity Plan's goals" in page
    assert "data:image/svg+xml" in debrief.DEBRIEF.class_html(session, paper="a4", language="en")
    crackdown = next(r for r in story.rounds if r["crackdown"])
    assert f"sold on the black market: a crackdown, the track {crackdown['crackdown']} steps " \
           "down." in page
    assert "The black market cost Axia" in page
    seller = next(team for team in story.teams if team.smuggled)
    assert "Black market" in dict(seller.totals())
    buyer = next(team for team in story.teams if team.companies)
    assert "Companies bought" in dict(buyer.totals())


def test_handouts_count_students_and_name_a_bot_team_as_one() -> None:
    session = with_bot_teams()
    page = text(debrief.DEBRIEF.class_html(session, paper="a4", language="en"))
    students = Seat.objects.filter(session=session, is_bot=False, removed=False).count()
    assert students == 4
    assert re.search(r"Students\s+4\b", page)
    assert re.search(r"Teams\s+2\s+\+ 3 bot teams", page)
    assert page.count("(bot team)") >= 3 and "bots only" in page
    for bot in Seat.objects.filter(session=session, is_bot=True):
        assert bot.nickname not in page


def test_a_students_page_says_what_the_team_did_and_asks_two_questions_about_it() -> None:
    session = with_bot_teams()
    (story,) = debrief.lesson_story(session)
    seat = Seat.objects.filter(session=session, is_bot=False).order_by("position").first()
    page = text(debrief.DEBRIEF.students_html(session, paper="a4", seat_id=seat.pk, language="en"))
    team = next(t for t in story.teams if t.name == seat.player_name)
    assert "What your team did, round by round" in page
    assert len(team.rounds) == story.played
    questions = debrief.team_questions(team, story)
    assert len(questions) == 2
    assert "black market" in questions[0]
    assert all(q in page for q in questions)
    missed = [t for t in team.rounds if not t.met]
    if missed:
        assert "VP short of Axia's goal" in questions[1]


def test_after_a_bankruptcy_the_ranking_says_who_met_the_last_goal() -> None:
    session = with_bot_teams()
    (story,) = debrief.lesson_story(session)
    page = text(debrief.DEBRIEF.class_html(session, paper="a4", language="en"))
    assert "Last goal" in page
    met = sum(t.score["eligible"] for t in story.teams)
    assert page.count("met ✔") == met
    assert page.count("missed: cannot win") == len(story.teams) - met
    assert f"at least {story.last_goal} VP, the last round's goal" in page


def test_the_story_reads_in_spanish() -> None:
    session = with_bot_teams()
    page = text(debrief.DEBRIEF.class_html(session, paper="a4", language="es"))
    for said in ("Dónde se salvó o se perdió Axia", "Qué hizo cada equipo",
                 "(equipo de bots)", "Empresas compradas", "Axia entró en bancarrota en la ronda",
                 "redada"):
        assert said in page, said
    for english in ("Team A", "Companies bought", "bots only", "Bought ", "credits"):
        assert english not in page, english
    seat = Seat.objects.filter(session=session, is_bot=False).first()
    mine = text(debrief.DEBRIEF.students_html(session, paper="a4", seat_id=seat.pk, language="es"))
    assert "Qué hizo tu equipo, ronda a ronda" in mine and "Para pensar" in mine
    assert "Compró " in mine


def test_a_team_completed_by_a_bot_counts_its_students_and_says_it_had_a_bot() -> None:
    session = started(3, "bots", team_size=2, here=False, rounds=5, difficulty="easy")
    session = to_stage(session, "evaluation")
    page = text(debrief.DEBRIEF.class_html(session, paper="a4", language="en"))
    assert re.search(r"Students\s+3\b", page)
    (bot,) = Seat.objects.filter(session=session, is_bot=True)
    mates = Seat.objects.filter(session=session, is_bot=False, player_name=bot.player_name)
    assert f"{mates.get().nickname} and a bot" in page
    assert bot.nickname not in page and "(bot team)" not in page
