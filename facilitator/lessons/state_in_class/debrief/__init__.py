"""State in Class's debrief: the story of each table (``story``), its discussion questions
(``questions``), the handouts (``handouts``) and the CSV exports (``spreadsheets``)."""

from facilitator.lessons.state_in_class.debrief.handouts import DEBRIEF
from facilitator.lessons.state_in_class.debrief.spreadsheets import results_csv, rounds_csv
from facilitator.lessons.state_in_class.debrief.story import lesson_story, table_story

results = DEBRIEF.results

__all__ = [
    "DEBRIEF",
    "lesson_story",
    "results",
    "results_csv",
    "rounds_csv",
    "table_story",
]
