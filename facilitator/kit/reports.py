"""The debrief's skeleton (``Debrief``: a module subclasses it and supplies only its own
parts; ``people``: the students a handout is about) and its shared parts: a handout's page
context and date, charts as images, the PDF writer (a whole handout in its language:
``handout_pdf``), CSV text, pseudonyms for anonymous exports, and each table's turning points
in words for a class handout (``turning_points``, shown with
``templates/reports/_turning_points.html``)."""

from facilitator.reports.debrief import Debrief, people
from facilitator.reports.export import csv_text, pseudonyms
from facilitator.reports.pdf import (
    DEFAULT_PAPER,
    base_context,
    chart_img,
    handout_pdf,
    lesson_date,
    write_pdf,
)
from facilitator.reports.whatif import handout_turning_points as turning_points

__all__ = ["DEFAULT_PAPER", "Debrief", "base_context", "chart_img", "csv_text", "handout_pdf",
           "lesson_date", "people", "pseudonyms", "turning_points", "write_pdf"]
