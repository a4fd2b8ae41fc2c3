"""A student or teacher with a screen reader gets the same Austerity handouts as everyone:
tagged PDFs (PDF/UA-1) with a title and a language, read in order (each year's heading says
the year before the Debt cubes at its right), and each chart a figure whose alternative text
gives its data in words, in the handout's language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from facilitator.models import ClassSession
from tests.facilitator.lesson import make_teacher
from tests.lessons.austerity.austerity_scripted import austerity_lesson
from tests.reports.conftest import pdf_text
from tests.reports.tagged import (
    figure_alts,
    headings,
    in_order,
    language,
    marked,
    title,
    written,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def pdfs(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """One small lesson (two students and two bots at one table), its class handout in
    English and one student's page in Spanish, with WeasyPrint's complaints while writing."""
    with django_db_blocker.unblock(), translation.override("en"):
        session = austerity_lesson(teacher=make_teacher("austerity-a11y"), students=2, seed=4,
                                   title="4A Economics", fill="bots", bot_policy="cautious")
        seat = session.seats.filter(is_bot=False).order_by("pk").first()
        made = written(session, seat.pk)
        data = {"session": session, "seat": seat, "class": made["class"], "student_es": made["es"],
                "errors": made["errors"]}
        try:
            yield data
        finally:
            ClassSession.objects.filter(pk=session.pk).delete()
            session.owner.delete()


def test_both_handouts_are_tagged_pdfs_with_a_title_and_their_language(pdfs, tmp_path):
    assert marked(pdfs["class"]) and marked(pdfs["student_es"])
    assert language(pdfs["class"]) == "en" and language(pdfs["student_es"]) == "es"
    assert title(pdfs["class"], tmp_path).startswith("4A Economics · ")
    assert title(pdfs["student_es"], tmp_path).startswith("4A Economics · ")
    assert pdfs["errors"] == []


def test_the_class_handout_reads_heading_by_heading_in_order(pdfs, tmp_path):
    marks = headings(pdfs["class"], tmp_path)
    assert marks[:3] == ["H1 4A Economics", "H2 How each country ended", "H2 Table 1"]
    years = [m for m in marks if m.startswith("H4 ")]
    assert years[0].startswith("H4 Year 1 · Finance Minister: "), years[0]
    assert years[0].endswith("Debt cubes in the bag at the start: 4")
    text = pdf_text(pdfs["class"], tmp_path)
    assert in_order(text, "How each country ended", "Table 1", "The tracks, draw by draw",
                    "Debt, draw by draw", "The budget, year by year", "Year by year",
                    "Year 1 ·", "Year 2 ·")


def test_every_chart_is_a_figure_whose_alt_text_gives_its_data(pdfs):
    tracks, debt = figure_alts(pdfs["class"])
    assert tracks.startswith("The five tracks (0 to 10) after every draw. Employment: year 1 "
                             "starts at ")
    assert all(name in tracks for name in ("Public Safety", "Wealth", "Health", "Popularity"))
    assert debt.startswith("Debt cubes in the bag after every draw: 4, ")


def test_a_spanish_students_charts_are_described_in_spanish(pdfs, tmp_path):
    tracks, debt = figure_alts(pdfs["student_es"])
    assert tracks.startswith("Los cinco marcadores (de 0 a 10) después de cada extracción. "
                             "Empleo: el año 1 empieza en ")
    assert debt.startswith("Cubos de Deuda en la bolsa después de cada extracción: 4, ")
    marks = headings(pdfs["student_es"], tmp_path)
    assert marks[:3] == [f"H1 {pdfs['seat'].player_name} · mesa 1", "H2 Tu país", "H2 Tu papel"]
