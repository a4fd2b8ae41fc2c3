"""A student or teacher with a screen reader gets the same Crisis handouts as everyone:
tagged PDFs (PDF/UA-1) with a title and a language, read in order, and the Crisis track's
chart a figure whose alternative text gives the track round by round."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from facilitator.lessons.crisis.lesson import LESSON
from facilitator.models import ClassSession
from tests.facilitator.lesson import deterministic
from tests.lessons.crisis.test_crisis_lesson import advance, started
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
    """One small lesson (two teams of two at one table, five rounds), its class handout in
    English and the students' pages in Spanish, with WeasyPrint's complaints while writing."""
    with django_db_blocker.unblock(), translation.override("en"), \
            pytest.MonkeyPatch.context() as patch:
        patch.setattr(LESSON, "playable", True)
        deterministic(patch)
        session = started(4, team_size=2, here=False, rounds=5, difficulty="easy")
        for _n in range(60):
            if session.stage == "final":
                break
            session = advance(session)
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
    assert title(pdfs["class"], tmp_path).startswith(f"Crisis: Entrepreneurs Keeping a "
                                                     f"Country Afloat · {session.join_code} · ")
    assert title(pdfs["students_es"], tmp_path).startswith("Crisis: empresarios que "
                                                           "mantienen a flote un país · ")
    assert pdfs["errors"] == []


def test_the_class_handout_reads_heading_by_heading_in_order(pdfs, tmp_path):
    marks = headings(pdfs["class"], tmp_path)
    assert marks[1:5] == ["H2 How each table ended", "H2 Table 1 · Axia survived",
                          "H3 Where Axia was saved or lost",
                          "H3 Financial Status against the Austerity Plan's goals"]
    assert marks.index("H2 Questions for the discussion") > marks.index("H3 Final ranking")
    text = pdf_text(pdfs["class"], tmp_path)
    assert in_order(text, "How each table ended", "Table 1 · Axia survived",
                    "Where Axia was saved or lost", "Best round: round 1",
                    "Financial Status against the Austerity Plan's goals", "Final ranking",
                    "Questions for the discussion")


def test_the_crisis_track_chart_is_a_figure_whose_alt_text_gives_the_track(pdfs):
    (track,) = figure_alts(pdfs["class"])
    assert track.startswith("The Crisis track: 31 at the start, 37 after round 1, ")
    assert track.endswith("after round 5.")


def test_each_students_page_starts_with_their_name_in_spanish_headings(pdfs, tmp_path):
    marks = headings(pdfs["students_es"], tmp_path)
    firsts = [m for m in marks if m.startswith("H1 ")]
    assert len(firsts) == 4 and all(" · Equipo " in m and m.endswith(" · mesa 1") for m in firsts)
    assert marks[1:3] == ["H2 La puntuación final de tu equipo", "H2 Tu equipo y Axia"]
