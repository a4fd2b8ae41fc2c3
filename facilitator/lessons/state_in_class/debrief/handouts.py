"""State in Class's debrief (``StateInClassDebrief``): its parts of the platform's debrief
(``kit.reports.Debrief``, which writes the handouts' frame and PDFs).

- The class handout: cover, tables compared, each table's story round by round, the final
  count and discussion questions (``state_in_class/reports/class.html``).
- The student handouts: one page per student, all of them or one seat
  (``state_in_class/reports/students.html``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from facilitator.kit.reports import Debrief, chart_img
from facilitator.lessons.state_in_class.debrief import questions, spreadsheets
from facilitator.lessons.state_in_class.debrief.story import (
    TableStory,
    lesson_story,
    lesson_students,
    pact_line,
    table_result,
)
from facilitator.models import ClassSession, Seat

QUESTIONS_PER_TABLE = 6


def comparison(tables: Sequence[TableStory]) -> list[dict[str, Any]]:
    """The same three charts for every table, grouped by chart (tables side by side)."""
    if len(tables) < 2:
        return []
    kinds = [("tension", _("Tension by round")), ("levels", _("Service levels by round")),
             ("tax", _("Tax chosen by round"))]
    return [{"kind": kind, "title": title,
             "charts": [{"table": t.number, "img": chart_img(t.charts[kind])} for t in tables]}
            for kind, title in kinds]


def comparison_rows(tables: Sequence[TableStory]) -> list[dict[str, Any]]:
    rows = []
    for t in tables:
        main = t.main_tax()
        rows.append({"number": t.number, "main_tax": main or "—",
                     "pact": t.final.get("pact_total"), "start": t.start_tension,
                     "exclusions": len(t.exclusions()), "levels": t.levels_sum,
                     "tension": t.tension, "result": table_result(t)})
    return rows


def results(session: ClassSession) -> list[tuple[Any, list[str]]]:
    """Each table's result in a few lines, for the reports page."""
    return [(t, t.result_lines()) for t in lesson_story(session, with_charts=False).tables]


class StateInClassDebrief(Debrief):
    """``Lesson.reports()``: each table's story round by round, and one page per student."""

    class_template = "state_in_class/reports/class.html"
    students_template = "state_in_class/reports/students.html"

    def class_parts(self, session: ClassSession) -> dict[str, Any]:
        lesson = lesson_story(session)
        tables = lesson.tables
        return {
            "lesson": lesson,
            "tables": [{"story": t, "result": table_result(t), "pact": pact_line(t),
                        "charts": {k: chart_img(v) for k, v in t.charts.items()},
                        "questions": questions.table_questions(t, limit=QUESTIONS_PER_TABLE)}
                       for t in tables],
            "comparison": comparison(tables),
            "comparison_rows": comparison_rows(tables) if len(tables) > 1 else [],
            "general_questions": questions.general_questions(),
            "comparison_questions": questions.comparison_questions(tables),
        }

    def student_pages(self, session: ClassSession, seats: Sequence[Seat]
                      ) -> list[dict[str, Any]]:
        students = lesson_students(session, seats=seats)
        for student in students:
            student.prompts = questions.reflection_prompts(student)
        return [{"s": s, "result": table_result(s.table), "chart": chart_img(s.chart)}
                for s in students]

    results = staticmethod(results)
    rounds_csv = staticmethod(spreadsheets.rounds_csv)
    results_csv = staticmethod(spreadsheets.results_csv)


DEBRIEF = StateInClassDebrief()
