"""Austerity's debrief (``AusterityDebrief``): its parts of the platform's debrief
(``kit.reports.Debrief``, which writes the handouts' frame and PDFs).

- The class handout: cover (how each country ended), the tables side by side, each table's
  story year by year with its charts, the Cuts and who bore them, and discussion questions
  (``austerity/reports/class.html``).
- The student handouts: one page per student, all of them or one seat: their country, their
  portfolio (with the lesson option ``portfolios``), the budget each year, prompts
  (``austerity/reports/students.html``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from facilitator.kit.reports import Debrief, chart_img
from facilitator.lessons.austerity.debrief import questions, spreadsheets
from facilitator.lessons.austerity.debrief.charts import compare_chart, debt_chart, tracks_chart
from facilitator.lessons.austerity.debrief.story import (
    TableStory,
    lesson_story,
    lesson_students,
)
from facilitator.models import ClassSession, Seat


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


def results(session: ClassSession) -> list[tuple[Any, dict[str, Any]]]:
    """Each table's result in a few lines, for the reports page."""
    return [(t, t.result_lines()) for t in lesson_story(session, with_charts=False).tables]


class AusterityDebrief(Debrief):
    """``Lesson.reports()``: each country year by year, and one page per student."""

    class_template = "austerity/reports/class.html"
    students_template = "austerity/reports/students.html"

    def class_parts(self, session: ClassSession) -> dict[str, Any]:
        lesson = lesson_story(session)
        tables = lesson.tables
        return {
            "lesson": lesson,
            "tables": [{"story": t, "charts": {k: chart_img(v) for k, v in t.charts.items()},
                        "questions": questions.table_questions(t)} for t in tables],
            "comparison_rows": comparison_rows(tables) if len(tables) > 1 else [],
            "comparison_charts": comparison_charts(tables),
            "general_questions": questions.general_questions(),
            "scenario": ", ".join(dict.fromkeys(t.scenario for t in tables)),
            "unfinished_rule": next((t.unfinished_rule for t in tables if t.unfinished_rule),
                                    ""),
        }

    def student_pages(self, session: ClassSession, seats: Sequence[Seat]
                      ) -> list[dict[str, Any]]:
        charts: dict[int, dict[str, Any]] = {}
        pages = []
        for s in lesson_students(session, seats=seats):
            s.prompts = questions.reflection_prompts(s)
            if s.table.table_id not in charts:
                charts[s.table.table_id] = {
                    "tracks": chart_img(tracks_chart(s.table.samples, strip=40,
                                                     names_left=True, brief=True)),
                    "debt": chart_img(debt_chart(s.table.samples, height=92, brief=True))}
            pages.append({"s": s, "charts": charts[s.table.table_id]})
        return pages

    results = staticmethod(results)
    rounds_csv = staticmethod(spreadsheets.rounds_csv)
    results_csv = staticmethod(spreadsheets.results_csv)


DEBRIEF = AusterityDebrief()
