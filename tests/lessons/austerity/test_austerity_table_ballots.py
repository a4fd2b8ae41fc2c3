"""Who decides each kind of the engine's decisions: the minister by default; the teacher may
switch a kind to a secret table ballot (each such decision opens a bag with the decision's
options, counted when everyone voted or the teacher closes it, a tie going to the first
listed option) or take it over and answer it from the console."""

from __future__ import annotations

import pytest

from facilitator import selectors, services
from facilitator.lessons.austerity import modes, script
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.austerity.models import TablePlay
from facilitator.models import ClassSession, Seat
from tests.facilitator.lesson import deterministic, fresh
from tests.lessons.austerity.austerity_lesson import (
    log_of,
    minister_answers,
    minister_of,
    open_bag,
    pending,
    seats_of,
    started,
    state_of,
    to_the_year,
    vote,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def switch(session: ClassSession, kind: str, mode: str, table: int | None = None) -> None:
    aus_services.mode_switch(session=fresh(session), kind=kind, mode=mode, table=table,
                             expected=fresh(session).stage_id)


def test_an_event_switched_to_a_table_ballot_opens_a_bag_the_count_answers() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.EVENT, modes.BALLOT)
    minister_answers(session, table)  # draws until the table must vote on an event
    decision = pending(table)
    bag = open_bag(table)
    assert decision.kind == "event" and bag is not None
    assert (bag.decision, bag.options) == (decision.id, list(decision.options))
    vote(session, table, [decision.options[-1]] * 5)  # the fifth ballot fills the bag
    assert log_of(table)[-1] == ("teacher", {"type": "event", "choice": decision.options[-1]})
    kept = TablePlay.objects.get(table=table).counts[-1]
    assert kept == {"decision": decision.id, "choice": decision.options[-1], "tie": False,
                    "tally": kept["tally"]}
    assert kept["tally"].get(decision.options[-1]) == 5 and sum(kept["tally"].values()) == 5


def test_a_tie_goes_to_the_first_listed_option_and_says_the_tie_rule_decided_it() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.EVENT, modes.BALLOT)
    minister_answers(session, table)
    decision = pending(table)
    first, second = decision.options[0], decision.options[1]
    vote(session, table, [second, first, second, first])
    aus_services.ballot_close(confirm=True, session=fresh(session), table=1)  # absentees abstain
    assert log_of(table)[-1] == ("teacher", {"type": "event", "choice": first})
    shown = selectors.seat_view(seats_of(table)[0])["seat"]["last_count"]
    assert {k: v for k, v in shown.items() if k != "tally"} == {
        "decision": decision.id, "choice": first, "tie": True}
    assert (shown["tally"].get(first), shown["tally"].get(second)) == (2, 2)  # 4 ballots: shown


def test_a_count_of_two_ballots_never_says_whether_they_tied() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.EVENT, modes.BALLOT)
    minister_answers(session, table)
    decision = pending(table)
    vote(session, table, [decision.options[1], decision.options[0]])
    aus_services.ballot_close(confirm=True, session=fresh(session), table=1)
    assert log_of(table)[-1] == ("teacher", {"type": "event", "choice": decision.options[0]})
    shown = selectors.seat_view(seats_of(table)[0])["seat"]["last_count"]
    assert shown == {"decision": decision.id, "choice": decision.options[0], "tie": None}
    assert "tally" not in str(TablePlay.objects.get(table=table).counts)  # 2 ballots: none


def test_nobody_voting_takes_the_first_option() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.EVENT, modes.BALLOT)
    minister_answers(session, table)
    decision = pending(table)
    aus_services.ballot_close(confirm=True, session=fresh(session), table=1)
    assert log_of(table)[-1] == ("teacher", {"type": "event", "choice": decision.options[0]})


def test_the_minister_cannot_answer_while_the_table_votes() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.EVENT, modes.BALLOT)
    minister_answers(session, table)
    decision = pending(table)
    before = log_of(table)
    with pytest.raises(services.ServiceError) as caught:
        aus_services.decide(seat_id=minister_of(session, table).pk, decision=decision.id,
                            choice=decision.options[0])
    assert caught.value.code == "table_voting"
    assert log_of(table) == before


def test_the_teacher_takes_over_a_kind_and_answers_it_from_the_console() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.ACTIONS, modes.TEACHER, table=1)
    chair = minister_of(session, table)
    with pytest.raises(services.ServiceError) as caught:
        aus_services.decide(seat_id=chair.pk, decision="y1.action1", choice="borrow")
    assert caught.value.code == "teacher_decides"
    assert selectors.seat_view(chair)["can"]["decide"] == [pending(table).id]  # draw only
    aus_services.teacher_decide(session=fresh(session), table=1, decision="y1.action1",
                                choice="borrow", expected=fresh(session).stage_id)
    assert log_of(table) == [("teacher", {"type": "action", "choice": "borrow"})]
    switch(session, modes.ACTIONS, modes.MINISTER, table=1)
    aus_services.decide(seat_id=chair.pk, decision="y1.action2", choice="borrow")
    assert log_of(table)[-1] == ("seat", {"type": "action", "choice": "borrow"})


def test_the_teacher_refuses_are_specific() -> None:
    session = to_the_year(started(5, seating="class"))
    cases = [(dict(kind="draws", mode=modes.BALLOT), "bad_kind"),
             (dict(kind=modes.CUTS, mode="class"), "bad_mode"),
             (dict(kind=modes.CUTS, mode=modes.BALLOT, table=7), "not_found")]
    for kwargs, code in cases:
        with pytest.raises(services.ServiceError) as caught:
            aus_services.mode_switch(session=fresh(session), **kwargs)
        assert caught.value.code == code
    with pytest.raises(services.ServiceError) as caught:
        aus_services.teacher_decide(session=fresh(session), table=1, decision="y1.d9.draw",
                                    choice="draw")
    assert caught.value.code == "stale_decision"
    with pytest.raises(services.ServiceError) as caught:
        aus_services.ballot_close(confirm=True, session=fresh(session), table=1)
    assert caught.value.code == "vote_closed"
    assert TablePlay.objects.get(table=session.tables.get()).modes == {}


def test_actions_as_a_ballot_are_asked_once_before_each_draw() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    switch(session, modes.ACTIONS, modes.BALLOT)
    bag = open_bag(table)
    assert bag is not None and bag.decision == "y1.d1.actions"
    assert bag.options[0] == "none" and "borrow" in bag.options
    vote(session, table, ["borrow"] * 5)
    assert log_of(table) == [("teacher", {"type": "action", "choice": "borrow"})]
    assert open_bag(table) is None  # asked once: the minister draws now
    chair = minister_of(session, table)
    aus_services.decide(seat_id=chair.pk, decision=pending(table).id, choice="draw")
    minister_answers(session, table)  # to the next draw: its Actions ballot opens
    bag = open_bag(table)
    assert bag is not None and bag.decision.endswith(".actions") and bag.decision != \
        "y1.d1.actions"


def bot_chaired(seed_from: int = 1) -> ClassSession:
    """A table of one student and three bots whose first minister is a bot."""
    for seed in range(seed_from, seed_from + 12):
        session = started(1, fill="bots", seed=seed)
        table = session.tables.get()
        if minister_of(session, table).is_bot:
            return session
    raise AssertionError("no seed seats a bot first")


def test_a_bot_minister_waits_for_the_tables_vote_on_an_event() -> None:
    session = bot_chaired()
    switch(session, modes.EVENT, modes.BALLOT)
    session = to_the_year(session)
    table = session.tables.get()
    bag = open_bag(table)
    decision = pending(table)
    assert bag is not None and bag.decision == decision.id and decision.kind == "event"
    assert bag.receipts.count() == 3  # the bots voted; the student has not
    student = Seat.objects.get(table=table, is_bot=False)
    services.ballot_cast(seat_id=student.pk, decision=bag.decision, option=0,
                         expected=fresh(session).stage_id)
    counted = [c for c in TablePlay.objects.get(table=table).counts
               if not c["decision"].startswith("y1.budget.")]
    assert counted[0]["decision"] == decision.id
    event = ("teacher", {"type": "event", "choice": counted[0]["choice"]})
    assert event in log_of(table)  # the count answered it; the bot minister played on
    assert pending(table).id != decision.id


def test_a_short_game_with_every_kind_a_table_ballot_reaches_the_final_and_replays() -> None:
    from facilitator.log import game_record, verify_table
    from facilitator.models import Table
    from games import austerity as engine
    from games.registry import replay
    from tests.lessons.austerity.austerity_lesson import advance

    session = started(1, fill="bots", year_limit=2, min_years=None, levels="classic")
    for kind in modes.KINDS:
        switch(session, kind, modes.BALLOT)
    table = session.tables.get()
    student = Seat.objects.get(table=table, is_bot=False)
    for _n in range(400):
        session = fresh(session)
        if session.stage == "final":
            break
        bag = open_bag(table)
        if bag is not None and not bag.receipts.filter(seat=student).exists():
            services.ballot_cast(seat_id=student.pk, decision=bag.decision, option=0,
                                 expected=session.stage_id)
        elif session.stage == "year" and minister_of(session, table) == student \
                and bag is None and pending(table) is not None \
                and not script.year_done(state_of(table), script.year_of(session)):
            aus_services.decide(seat_id=student.pk, decision=pending(table).id,
                                choice="draw", expected=session.stage_id)
        else:
            advance(session)
    assert fresh(session).stage == "final"
    assert any(c["decision"].endswith(".event") for c in table.austerity.counts)
    assert verify_table(Table.objects.get(pk=table.pk)) == []
    replayed = replay(game_record(Table.objects.get(pk=table.pk)))
    assert engine.to_dict(replayed.state) == engine.to_dict(state_of(table))
