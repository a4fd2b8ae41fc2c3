"""WebSocket routes, mounted by stateinclass.asgi behind the origin checks.

Only the teacher's socket needs Django's session and user (``AuthMiddlewareStack``). A phone
is identified by its seat cookie alone, so its socket only parses cookies: a phone's socket
never looks up a session or a user (which phones do not have; what that lookup cost is in
docs/performance.md, "What was changed, before and after").

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
