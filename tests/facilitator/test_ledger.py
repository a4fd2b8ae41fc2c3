"""The bank ledger: double entry, append-only, and provably equal to the engine's state."""

import random
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from facilitator.log import engine_balances, ledger_balances, load_state, verify_table
from facilitator.models import LedgerEntry, Table, TableAction
from tests.facilitator.lesson import (
    deterministic,
    drive_to,
    join,
    make_session,
    play_lesson,
    started,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def lesson(monkeypatch):
    """Eight students, three rounds played (the ledger has every kind of transfer)."""
    deterministic(monkeypatch, 11)
    session, _tokens = started(8)
    return drive_to(session, "event", 4, rng=random.Random(11))


@pytest.fixture
def lesson_with_a_bot(monkeypatch):
    """A whole lesson of 9 students (two tables of six with three bots) to the final count."""
    deterministic(monkeypatch, 11)
    session = make_session()
    join(session, 9)
    return play_lesson(session, random.Random(11), fill="bots")


def verify_ledger(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("verify_ledger", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_after_a_whole_lesson_every_ledger_agrees_with_its_game(lesson_with_a_bot):
    tables = list(lesson_with_a_bot.tables.all())
    assert len(tables) == 2
    for table in tables:
        assert verify_table(table) == []
        state = load_state(table)
        balances = ledger_balances(table)
        assert balances == {k: v for k, v in engine_balances(table, state).items() if v or k in
                            balances}
        for p in state.players:
            assert balances.get(f"player:{p.name}", 0) == p.coins
        assert sum(balances.values()) == 0
        reasons = set(table.ledger.values_list("reason", flat=True))
        assert {"start", "pact", "income", "tax", "split"} <= reasons
    out, err = verify_ledger()
    assert "2 tables checked" in out and err == ""


def test_ledger_rows_are_numbered_positive_transfers(lesson):
    table = lesson.tables.get()
    seqs = list(table.ledger.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert not table.ledger.filter(amount__lte=0).exists()
    # Every row but the starting coins belongs to the decision that caused it.
    assert not table.ledger.filter(action__isnull=True).exclude(reason="start").exists()
    assert table.ledger.filter(reason="start").count() == 8


def corrupt(sql: str, params: list) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_a_corrupted_ledger_row_makes_verify_ledger_fail(lesson):
    verify_ledger()
    entry = LedgerEntry.objects.filter(reason="tax").order_by("?").first()
    corrupt(f"UPDATE {LedgerEntry._meta.db_table} SET amount = amount + 1 WHERE id = %s",
            [entry.pk])
    table = entry.table
    problems = verify_table(table)
    # Double entry: both accounts of the doctored row disagree with the engine.
    assert any(p.startswith(entry.source + ":") for p in problems)
    assert any(p.startswith(entry.destination + ":") for p in problems)
    with pytest.raises(CommandError) as caught:
        verify_ledger()
    assert "problem" in str(caught.value)
    # The other sessions' tables are still fine; this one is not.
    with pytest.raises(CommandError):
        verify_ledger("--session", str(table.session_id))


def test_a_missing_ledger_row_or_a_doctored_snapshot_is_found(lesson):
    table = lesson.tables.get()
    entry = table.ledger.filter(reason="income").last()
    corrupt(f"DELETE FROM {LedgerEntry._meta.db_table} WHERE id = %s", [entry.pk])
    assert any(p.startswith(entry.destination + ":") for p in verify_table(table))
    other = Table.objects.get(pk=table.pk)
    snapshot = dict(other.snapshot)
    snapshot["tension"] = (snapshot["tension"] or 0) + 1
    Table.objects.filter(pk=other.pk).update(snapshot=snapshot)
    other.refresh_from_db()
    assert "the snapshot differs from a full replay of the log" in verify_table(other)
    with pytest.raises(CommandError) as caught:
        verify_ledger()
    assert re.search(r"\d+ problems? in 1 table$", str(caught.value))


def test_ledger_entries_and_actions_cannot_be_changed_by_save(lesson):
    entry = LedgerEntry.objects.first()
    amount = entry.amount
    entry.amount += 10
    with pytest.raises(ValueError, match="immutable"):
        entry.save()
    action = TableAction.objects.first()
    payload = action.payload
    action.payload = {"type": "pact", "player": "Ana", "coins": 3}
    with pytest.raises(ValueError, match="append-only"):
        action.save()
    entry.refresh_from_db()
    action.refresh_from_db()
    assert entry.amount == amount
    assert action.payload == payload
    verify_ledger()


def test_verify_ledger_with_no_tables_checks_nothing():
    out, _err = verify_ledger()
    assert "0 tables checked" in out
