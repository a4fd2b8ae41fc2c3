"""PostgreSQL's connection is health-checked only when it may have gone stale
(stateinclass/postgresql/base.py): not before every database hop of a ballot, and always after
a quiet spell, so a connection the server closed meanwhile is replaced, not used."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connections

from stateinclass.postgresql import base

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def db() -> Any:
    return connections["default"]


@pytest.fixture
def checks(monkeypatch: Any) -> list[int]:
    assert db().vendor == "postgresql"
    assert isinstance(db(), base.DatabaseWrapper)
    calls: list[int] = []
    usable = db().is_usable

    def counted() -> bool:
        calls.append(1)
        return usable()

    monkeypatch.setattr(db(), "is_usable", counted)
    monkeypatch.setattr(db(), "health_check_enabled", True)
    return calls


def new_hop() -> None:
    """What Channels does around every database hop (a new "request"), with the connection
    kept between hops as the server keeps it (the tests' CONN_MAX_AGE of 0 would close it)."""
    db().close_at = None
    db().close_if_unusable_or_obsolete()


def query() -> int:
    with db().cursor() as cursor:
        cursor.execute("SELECT 41 + 1")
        return cursor.fetchone()[0]


def test_hops_in_quick_succession_run_no_health_check(checks: list[int]):
    query()
    checks.clear()
    for _ in range(5):
        new_hop()
        assert query() == 42
    assert checks == []


def test_the_first_hop_after_a_quiet_spell_is_checked(checks: list[int]):
    query()
    checks.clear()
    db().used_at -= base.IDLE_BEFORE_CHECK + 1
    new_hop()
    assert query() == 42
    assert checks == [1]


def test_a_connection_the_server_closed_during_a_quiet_spell_is_replaced(checks: list[int]):
    query()
    pid = db().connection.info.backend_pid
    settings = db().settings_dict
    with psycopg.connect(host=settings["HOST"], port=settings["PORT"] or 5432,
                         user=settings["USER"], password=settings["PASSWORD"] or None,
                         dbname=settings["NAME"], autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    db().used_at -= base.IDLE_BEFORE_CHECK + 1
    new_hop()
    assert query() == 42  # no error: the dead connection was checked and replaced
    assert db().connection.info.backend_pid != pid
