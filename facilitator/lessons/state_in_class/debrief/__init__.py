"""State in Class's debrief: the story of each table (``story``), its discussion questions
(``questions``), the handouts (``handouts``) and the CSV exports (``spreadsheets``)."""

from typing import Any

from facilitator.lessons.state_in_class.debrief.handouts import (
    class_handout,
    class_html,
    student_handouts,
    students_html,
)
from facilitator.lessons.state_in_class.debrief.spreadsheets import results_csv, rounds_csv
from facilitator.lessons.state_in_class.debrief.story import lesson_story, table_story
from facilitator.models import ClassSession


def results(session: ClassSession) -> list[tuple[Any, list[str]]]:
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
