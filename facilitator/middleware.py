"""Security headers Django 5.2 does not set by itself, and the websocket same-origin check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from channels.middleware import BaseMiddleware
from channels.security.websocket import WebsocketDenier
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers

# No inline script anywhere: scripts and styles come from our own static files only. Inline
# SVG (charts, QR codes) needs no exception; images may be data: URIs (QR in reports).
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


class ContentSecurityPolicyMiddleware:
    """The CSP and Referrer-Policy on every page, and ``Cache-Control: no-store`` (with
    ``private``) on every response a view makes without a caching policy of its own.

    Every page is private or changes with the lesson: a phone's coins and role (``/play/``),
    the re-seat link, a game record, the teacher's console. None may stay in a shared
    browser's cache or a school proxy. Static files are served by WhiteNoise before this
    middleware runs, so they keep their long-lived caching.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/admin/"):
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if "Cache-Control" not in response.headers:
            add_never_cache_headers(response)
        return response


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _hostname(netloc: str) -> str | None:
    try:
        return urlsplit(f"//{netloc}").hostname
    except ValueError:
        return None


class SameOriginWebsocketMiddleware(BaseMiddleware):
    """Sockets only from this site's own pages: the Origin's host must be the socket's Host.

    Why: ``AllowedHostsOriginValidator`` compares the Origin with ALLOWED_HOSTS, which is "*"
    in classroom mode (the laptop is reached by whatever address the wifi gives it), so a page
    of any other site could open a lesson socket with the visitor's cookies. Browsers always
    send both headers; a client that sends no Host header is no browser (and not protected
    by an Origin check anyway), so it is left to the allowed-hosts check. Ports are not
    compared (a proxy may drop them from Host).
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        host = _header(scope, b"host")
        if host is not None:
            origin = _header(scope, b"origin") or ""
            try:
                origin_host = urlsplit(origin).hostname
            except ValueError:
                origin_host = None
            if origin_host is None or origin_host != _hostname(host):
                return await WebsocketDenier()(scope, receive, send)
        return await self.inner(scope, receive, send)
