"""ASGI entry point: `daphne stateinclass.asgi:application`."""

import os

from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stateinclass.settings")
# Set Django up before importing anything that may import models.
django_asgi_app = get_asgi_application()

from facilitator import ballot_keys  # noqa: E402
from facilitator.middleware import SameOriginWebsocketMiddleware  # noqa: E402
from facilitator.routing import websocket_urlpatterns  # noqa: E402

# This process serves lessons: with the in-memory key store it holds the ballot keys, and may
# tell that a key is lost (it restarted mid-vote). A shell or a command never may.
ballot_keys.serve()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SameOriginWebsocketMiddleware(URLRouter(websocket_urlpatterns))
        ),
    }
)
