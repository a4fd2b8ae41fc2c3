"""Austerity's debrief: the story of each country year by year (``story``), its charts
(``charts``), discussion questions (``questions``), the handouts (``handouts``) and the CSV
exports (``spreadsheets``). The game records (JSON) are the platform's
(``facilitator.reports.export.table_record``)."""

from typing import Any

from facilitator.lessons.austerity.debrief.handouts import (
    class_handout,
    class_html,
    student_handouts,
    students_html,
)
from facilitator.lessons.austerity.debrief.spreadsheets import results_csv, rounds_csv
from facilitator.lessons.austerity.debrief.story import lesson_story, table_story
from facilitator.models import ClassSession


def results(session: ClassSession) -> list[tuple[Any, dict[str, Any]]]:
    """Each table's result in a few lines, for the reports page."""
    return [(t, t.result_lines()) for t in lesson_story(session, with_charts=False).tables]


__all__ = [
    "class_handout",
    "class_html",
    "lesson_story",
    "results",
    "results_csv",
    "rounds_csv",
    "student_handouts",
    "students_html",
    "table_story",
]
