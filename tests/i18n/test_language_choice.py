"""Who chooses the language: the lesson (set at creation), each phone for itself (the
"English · Español" switch and its ``sic_lang`` cookie), never the projector; and the commands a
teacher reads follow ``--language``, ``SIC_LANGUAGE`` or the system's locale.
"""

from __future__ import annotations

from io import StringIO

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test import Client

from facilitator import services
from facilitator.consumers import SEAT_COOKIE
from facilitator.language import phone_language
from facilitator.management.teacher import teacher_language
from facilitator.models import ClassSession
from tests.facilitator.lesson import fresh, join, make_session, make_teacher
from tests.facilitator.wsclient import Socket, login_cookie, seat_cookie
from tests.i18n.text import page_text

LANG = settings.LANGUAGE_COOKIE_NAME


def phone_client(token: str, lang: str | None = None) -> Client:
    client = Client()
    client.cookies[SEAT_COOKIE] = token
    if lang:
        client.cookies[LANG] = lang
    return client


def test_the_cookie_is_named_sic_lang_and_is_httponly():
    assert LANG == "sic_lang"
    assert settings.LANGUAGE_COOKIE_HTTPONLY and settings.LANGUAGE_COOKIE_SAMESITE == "Lax"


@pytest.mark.parametrize(("cookies", "lesson", "expected"), [
    ({}, "es", "es"), ({}, "en", "en"), ({"sic_lang": "en"}, "es", "en"),
    ({"sic_lang": "es"}, "en", "es"), ({"sic_lang": "fr"}, "es", "es"),
    ({"sic_lang": ""}, "en", "en"),
])
def test_a_phone_speaks_its_own_choice_else_the_lessons(cookies, lesson, expected):
    assert phone_language(cookies, lesson) == expected


@pytest.mark.django_db
def test_the_switch_sets_the_cookie_and_the_play_page_follows_it():
    session = make_session(make_teacher(), language="es")
    token = join(session, 1)["Ana"]
    phone = phone_client(token)
    html = phone.get("/play/").content.decode()
    assert '<html lang="es">' in html and "¡Ya estás dentro, Ana!" in page_text(html)
    # The switch: a form with both languages, each named in itself, the current one pressed.
    assert 'action="/language/"' in html
    assert ('value="en" lang="en" class="link" aria-pressed="false">English</button>' in html)
    assert ('value="es" lang="es" class="link" aria-pressed="true">Español</button>' in html)

    response = phone.post("/language/", {"language": "en", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    cookie = response.cookies[LANG]
    assert cookie.value == "en" and cookie["httponly"] and cookie["samesite"] == "Lax"
    html = phone.get("/play/").content.decode()
    assert '<html lang="en">' in html and "You're in, Ana!" in page_text(html, "en")
    assert 'aria-pressed="true">English</button>' in html

    # Another phone in the same lesson keeps the lesson's Spanish.
    other = phone_client(services.seat_join(code=session.join_code, nickname="Ben")[1])
    assert "¡Ya estás dentro, Ben!" in page_text(other.get("/play/").content.decode())
    # Back to Spanish.
    phone.post("/language/", {"language": "es", "next": "/play/"})
    assert '<html lang="es">' in phone.get("/play/").content.decode()


@pytest.mark.django_db
def test_the_switch_refuses_a_foreign_next_and_an_unknown_language():
    client = Client()
    response = client.post("/language/", {"language": "xx", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"  # no redirect off-site
    assert LANG not in response.cookies


@pytest.mark.django_db
def test_the_phones_form_posts_answer_in_its_language():
    session = make_session(make_teacher(), language="es")
    token = join(session, 1)["Ana"]
    response = phone_client(token, "en").post("/play/act/", {"type": "pact", "coins": "1"})
    assert response.status_code == 409
    assert "You do not have a seat at a table yet." in page_text(response.content.decode(), "en")
    response = phone_client(token).post("/play/act/", {"type": "pact", "coins": "1"})
    assert "Todavía no tienes plaza en ninguna mesa." in page_text(response.content.decode())


@pytest.mark.django_db
def test_the_projector_ignores_the_teachers_own_switch():
    teacher = make_teacher()
    session = make_session(teacher, language="es")
    join(session, 2)
    console = Client()
    console.force_login(teacher)
    console.cookies[LANG] = "en"
    html = console.get(f"/teacher/lessons/{session.pk}/").content.decode()
    assert '<html lang="es">' in html and "Se han unido 2 estudiantes" in page_text(html)
    # Pages that are the teacher's own (not the lesson's) follow it.
    assert '<html lang="en">' in console.get("/teacher/").content.decode()


# --------------------------------------------------------------------------- the sockets

ws = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def _close_worker_connections():
    yield
    await database_sync_to_async(connections.close_all)()


@database_sync_to_async
def spanish_lesson() -> dict:
    teacher = make_teacher("profe")
    session = make_session(teacher, language="es")
    tokens = join(session, 8)
    return {"teacher": teacher, "session": session.pk, "tokens": tokens}


@database_sync_to_async
def start(session_id: int) -> None:
    services.session_start(session=ClassSession.objects.get(pk=session_id))


@database_sync_to_async
def advance(session_id: int) -> None:
    session = fresh(ClassSession.objects.get(pk=session_id))
    services.session_advance(confirm=True, session=session, expected=session.stage_id)


@ws
async def test_the_phone_socket_pushes_screens_in_the_phones_language(_close_worker_connections):
    lesson = await spanish_lesson()
    english = await Socket.open("/ws/play/", {**seat_cookie(lesson["tokens"]["Ana"]), LANG: "en"},
                                "english phone")
    spanish = await Socket.phone(lesson["tokens"]["Ben"], "spanish phone")
    projector = await Socket.projector(lesson["session"], {
        **(await login_cookie(lesson["teacher"])), LANG: "en"})
    try:
        assert "You're in, Ana!" in english.frames[-1]["html"]
        assert "¡Ya estás dentro, Ben!" in spanish.frames[-1]["html"]
        assert "Se han unido 8 estudiantes" in projector.frames[-1]["html"]
        # A lesson with no title is named after its game, in the lesson's language.
        assert "Un Estado en clase · ¿Quién paga por todos?" in projector.frames[-1]["html"]

        await start(lesson["session"])  # pushed, not asked for: rendered by the consumers
        view = await english.until(lambda f: f["type"] == "view" and "pact" in f["phase"])
        assert "The opening pact" in view["html"] and "Give these coins" in view["html"]
        view = await spanish.until(lambda f: f["type"] == "view" and "pact" in f["phase"])
        assert "El pacto inicial" in view["html"] and "Aportar estas monedas" in view["html"]
        view = await projector.until(lambda f: f["type"] == "view" and "pact" in f["phase"])
        assert "0 de 8 han elegido su aportación al pacto" in view["html"]

        # Errors answer in the phone's language too.
        wrong = await english.do("ballot", kind="tax", option="C")
        assert wrong["type"] == "error" and wrong["message"] == "This vote is not open."
        wrong = await spanish.do("ballot", kind="tax", option="C")
        assert wrong["message"] == "Esta votación no está abierta."
        # Bad frames are refused in the phone's language.
        await spanish.send_text("{not json")
        refused = await spanish.until(lambda f: f["type"] == "error")
        assert refused["message"] == "Ese mensaje no es JSON válido."
    finally:
        for sock in (english, spanish, projector):
            await sock.close()


# --------------------------------------------------------------------------- commands


@pytest.mark.parametrize(("explicit", "environ", "expected"), [
    (None, {}, "en"),
    (None, {"LANG": "es_ES.UTF-8"}, "es"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {"LANG": "fr_FR.UTF-8"}, "en"),
    (None, {"LANGUAGE": "es:en", "LANG": "en_GB.UTF-8"}, "es"),
    (None, {"LC_ALL": "en_US.UTF-8", "LANG": "es_ES.UTF-8"}, "en"),
    (None, {"SIC_LANGUAGE": "es", "LANG": "en_GB.UTF-8"}, "es"),
    ("en", {"SIC_LANGUAGE": "es"}, "en"),
    ("es", {}, "es"),
])
def test_the_teachers_commands_pick_their_language(explicit, environ, expected):
    assert teacher_language(explicit, environ) == expected


@pytest.mark.django_db
def test_the_teachers_commands_speak_spanish():
    out = StringIO()
    call_command("ensure_teacher", language="es", stdout=out)
    text = out.getvalue()
    assert "Acceso docente creado. Solo se muestra esta vez: guárdalo." in text
    assert "usuario: teacher" in text and "contraseña: " in text
    out = StringIO()
    call_command("ensure_teacher", language="es", stdout=out)
    assert "Entra como teacher" in out.getvalue()

    out = StringIO()
    call_command("classroom_url", "--port", "8123", language="es", stdout=out)
    assert "Estudiantes, en la misma wifi: http://" in out.getvalue()
    assert "Para el servidor con Ctrl+C." in out.getvalue()

    out = StringIO()
    call_command("purge_sessions", "--older-than", "30", "--dry-run", language="es", stdout=out)
    assert out.getvalue().strip() == "Se borrarían 0 sesiones terminadas hace más de 30 días."
    out = StringIO()
    call_command("purge_sessions", "--older-than", "1", language="es", stdout=out)
    assert out.getvalue().startswith("Borradas 0 sesiones terminadas hace más de 1 día,")

    out = StringIO()
    call_command("verify_ledger", language="es", stdout=out)
    assert out.getvalue().strip() == \
        "0 mesas comprobadas: el libro de cuentas, la instantánea y la repetición coinciden."
    out = StringIO()
    call_command("purge_sessions", "--older-than", "1", "--dry-run", stdout=out)
    assert "0 finished lessons older than 1 day would be deleted." in out.getvalue()
