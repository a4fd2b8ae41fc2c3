"""The debrief's shared parts: a handout's page context, charts as images, the PDF writer,
CSV text and pseudonyms for anonymous exports."""

from facilitator.reports.export import csv_text, pseudonyms
from facilitator.reports.pdf import DEFAULT_PAPER, base_context, chart_img, write_pdf

__all__ = ["DEFAULT_PAPER", "base_context", "chart_img", "csv_text", "pseudonyms",
           "write_pdf"]
