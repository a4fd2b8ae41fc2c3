"""WebSocket routes, mounted by stateinclass.asgi behind origin and session checks."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
