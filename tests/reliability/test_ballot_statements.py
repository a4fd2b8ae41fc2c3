"""A ballot, seen as the database sees it: every SQL statement and parameter it sends.

The probe's second method: capture every statement of ``services.ballot_cast`` (Django's
``connection.execute_wrapper``) for each option of both votes. None may carry the option in
clear, none may touch a tally before the count: a ballot only reads, locks its table and
inserts its receipt and its sealed ballot; the statements are the same whatever the option,
and their parameters differ only by the voter's seat and fresh random values (ids, the sealed
bytes). The tests run on the default database (SQLite locally; PostgreSQL under ``CI=true``,
where ``DATABASE_URL`` points at it) and once more marked ``postgres``, which requires it.

Last, the differencing attack: count, undo the count, one more ballot, count again. The
reopened bag must start empty, so the second tally is not the first plus one ballot.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.db import connection

from facilitator import ballot_keys, services
from facilitator.models import Bag, BallotReceipt, LedgerEntry, SealedBallot, Table, TableAction
from games.state_in_class import data
from tests.facilitator.lesson import advance, drive_to, fresh, humans, join, make_session

pytestmark = pytest.mark.django_db

TAX, BUDGET = list(data.TAX_OPTIONS), list(data.SERVICES)
WRITES = {"facilitator_ballotreceipt", "facilitator_sealedballot"}
HEX_ID = re.compile(r"[0-9a-f]{32}")
SAVEPOINT = re.compile(r'"s\d+_x\d+"')


class Statements:
    """Every statement sent while active: (SQL, parameters)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        assert not many, sql  # a ballot is a handful of single statements
        self.seen.append((sql, tuple(plain(p) for p in params or ())))
        return execute(sql, params, many, context)


def plain(param: Any) -> Any:
    """A parameter as a value: bytes for SQLite's memoryview and psycopg's ``Binary``."""
    if isinstance(param, memoryview):
        return bytes(param)
    if type(param).__name__ == "Binary" and hasattr(param, "obj"):
        return bytes(param.obj)
    return param


def cast(seat_id: int, kind: str, option: str) -> Statements:
    statements = Statements()
    with connection.execute_wrapper(statements):
        services.ballot_cast(seat_id=seat_id, kind=kind, option=option)
    return statements


def verb(sql: str) -> str:
    return sql.lstrip().split(None, 1)[0].upper()


def inserted_into(sql: str) -> str:
    return re.match(r'\s*INSERT INTO\s+"?(\w+)"?', sql, re.I).group(1)  # type: ignore[union-attr]


def looks_random(value: Any) -> bool:
    """A fresh id (UUID, as it is or as 32 hex digits) or a sealed ballot's 44 bytes."""
    return (isinstance(value, uuid.UUID) or (isinstance(value, str) and bool(
        HEX_ID.fullmatch(value))) or (isinstance(value, bytes) and len(value) == 44))


def shape(statements: Statements, seat_id: int) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements with fresh random values (and savepoint names) named, not given, and
    the voter's seat kept apart (``shapes_alike`` compares them)."""
    return [(SAVEPOINT.sub("<savepoint>", sql),
             tuple(("<seat>", p) if p == seat_id else "<random>" if looks_random(p) else p
                   for p in params)) for sql, params in statements.seen]


def shapes_alike(shapes: list[list[tuple[str, tuple[Any, ...]]]]) -> bool:
    """The same statements with the same parameters, but where one ballot has its voter's
    seat: a parameter that is a seat in one ballot and a constant that happens to equal that
    seat's number (a table's or a bag's id) in another is the same position."""
    def plain(value: Any) -> Any:
        return value[1] if isinstance(value, tuple) and value[:1] == ("<seat>",) else value

    if len({len(s) for s in shapes}) != 1:
        return False
    for rows in zip(*shapes, strict=True):
        if len({sql for sql, _p in rows}) != 1 or len({len(p) for _s, p in rows}) != 1:
            return False
        for values in zip(*(p for _s, p in rows), strict=True):
            every_seat = all(isinstance(v, tuple) for v in values)
            if not every_seat and len({plain(v) for v in values}) != 1:
                return False
    return True


def lesson_at_tax_vote() -> Any:
    session = make_session()
    join(session, 8)
    services.session_start(session=session, seed=3)
    return drive_to(fresh(session), "tax_vote", 1)


def tally_log(table: Table) -> tuple[Any, int, int]:
    """What a count would publish or move: the snapshot, the log, the ledger."""
    table.refresh_from_db()
    return table.snapshot, TableAction.objects.filter(table=table).count(), \
        LedgerEntry.objects.filter(table=table).count()


def ballots_one_per_option(kind: str, options: list[str], session: Any) -> None:
    """The first ``len(options)`` students vote one option each (the bag does not fill)."""
    [table] = fresh(session).tables.all()
    voters = humans(table)
    shapes, verbs_seen = [], set()
    for seat, option in zip(voters, options, strict=False):
        before = tally_log(table)
        statements = cast(seat.pk, kind, option)
        assert tally_log(table) == before  # no snapshot, log or ledger moved
        for sql, params in statements.seen:
            verbs_seen.add(verb(sql))
            assert verb(sql) in ("SELECT", "INSERT", "SAVEPOINT", "RELEASE"), sql
            assert not any(p in TAX + BUDGET for p in params), (sql, params)
        writes = [inserted_into(sql) for sql, _p in statements.seen if verb(sql) == "INSERT"]
        assert sorted(writes) == sorted(WRITES), writes  # one receipt, one sealed ballot
        shapes.append(shape(statements, seat.pk))
    assert {"SELECT", "INSERT"} <= verbs_seen
    if connection.vendor == "postgresql":  # the table's row lock (SQLite locks the file)
        assert any("FOR UPDATE" in sql for sql, _params in statements.seen)
    # Same statements, same parameters, but for the seat and fresh random values: nothing
    # in them depends on the option (no voter's seat number doubles as its option's index).
    assert shapes_alike(shapes), "a ballot's statements depend on its option"
    assert any(seat.pk != options.index(o) for seat, o in zip(voters, options, strict=False))


def finish_vote(kind: str, options: list[str], session: Any, skip: int) -> None:
    [table] = fresh(session).tables.all()
    for seat, option in zip(humans(table)[skip:], options, strict=False):
        services.ballot_cast(seat_id=seat.pk, kind=kind, option=option)


def check_both_votes() -> None:
    session = lesson_at_tax_vote()
    ballots_one_per_option("tax", TAX, session)
    finish_vote("tax", ["C", "C", "A", "B"], session, len(TAX))  # C wins: no tie-break
    assert fresh(session).tables.get().bags.get().status == Bag.Status.COUNTED
    advance(session)  # pay
    advance(session)  # the budget vote opens
    ballots_one_per_option("budget", BUDGET, session)


def test_a_ballot_only_reads_and_inserts_its_receipt_and_sealed_ballot_whatever_the_option():
    check_both_votes()


@pytest.mark.postgres
def test_a_ballot_only_reads_and_inserts_its_receipt_and_sealed_ballot_on_postgresql():
    assert connection.vendor == "postgresql"
    check_both_votes()


def test_undoing_a_count_empties_the_bag_so_a_second_count_differs_by_no_ballot(
        django_capture_on_commit_callbacks: Any):
    session = lesson_at_tax_vote()
    [table] = fresh(session).tables.all()
    voters = humans(table)
    for seat, option in zip(voters[:5], ["A", "B", "C", "D", "A"], strict=True):
        services.ballot_cast(seat_id=seat.pk, kind="tax", option=option)
    bag = table.bags.get()
    old_name, old_fingerprint = bag.key_ref, bag.fingerprint
    with django_capture_on_commit_callbacks(execute=True):
        advance(session)  # the teacher counts with 3 still to vote
    first = counts(table)
    assert len(first) == 1 and sum(first[0].values()) == 5
    with django_capture_on_commit_callbacks(execute=True):
        services.session_undo(session=fresh(session))
    bag.refresh_from_db()
    assert bag.status == Bag.Status.OPEN and bag.reopened == "undo"
    assert not BallotReceipt.objects.filter(bag=bag).exists()  # every earlier receipt gone
    assert not SealedBallot.objects.filter(bag=bag).exists()
    assert (bag.key_ref, bag.fingerprint) != (old_name, old_fingerprint)
    assert ballot_keys.key_store().get(old_name) is None  # the old key is destroyed
    assert counts(table) == []  # the first tally left the log with its step
    for seat, option in zip(voters[5:8], ["B", "B", "C"], strict=True):
        services.ballot_cast(seat_id=seat.pk, kind="tax", option=option)
    advance(session)
    [second] = [p for p in TableAction.objects.filter(table=table).order_by("seq")
                .values_list("payload", flat=True) if p.get("type") == "count"]
    # Only the ballots cast after the undo, and a decision counted again keeps only its
    # outcome: no second tally to subtract the first from.
    assert "tally" not in second and second["outcome"] == [["B"]]
    assert BallotReceipt.objects.filter(bag=bag).count() == 3


def counts(table: Table) -> list[dict[str, int]]:
    return [p["tally"] for p in TableAction.objects.filter(table=table).order_by("seq")
            .values_list("payload", flat=True) if p.get("type") == "count"]


def test_a_bag_reopened_by_an_undo_gets_the_bots_tokens_again(
        django_capture_on_commit_callbacks: Any):
    session = make_session()
    join(session, 4)
    services.session_start(session=session, fill="bots", seed=3)  # 4 students and 2 bots
    session = drive_to(fresh(session), "tax_vote", 1)
    [table] = fresh(session).tables.all()
    bag = table.bags.get()
    assert bag.receipts.count() == 2  # the bots voted when the bag opened
    students = humans(table)
    for seat in students[:3]:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="A")
    with django_capture_on_commit_callbacks(execute=True):
        advance(session)
        services.session_undo(session=fresh(session))
    for seat in students:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="B")
    bag.refresh_from_db()
    assert bag.status == Bag.Status.COUNTED  # every voter's token in: counted by itself
