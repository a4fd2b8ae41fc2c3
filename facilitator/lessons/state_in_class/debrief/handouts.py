"""State in Class's debrief handouts (on the platform's PDF shell, ``facilitator.reports.pdf``).

- ``class_handout(session, paper=...)``: cover, tables compared, each table's story round by
  round, the final count and discussion questions (``state_in_class/reports/class.html``).
- ``student_handouts(session, paper=..., seat_id=None)``: one page per student (all of them,
  or one seat) (``state_in_class/reports/students.html``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from facilitator.kit.reports import (
    DEFAULT_PAPER,
    base_context,
    chart_img,
    handout_pdf,
    turning_points,
)
from facilitator.lessons.state_in_class.debrief import questions
from facilitator.lessons.state_in_class.debrief.story import (
    LessonStory,
    StudentStory,
    TableStory,
    lesson_date,
    lesson_story,
    lesson_students,
    pact_line,
    table_result,
)
from facilitator.models import ClassSession

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


def class_context(lesson: LessonStory, paper: str) -> dict[str, Any]:
    tables = lesson.tables
    context = base_context(lesson.session, paper, f"{lesson.title} · {lesson.date}")
    context.update({
        "lesson": lesson,
        "tables": [{"story": t, "result": table_result(t), "pact": pact_line(t),
                    "charts": {k: chart_img(v) for k, v in t.charts.items()},
                    "questions": questions.table_questions(t, limit=QUESTIONS_PER_TABLE)}
                   for t in tables],
        "comparison": comparison(tables),
        "comparison_rows": comparison_rows(tables) if len(tables) > 1 else [],
        "general_questions": questions.general_questions(),
        "comparison_questions": questions.comparison_questions(tables),
        "turning_points": turning_points(lesson.session),
    })
    return context


def class_html(session: ClassSession, *, paper: str, language: str | None = None) -> str:
    with translation.override(language or session.language):
        lesson = lesson_story(session)
        return render_to_string("state_in_class/reports/class.html", class_context(lesson, paper))


def class_handout(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                  language: str | None = None) -> bytes:
    """The class handout (one PDF for the lesson), in ``language`` (default: the lesson's)."""
    return handout_pdf(session, class_html, language=language, paper=paper)


# --------------------------------------------------------------------------- students


def students_context(session: ClassSession, students: Sequence[StudentStory], paper: str
                     ) -> dict[str, Any]:
    for student in students:
        student.prompts = questions.reflection_prompts(student)
    context = base_context(session, paper, f"{session} · {lesson_date(session)}")
    context.update({
        "session": session, "date": lesson_date(session),
        "game": session.game_name,
        "students": [{"s": s, "result": table_result(s.table), "chart": chart_img(s.chart)}
                     for s in students],
    })
    return context


def students_html(session: ClassSession, *, paper: str, seat_id: int | None = None,
                  language: str | None = None) -> str:
    with translation.override(language or session.language):
        students = lesson_students(session, seat_id=seat_id)
        return render_to_string("state_in_class/reports/students.html",
                                students_context(session, students, paper))


def student_handouts(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                     seat_id: int | None = None, language: str | None = None) -> bytes:
    """One page per student, all in one PDF (or just ``seat_id``'s page), in ``language``
    (default: the lesson's)."""
    return handout_pdf(session, students_html, language=language, paper=paper,
                       seat_id=seat_id)
