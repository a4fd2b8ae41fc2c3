"""Austerity's debrief: the story of each country year by year (``story``), its charts
(``charts``), discussion questions (``questions``), the handouts (``handouts``) and the CSV
exports (``spreadsheets``). The game records (JSON) are the platform's
(``facilitator.reports.export.table_record``)."""

from facilitator.lessons.austerity.debrief.handouts import DEBRIEF
from facilitator.lessons.austerity.debrief.spreadsheets import results_csv, rounds_csv
from facilitator.lessons.austerity.debrief.story import lesson_story, table_story

results = DEBRIEF.results

__all__ = [
    "DEBRIEF",
    "lesson_story",
    "results",
    "results_csv",
    "rounds_csv",
    "table_story",
]
