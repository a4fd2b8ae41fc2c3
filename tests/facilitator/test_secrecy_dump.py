"""The secret ballot, seen from a full database dump (docs/secrecy.md).

We play a whole scripted lesson in which the test alone records who voted what, stamping each
ballot's moment with a distinctive clock. Then we read EVERY row of EVERY table of the
database and check that nothing pairs a seat with the option of a vote, and that no ballot
left a timestamp behind.
"""

import datetime as dt
import json
import random
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, models

from facilitator import clock as clock_seam
from facilitator import log, selectors, services
from facilitator.log import game_record
from facilitator.models import Bag, BallotReceipt, SealedBallot, Seat, TableAction
from games.state_in_class import data
from tests.facilitator.lesson import (
    NAMES,
    advance,
    all_pacts,
    break_ties,
    deterministic,
    fresh,
    humans,
    join,
    make_session,
    state_of,
)

OPTIONS = {"tax": list(data.TAX_OPTIONS), "budget": list(data.SERVICES)}
ALL_OPTIONS = {o for opts in OPTIONS.values() for o in opts}
# Keys under which a vote option could sit next to a seat.
OPTION_KEYS = {"option", "options", "choice", "vote", "votes", "ballot", "tally", "winner",
               "voted", "voted_for", "selection"}
BALLOT_TIME = re.compile(r"2031-\d\d-\d\d[ T]\d\d:")


class Clock:
    """The services' clock: 2030 for everything, 2031 while a ballot is being cast."""

    def __init__(self) -> None:
        self.at = dt.datetime(2030, 1, 1, 9, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.at


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(clock_seam, "now", clock)
    monkeypatch.setattr(log, "now", clock)
    return clock


def play_scripted_lesson(clock: Clock, seed: int = 6) -> tuple[Any, dict]:
    """Eight students; in every vote one of them stays away (so the teacher empties the bag,
    never a ballot) and the others vote by a fixed pattern. Returns the session and the
    secret: {(round, kind): {nickname: option}}."""
    session = make_session()
    join(session, 8)
    services.session_start(session=session)
    session = fresh(session)
    all_pacts(session)
    rng = random.Random(seed)
    secret: dict[tuple[int, str], dict[str, str]] = {}
    ballots = 0
    while session.stage != "final":
        kind = {"tax_vote": "tax", "budget_vote": "budget"}.get(session.stage)
        table = session.tables.get()
        if kind and state_of(table).phase == f"{kind}_vote":
            bag = secret.setdefault((session.round, kind), {})
            for s in humans(table):
                i = NAMES.index(s.nickname)
                if i == session.round % 8:
                    continue  # absent this time: abstains
                pattern = "CACBCDCC" if kind == "tax" else OPTIONS[kind]  # C wins: no failure
                option = pattern[(i + session.round) % len(pattern)]
                ballots += 1
                clock.at = dt.datetime(2031, 1, 1, 10, tzinfo=dt.UTC) + dt.timedelta(
                    seconds=ballots)
                services.ballot_cast(seat_id=s.pk, kind=kind, option=option,
                                     expected=session.stage_id)
                clock.at = dt.datetime(2030, 1, 1, 9, tzinfo=dt.UTC)
                bag[s.nickname] = option
            assert state_of(table).phase == f"{kind}_vote"  # the absentee keeps it open
        break_ties(session, rng)
        session = advance(session)
    return session, secret


# --------------------------------------------------------------------------- the dump


def dump_database() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, read with raw SQL (what a stolen backup would show)."""
    names = connection.introspection.table_names()
    for model in apps.get_models():
        assert model._meta.db_table in names, model
    rows: dict[str, list[dict[str, Any]]] = {}
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(name)}")
            columns = [c[0] for c in cursor.description]
            rows[name] = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    return rows


def decoded(value: Any) -> Any:
    """JSON columns come back as text (SQLite) or already parsed (PostgreSQL)."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def nodes(row: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(node, row) for the row's plain columns together with the top level of each of its
    JSON objects (a seat column next to a JSON payload is one record), and for every object
    nested deeper in its JSON."""
    plain: dict[str, Any] = {}
    objects: list[dict[str, Any]] = []
    nested: list[Any] = []
    for column, value in row.items():
        value = decoded(value)
        if isinstance(value, dict):
            objects.append(value)
            nested.extend(value.values())
        else:
            plain[column] = value
            if isinstance(value, list):
                nested.extend(value)
    if not objects:
        yield plain, row
    for obj in objects:
        yield {**plain, **obj}, row
    while nested:
        item = nested.pop()
        if isinstance(item, dict):
            yield item, row
            nested.extend(item.values())
        elif isinstance(item, list):
            nested.extend(item)


def scalars(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [v for v in value if not isinstance(v, dict | list)]
    if isinstance(value, dict):
        return list(value)  # a tally: its options
    return [value]


class Identity:
    """What names a seat: its id (in a seat column), its nickname, its engine name."""

    def __init__(self) -> None:
        seats = list(Seat.objects.all())
        self.ids = {s.pk for s in seats}
        self.names = {s.nickname for s in seats} | {s.player_name for s in seats if s.player_name}
        self.names |= {f"player:{n}" for n in set(self.names)}

    def seats_in(self, node: dict[str, Any]) -> set[Any]:
        found = set()
        for key, value in node.items():
            for v in scalars(value) if not isinstance(value, dict) else []:
                by_id = key in ("seat", "seat_id", "shares_id") and v in self.ids
                if by_id or (isinstance(v, str) and v in self.names):
                    found.add(v)
        return found


def options_in(node: dict[str, Any]) -> set[str]:
    found = set()
    for key, value in node.items():
        if key in OPTION_KEYS:
            found |= {v for v in scalars(value) if isinstance(v, str) and v in ALL_OPTIONS}
    return found


def public_by_the_rules(node: dict[str, Any], row: dict[str, Any]) -> bool:
    """The two pairings the rulebook makes public (see the module docstring of the test)."""
    # A tie-break: the decider says aloud which tied option they pick (or that they pass),
    # and the tie's order of deciders is the public Income order of those who voted.
    if {"player", "choice"} <= set(node) or "deciders" in node:
        return True
    # A ledger row of a tax payment names the tax in force (the winner, announced to all).
    return row.get("reason") == "tax" and "source" in row


@pytest.mark.django_db
def test_no_row_of_the_database_pairs_a_seat_with_a_vote(clock, monkeypatch):
    deterministic(monkeypatch, 6)
    session, secret = play_scripted_lesson(clock)
    table = session.tables.get()
    assert session.status == "finished"
    assert state_of(table).round == 8 and not state_of(table).failed
    assert len(secret) == 14 and all(len(bag) == 7 for bag in secret.values())
    identity = Identity()
    dump = dump_database()
    assert dump[BallotReceipt._meta.db_table] and dump[Bag._meta.db_table]
    assert not dump[SealedBallot._meta.db_table]  # every bag counted: nothing sealed is left
    pairs = []
    for name, rows in dump.items():
        for row in rows:
            for value in row.values():  # no ballot left its moment anywhere
                assert not BALLOT_TIME.search(str(value)), (name, row)
            for node, whole in nodes(row):
                seats, opts = identity.seats_in(node), options_in(node)
                if seats and opts and not public_by_the_rules(node, whole):
                    pairs.append((name, node))
    assert pairs == []
    # The test knows who voted what; the database must not: every vote was secret.
    receipts = dump[BallotReceipt._meta.db_table]
    assert len(receipts) == sum(len(bag) for bag in secret.values())
    for receipt in receipts:
        assert set(receipt) == {"id", "bag_id", "seat_id"}
    ids = [uuid.UUID(str(r["id"])) for r in receipts]  # random keys: no order of casting
    assert all(i.version == 4 for i in ids) and len(set(ids)) == len(ids)
    # The log has no ballots, and its counts name nobody.
    counts = TableAction.objects.filter(payload__type="count")
    assert counts.count() == 14
    for action in counts:
        assert action.seat_id is None and action.actor == "teacher"
        assert set(action.payload) == {"type", "kind", "tally"}
    assert not TableAction.objects.filter(payload__type="ballot").exists()
    tallies = {(a.round, a.payload["kind"]): a.payload["tally"] for a in counts}
    for (round_, kind), bag in secret.items():
        for option in OPTIONS[kind]:
            assert tallies[(round_, kind)].get(option, 0) == list(bag.values()).count(option)
    # The exported game record: ballots without options.
    record = game_record(session.tables.get())
    ballots = [a for a in record["actions"] if a["type"] == "ballot"]
    assert len(ballots) == sum(len(bag) for bag in secret.values())
    for ballot in ballots:
        assert set(ballot) == {"type", "kind", "player"}
    # Between two counts the ballots come in seat order, not in the order they were cast.
    first_count = next(i for i, a in enumerate(record["actions"]) if a["type"] == "count")
    first = [a["player"] for a in record["actions"][:first_count] if a["type"] == "ballot"]
    assert first == [s.player_name for s in humans(table) if s.nickname in secret[(1, "tax")]]
    for action in record["actions"]:
        for node, _row in nodes({"action": action}):
            if identity.seats_in(node) and options_in(node):
                assert action["type"] == "tie_break"


def test_the_schema_cannot_hold_a_vote_next_to_a_seat():
    fields = {f.name: f for f in BallotReceipt._meta.get_fields()}
    assert not any(word in name for name in fields for word in ("option", "choice", "vote"))
    assert not any(isinstance(f, models.DateField | models.TimeField | models.DurationField)
                   for f in fields.values())
    for model in (BallotReceipt, SealedBallot):
        pk = model._meta.pk
        assert isinstance(pk, models.UUIDField) and pk.default is uuid.uuid4
    for model in (SealedBallot, Bag):
        assert not any(getattr(f, "related_model", None) is Seat
                       for f in model._meta.get_fields())
        assert not any("seat" in f.name for f in model._meta.get_fields())
        assert not any(isinstance(f, models.DateField | models.TimeField)
                       for f in model._meta.get_fields())


@pytest.mark.django_db
def test_no_view_tells_a_student_or_the_projector_how_anyone_voted(clock, monkeypatch):
    deterministic(monkeypatch, 6)
    session = make_session()
    join(session, 8)
    services.session_start(session=session)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    voters = humans(table)[:5]
    for s, option in zip(voters, "ABCDA", strict=True):
        services.ballot_cast(seat_id=s.pk, kind="tax", option=option,
                             expected=session.stage_id)
    identity = Identity()
    views = [selectors.projector_view(fresh(session))]
    views += [selectors.seat_view(s) for s in humans(table)]
    for view in views:
        for node, _row in nodes({"view": view}):
            assert not (identity.seats_in(node) and options_in(node)), node
        assert "tally" not in json.dumps(view.get("game", {}).get("vote") or {})
    mine = selectors.seat_view(voters[0])["game"]["me"]
    assert mine["has_voted"] is True
    assert selectors.seat_view(humans(table)[6])["game"]["me"]["has_voted"] is False


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_rows_a_ballot_writes_are_its_receipt_and_its_sealed_ballot_only():
    """On PostgreSQL every row carries the id of the transaction that wrote it (xmin): the
    rows of one ballot's transaction are its receipt and its sealed ballot, and no other row
    of any table (no counter, no snapshot) carries that transaction's id."""
    from django.apps import apps

    session = make_session()
    join(session, 8)
    services.session_start(session=session)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    for s, option in zip(humans(table)[:6], "ABCDAB", strict=True):
        services.ballot_cast(seat_id=s.pk, kind="tax", option=option,
                             expected=session.stage_id)
    written: dict[str, list[str]] = {}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT xmin::text FROM {BallotReceipt._meta.db_table}")
        ballots = {x for (x,) in cursor.fetchall()}
        for model in apps.get_models():
            cursor.execute(f"SELECT xmin::text FROM {model._meta.db_table}")
            for (xmin,) in cursor.fetchall():
                if xmin in ballots:
                    written.setdefault(model._meta.db_table, []).append(xmin)
    assert len(ballots) == 6
    assert sorted(written) == sorted([BallotReceipt._meta.db_table,
                                      SealedBallot._meta.db_table])
    assert sorted(written[SealedBallot._meta.db_table]) == sorted(ballots)
