"""Ballots, pacts and tie-breaks: every refusal has its own code and changes nothing."""

from typing import Any

import pytest

from facilitator import selectors, services
from facilitator.errors import ServiceError
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.models import Bag, BallotReceipt, ClassSession, SealedBallot
from facilitator.screens import phone_context, projector_context
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    deterministic,
    dump_facilitator,
    fresh,
    humans,
    open_tally,
    seat,
    started,
    state_of,
)

pytestmark = pytest.mark.django_db


def refused(code: str, call, **kwargs) -> ServiceError:
    """``call(**kwargs)`` raises ServiceError ``code`` and leaves every row as it was."""
    before = dump_facilitator()
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message
    assert dump_facilitator() == before
    return caught.value


def at_tax_vote(count: int = 8) -> ClassSession:
    session, _tokens = started(count)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    assert session.stage == "tax_vote"
    return session


def bag(session: ClassSession) -> dict[str, int]:
    return open_tally(fresh(session).tables.get())


def test_a_ballot_is_a_receipt_and_a_sealed_ballot():
    session = at_tax_vote()
    ana = seat(session, "Ana")
    snapshot = ana.table.snapshot
    services.ballot_cast(seat_id=ana.pk, kind="tax", option="B", expected=session.stage_id)
    receipt = BallotReceipt.objects.get()
    assert (receipt.seat_id, receipt.bag.decision) == (ana.pk, "1:tax")
    assert list(SealedBallot.objects.values_list("bag", flat=True)) == [receipt.bag_id]
    assert bag(session) == {"A": 0, "B": 1, "C": 0, "D": 0}
    ana.table.refresh_from_db()
    assert ana.table.snapshot == snapshot  # the engine meets the bag at the count
    state = state_of(ana.table)
    assert state.receipts == ["Ana"]
    assert "B" not in str(state.player("Ana").statement)


def test_a_phone_sends_the_option_as_its_index():
    session = at_tax_vote()
    services.ballot_cast(seat_id=seat(session, "Ana").pk, kind="tax", option=2,
                         expected=session.stage_id)
    assert bag(session) == {"A": 0, "B": 0, "C": 1, "D": 0}


def test_sealed_ballots_have_one_length_and_never_repeat():
    session = at_tax_vote()
    for s in humans(session.tables.get())[:6]:
        services.ballot_cast(seat_id=s.pk, kind="tax", option="C", expected=session.stage_id)
    blobs = [bytes(b) for b in SealedBallot.objects.values_list("sealed", flat=True)]
    assert len(blobs) == 6 and len(set(blobs)) == 6
    assert {len(b) for b in blobs} == {44}


def test_counting_opens_the_bag_into_the_tally_and_destroys_it(
        django_capture_on_commit_callbacks):
    from facilitator import ballot_keys

    session = at_tax_vote()
    with django_capture_on_commit_callbacks(execute=True):
        for i, s in enumerate(humans(session.tables.get())):
            services.ballot_cast(seat_id=s.pk, kind="tax", option="AC"[i % 3 == 0],
                                 expected=session.stage_id)
    counted = Bag.objects.get()
    assert counted.status == Bag.Status.COUNTED
    assert not SealedBallot.objects.exists()
    assert ballot_keys.key_store().get(counted.key_ref) is None
    count = session.tables.get().actions.get(payload__type="count")
    assert count.payload["tally"] == {"A": 5, "C": 3}


def test_a_second_ballot_is_refused():
    session = at_tax_vote()
    ana = seat(session, "Ana")
    services.ballot_cast(seat_id=ana.pk, kind="tax", option="B", expected=session.stage_id)
    err = refused("already_voted", services.ballot_cast, seat_id=ana.pk, kind="tax",
                  option="C", expected=session.stage_id)
    assert err.status == 409
    refused("already_voted", services.ballot_cast, seat_id=ana.pk, kind="tax", option="B")
    assert bag(session) == {"A": 0, "B": 1, "C": 0, "D": 0}


def test_a_ballot_after_the_bag_was_counted_is_refused():
    session = at_tax_vote()
    for s in humans(fresh(session).tables.get()):
        services.ballot_cast(seat_id=s.pk, kind="tax", option="C", expected=session.stage_id)
    assert state_of(session.tables.get()).phase == "budget_vote"  # counted, paid
    refused("already_voted", services.ballot_cast, seat_id=seat(session, "Ana").pk,
            kind="tax", option="A", expected=session.stage_id)


BAD_KINDS = [("budget", "vote_closed"), ("taxes", "bad_kind"), (None, "bad_kind"),
             (["tax"], "bad_kind"), ({"tax": 1}, "bad_kind"), (1, "bad_kind")]
BAD_OPTIONS = ["E", "a", "", None, 4, -1, True, 2.0, ["A"], {"A": 1}, "health"]
BAD_COINS = [4, -1, True, False, "2", 2.0, None, [1]]


def test_a_ballot_for_a_vote_that_is_not_open_is_refused():
    session = at_tax_vote()
    for kind, code in BAD_KINDS:
        refused(code, services.ballot_cast, seat_id=seat(session, "Ana").pk, kind=kind,
                option="health", expected=session.stage_id)


def test_ballots_and_pacts_out_of_their_phase_are_refused():
    session, _tokens = started(8)
    ana = seat(session, "Ana")
    refused("vote_closed", services.ballot_cast, seat_id=ana.pk, kind="tax", option="A")
    all_pacts(session)
    session = advance(session)  # event
    refused("vote_closed", services.ballot_cast, seat_id=ana.pk, kind="tax", option="A")
    refused("wrong_phase", sic_services.pact_submit, seat_id=ana.pk, coins=1)
    session = advance(advance(session))  # tax vote
    refused("vote_closed", services.ballot_cast, seat_id=ana.pk, kind="budget",
            option="health")
    refused("wrong_phase", sic_services.pact_submit, seat_id=ana.pk, coins=1)


def test_an_action_for_a_moment_that_is_over_is_stale():
    session = at_tax_vote()
    ana = seat(session, "Ana")
    for stale in ["0:pact", "1:debate", "2:tax_vote", "nonsense"]:
        err = refused("stale", services.ballot_cast, seat_id=ana.pk, kind="tax", option="A",
                      expected=stale)
        assert err.status == 409
    refused("stale", services.session_advance, session=session, expected="1:debate")
    refused("stale", services.session_undo, session=session, expected="1:debate")
    session, _tokens = started(8, teacher=session.owner)
    refused("stale", sic_services.pact_submit, seat_id=seat(session, "Ana").pk, coins=1,
            expected="1:event")


def test_a_ballot_must_name_an_option():
    session = at_tax_vote()
    for option in BAD_OPTIONS:
        refused("bad_option", services.ballot_cast, seat_id=seat(session, "Ana").pk,
                kind="tax", option=option, expected=session.stage_id)


def test_a_pact_contribution_is_zero_to_three_whole_coins():
    session, _tokens = started(8)
    for coins in BAD_COINS:
        refused("bad_coins", sic_services.pact_submit, seat_id=seat(session, "Ana").pk,
                coins=coins, expected=session.stage_id)
    for coins in range(4):
        sic_services.pact_submit(seat_id=humans(session.tables.get())[coins].pk, coins=coins)


def test_a_second_pact_contribution_is_refused():
    session, _tokens = started(8)
    ana = seat(session, "Ana")
    sic_services.pact_submit(seat_id=ana.pk, coins=3, expected=session.stage_id)
    refused("already_contributed", sic_services.pact_submit, seat_id=ana.pk, coins=0,
            expected=session.stage_id)
    assert state_of(ana.table).player("Ana").pact == 3


def tied_tax_vote(monkeypatch) -> tuple[ClassSession, Any, Any]:
    """Round 1's tax vote, four B and four D: counted, tied, still at the tax vote. The
    session, its table and the tie's decider."""
    deterministic(monkeypatch)
    session = at_tax_vote()
    table = session.tables.get()
    for i, s in enumerate(humans(table)):
        services.ballot_cast(seat_id=s.pk, kind="tax", option="BD"[i % 2],
                             expected=session.stage_id)
    state = state_of(table)
    assert state.phase == "tie_break"
    return fresh(session), table, table.seats.get(player_name=state.tie.deciders[0])


def test_only_the_decider_may_break_a_tie(monkeypatch):
    session, table, decider = tied_tax_vote(monkeypatch)
    session = advance(session)  # the teacher shows the count: the tie may be decided
    assert session.stage == "pay"
    for other in table.seats.exclude(pk=decider.pk):
        err = refused("not_your_turn", sic_services.tie_break_submit, seat_id=other.pk,
                      choice="B")
        assert err.status == 403
    refused("bad_option", sic_services.tie_break_submit, seat_id=decider.pk, choice="A")
    refused("bad_option", sic_services.tie_break_submit, seat_id=decider.pk, choice=["B"])
    refused("stale", sic_services.tie_break_submit, seat_id=decider.pk, choice="B",
            expected="0:pact")
    sic_services.tie_break_submit(seat_id=decider.pk, choice="D", expected=session.stage_id)
    assert state_of(table).tax == "D"
    refused("no_tie", sic_services.tie_break_submit, seat_id=decider.pk, choice="B")


def test_a_tie_is_neither_shown_nor_decided_before_the_teacher_shows_the_count(monkeypatch):
    """The bag is counted with the last token, while the class still sees the vote: a tie
    must not show on the projector or the decider's phone yet, and a tie-break message gets
    the same answer from every seat whether the table tied or not."""
    session, table, decider = tied_tax_vote(monkeypatch)
    assert session.stage == "tax_vote"
    for s in humans(table):
        refused("count_not_shown", sic_services.tie_break_submit, seat_id=s.pk, choice="B",
                expected=session.stage_id)
    refused("count_not_shown", sic_services.tie_break_submit, session=session,
            table_number=table.number, choice="B", expected=session.stage_id)
    projector = selectors.projector_view(session)
    assert projector_context(projector)["tables"][0]["tie_break"] is None
    phone = selectors.seat_view(decider)
    assert phone["can"]["tie_break"] == [] and not phone_context(phone)["me"]["decides_tie"]

    session = advance(session)  # "Count the votes": the class sees the count, and the tie
    assert session.stage == "pay"
    projector = projector_context(selectors.projector_view(session))
    assert projector["tables"][0]["tie_break"]["decider"] == decider.nickname
    assert projector["tables"][0]["tie_break"]["bars"]  # the tied count, shown with it
    assert projector["next_blocked"]  # the teacher's button waits for the tie
    phone = selectors.seat_view(decider)
    assert phone["can"]["tie_break"] == ["B", "D", None]
    assert phone_context(phone)["me"]["decides_tie"]
    sic_services.tie_break_submit(seat_id=decider.pk, choice="D", expected=session.stage_id)
    assert state_of(table).tax == "D"


def test_nothing_moves_while_the_lesson_is_paused(monkeypatch):
    deterministic(monkeypatch)
    session = at_tax_vote()
    table = session.tables.get()
    first = humans(table)[0]
    services.session_pause(session=session, paused=True)
    refused("paused", services.ballot_cast, seat_id=first.pk, kind="tax", option="A",
            expected=session.stage_id)
    refused("paused", services.session_advance, session=session, expected=session.stage_id)
    refused("paused", sic_services.tie_break_submit, session=session, table_number=1, choice="A")
    services.session_pause(session=session, paused=False)
    services.ballot_cast(seat_id=first.pk, kind="tax", option="A", expected=session.stage_id)
    session, _tokens = started(8, teacher=session.owner)
    services.session_pause(session=session, paused=True)
    refused("paused", sic_services.pact_submit, seat_id=humans(session.tables.get())[0].pk,
            coins=1)


def test_a_finished_lesson_is_read_only():
    session = at_tax_vote()
    ana = seat(session, "Ana")
    ClassSession.objects.filter(pk=session.pk).update(status="finished", stage="final")
    session = fresh(session)
    refused("read_only", services.ballot_cast, seat_id=ana.pk, kind="tax", option="A")
    refused("read_only", sic_services.pact_submit, seat_id=ana.pk, coins=1)
    refused("read_only", sic_services.tie_break_submit, seat_id=ana.pk, choice="A")
    refused("read_only", sic_services.tie_break_submit, session=session, table_number=1,
            choice="A")
    refused("read_only", services.session_advance, session=session)
    refused("read_only", services.session_undo, session=session)
    refused("read_only", services.session_pause, session=session, paused=True)
    refused("read_only", services.seat_remove, session=session, seat=ana)
    ClassSession.objects.filter(pk=session.pk).update(status="archived")
    refused("read_only", services.ballot_cast, seat_id=ana.pk, kind="tax", option="A")


def test_a_removed_seat_can_do_nothing():
    session = at_tax_vote()
    ana = seat(session, "Ana")
    services.seat_remove(session=session, seat=ana)
    err = refused("removed", services.ballot_cast, seat_id=ana.pk, kind="tax", option="A",
                  expected=session.stage_id)
    assert err.status == 403
    refused("removed", sic_services.pact_submit, seat_id=ana.pk, coins=1)
    refused("removed", sic_services.tie_break_submit, seat_id=ana.pk, choice="A")
    refused("removed", services.ballot_cast, seat_id=987654, kind="tax", option="A")


def test_a_student_in_the_lobby_has_no_table_yet():
    from tests.facilitator.lesson import make_session

    session = make_session()
    student, _token = services.seat_join(code=session.join_code, nickname="Ana")
    refused("no_table", services.ballot_cast, seat_id=student.pk, kind="tax", option="A")
    refused("no_table", sic_services.pact_submit, seat_id=student.pk, coins=1)
    refused("not_started", services.session_advance, session=session)


def test_a_vote_with_fewer_than_three_ballots_of_six_is_closed_unopened() -> None:
    from django.template.loader import render_to_string

    from facilitator.models import TableAction

    session, _tokens = started(6)  # six students: no bots, who would vote too
    all_pacts(session)
    for _ in range(3):  # pact -> event -> debate -> tax vote
        session = advance(session)
    first, second = humans(session.tables.get())[:2]
    for voter in (first, second):
        services.ballot_cast(seat_id=voter.pk, kind="tax", option="C",
                             expected=session.stage_id)
    session = advance(session)  # the teacher counts two ballots, confirming
    (count,) = TableAction.objects.filter(payload__type="count")
    assert count.payload == {"type": "count", "kind": "tax", "outcome": []}
    assert not BallotReceipt.objects.exists() and not SealedBallot.objects.exists()
    context = projector_context(selectors.projector_view(fresh(session)))
    assert context["tables"][0]["tax_result"]["bars"] is None
    html = render_to_string("facilitator/_console_live.html", {**context, "csrf_token": "x"})
    assert "closed unopened" in html
