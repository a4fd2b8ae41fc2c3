from typing import Any

import pytest
from channels.auth import AuthMiddleware
from channels.routing import URLRouter
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from stateinclass.asgi import application


def websocket_app() -> OriginValidator:
    return application.application_mapping["websocket"]


def test_http_goes_to_django():
    assert isinstance(application.application_mapping["http"], ASGIHandler)


def layers_of(app: Any) -> list[type]:
    layers = []
    while app is not None:
        layers.append(type(app))
        app = getattr(app, "inner", None)
    return layers


def test_websocket_is_origin_checked_then_routed_then_authenticated_per_socket():
    validator = websocket_app()
    assert isinstance(validator, OriginValidator)
    # The test runner appends "testserver" to a copy of ALLOWED_HOSTS.
    assert validator.allowed_origins == [h for h in settings.ALLOWED_HOSTS if h != "testserver"]
    layers = layers_of(validator.application)
    assert layers[-1] is URLRouter
    routes = {str(r.pattern): r.callback for r in layers_of_router(validator.application)}
    # The teacher's socket has Django's session and user; a phone only its cookies (its
    # seat token): no session lookup for the hundreds of phones of a school.
    assert AuthMiddleware in layers_of(routes["ws/lesson/<int:session_id>/"])
    phone = layers_of(routes["ws/play/"])
    assert CookieMiddleware in phone and AuthMiddleware not in phone
    assert SessionMiddleware not in phone


def layers_of_router(app: Any) -> list[Any]:
    while not isinstance(app, URLRouter):
        app = app.inner
    return list(app.routes)


@pytest.mark.parametrize("origin", [b"http://evil.example", None])
async def test_websocket_from_another_site_is_refused(monkeypatch, origin):
    monkeypatch.setattr(websocket_app(), "allowed_origins", ["class.example.org"])
    headers = [(b"origin", origin)] if origin else []
    communicator = WebsocketCommunicator(application, "/ws/anything/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
