"""WebSocket routes, mounted by stateinclass.asgi behind origin and session checks."""

from django.urls import URLPattern, path

from facilitator import consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/play/", consumers.SeatConsumer.as_asgi()),
    path("ws/lesson/<int:session_id>/", consumers.TeacherConsumer.as_asgi()),
]
