import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "a-long-test-password-42"


@pytest.fixture
def teacher(db):
    return get_user_model().objects.create_user(username="teacher", password=PASSWORD)


def test_home_page_explains_and_links_to_login(client: Client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "QR code" in html
    assert 'href="/accounts/login/"' in html


def test_about_page_credits_every_game(client: Client):
    response = client.get("/about/")
    assert response.status_code == 200
    html = response.content.decode()
    for credit in (
        "A State in Class · Who Pays for Us All?",
        "José Miguel Martín Rodríguez",
        "Pablo de Olavide",
        "CC BY-NC-SA 4.0",
        "stateinclass.org",
        "own edition",
        "Pantelis Bouboulis",
        "Sotiris Tsantilas",
        "LudiCreations",
        "Austerity",
        "Poleconomy",
    ):
        assert credit in html, credit
    assert html.count("our copy of the rules does not name them") == 2
    assert "can be played as a class lesson here" in html  # every game is offered
    # What our editions add to each game is said, game by game.
    assert "Our edition: the policy cards" in html
    assert "Our edition: the Event cards, the Influence cards" in html
    assert "Our edition: the order of the squares" in html


@pytest.mark.parametrize("path", ["/", "/about/", "/accounts/login/"])
def test_pages_load_nothing_from_other_sites(client: Client, path: str):
    html = client.get(path).content.decode()
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "/static/css/site.css" in html


def test_static_css_is_served_with_debug_off(client: Client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"font-family" in b"".join(response.streaming_content)


def test_language_follows_the_browser(client: Client):
    assert '<html lang="en">' in client.get("/").content.decode()
    html = client.get("/", headers={"accept-language": "es"}).content.decode()
    assert '<html lang="es">' in html


def test_dashboard_requires_login(client: Client, db):
    response = client.get("/teacher/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/teacher/"


def test_teacher_logs_in_to_the_dashboard_and_out(teacher):
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert 'name="password"' in page.content.decode()
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/accounts/login/",
        {"username": "teacher", "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    assert response["Location"] == "/teacher/"
    session_cookie = response.cookies["sessionid"]
    assert session_cookie["httponly"]
    assert session_cookie["samesite"] == "Lax"

    dashboard = client.get("/teacher/")
    assert dashboard.status_code == 200
    html = dashboard.content.decode()
    assert "No lesson is running." in html
    assert "TODO" not in html

    token = client.cookies["csrftoken"].value  # rotated at login
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert client.get("/teacher/").status_code == 302


def test_wrong_password_is_refused(client: Client, teacher):
    response = client.post("/accounts/login/", {"username": "teacher", "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert client.get("/teacher/").status_code == 302


def test_login_requires_csrf_token(teacher):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "teacher", "password": PASSWORD})
    assert response.status_code == 403
