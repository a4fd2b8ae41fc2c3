"""Many phones at once, on PostgreSQL: row locks make every decision count exactly once."""

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from facilitator import services
from facilitator.errors import ServiceError
from facilitator.log import verify_table
from facilitator.models import Bag, BallotReceipt, Seat, Table, TableAction
from facilitator.privacy import FEWEST_TO_OPEN
from tests.facilitator.lesson import (
    NAMES,
    advance,
    all_pacts,
    fresh,
    humans,
    join,
    make_session,
    open_tally,
    started,
    state_of,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call in its own thread, released together; each result is the return value,
    the ServiceError's code, or the unexpected exception itself."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = call()
        except ServiceError as err:
            results[i] = err.code
        except BaseException as exc:  # reported below: nothing else may escape
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung (deadlock?)"
    escaped = [r for r in results if isinstance(r, BaseException)]
    assert escaped == [], escaped
    return results


def at_tax_vote(count: int = 8):
    session, _tokens = started(count)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    assert connection.vendor == "postgresql"
    return session


def test_thirty_two_identical_ballots_from_one_seat_count_once():
    session = at_tax_vote()
    table = session.tables.get()
    ana = table.seats.get(nickname="Ana")
    results = at_once([
        lambda: services.ballot_cast(seat_id=ana.pk, kind="tax", option="C",
                                     expected=session.stage_id)
        for _ in range(32)
    ])
    # One ballot is counted (its answer: the bag's progress), 31 are refused.
    assert Counter(r if isinstance(r, str) else "cast" for r in results) == {
        "cast": 1, "already_voted": 31}
    assert [r for r in results if isinstance(r, dict)] == [{"voted": 1, "of": 8}]
    assert BallotReceipt.objects.filter(seat=ana).count() == 1
    assert BallotReceipt.objects.count() == 1
    assert open_tally(table) == {"A": 0, "B": 0, "C": 1, "D": 0}
    assert state_of(table).receipts == ["Ana"]
    assert verify_table(Table.objects.get(pk=table.pk)) == []


def test_eight_seats_voting_together_close_the_vote_exactly_once():
    session = at_tax_vote()
    table = session.tables.get()
    seats = humans(table)
    options = "AABBCCCD"
    results = at_once([
        (lambda s=s, o=o: services.ballot_cast(seat_id=s.pk, kind="tax", option=o,
                                               expected=session.stage_id))
        for s, o in zip(seats, options, strict=True)
    ])
    # Each ballot is told the bag's count after it (1 … 7, each once); the eighth fills the
    # bag, which is counted at once (no progress: the bag is closed).
    assert sorted(r["voted"] for r in results if r is not None) == list(range(1, 8))
    assert results.count(None) == 1
    assert BallotReceipt.objects.filter(bag__table=table).count() == 8
    [count] = TableAction.objects.filter(table=table, payload__type="count")
    assert count.payload["tally"] == {"A": 2, "B": 2, "C": 3, "D": 1}
    state = state_of(table)
    assert state.tax == "C" and state.phase == "budget_vote"
    assert verify_table(Table.objects.get(pk=table.pk)) == []


def test_two_tables_voting_at_once_do_not_block_or_mix():
    session = at_tax_vote(14)
    calls = []
    for table in session.tables.all():
        for s in humans(table):
            calls.append(lambda s=s: services.ballot_cast(
                seat_id=s.pk, kind="tax", option="B", expected=session.stage_id))
    results = at_once(calls)
    assert sorted(r["voted"] for r in results if r is not None) == sorted([*range(1, 7)] * 2)
    assert results.count(None) == 2  # each table's last ballot: its bag is counted
    for table in session.tables.all():
        [count] = TableAction.objects.filter(table=table, payload__type="count")
        assert count.payload["tally"] == {"B": 7}
        assert verify_table(Table.objects.get(pk=table.pk)) == []


def test_a_double_click_on_next_moves_the_lesson_once():
    session, _tokens = started(8)
    expected = session.stage_id
    results = at_once([
        lambda: services.session_advance(confirm=True, session=session, expected=expected).stage
        for _ in range(4)
    ])
    assert sorted(results, key=str) == ["event", "stale", "stale", "stale"]
    assert fresh(session).steps.count() == 2


def test_ballots_racing_the_teachers_close_are_either_counted_or_refused():
    session = at_tax_vote()
    table = session.tables.get()
    seats = humans(table)[:7]
    calls = [lambda s=s: services.ballot_cast(seat_id=s.pk, kind="tax", option="D",
                                              expected=session.stage_id) for s in seats]
    calls.append(lambda: services.session_advance(confirm=True,
                                                  session=session, expected=session.stage_id))
    results = at_once(calls)
    assert all(r is None or isinstance(r, dict) or r in ("stale", "vote_closed")
               for r in results[:7]), results
    cast = sum(not isinstance(r, str) for r in results[:7])
    [count] = TableAction.objects.filter(table=table, payload__type="count")
    [bag] = Bag.objects.filter(table=table)
    receipts = BallotReceipt.objects.filter(bag__table=table).count()
    if cast >= FEWEST_TO_OPEN:  # the published tally holds exactly the ballots counted
        assert sum(count.payload["tally"].values()) == cast
        assert (receipts, bag.set_aside) == (cast, 0)
    else:  # fewer than 3 ballots: the bag is closed unopened, its tokens set aside
        assert "tally" not in count.payload and "outcome" in count.payload
        assert (receipts, bag.set_aside) == (0, cast)
    assert verify_table(Table.objects.get(pk=table.pk)) == []


def test_same_nickname_joining_twice_at_once_gets_one_seat():
    session = make_session()
    results = at_once([
        (lambda n=n: services.seat_join(code=session.join_code, nickname=n)[0].nickname)
        for n in ["Ana", "ana", "ANA", " Ana ", "Ana"]
    ])
    assert sum(isinstance(r, str) and r.lower() == "ana" for r in results) == 1
    assert Counter(r for r in results if r == "nickname_taken")["nickname_taken"] == 4
    assert Seat.objects.count() == 1


def test_students_joining_while_the_teacher_starts_are_seated_or_told_it_started():
    session = make_session()
    join(session, 8)
    late = NAMES[8:14]
    calls = [lambda: services.session_start(session=session, fill="bots") and "started"]
    calls += [(lambda n=n: services.seat_join(code=session.join_code, nickname=n)[0].nickname)
              for n in late]
    results = at_once(calls)
    assert results[0] == "started"
    assert set(results[1:]) <= {*late, "already_started"}
    # Nobody is left in a running lesson without a table.
    assert not Seat.objects.filter(session=session, table__isnull=True).exists()
    seated = sum(t.seats.count() for t in fresh(session).tables.all())
    assert seated == Seat.objects.filter(session=session).count()
