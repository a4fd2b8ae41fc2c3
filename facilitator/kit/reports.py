"""The debrief's shared parts: a handout's page context, charts as images, the PDF writer,
CSV text, pseudonyms for anonymous exports, and each table's turning points in words for a
class handout (``turning_points``, shown with ``templates/reports/_turning_points.html``)."""

from facilitator.reports.export import csv_text, pseudonyms
from facilitator.reports.pdf import DEFAULT_PAPER, base_context, chart_img, write_pdf
from facilitator.reports.whatif import handout_turning_points as turning_points

__all__ = ["DEFAULT_PAPER", "base_context", "chart_img", "csv_text", "pseudonyms",
           "turning_points", "write_pdf"]
