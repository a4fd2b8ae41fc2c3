"""Austerity's debrief handouts (on the platform's PDF shell, ``facilitator.reports.pdf``).

- ``class_handout(session, paper=...)``: cover (how each country ended), the tables side by
  side, each table's story year by year with its charts, the Cuts and who bore them, and
  discussion questions (``austerity/reports/class.html``).
- ``student_handouts(session, paper=..., seat_id=None)``: one page per student (all of them,
  or one seat): their country, their portfolio (with the lesson option ``portfolios``), the
  budget each year, prompts (``austerity/reports/students.html``).
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
from facilitator.lessons.austerity.debrief import questions
from facilitator.lessons.austerity.debrief.charts import compare_chart, debt_chart, tracks_chart
from facilitator.lessons.austerity.debrief.story import (
    LessonStory,
    StudentStory,
    TableStory,
    lesson_date,
    lesson_story,
    lesson_students,
)
from facilitator.models import ClassSession


def budget_rows(story: TableStory) -> list[dict[str, Any]]:
    """Each year's budget session in one row: the chosen option of each item asked."""
    return [{"year": y.year, "ballots": {b.item: b for b in y.ballots}} for y in story.years]


def comparison_rows(tables: Sequence[TableStory]) -> list[dict[str, Any]]:
    return [{"number": t.number, "years": t.played, "taxes": t.counts.get("raise-taxes", 0),
             "borrowed": t.counts.get("borrow", 0), "loans": t.counts.get("pay-loan", 0),
             "cuts": sum(c.steps for c in t.cuts),
             "penalties": sum(c.penalties for c in t.cuts)} for t in tables]


def comparison_charts(tables: Sequence[TableStory]) -> list[dict[str, Any]]:
    """The tables' tracks added up and Debt owed, year by year, one line per table."""
    if len(tables) < 2:
        return []
    years = max(t.played for t in tables) + 1
    tracks = {t.number: [(float(y.year), sum(y.tracks_start.values())) for y in t.years]
              + [(float(t.played + 1), t.result.tracks)] for t in tables}
    debt = {t.number: [(float(y.year), y.debt_start) for y in t.years]
            + [(float(t.played + 1), t.result.debt)] for t in tables}
    most = max([b for points in debt.values() for _a, b in points] + [4])
    return [
        {"title": _("The tracks added up"),
         "img": chart_img(compare_chart(tracks, title=_("The tracks added up"), lo=0, hi=50,
                                        years=years))},
        {"title": _("Debt cubes owed"),
         "img": chart_img(compare_chart(debt, title=_("Debt cubes owed"), lo=0, hi=most,
                                        years=years))},
    ]


def class_context(lesson: LessonStory, paper: str) -> dict[str, Any]:
    tables = lesson.tables
    context = base_context(lesson.session, paper, f"{lesson.title} · {lesson.date}")
    context.update({
        "lesson": lesson,
        "tables": [{"story": t, "charts": {k: chart_img(v) for k, v in t.charts.items()},
                    "questions": questions.table_questions(t)} for t in tables],
        "comparison_rows": comparison_rows(tables) if len(tables) > 1 else [],
        "comparison_charts": comparison_charts(tables),
        "general_questions": questions.general_questions(),
        "scenario": ", ".join(dict.fromkeys(t.scenario for t in tables)),
        "unfinished_rule": next((t.unfinished_rule for t in tables if t.unfinished_rule), ""),
        "turning_points": turning_points(lesson.session),
    })
    return context


def class_html(session: ClassSession, *, paper: str, language: str | None = None) -> str:
    with translation.override(language or session.language):
        lesson = lesson_story(session)
        return render_to_string("austerity/reports/class.html", class_context(lesson, paper))


def class_handout(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                  language: str | None = None) -> bytes:
    """The class handout (one PDF for the lesson), in ``language`` (default: the lesson's)."""
    return handout_pdf(session, class_html, language=language, paper=paper)


# --------------------------------------------------------------------------- students


def students_context(session: ClassSession, students: Sequence[StudentStory], paper: str
                     ) -> dict[str, Any]:
    charts: dict[int, dict[str, Any]] = {}
    items = []
    for s in students:
        s.prompts = questions.reflection_prompts(s)
        if s.table.table_id not in charts:
            charts[s.table.table_id] = {
                "tracks": chart_img(tracks_chart(s.table.samples, strip=40, names_left=True,
                                              brief=True)),
                "debt": chart_img(debt_chart(s.table.samples, height=92, brief=True))}
        items.append({"s": s, "charts": charts[s.table.table_id]})
    date = lesson_date(session)
    context = base_context(session, paper, f"{session} · {date}")
    context.update({"session": session, "date": date, "game": session.game_name,
                    "students": items})
    return context


def students_html(session: ClassSession, *, paper: str, seat_id: int | None = None,
                  language: str | None = None) -> str:
    with translation.override(language or session.language):
        students = lesson_students(session, seat_id=seat_id)
        return render_to_string("austerity/reports/students.html",
                                students_context(session, students, paper))


def student_handouts(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                     seat_id: int | None = None, language: str | None = None) -> bytes:
    """One page per student, all in one PDF (or just ``seat_id``'s page), in ``language``
    (default: the lesson's)."""
    return handout_pdf(session, students_html, language=language, paper=paper,
                       seat_id=seat_id)
