"""A student or teacher with a screen reader gets the same Poleconomy handouts as everyone:
tagged PDFs (PDF/UA-1) with a title and a language, read in order. Poleconomy's handouts
draw no chart: inflation and each player's wealth are a table, read cell by cell."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from facilitator.models import ClassSession
from tests.facilitator.lesson import deterministic
from tests.lessons.poleconomy.test_poleconomy_debrief_story import played
from tests.reports.conftest import pdf_text
from tests.reports.tagged import (
    figure_alts,
    headings,
    in_order,
    language,
    marked,
    structure,
    title,
    written,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def pdfs(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """One small lesson (three players, one round), its class handout in English and the
    students' pages in Spanish, with WeasyPrint's complaints while writing."""
    with django_db_blocker.unblock(), translation.override("en"), \
            pytest.MonkeyPatch.context() as patch:
        deterministic(patch)
        lesson, _who = played()
        session = lesson.now
        made = written(session)
        data = {"session": session, "class": made["class"], "students_es": made["es"],
                "errors": made["errors"]}
        try:
            yield data
        finally:
            ClassSession.objects.filter(pk=session.pk).delete()
            session.owner.delete()


def test_both_handouts_are_tagged_pdfs_with_a_title_and_their_language(pdfs, tmp_path):
    session = pdfs["session"]
    assert marked(pdfs["class"]) and marked(pdfs["students_es"])
    assert language(pdfs["class"]) == "en" and language(pdfs["students_es"]) == "es"
    assert title(pdfs["class"], tmp_path).startswith(
        f"Poleconomy: Elections, Parliament and Inflation · {session.join_code} · ")
    assert title(pdfs["students_es"], tmp_path).startswith(
        "Poleconomy: elecciones, Parlamento e inflación · ")
    assert pdfs["errors"] == []


def test_the_class_handout_reads_heading_by_heading_in_order(pdfs, tmp_path):
    marks = headings(pdfs["class"], tmp_path)
    assert marks[1:5] == ["H2 How each table ended", "H2 What happened", "H3 Table 1",
                          "H2 Questions for the discussion"]
    assert in_order(" | ".join(marks), "H2 Table 1", "H3 Round by round",
                    "H3 Inflation and each player's wealth", "H3 Final scores")
    text = pdf_text(pdfs["class"], tmp_path)
    assert in_order(text, "How each table ended", "What happened", "Parties formed:",
                    "Questions for the discussion", "Round by round",
                    "Inflation and each player's wealth", "Final scores")


def test_the_wealth_table_is_a_tagged_table_with_header_cells_and_no_figure(pdfs, tmp_path):
    assert figure_alts(pdfs["class"]) == []
    tree = structure(pdfs["class"], tmp_path)
    assert "Table (block)" in tree and "TH" in tree and "TD" in tree


def test_each_players_page_starts_with_their_name_in_spanish_headings(pdfs, tmp_path):
    marks = headings(pdfs["students_es"], tmp_path)
    assert [m for m in marks if m.startswith("H1 ")] == ["H1 Ana", "H1 Ben", "H1 Cai"]
    assert marks[1] == "H2 Lo que hiciste, ronda a ronda"
