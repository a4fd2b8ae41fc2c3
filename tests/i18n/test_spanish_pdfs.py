"""Both debrief handouts of a Spanish lesson come out in Spanish (checked with pdftotext), the
teacher can ask for the other language (``?lang=en``), and the debrief page offers it.

pdftotext (poppler-utils) is required: the tests skip without it, and fail under CI=true.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from facilitator.lessons.state_in_class.debrief import handouts as pdf
from facilitator.models import ClassSession
from tests.i18n.text import english_left, page_text
from tests.reports.conftest import pdf_text
from tests.reports.scripted import scripted_lesson

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
MONTHS = ("enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|"
          "diciembre")
# Phrases of the English handouts that must not survive in the Spanish ones.
ENGLISH = ("Debrief", "class handout", "Round by round", "Questions for the discussion",
           "How each country ended", "Tension", "Your role card", "Your final count",
           "Your bank statement", "Think about it", "Income", "Cost of living", "Page 1 of",
           "coins", "The final count", "Winners", "Legacy", "Health", "Social Shield",
           "Upper class", "Working class", "the", "and", "you", "your")


@pytest.fixture(scope="module")
def lesson(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """A finished lesson in Spanish (16 students: two tables, so the comparison pages too)."""
    with django_db_blocker.unblock():
        users = get_user_model().objects
        teacher = users.create_user(username="i18n-teacher", password="x-i18n-teacher",
                                    first_name="Lucía", last_name="Ortega")
        session = scripted_lesson(students=16, seed=1, teacher=teacher, title="4.º ESO B",
                                  language="es")
        try:
            yield {"teacher": teacher, "session": session}
        finally:
            ClassSession.objects.filter(owner=teacher).delete()
            users.filter(pk=teacher.pk).delete()


@pytest.fixture(scope="module")
def rendered(lesson: dict[str, Any]) -> dict[str, bytes]:
    session = ClassSession.objects.get(pk=lesson["session"].pk)
    assert session.status == ClassSession.Status.FINISHED
    rendered = {"class": pdf.DEBRIEF.class_handout(session),
                "students": pdf.DEBRIEF.student_handouts(session)}
    ARTIFACTS.mkdir(exist_ok=True)  # to look at (git-ignored)
    for key, content in rendered.items():
        (ARTIFACTS / f"i18n-{key}-es.pdf").write_bytes(content)
    return rendered


def spanish(text: str, *phrases: str) -> None:
    """Every phrase is there, and no English one (ignoring case: headings are in capitals)."""
    folded = text.casefold()
    missing = [p for p in phrases if p.casefold() not in folded]
    assert not missing, f"missing {missing} in: {text[:3000]}"
    left = english_left(folded, tuple(w.casefold() for w in ENGLISH))
    assert not left, f"English left {left}"


@pytest.mark.django_db
def test_the_class_handout_is_in_spanish(rendered, tmp_path: Path):
    text = pdf_text(rendered["class"], tmp_path)
    spanish(text, "Puesta en común · hoja de la clase", "4.º ESO B", "Fecha", "Docente",
            "Lucía Ortega", "Mesas", "Estudiantes", "Cómo acabó cada país", "Cómo usar esta hoja",
            "Las mesas, una al lado de otra", "Tensión inicial", "Rol al empezar",
            "Después de la Encrucijada vital", "Tensión por ronda",
            "Niveles de los servicios por ronda", "Impuesto elegido por ronda", "Ronda a ronda",
            "Ronda 1 · Bonanza económica", "Votación del impuesto", "Impuesto elegido:",
            "Votación del presupuesto", "Reparto 3-2-1:", "Las cartas de vida", "El recuento final",
            "Preguntas para el debate", "Para todo el grupo", "Página 1 de",
            "Un Estado en clase · ¿Quién paga por todos?")
    assert re.search(rf"\d{{1,2}} de ({MONTHS}) de \d{{4}}", text), "the date is not Spanish"
    assert re.search(r"Recaudación: \d+ monedas?", text)
    assert re.search(r"\((votó|votaron) \d+ de 8\)", text)


@pytest.mark.django_db
def test_the_student_handouts_are_in_spanish(rendered, tmp_path: Path):
    text = pdf_text(rendered["students"], tmp_path)
    spanish(text, "Tu partida de Un Estado en clase", "Tu carta de rol", "Ingresos",
            "Coste de vida", "Servicios que te ayudan:", "Tu recuento final", "Monedas al final",
            "Tu aportación al pacto", "Meta vital alcanzada", "Dividendo público",
            "Tu puntuación", "Tus monedas, ronda a ronda", "Tu extracto bancario", "Inicio",
            "Para pensar", "Tensión final", "Página 1 de 16")
    assert re.search(r"Clase (alta|media|trabajadora)", text)
    assert re.search(r"(Ir tirando|Vivir bien|Prosperar|No llega)", text)


@pytest.mark.django_db
def test_the_teacher_can_ask_for_the_other_language(lesson, tmp_path: Path):
    client = Client(headers={"accept-language": "es"})
    client.force_login(lesson["teacher"])
    base = f"/teacher/lessons/{lesson['session'].pk}/reports/"
    index = client.get(base)
    assert index.status_code == 200
    text = page_text(index.content.decode())
    assert "Las hojas están en español, el idioma de la sesión." in text
    assert "En inglés: Hoja de la clase · Hojas del alumnado" in text
    assert f'href="{base}class.pdf?paper=a4&amp;lang=en" hreflang="en"' in index.content.decode()

    english = client.get(base + "class.pdf?lang=en")
    assert english.status_code == 200 and english["Content-Type"] == "application/pdf"
    text = pdf_text(english.content, tmp_path)
    assert "DEBRIEF · CLASS HANDOUT" in text and "Round by round" in text
    assert "Puesta en común" not in text
    seat = lesson["session"].seats.filter(is_bot=False).first()
    one = pdf_text(client.get(f"{base}student/{seat.pk}.pdf?lang=en").content, tmp_path)
    assert "Your role card" in one and "Page 1 of 1" in one
    # No choice, or one the project does not speak: the lesson's language.
    for query in ("", "?lang=fr", "?lang="):
        text = pdf_text(client.get(base + "students.pdf" + query).content, tmp_path)
        assert "Tu carta de rol" in text, query
