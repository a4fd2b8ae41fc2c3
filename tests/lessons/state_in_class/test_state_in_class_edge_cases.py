"""Corners of a real classroom: a removed decider, a nickname like a pair's, a failed table."""

import pytest

from facilitator import services
from facilitator.errors import ServiceError
from facilitator.lessons.state_in_class.stages import Stage
from tests.facilitator.lesson import (
    advance,
    all_pacts,
    deterministic,
    fresh,
    humans,
    join,
    make_session,
    started,
    state_of,
)
from tests.lessons.state_in_class.test_state_in_class_lesson_flow import tie_the_tax

pytestmark = pytest.mark.django_db


def test_a_removed_student_who_would_break_a_tax_tie_passes_to_the_next_lowest_income(
        monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(3):
        session = advance(session)
    table = session.tables.get()
    tie_the_tax(session, table)
    first, second = state_of(table).tie.deciders[:2]
    services.seat_remove(session=session, seat=table.seats.get(player_name=first))
    state = state_of(table)
    assert state.phase == "tie_break" and state.tie.deciders[0] == second
    assert state.current["tie_breaks"] == [
        {"kind": "tax", "options": ["A", "C"], "player": first, "choice": None}]


def test_a_nickname_equal_to_a_pairs_name_does_not_break_the_start(monkeypatch):
    deterministic(monkeypatch)
    session = make_session()
    join(session, 16)  # 17 with the one below: two tables of 8 need one pair
    services.seat_join(code=session.join_code, nickname="Ana & Ben")
    services.session_start(session=session, fill="pairs", seed=3)
    names = [n for t in fresh(session).tables.all() for n in t.config["players"]]
    assert len(names) == len({n.casefold() for n in names}) == 16


def test_voting_at_a_table_whose_state_failed_says_the_game_is_over(monkeypatch):
    deterministic(monkeypatch)
    session, _tokens = started(8)
    all_pacts(session)
    for _ in range(2):
        session = advance(session)
    table = session.tables.get()
    state = state_of(table)
    state.failed, state.phase = True, "over"  # as if it had failed in the debate
    from facilitator.log import save_state

    save_state(table, state)
    session = advance(session)  # the tax vote opens at every table still playing: none
    assert not table.bags.exists()
    with pytest.raises(ServiceError) as caught:
        services.ballot_cast(seat_id=humans(table)[0].pk, kind="tax", option="C",
                             expected=fresh(session).stage_id)
    assert caught.value.code == "game_over"
    assert fresh(session).stage == Stage.TAX_VOTE


def test_a_pairs_name_gets_a_number_when_a_classmate_already_has_it():
    taken = {"ana & ben", "cai"}
    assert services._unique("Ana & Ben", taken) == "Ana & Ben (2)"
    assert services._unique("Ana & Ben", taken) == "Ana & Ben (3)"
    assert services._unique("Dee & Eli", taken) == "Dee & Eli"
