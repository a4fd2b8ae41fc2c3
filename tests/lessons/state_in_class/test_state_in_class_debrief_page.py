"""The debrief page says how "anonymous" names the players in the teacher's language, without
claiming a number of seats (a table has 6 to 8)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.facilitator.lesson import make_teacher
from tests.reports.scripted import scripted_lesson

pytestmark = pytest.mark.django_db


def test_the_anonymous_hint_is_spanish_and_names_no_table_size():
    teacher = make_teacher("debrief-es")
    session = scripted_lesson(students=7, seed=5, teacher=teacher, language="es")
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(teacher)
    page = client.get(f"/teacher/lessons/{session.pk}/reports/").content.decode()
    assert "«Anónimo» cambia cada apodo por «Player»" in page
    assert "1 a 8" not in page and "1 to 8" not in page
