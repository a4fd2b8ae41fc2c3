"""A Spanish lesson on the projector and the phones, from the lobby to the final count; the
teacher's pages in Spanish; counts with their plural; dates in Spanish.

Each screen must say its key phrases in Spanish and keep no English (tests/i18n/text.py).
"""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from facilitator import services
from facilitator.consumers import SEAT_COOKIE
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.script import cards_read
from facilitator.lessons.state_in_class.stages import Stage
from tests.facilitator.lesson import (
    break_ties,
    fresh,
    humans,
    join,
    make_session,
    make_teacher,
    vote_all,
)
from tests.i18n.text import english_left, page_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class Lesson:
    """A Spanish lesson with 8 students; the projector and Ana's phone as browsers see them."""

    def __init__(self, language: str = "es") -> None:
        random.seed(4)
        self.teacher = make_teacher("profe")
        self.session = make_session(self.teacher, title="Economía 4.º A", language=language)
        self.tokens = join(self.session, 8)
        self.console = Client()
        self.console.force_login(self.teacher)

    def projector(self) -> str:
        response = self.console.get(f"/teacher/lessons/{self.session.pk}/")
        assert response.status_code == 200
        return response.content.decode()

    def phone(self, name: str = "Ana", **cookies: str) -> str:
        client = Client()
        client.cookies[SEAT_COOKIE] = self.tokens[name]
        for key, value in cookies.items():
            client.cookies[key] = value
        response = client.get("/play/")
        assert response.status_code == 200
        return response.content.decode()

    def advance(self) -> None:
        session = fresh(self.session)
        services.session_advance(confirm=True, session=session, expected=session.stage_id)

    def seat(self, name: str) -> int:
        return self.session.seats.get(nickname=name).pk


def spanish(html: str, *phrases: str) -> str:
    """``html`` is a Spanish page that says every phrase; returns its text."""
    assert '<html lang="es">' in html
    text = page_text(html)
    missing = [p for p in phrases if p not in text]
    assert not missing, f"missing {missing} in: {text}"
    left = english_left(text)
    assert not left, f"English left {left} in: {text}"
    return text


def test_a_spanish_lesson_from_the_lobby_to_the_final_count():
    lesson = Lesson()
    spanish(lesson.projector(), "Se han unido 8 estudiantes", "Código de la sesión",
            "Escanea el código o entra en", "Al empezar se forma 1 mesa: 8.", "Empezar ▶")
    spanish(lesson.phone(), "¡Ya estás dentro, Ana!", "Espera a que tu profe empiece la partida.",
            "Tu profe ve tu apodo", "Tu profe también ve tu rol")

    services.session_start(session=fresh(lesson.session), seed=5)
    spanish(lesson.projector(), "Pacto inicial", "0 de 8 han elegido su aportación al pacto",
            "Cerrar el pacto", "Pausar", "Deshacer", "Tensión", "Sanidad", "Educación",
            "Escudo social", "Fondo 0 / 10")
    spanish(lesson.phone(), "El pacto inicial", "Tienes 3 monedas.", "Monedas para el pacto",
            "Aportar estas monedas")
    session = fresh(lesson.session)
    sic_services.pact_submit(seat_id=lesson.seat("Ana"), coins=1, expected=session.stage_id)
    spanish(lesson.projector(), "1 de 8 ha elegido su aportación al pacto")
    spanish(lesson.phone(), "Gracias. Tu elección es secreta.",
            "El proyector muestra cuántos de tu mesa han elegido.")
    for table in fresh(lesson.session).tables.all():
        for seat in humans(table):
            if seat.nickname != "Ana":
                sic_services.pact_submit(seat_id=seat.pk, coins=2, expected=session.stage_id)
    spanish(lesson.phone(), "Tu mesa aportó 15 monedas en total: la Tensión empieza en")

    lesson.advance()  # round 1: the event
    spanish(lesson.projector(), "Ronda 1 · Evento", "Bonanza económica",
            "Todo el mundo recibe 2 monedas.", "Empezar el debate")
    phone = spanish(lesson.phone(), "Ronda 1 de 8", "Ahora", "Mi rol", "Mis monedas",
                    "Ingresos por ronda", "Coste de vida por ronda",
                    "Tus metas vitales (monedas al final)", "Servicios que te ayudan",
                    "Aportaste 1 moneda al pacto inicial.", "Antes de la partida",
                    "Monedas iniciales", "Ir tirando", "Vivir bien", "Prosperar")
    assert re.search(r"Clase (alta|media|trabajadora)", phone)

    lesson.advance()  # the debate
    spanish(lesson.phone(), "Lo que supone cada impuesto para ti", "A · Tipo único",
            "B · Proporcional", "C · Progresivo", "D · Esfuerzo máximo", "Tú pagas",
            "La mesa recauda")
    lesson.advance()  # the tax vote
    spanish(lesson.projector(), "Votación del impuesto", "0 de 8 han votado",
            "Cerrar la votación")  # nothing to count yet
    spanish(lesson.phone(), "Votación del impuesto", "Elige el impuesto de esta ronda.",
            "Meter mi ficha en la bolsa", "Opciones de impuesto")
    services.ballot_cast(seat_id=lesson.seat("Ana"), kind="tax", option="C",
                         expected=fresh(lesson.session).stage_id)
    spanish(lesson.projector(), "1 de 8 ha votado")
    spanish(lesson.phone(), "Tu ficha está en la bolsa", "El proyector muestra cuántos han votado",
            "Nadie puede ver qué opción has elegido")
    rng = random.Random(2)
    session = fresh(lesson.session)
    for table in session.tables.all():
        for seat in humans(table):
            if seat.nickname != "Ana":
                services.ballot_cast(seat_id=seat.pk, kind="tax", option="C",
                                     expected=session.stage_id)
    lesson.advance()  # paying
    spanish(lesson.projector(), "El recuento", "Gana el impuesto C · Progresivo",
            "La mesa recauda", "Abrir la votación del presupuesto")
    spanish(lesson.phone(), "Ganó el impuesto C · Progresivo", "Esta ronda, para ti",
            "Ingresos", "Impuesto", "Coste de vida", "Ahora tienes")
    lesson.advance()  # the budget vote
    spanish(lesson.phone(), "Votación del presupuesto", "¿Qué servicio debería recibir más dinero?",
            "Sa", "Ed", "Es", "nivel 1")
    vote_all(fresh(lesson.session), "budget", rng, ["health", "education", "shield"])
    break_ties(lesson.session, rng)
    lesson.advance()  # the end of round 1
    break_ties(lesson.session, rng)  # a budget tie is decided once the class sees the count
    spanish(lesson.projector(), "El presupuesto", "repartidas 3-2-1", "Siguiente ronda")

    while fresh(lesson.session).stage != Stage.FINAL:
        session = fresh(lesson.session)
        if session.stage == Stage.MIDLIFE:
            spanish(lesson.projector(), "La Encrucijada vital",
                    f"carta {cards_read(session)} de 8")
            if cards_read(session) == 8:  # every card read: this phone's too
                spanish(lesson.phone(), "La Encrucijada vital",
                        "Lee tu carta en voz alta a tu mesa:", "Depende de")
            else:
                spanish(lesson.phone(), "La Encrucijada vital")
        if session.stage == Stage.TAX_VOTE:
            vote_all(session, "tax", rng, ["C", "D"])
        elif session.stage == Stage.BUDGET_VOTE:
            vote_all(session, "budget", rng, ["health", "education", "shield"])
        break_ties(session, rng)
        lesson.advance()
    projector = spanish(lesson.projector(), "El recuento final", "Jugador", "Monedas", "Pacto",
                        "Meta vital", "Puntos", "El pacto reunió 15 monedas.",
                        "Tensión por ronda", "Niveles de los servicios por ronda")
    assert re.search(r"¡Legado!|Sin Legado|el Estado ha colapsado", projector)
    phone = spanish(lesson.phone(), "El recuento final", "Servicios públicos", "Legado",
                    "Tu meta vital", "Fichas de Exclusión", "Tensión final", "Terminaste con",
                    "Monedas por ronda")
    assert re.search(r"-?\d+ puntos?", phone)


def test_an_english_lesson_stays_english():
    lesson = Lesson(language="en")
    html = lesson.projector()
    assert '<html lang="en">' in html
    assert "8 students have joined" in page_text(html, "en")
    assert "You're in, Ana!" in page_text(lesson.phone(), "en")


# --------------------------------------------------------------------------- the teacher


@pytest.mark.parametrize(("path", "phrases"), [
    ("/", ("¿Eres estudiante? Entra en tu sesión", "Acceso docente")),
    ("/about/", ("Acerca de State in Class", "Un Estado en clase · ¿Quién paga por todos?")),
    ("/join/", ("Entrar en la sesión", "Código de la sesión", "Tu apodo")),
    ("/accounts/login/", ("Acceso docente", "Usuario", "Contraseña")),
    ("/teacher/", ("Tus sesiones", "Nueva sesión", "En marcha y en espera", "Terminada")),
    ("/teacher/lessons/new/", ("Nueva sesión", "Título de la sesión", "Idioma",
                               "Tiempo de debate", "Crear y abrir la vista del proyector")),
    ("/accounts/password/", ("Cambiar la contraseña",)),
])
def test_the_teachers_pages_follow_a_spanish_browser(path, phrases):
    teacher = make_teacher("docente")
    make_session(teacher, title="3.º B")
    client = Client(headers={"accept-language": "es-ES,es;q=0.9"})
    if path.startswith(("/teacher/", "/accounts/password/")):
        client.force_login(teacher)
    response = client.get(path)
    assert response.status_code == 200
    spanish(response.content.decode(), *phrases)


def test_a_new_lesson_defaults_to_the_teachers_language():
    teacher = make_teacher("docente")
    client = Client(headers={"accept-language": "es"})
    client.force_login(teacher)
    html = client.get("/teacher/lessons/new/").content.decode()
    assert re.search(r'<option value="es" selected>Español</option>', html)


def test_dates_are_written_the_spanish_way():
    teacher = make_teacher("docente")
    session = make_session(teacher, title="3.º B")
    client = Client(headers={"accept-language": "es"})
    client.force_login(teacher)
    text = page_text(client.get("/teacher/").content.decode())
    when = session.created_at
    assert f"{when:%d/%m/%Y}" in text  # SHORT_DATETIME_FORMAT for es: d/m/Y H:i
    english = page_text(Client().get("/").content.decode(), "en")
    assert "Student? Join your lesson" in english


def test_the_students_page_and_the_new_phone_page_in_spanish():
    lesson = Lesson()
    services.session_start(session=fresh(lesson.session), seed=5)
    client = Client(headers={"accept-language": "es"})
    client.force_login(lesson.teacher)
    html = client.get(f"/teacher/lessons/{lesson.session.pk}/students/").content.decode()
    spanish(html, "Estudiantes", "Apodo", "Mesa", "Móvil nuevo", "Quitar", "Volver a la sesión")
    response = client.post(f"/teacher/lessons/{lesson.session.pk}/seats/{lesson.seat('Ana')}"
                           "/reseat/")
    spanish(response.content.decode(), "Un móvil nuevo para Ana", "escanee este código")


# --------------------------------------------------------------------------- errors


def test_service_errors_reach_a_spanish_phone_in_spanish():
    lesson = Lesson()
    services.session_start(session=fresh(lesson.session), seed=5)
    client = Client()
    client.cookies[SEAT_COOKIE] = lesson.tokens["Ana"]
    response = client.post("/play/act/", {"type": "ballot", "kind": "tax", "option": "C"})
    assert response.status_code == 409
    text = spanish(response.content.decode())
    assert "Esta votación no está abierta." in text


def test_a_bad_join_is_explained_in_spanish():
    response = Client(headers={"accept-language": "es"}).post(
        "/join/", {"code": "ZZZZZZ", "nickname": "Ana"})
    assert response.status_code == 404
    text = spanish(response.content.decode())
    assert "No hay ninguna sesión con ese código." in text


def test_engine_reasons_are_translated_with_their_values():
    from django.utils import translation

    from facilitator.log import engine_error
    from games.core import InvalidAction
    from games.state_in_class import rules

    state = rules.new_game({"players": [f"P{i}" for i in range(6)]}, seed=1)
    with pytest.raises(InvalidAction) as caught:
        rules.apply(state, {"type": "ballot", "kind": "budget", "player": "P1"})
    with translation.override("es"):
        message = engine_error(caught.value).message
    assert message == "La votación del presupuesto no está abierta: ahora toca pacto inicial."
    with pytest.raises(InvalidAction) as caught:
        rules.apply(state, {"type": "pact", "player": "P1", "coins": 7})
    with translation.override("es"):
        assert engine_error(caught.value).message == \
            "La aportación al pacto es de 0, 1, 2 o 3 monedas, no 7."
    with translation.override("en"):
        assert engine_error(caught.value).message == \
            "A pact contribution is 0, 1, 2 or 3 coins, not 7."


def test_spanish_error_pages():
    client = Client(headers={"accept-language": "es"})
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    spanish(response.content.decode(), "No encontramos esta página", "Ir a la página de inicio")
    # The 500 page is rendered with no context at all (Django's server_error view).
    from django.template import loader
    from django.utils import translation

    with translation.override("es"):
        html = loader.get_template("500.html").render()
    spanish(html, "Algo ha fallado en el servidor", "tu plaza y tus votos se conservan")
    from django.test import RequestFactory

    request = RequestFactory().get("/")  # as Django's permission_denied/bad_request render them
    request.user = AnonymousUser()
    for name in ("403.html", "400.html"):
        with translation.override("es"):
            spanish(loader.get_template(name).render(request=request), "Ir a la página de inicio")
