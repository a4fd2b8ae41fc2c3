"""Undo (the teacher's last step and every student decision after it) and pause."""

import random

import pytest

from facilitator import services
from facilitator.errors import ServiceError
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.log import engine_of, replay_table, verify_table
from facilitator.models import (
    Bag,
    BallotReceipt,
    ClassSession,
    LedgerEntry,
    SealedBallot,
    Seat,
    Table,
    TableAction,
    TeacherStep,
)
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    break_ties,
    deterministic,
    dump_facilitator,
    fresh,
    humans,
    join,
    make_session,
    open_tally,
    started,
    vote_all,
)

pytestmark = pytest.mark.django_db


def undo(session: ClassSession) -> ClassSession:
    session = fresh(session)
    return services.session_undo(session=session, expected=session.stage_id)


def snapshots(session: ClassSession) -> dict[int, dict]:
    return {t.number: t.snapshot for t in Table.objects.filter(session=session)}


def assert_consistent(session: ClassSession) -> None:
    """Every table's snapshot is what a full replay gives, and the ledger agrees."""
    for table in Table.objects.filter(session=session):
        assert engine_of(table).to_dict(replay_table(table)) == table.snapshot
        assert verify_table(table) == []


def test_undoing_the_start_goes_back_to_the_lobby(monkeypatch):
    deterministic(monkeypatch)
    session = make_session()
    join(session, 9)
    lobby = dump_facilitator()
    services.session_start(session=session, fill="bots")
    assert Seat.objects.filter(is_bot=True).count() == 3
    sic_services.pact_submit(seat_id=humans(fresh(session).tables.first())[0].pk, coins=2)
    session = undo(session)
    assert (session.status, session.stage, session.round) == ("lobby", "lobby", 0)
    assert session.started_at is None
    assert not Table.objects.exists() and not LedgerEntry.objects.exists()
    assert not TableAction.objects.exists() and not TeacherStep.objects.exists()
    assert not Seat.objects.filter(is_bot=True).exists()
    for s in Seat.objects.all():
        assert (s.table_id, s.position, s.player_name, s.shares_id) == (None, None, "", None)
    assert dump_facilitator() == lobby
    # The class can be seated again, another way.
    services.session_start(session=session, fill="pairs")
    assert fresh(session).tables.count() == 1
    assert Seat.objects.filter(shares__isnull=False).count() == 1


def test_undoing_a_start_with_pairs_unpairs_everyone(monkeypatch):
    deterministic(monkeypatch)
    session = make_session()
    join(session, 10)
    lobby = dump_facilitator()
    services.session_start(session=session, fill="pairs")
    assert Seat.objects.filter(shares__isnull=False).count() == 2
    undo(session)
    assert dump_facilitator() == lobby


def test_undoing_the_opening_of_a_vote_deletes_its_bag(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(4, fill="bots")  # two bots vote the moment the bag opens
    all_pacts(session)
    session = advance(advance(session))
    assert session.stage == "debate"
    before = dump_facilitator()
    session = advance(session)
    assert BallotReceipt.objects.count() == 2  # the bots
    for s in humans(session.tables.get())[:2]:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="A", expected=session.stage_id)
    assert BallotReceipt.objects.count() == 4 and SealedBallot.objects.count() == 4
    session = undo(session)
    assert (session.round, session.stage) == (1, "debate")
    assert not Bag.objects.exists() and not BallotReceipt.objects.exists()
    assert not SealedBallot.objects.exists()
    assert dump_facilitator() == before
    assert_consistent(session)
    # Opening it again: the bots vote again, the students may vote again.
    session = advance(session)
    assert BallotReceipt.objects.count() == 2
    services.ballot_cast(seat_id=humans(session.tables.get())[0].pk, kind="tax", option="D",
                         expected=session.stage_id)


def test_undoing_the_count_of_a_vote_discards_it_and_everyone_votes_again(monkeypatch):
    """Count, undo, one more ballot, count would reveal that ballot: the undone vote is gone."""
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    voters, late = humans(table)[:5], humans(table)[5:]
    for s, option in zip(voters, "ABBCD", strict=True):
        services.ballot_cast(seat_id=s.pk, kind="tax", option=option, expected=session.stage_id)
    open_snapshot = snapshots(session)
    session = advance(session)  # the teacher empties the bag: B wins, everyone is paid
    assert session.stage == "pay"
    assert TableAction.objects.filter(payload__type="count").count() == 1
    assert LedgerEntry.objects.filter(reason="tax").exists()
    session = undo(session)
    assert (session.round, session.stage) == (1, "tax_vote")
    assert not TableAction.objects.filter(payload__type="count").exists()
    assert not LedgerEntry.objects.filter(reason__in=["tax", "income"]).exists()
    bag = Bag.objects.get()
    assert (bag.status, bag.reopened) == ("open", "undo")
    assert not BallotReceipt.objects.exists() and not SealedBallot.objects.exists()
    assert snapshots(session) == open_snapshot
    assert_consistent(session)
    # Everyone votes again, the first five included; one ballot is never in two tallies.
    for s in late:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="D", expected=session.stage_id)
    session = advance(session)
    count = TableAction.objects.get(payload__type="count")
    # counted again after an Undo: its outcome only, never a second tally
    assert count.payload["outcome"] == [["D"]] and "tally" not in count.payload
    assert_consistent(session)


def test_a_reopened_vote_takes_everyone_again(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    first = humans(table)[0]
    services.ballot_cast(seat_id=first.pk, kind="tax", option="A", expected=session.stage_id)
    session = undo(advance(session))
    services.ballot_cast(seat_id=first.pk, kind="tax", option="C", expected=session.stage_id)
    assert open_tally(table) == {"A": 0, "B": 0, "C": 1, "D": 0}


VOTE_ROWS = ("facilitator.Bag", "facilitator.BallotReceipt", "facilitator.SealedBallot")


def without_votes(dump):
    return {k: v for k, v in dump.items() if k not in VOTE_ROWS}


# What an Undo deliberately keeps: which decisions were counted before (their next count
# publishes the outcome only, docs/secrecy.md).
KEPT_THROUGH_UNDO = {"facilitator.Table": "counted", "facilitator.Bag": "counted_before"}


def without_kept(dump):
    return {model: [{k: v for k, v in row.items() if KEPT_THROUGH_UNDO.get(model) != k}
                    for row in rows] for model, rows in dump.items()}


def test_undo_step_by_step_retraces_the_lesson_exactly(monkeypatch):
    """Before every "next" we keep a dump; undoing that step must give the dump back."""
    deterministic(monkeypatch, 4)
    rng = random.Random(4)
    session, _tokens = started(13, fill=None)  # two tables: 7 and 6
    all_pacts(session)
    history = []
    while (session.round, session.stage) != (5, "tax_vote"):
        if session.stage == "tax_vote":
            vote_all(session, "tax", rng, ["B", "C"])
        elif session.stage == "budget_vote":
            vote_all(session, "budget", rng, ["health", "education", "shield"])
        break_ties(session, rng)
        history.append(((session.round, session.stage), dump_facilitator()))
        session = advance(session)
    for (moment, dump) in reversed(history):
        session = undo(session)
        assert (session.round, session.stage) == moment
        if moment[1] in ("tax_vote", "budget_vote"):
            # Undoing a count discards that vote: the bag is open again, and empty.
            assert without_votes(without_kept(dump_facilitator())) == without_votes(
                without_kept(dump))
            assert not BallotReceipt.objects.filter(bag__status="open").exists()
        else:
            assert without_kept(dump_facilitator()) == without_kept(dump)
        assert_consistent(session)
    assert fresh(session).steps.count() == 1  # only the start is left


def test_nothing_to_undo_in_a_fresh_lobby():
    session = make_session()
    join(session, 3)
    before = dump_facilitator()
    with pytest.raises(ServiceError) as caught:
        services.session_undo(session=session)
    assert caught.value.code == "nothing_to_undo"
    assert dump_facilitator() == before


def test_a_finished_lesson_cannot_be_undone():
    session, _tokens = started(8)
    all_pacts(session)
    advance(session)
    ClassSession.objects.filter(pk=session.pk).update(status="finished", stage="final")
    session = fresh(session)
    before = dump_facilitator()
    with pytest.raises(ServiceError) as caught:
        services.session_undo(session=session)
    assert caught.value.code == "read_only"
    assert dump_facilitator() == before


def test_pause_holds_everyone_and_is_not_an_undoable_step():
    session, _tokens = started(8)
    all_pacts(session)
    session = advance(session)
    steps = session.steps.count()
    session = services.session_pause(session=session, paused=True)
    assert fresh(session).paused
    assert fresh(session).steps.count() == steps
    session = services.session_pause(session=session, paused=False)
    assert not fresh(session).paused
    session = undo(session)  # undoes the "next", not the pause
    assert session.stage == "pact"
