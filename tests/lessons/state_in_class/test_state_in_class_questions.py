"""Discussion questions come from what happened; reflection prompts from each student's game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from facilitator.lessons.state_in_class.debrief import questions
from facilitator.lessons.state_in_class.debrief.story import lesson_students, table_story
from facilitator.log import replay_table
from tests.reports.conftest import finished_lessons

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def lessons(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Finished lessons for this module's tests (``tests/reports/conftest.py``)."""
    yield from finished_lessons(django_db_blocker)


def story_of(session):
    with translation.override("en"):
        return table_story(session.tables.get())


def test_there_are_at_least_eight_situation_rules():
    ids = [rule_id for rule_id, _fn in questions.RULES]
    assert len(ids) >= 8 and len(set(ids)) == len(ids)


def test_questions_are_tied_to_what_happened(lessons):
    with translation.override("en"):
        full = story_of(lessons["full"])
        asked = {q.rule: q for q in questions.table_questions(full)}
        history = replay_table(lessons["full"].tables.get()).history
        if any((e.get("tax") or {}).get("decided_by") in ("tie_break", "drawn") for e in history):
            assert "Round 1: the tax vote was a tie" in asked["tax-tie-break"].situation
        if any(d["card"] == "the-inheritance" for e in history for d in e.get("midlife") or []):
            assert "The inheritance" in asked["inheritance"].situation
        if any(e.get("class_changes") for e in history):
            assert "class-change" in asked
        assert "state-failure" not in asked
        assert "upper-coins-vs-legacy" in asked  # a finished game always compares the two
        failing = {q.rule: q for q in questions.table_questions(story_of(lessons["failing"]))}
        assert "state-failure" in failing
        assert "service-never-funded" in failing  # only Health was ever funded
        assert "Education never rose above level 1" in failing["service-never-funded"].situation \
            or "Social Shield never rose above level 1" in \
            failing["service-never-funded"].situation
        assert "low-pact" in failing and "Tension started at 4" in failing["low-pact"].situation
        for q in [*asked.values(), *failing.values()]:
            assert q.situation and q.question.endswith("?")


def test_general_questions_are_always_there():
    with translation.override("en"):
        general = questions.general_questions()
    assert len(general) >= 5 and all(q.endswith("?") for q in general)


def test_comparison_questions_only_when_tables_differ(lessons):
    with translation.override("en"):
        assert questions.comparison_questions([story_of(lessons["full"])]) == []
        two = [table_story(t) for t in lessons["two"].tables.order_by("number")]
        between_two = {q.rule: q for q in questions.comparison_questions(two)}
        failing = story_of(lessons["failing"])
        failing.number = 2
        mixed = {q.rule for q in questions.comparison_questions([story_of(lessons["full"]),
                                                                 failing])}
    assert "compare-failure" in mixed
    # The scripted tables differ on purpose: a generous and a stingy pact, C against B/D.
    assert "compare-pact" in between_two and "compare-tax" in between_two
    assert "table 1 gave" in between_two["compare-pact"].situation
    assert "table 2 gave" in between_two["compare-pact"].situation


def test_every_student_gets_three_prompts_from_their_own_game(lessons):
    with translation.override("en"):
        for key in ("full", "failing"):
            for student in lesson_students(lessons[key]):
                prompts = questions.reflection_prompts(student)
                assert len(prompts) == 3 and len(set(prompts)) == 3
                if student.exclusion_rounds:
                    assert prompts[0].startswith("You got an Exclusion in round")
                elif student.class_change and student.class_change["raw"]["result"] == "changed":
                    assert prompts[0].startswith("At the Midlife Crossroads you moved")
                if key == "failing" and not student.exclusion_rounds:
                    assert any(p.startswith("The State failed in round") for p in prompts)
