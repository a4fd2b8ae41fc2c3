"""Every PDF the platform writes (``facilitator.reports.pdf.write_pdf``: every module's
handouts go through it) is tagged for screen readers: PDF/UA-1, its title and language from
the page's ``<title>`` and ``<html lang>``, and a chart drawn by ``chart_img`` a figure whose
alternative text is the chart's description (its data in words)."""

from __future__ import annotations

import subprocess

from facilitator.reports.pdf import chart_img, write_pdf
from tests.reports.conftest import poppler
from tests.reports.tagged import (
    WeasyPrintErrors,
    figure_alts,
    headings,
    language,
    marked,
    title,
)

CHART = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" role="img">'
         '<title>Tensión por ronda</title><desc>Tensión por ronda: inicio 2, ronda 1: 3.</desc>'
         '<rect width="60" height="20"/></svg>')


def page(body: str, *, lang: str = "es") -> str:
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f"<title>3B Economía · 5 de diciembre de 2026</title></head><body>{body}</body>"
            "</html>")


def test_a_pdf_the_platform_writes_is_pdf_ua_with_its_title_and_language(tmp_path):
    with WeasyPrintErrors() as errors:
        pdf = write_pdf(page("<h1>3B Economía</h1><p>Una mesa.</p>"))
    assert marked(pdf)
    assert title(pdf, tmp_path) == "3B Economía · 5 de diciembre de 2026"
    assert language(pdf) == "es"
    path = tmp_path / "ua.pdf"
    path.write_bytes(pdf)
    meta = subprocess.run([poppler("pdfinfo"), "-meta", str(path)], capture_output=True,
                          text=True, check=True).stdout
    assert 'pdfuaid:part="1"' in meta
    assert headings(pdf, tmp_path) == ["H1 3B Economía"]
    assert errors.messages == []


def test_a_chart_is_a_figure_whose_alt_text_is_its_description(tmp_path):
    with WeasyPrintErrors() as errors:
        pdf = write_pdf(page(f"<h2>Tensión</h2><figure>{chart_img(CHART)}</figure>"))
    assert figure_alts(pdf) == ["Tensión por ronda: inicio 2, ronda 1: 3."]
    assert errors.messages == []
