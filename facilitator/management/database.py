"""Every ``manage.py`` command run on a database that was never migrated says so in one sentence.

``manage.py`` runs each command through :func:`run_command`. When a command fails with a
database error (SQLite's "no such table", PostgreSQL's "relation ... does not exist") and the
database has migrations left to apply, the teacher reads one translated sentence telling them
to run ``make run`` once, and the command exits with status 1. Any other database error, or
one raised by the migration commands themselves, keeps Django's traceback: it is a real fault,
and ``make run`` would not cure it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from django.core import management
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation
from django.utils.translation import gettext as _

from facilitator.management.teacher import teacher_language

# Commands that create or inspect migrations: their database errors are shown as they are.
MIGRATION_COMMANDS = frozenset({
    "migrate", "makemigrations", "squashmigrations", "sqlmigrate", "optimizemigration",
    "showmigrations",
})


def command_name(argv: Sequence[str]) -> str | None:
    """The subcommand of a ``manage.py`` command line (Django reads it right after the program)."""
    return argv[1] if len(argv) > 1 else None


def language_option(argv: Sequence[str]) -> str | None:
    """The value of ``--language X`` or ``--language=X`` on the command line, if any."""
    for index, arg in enumerate(argv):
        if arg.startswith("--language="):
            return arg.split("=", 1)[1]
        if arg == "--language" and index + 1 < len(argv):
            return argv[index + 1]
    return None


def migrations_pending(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """True when the database lacks migrations (all of them, on one never set up).

    False when that cannot be told (the server does not answer, for instance): the caller
    then shows the original error.
    """
    connections.close_all()  # a connection may be left in a failed transaction
    try:
        executor = MigrationExecutor(connections[alias])
        return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except DatabaseError:
        return False
    finally:
        connections.close_all()


def not_set_up_message(argv: Sequence[str]) -> str:
    """The sentence for the teacher, in their language (see ``facilitator.management.teacher``)."""
    with translation.override(teacher_language(language_option(argv))):
        return _("The database is not set up: run `make run` once (on a server: "
                 "`python manage.py migrate`).")


def run_command(argv: Sequence[str]) -> int:
    """Run a ``manage.py`` command line; the exit status (Django exits itself on CommandError)."""
    try:
        management.execute_from_command_line(list(argv))
    except DatabaseError:
        if command_name(argv) in MIGRATION_COMMANDS or not migrations_pending():
            raise
        sys.stderr.write(not_set_up_message(argv) + "\n")
        return 1
    return 0
