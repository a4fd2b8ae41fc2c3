import pytest
from channels.auth import AuthMiddleware
from channels.routing import URLRouter
from channels.security.websocket import OriginValidator
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from stateinclass.asgi import application


def websocket_app() -> OriginValidator:
    return application.application_mapping["websocket"]


def test_http_goes_to_django():
    assert isinstance(application.application_mapping["http"], ASGIHandler)


def test_websocket_is_origin_checked_then_authenticated_then_routed():
    validator = websocket_app()
    assert isinstance(validator, OriginValidator)
    # The test runner appends "testserver" to a copy of ALLOWED_HOSTS.
    assert validator.allowed_origins == [h for h in settings.ALLOWED_HOSTS if h != "testserver"]
    layers = []
    app = validator.application
    while app is not None:
        layers.append(type(app))
        app = getattr(app, "inner", None)
    assert AuthMiddleware in layers
    assert layers[-1] is URLRouter


@pytest.mark.parametrize("origin", [b"http://evil.example", None])
async def test_websocket_from_another_site_is_refused(monkeypatch, origin):
    monkeypatch.setattr(websocket_app(), "allowed_origins", ["class.example.org"])
    headers = [(b"origin", origin)] if origin else []
    communicator = WebsocketCommunicator(application, "/ws/anything/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
