"""Austerity's lesson side with its real engine: seating, the budget session's secret ballots
counted into engine actions, the rotating Finance Minister (a student or a bot), the year at
each table's pace, Year End, the final result, the ledger and the record."""

from __future__ import annotations

from typing import Any

import pytest

from facilitator import messages, services
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.log import game_record, load_state, verify_table
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction
from games import austerity as engine
from games.registry import replay
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module is offered as "in preparation"; its tests create lessons of it."""
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)


def started(students: int, fill: str | None = None, **options: Any) -> ClassSession:
    session = services.session_create(owner=make_teacher(), game="austerity",
                                       options=options)
    join(session, students)
    services.session_start(session=fresh(session), fill=fill, seed=3)
    return fresh(session)


def advance(session: ClassSession) -> ClassSession:
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    return fresh(session)


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.filter(shares__isnull=True, removed=False).order_by("position"))


def state_of(table: Table) -> Any:
    """The table's state now (a ``Table`` read earlier holds an old snapshot)."""
    return load_state(Table.objects.get(pk=table.pk))


def minister_of(session: ClassSession, table: Table) -> Seat:
    chair = script.minister(seats_of(table), script.year_of(session))
    assert chair is not None
    return chair


def vote(session: ClassSession, table: Table, options: list[str]) -> None:
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    humans = [s for s in seats_of(table) if not s.is_bot]
    for seat, option in zip(humans, options, strict=False):
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=option,
                             expected=fresh(session).stage_id)


def to_the_year(session: ClassSession) -> ClassSession:
    while session.stage != script.YEAR:
        session = advance(session)
    return session


def play_the_year(session: ClassSession, table: Table) -> None:
    """The student minister answers every pending decision with its first option."""
    chair = minister_of(session, table)
    for _n in range(200):
        state = state_of(table)
        if not script.minister_may_act(fresh(session), state):
            return
        pending = engine.decisions(state)[0]
        aus_services.decide(seat_id=chair.pk, decision=pending.id, choice=pending.options[0],
                            expected=fresh(session).stage_id)
    raise AssertionError("the year did not end")


def engine_actions(table: Table) -> list[tuple[str, dict[str, Any]]]:
    return [(a.actor, a.payload) for a in TableAction.objects.filter(table=table).order_by("seq")]


# ------------------------------------------------------------------ seating and options


def test_seating_puts_the_class_at_tables_of_4_to_8_or_at_one_table() -> None:
    tables = {"seating": "tables"}
    assert LESSON.seating(30, None, tables).tables == [8, 8, 7, 7]
    assert LESSON.seating(9, None, tables).tables == [5, 4]
    assert LESSON.seating(3, None, tables) is None
    assert LESSON.seating(3, "bots", tables).bots == 1
    assert LESSON.seating(30, None, {"seating": "class"}).tables == [30]
    assert LESSON.seating(41, None, {"seating": "class"}) is None


def test_the_tables_config_is_the_engines_from_the_options_with_no_player_names() -> None:
    session = started(9, scenario="olympics", difficulty="normal", country="liberal-democracy",
                      extra_institutions=True, policies=True, year_limit=3)
    assert [t.seats.count() for t in session.tables.order_by("number")] == [5, 4]
    config = session.tables.first().config
    assert config == {"scenario": "olympics", "difficulty": "normal", "extra_institutions": True,
                      "policies": True, "country": "liberal-democracy", "year_limit": 3,
                      "levels": "ours", "min_years": 3}
    assert state_of(session.tables.first()).scenario == "olympics"


@pytest.mark.parametrize("bad", [{"scenario": "moon"}, {"difficulty": "brutal"},
                                 {"policies": "yes"}, {"year_limit": 0}, {"seating": "rows"},
                                 {"colour": "red"}])
def test_options_the_engine_cannot_run_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.session_create(owner=make_teacher(), game="austerity", options=bad)
    assert caught.value.code == "bad_options"


def test_the_options_form_gives_options_the_lesson_accepts() -> None:
    from facilitator.lessons.austerity.forms import OptionsForm

    form = OptionsForm(data={"seating": "class", "scenario": "war-footing",
                             "difficulty": "hard", "country": "", "policies": "on",
                             "year_limit": "5", "bots_allowed": "on"})
    assert form.is_valid(), form.errors
    options = {**LESSON.default_options, **form.options()}
    LESSON.check_options(options)
    assert LESSON.table_config([], options) == {
        "scenario": "war-footing", "difficulty": "hard", "extra_institutions": False,
        "policies": True, "year_limit": 5, "levels": "ours", "min_years": 3}


# ------------------------------------------------------------------ the budget session


def test_the_budget_sessions_tax_ballot_is_counted_into_engine_actions() -> None:
    session = started(5, seating="class")
    table = session.tables.get()
    bag = Bag.objects.get(table=table)
    assert (session.stage, bag.decision, bag.options) == ("budget_taxes", "y1.budget.taxes",
                                                          ["0", "1", "2"])
    vote(session, table, ["2", "2", "0", "2", "1"])  # the last ballot fills the bag
    assert Bag.objects.get(pk=bag.pk).status == Bag.Status.COUNTED
    raise_taxes = {"type": "action", "choice": "raise-taxes"}
    assert engine_actions(table) == [("teacher", raise_taxes), ("teacher", raise_taxes)]
    assert "tally" not in str(game_record(table))
    assert state_of(table).actions_taken == 2


def test_an_item_nobody_votes_on_changes_nothing_and_a_tie_goes_to_the_smaller_change() -> None:
    session = started(5, seating="class")
    table = session.tables.get()
    vote(session, table, ["1", "2", "1", "2"])  # a tie, counted by the teacher's next
    session = advance(session)
    assert engine_actions(table) == [("teacher", {"type": "action", "choice": "raise-taxes"})]
    assert session.stage == "budget_borrow"
    session = advance(session)  # nobody borrows
    assert len(engine_actions(table)) == 1
    assert script.winner(script.TAXES, [["2", "1"]]) == ("1", True)
    assert script.winner(script.LOAN, []) == ("no", False)
    assert script.winner(script.BORROW, [["2"], ["0", "1"]]) == ("2", False)


def test_an_item_that_cannot_apply_opens_no_bag() -> None:
    session = started(5, seating="class")
    session = advance(advance(session))  # taxes, borrow: nobody voted
    assert session.stage == "budget_loan"
    table = session.tables.get()
    assert state_of(table).bag["debt"] > 0 and not state_of(table).used["debt"]
    assert not Bag.objects.filter(table=table, status=Bag.Status.OPEN).exists()
    assert LESSON.ballot_for(session, state_of(table)) is None


# ------------------------------------------------------------------ the minister and the year


def test_the_minister_plays_the_year_and_the_next_year_has_the_next_minister() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    first = minister_of(session, table)
    assert first.position == 0
    play_the_year(session, table)
    state = state_of(table)
    assert (state.year, state.stage) == (2, "draw")  # the table waits for the teacher
    assert all(a == "seat" for a, _p in engine_actions(table))
    assert {a.seat_id for a in TableAction.objects.filter(table=table)} == {first.pk}
    session = advance(session)
    assert session.stage == "year_end"
    session = advance(session)
    assert (session.stage, session.round) == ("budget_taxes", 2)
    assert minister_of(session, table).position == 1
    assert Bag.objects.get(table=table, status=Bag.Status.OPEN).decision == "y2.budget.taxes"
    assert verify_table(Table.objects.get(pk=table.pk)) == []


def test_only_the_minister_decides_and_only_what_is_open() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    chair = minister_of(session, table)
    other = next(s for s in seats_of(table) if s != chair)
    pending = engine.decisions(state_of(table))[0]
    cases = [(other.pk, pending.id, "draw", "not_minister"),
             (chair.pk, "y1.d9.draw", "draw", "stale_decision"),
             (chair.pk, pending.id, "fly", "bad_choice")]
    for seat_id, decision, choice, code in cases:
        with pytest.raises(services.ServiceError) as caught:
            aus_services.decide(seat_id=seat_id, decision=decision, choice=choice,
                                expected=fresh(session).stage_id)
        assert caught.value.code == code
    assert engine_actions(table) == []


def test_the_minister_cannot_decide_during_the_budget_session() -> None:
    session = started(5, seating="class")
    table = session.tables.get()
    pending = engine.decisions(state_of(table))[0]
    with pytest.raises(services.ServiceError) as caught:
        aus_services.decide(seat_id=minister_of(session, table).pk, decision=pending.id,
                            choice="draw")
    assert caught.value.code == "not_now"


def test_year_end_waits_for_every_table() -> None:
    session = to_the_year(started(10))
    first, second = session.tables.order_by("number")
    play_the_year(session, first)
    with pytest.raises(services.ServiceError) as caught:
        advance(session)
    assert caught.value.code == "tables_playing" and "2" in caught.value.message
    play_the_year(session, second)
    assert advance(session).stage == "year_end"


def test_the_decide_message_is_one_of_the_phones_messages() -> None:
    adapter = messages.seat_messages(LESSON)
    parsed = messages.parse(adapter, {"type": "decide", "decision": "y1.d1.draw",
                                      "choice": "draw"})
    assert (parsed.decision, parsed.choice) == ("y1.d1.draw", "draw")
    with pytest.raises(services.ServiceError):
        messages.parse(adapter, {"type": "decide", "decision": "y1.d1.draw"})


# ------------------------------------------------------------------ a whole game


def test_a_whole_short_game_with_bot_ministers_reaches_the_final_and_replays() -> None:
    session = started(1, fill="bots", year_limit=2, min_years=None)
    table = session.tables.get()
    assert len(seats_of(table)) == 4
    for _n in range(40):
        if session.stage == "final":
            break
        if session.stage == script.YEAR and not minister_of(session, table).is_bot:
            play_the_year(session, table)
        session = advance(session)
    assert session.stage == "final" and session.status == ClassSession.Status.FINISHED
    state = state_of(table)
    assert state.stage == "over" and state.year <= 2
    assert any(actor == "bot" for actor, _p in engine_actions(table))
    assert verify_table(Table.objects.get(pk=table.pk)) == []
    replayed = replay(game_record(table))
    assert engine.to_dict(replayed.state) == engine.to_dict(state)


def test_bots_vote_in_the_budget_session_and_a_students_ballot_completes_the_bag() -> None:
    session = started(1, fill="bots")
    table = session.tables.get()
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    assert bag.receipts.count() == 3  # the three bots voted when the bag opened
    student = next(s for s in seats_of(table) if not s.is_bot)
    with pytest.raises(services.ServiceError) as caught:
        services.ballot_cast(seat_id=student.pk, kind="borrow", option="0",
                             expected=session.stage_id)
    assert caught.value.code == "vote_closed"
    services.ballot_cast(seat_id=student.pk, kind="taxes", option="0",
                         expected=session.stage_id)
    assert Bag.objects.get(pk=bag.pk).status == Bag.Status.COUNTED


def test_the_policy_card_item_opens_at_the_next_years_session_and_turns_the_card() -> None:
    session = to_the_year(started(5, seating="class", policies=True))
    table = session.tables.get()
    play_the_year(session, table)
    state = state_of(table)
    assert state.stage == "policy"  # Year End waits for the budget session's policy turn
    session = advance(advance(session))
    assert (session.stage, session.round) == ("budget_policy", 2)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    assert bag.decision == "y2.budget.policy" and bag.options[0] == "keep"
    turn = bag.options[1]
    vote(session, table, [turn] * 5)
    after = state_of(table)
    assert engine_actions(table)[-1] == ("teacher", {"type": "policy", "choice": turn})
    assert after.tracks["popularity"] == state.tracks["popularity"] - 1
    assert advance(session).stage == "budget_taxes"


def test_loan_and_institution_items_list_only_what_the_engine_allows() -> None:
    broke = engine.new_game({"extra_institutions": True}, 1)
    assert script.item_options(script.LOAN, broke) == []
    assert script.item_options(script.INSTITUTION, broke) == []
    rich = engine.new_game({"extra_institutions": True,
                            "start": {"treasury": 2, "used": {"debt": 1}}}, 1)
    assert script.item_options(script.LOAN, rich) == ["no", "yes"]
    assert script.item_options(script.INSTITUTION, rich) == [
        "none", "open:higher-education", "open:infrastructure", "open:investment"]
    assert script.item_actions(script.INSTITUTION, "open:investment") == [
        {"type": "action", "choice": "open:investment"}]
    assert script.item_actions(script.LOAN, "no") == []


def test_undoing_the_count_of_a_budget_item_takes_its_actions_back_and_asks_again() -> None:
    session = started(5, seating="class")
    table = session.tables.get()
    vote(session, table, ["2", "2", "2"])
    session = advance(session)  # counted by the teacher's next: two Raise Taxes
    assert len(engine_actions(table)) == 2
    services.session_undo(session=fresh(session))
    assert engine_actions(table) == [] and state_of(table).actions_taken == 0
    bag = Bag.objects.get(table=table, decision="y1.budget.taxes")
    assert bag.status == Bag.Status.OPEN and not bag.receipts.exists()
    assert verify_table(Table.objects.get(pk=table.pk)) == []
