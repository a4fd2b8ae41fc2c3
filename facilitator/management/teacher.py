"""Commands whose output a teacher reads (``make run``, ``purge_sessions``...) speak their language.

The language is, in this order: ``--language en|es``, the ``SIC_LANGUAGE`` environment
variable, the system's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext
programs do: a laptop set up in Spanish prints Spanish), else ``settings.LANGUAGE_CODE``.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def supported(code: str | None) -> str | None:
    """``"es_ES.UTF-8"`` → ``"es"``; None for a language the project does not speak."""
    if not code:
        return None
    base = code.split(":")[0].split(".")[0].split("@")[0].replace("_", "-").lower()
    known = {c for c, _name in settings.LANGUAGES}
    for candidate in (base, base.split("-")[0]):
        if candidate in known:
            return candidate
    return None


def teacher_language(explicit: str | None = None,
                     environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for value in (explicit, env.get("SIC_LANGUAGE")):
        if supported(value):
            return supported(value) or settings.LANGUAGE_CODE
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            # The first variable that is set decides (C, POSIX: English), as in gettext.
            return supported(value) or settings.LANGUAGE_CODE
    return settings.LANGUAGE_CODE


class TeacherCommand(BaseCommand):
    """A command whose messages are translated (see the module docstring)."""

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument("--language", choices=[c for c, _name in settings.LANGUAGES],
                            help="language of the messages (default: SIC_LANGUAGE, then the "
                                 "system locale)")
        return parser

    def execute(self, *args: Any, **options: Any) -> Any:
        with translation.override(teacher_language(options.get("language"))):
            return super().execute(*args, **options)
