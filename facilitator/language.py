"""Which language a screen speaks.

- The projector, the console and the handouts: the lesson's language (chosen at creation).
- A phone: the language its student picked with the "English · Español" switch (the
  ``sic_lang`` cookie, ``settings.LANGUAGE_COOKIE_NAME``), else the lesson's language. The same
  rule serves the /play/ page, its form posts and the pushed screens of its websocket.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings


def known(code: str | None) -> bool:
    return code in dict(settings.LANGUAGES)


def phone_language(cookies: Mapping[str, str], lesson_language: str) -> str:
    """The phone's own choice if it made one, else the lesson's language."""
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen and known(chosen):
        return chosen
    return lesson_language if known(lesson_language) else settings.LANGUAGE_CODE
