"""WebSocket routes, mounted by stateinclass.asgi behind the origin checks.

Only the teacher's socket needs Django's session and user (``AuthMiddlewareStack``). A phone
is identified by its seat cookie alone, so its socket only parses cookies: performance (the
session and user lookup was 17 % of the school benchmark's server time, all of it spent on
phones that have no session).

Any other path is refused before the handshake completes (close code 4404; the browser sees
HTTP 403), quietly: channels' router raised ``ValueError`` for it, a 500 with a traceback in
the teacher's terminal for every such request.
"""

from channels.auth import AuthMiddlewareStack
from channels.sessions import CookieMiddleware
from django.urls import URLPattern, path, re_path

from facilitator import consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/play/", CookieMiddleware(consumers.SeatConsumer.as_asgi())),
    path("ws/lesson/<int:session_id>/", AuthMiddlewareStack(consumers.TeacherConsumer.as_asgi())),
    re_path(r"", consumers.UnknownPathConsumer.as_asgi()),
]
