"""WSGI entry point (plain HTTP only; the live pages need the ASGI application)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stateinclass.settings")
application = get_wsgi_application()
