"""A command run on a database that was never migrated prints one sentence, not a traceback.

The commands run as a teacher runs them (``python manage.py ...`` in a subprocess) on a SQLite
file of their own; see ``facilitator/management/database.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError

from facilitator.management import database
from tests.i18n.conftest import compile_catalogue

ROOT = Path(__file__).resolve().parents[1]
ENGLISH = ("The database is not set up: run `make run` once (on a server: "
           "`python manage.py migrate`).")
SPANISH = ("La base de datos no está preparada: ejecuta `make run` una vez (en un servidor: "
           "`python manage.py migrate`).")


def manage(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "REDIS_URL", "SIC_LANGUAGE", "DJANGO_SETTINGS_MODULE")}
    environ.update(DATABASE_URL=f"sqlite:///{db}", LANG="C.UTF-8", **env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)


def test_verify_ledger_on_a_database_never_migrated_says_run_make_run_once(tmp_path):
    done = manage(tmp_path / "new.sqlite3", "verify_ledger")
    assert done.returncode == 1
    assert done.stderr.strip() == ENGLISH
    assert "Traceback" not in done.stdout + done.stderr


def test_djangos_own_commands_say_it_too_in_the_teachers_language(tmp_path):
    compile_catalogue()
    done = manage(tmp_path / "new.sqlite3", "changepassword", "teacher", SIC_LANGUAGE="es")
    assert done.returncode == 1
    assert done.stderr.strip() == SPANISH


def test_on_a_migrated_database_commands_run_as_before(tmp_path):
    db = tmp_path / "ready.sqlite3"
    assert manage(db, "migrate", "--noinput", "-v", "0").returncode == 0
    done = manage(db, "verify_ledger")
    assert (done.returncode, done.stderr) == (0, "")
    assert "0 tables checked" in done.stdout


def failing_command(argv: list[str]) -> None:
    raise OperationalError("disk I/O error")


def test_a_database_error_on_an_up_to_date_database_keeps_its_traceback(monkeypatch):
    monkeypatch.setattr("django.core.management.execute_from_command_line", failing_command)
    monkeypatch.setattr(database, "migrations_pending", lambda: False)
    with pytest.raises(OperationalError, match="disk I/O error"):
        database.run_command(["manage.py", "verify_ledger"])


def test_the_migration_commands_keep_their_own_errors(monkeypatch):
    monkeypatch.setattr("django.core.management.execute_from_command_line", failing_command)
    monkeypatch.setattr(database, "migrations_pending", lambda: True)
    with pytest.raises(OperationalError):
        database.run_command(["manage.py", "migrate", "--noinput"])


def test_the_language_comes_from_the_command_line_as_the_teachers_commands_read_it():
    assert database.language_option(["manage.py", "purge_sessions", "--language", "es"]) == "es"
    assert database.language_option(["manage.py", "verify_ledger", "--language=en"]) == "en"
    assert database.language_option(["manage.py", "verify_ledger"]) is None
    assert database.command_name(["manage.py", "verify_ledger", "--traceback"]) == "verify_ledger"
