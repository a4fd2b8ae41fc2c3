"""A student or teacher with a screen reader gets the same handouts as everyone: tagged PDFs
(PDF/UA-1) with a title and a language, read in order (each heading before what it heads),
and every chart a figure whose alternative text gives its data in words, in the handout's
language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from facilitator.models import ClassSession
from tests.facilitator.lesson import make_teacher
from tests.reports.conftest import pdf_text
from tests.reports.scripted import scripted_lesson
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
    """One small lesson (one table of 8), its class handout in English and one student's
    page in Spanish; WeasyPrint's complaints (an image without alt text, a missing language)
    are caught while they are written."""
    with django_db_blocker.unblock(), translation.override("en"):
        session = scripted_lesson(students=8, seed=5, teacher=make_teacher("sic-a11y"))
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
    session = pdfs["session"]
    assert marked(pdfs["class"]) and marked(pdfs["student_es"])
    assert language(pdfs["class"]) == "en" and language(pdfs["student_es"]) == "es"
    assert title(pdfs["class"], tmp_path).startswith(session.title)
    assert title(pdfs["student_es"], tmp_path).startswith(str(session))
    assert pdfs["errors"] == []


def test_the_class_handout_reads_heading_by_heading_in_order(pdfs, tmp_path):
    marks = headings(pdfs["class"], tmp_path)
    assert marks[:4] == ["H1 3B Economics", "H2 How each country ended", "H2 Table 1",
                         "H3 Round by round"]
    # a round's heading says which round before how Tension moved (a badge at its right)
    assert marks[4].startswith("H4 Round 1 · "), marks[4]
    assert "Tension" in marks[4]
    text = pdf_text(pdfs["class"], tmp_path)
    assert in_order(text, "How each country ended", "Table 1", "Tension by round",
                    "Round by round", "Round 1 ·", "TAX VOTE", "Round 2 ·")


def test_every_chart_is_a_figure_whose_alt_text_gives_its_data(pdfs):
    alts = figure_alts(pdfs["class"])
    assert len(alts) == 3
    tension, levels, taxes = alts
    assert tension.startswith("Tension by round (10 means the State fails). start ")
    assert "round 8:" in tension
    assert levels.startswith("Service levels (1 to 5)") and "Social Shield:" in levels
    assert taxes.startswith("The tax chosen in each round. round 1: ")


def test_a_spanish_students_chart_is_described_in_spanish(pdfs, tmp_path):
    (coins,) = figure_alts(pdfs["student_es"])
    assert coins.startswith("Tus monedas al final de cada ronda. inicio ")
    assert "ronda 8:" in coins
    assert re.search(r"Metas de ahorro: Ir tirando \d+, Vivir bien \d+, Prosperar \d+\.", coins)
    seat = pdfs["seat"]
    marks = headings(pdfs["student_es"], tmp_path)
    assert marks[:3] == [f"H1 {seat.player_name} · mesa 1", "H2 Tu carta de rol",
                         "H2 Tu recuento final"]
