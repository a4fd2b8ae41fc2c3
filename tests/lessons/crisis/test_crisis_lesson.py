"""Crisis's lesson side with its real engine: teams seated at tables of 2 to 5 teams, the
teacher's beats of a round, the rotating captain's moves checked against the engine, teammates'
suggestions, the per-turn timer's default, the round's last move held until Evaluation,
repaying loans at the stated moments, bots and absent teams, undo, the ledger and the record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import translation

from facilitator import clock, messages, parties, presence, services
from facilitator import log as log_module
from facilitator.lessons.crisis import script, turns
from facilitator.lessons.crisis import services as crisis
from facilitator.lessons.crisis.lesson import LESSON
from facilitator.lessons.crisis.models import HeldMove, Suggestion
from facilitator.log import game_record, load_state, verify_table
from facilitator.models import ClassSession, Seat, Table, TableAction
from games import crisis as engine
from games.crisis import production
from games.registry import replay
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Lessons of the module are created whatever its offered flag says, in English (whatever
    language an earlier test of the same process left active)."""
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)
    with translation.override("en"):
        yield


def started(students: int, fill: str | None = None, *, here: bool = True,
            **options: Any) -> ClassSession:
    """A started lesson; ``here``: every student's phone is connected."""
    session = services.session_create(owner=make_teacher(), game="crisis", options=options)
    join(session, students)
    services.session_start(session=fresh(session), fill=fill, seed=5)
    if here:
        for seat in Seat.objects.filter(session=session, is_bot=False):
            presence.presence_join(seat_id=seat.pk)
    return fresh(session)


def advance(session: ClassSession) -> ClassSession:
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    return fresh(session)


def to_stage(session: ClassSession, stage: str) -> ClassSession:
    for _n in range(10):
        if session.stage == stage:
            return session
        session = advance(session)
    raise AssertionError(f"never reached {stage}")


def state_of(table: Table) -> Any:
    return load_state(Table.objects.get(pk=table.pk))


def captain(session: ClassSession, table: Table, team: str) -> Seat:
    seats = list(table.seats.all())
    chosen = parties.acting(parties.members(seats, team), turns.round_of(fresh(session)))
    assert chosen is not None
    return chosen


def waiting(table: Table) -> Any:
    (decision, *_rest) = engine.decisions(state_of(table))
    return decision


def place(session: ClassSession, table: Table, space: str) -> str:
    decision = waiting(table)
    team = decision.deciders[0]
    return crisis.move_submit(seat_id=captain(session, table, team).pk, decision=decision.id,
                              action={"type": "place", "space": space},
                              expected=fresh(session).stage_id)


def human_table(session: ClassSession) -> Table:
    return session.tables.order_by("number").first()


def busy_round(session: ClassSession, table: Table) -> None:
    """At Planning: the first team invests in the first Company, the second goes to Exports
    (so the round has a Production and an Exports stage); the teacher's next places the rest."""
    place(session, table, "company-1")
    place(session, table, "exports")


# ------------------------------------------------------------------ seating and options


def test_a_class_of_30_in_teams_of_3_sits_at_two_tables_of_five_teams() -> None:
    session = started(30, team_size=3)
    tables = list(session.tables.order_by("number"))
    assert [t.seats.count() for t in tables] == [15, 15]
    for table in tables:
        teams = parties.parties(table.seats.all())
        assert list(teams) == ["Team A", "Team B", "Team C", "Team D", "Team E"]
        assert all(len(m) == 3 for m in teams.values())
        assert table.config == {"players": list(teams), "difficulty": "medium"}
        assert state_of(table).names == list(teams)


def test_seating_makes_whole_teams_and_bots_fill_the_empty_places() -> None:
    assert LESSON.seating(31, None, {"team_size": 3}) is None
    with_bots = LESSON.seating(31, "bots", {"team_size": 3})
    assert with_bots.bots == 2 and with_bots.party_size == 3
    assert sum(with_bots.tables) == 33 and all(2 * 3 <= n <= 5 * 3 for n in with_bots.tables)
    assert LESSON.seating(2, None, {"team_size": 2}) is None  # one team is not a game
    assert LESSON.seating(2, "bots", {"team_size": 2}).tables == [4]
    assert "teams of 3" in LESSON.seating_error(31, None, {"team_size": 3})


@pytest.mark.parametrize("bad", [{"team_size": 5}, {"difficulty": "brutal"}, {"rounds": 6},
                                 {"turn_seconds": 7}, {"production_seconds": "long"},
                                 {"bots_allowed": "yes"}, {"colour": "red"}])
def test_options_the_lesson_cannot_run_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.session_create(owner=make_teacher(), game="crisis", options=bad)
    assert caught.value.code == "bad_options"


def test_the_options_form_gives_options_the_lesson_accepts() -> None:
    form = LESSON.options_form({"team_size": "2", "difficulty": "easy", "rounds": "5",
                                "turn_seconds": "45", "production_seconds": "90",
                                "bots_allowed": "on"})
    assert form.is_valid(), form.errors
    LESSON.check_options({**LESSON.default_options, **form.options()})
    assert form.options()["rounds"] == 5


# ------------------------------------------------------------------ the teacher's beats


def test_the_teacher_moves_the_round_through_its_beats() -> None:
    session = started(4, team_size=2)
    seen = [(session.stage, session.round)]
    for _n in range(6):
        session = advance(session)
        if session.stage == "planning":
            busy_round(session, human_table(session))
        seen.append((session.stage, session.round))
    assert seen == [("event", 0), ("planning", 1), ("production", 1), ("exports", 1),
                    ("evaluation", 1), ("event", 2), ("planning", 2)]
    assert state_of(human_table(session)).round == 2


def test_production_opens_with_the_lessons_production_timer() -> None:
    session = advance(started(4, team_size=2, production_seconds=90))
    busy_round(session, human_table(session))
    session = advance(session)
    assert services.timer_left(session.timer) == (90, True)


def test_a_move_is_refused_before_the_teacher_opens_its_part_of_the_round() -> None:
    session = started(4, team_size=2)
    table = human_table(session)
    with pytest.raises(services.ServiceError) as caught:
        place(session, table, "government-subsidy")
    assert caught.value.code == "not_now"
    assert not TableAction.objects.filter(table=table).exists()


def test_the_captain_places_the_teams_manager_and_a_teammate_may_not() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    decision = waiting(table)
    team = decision.deciders[0]
    chief = captain(session, table, team)
    mate = next(s for s in parties.members(table.seats.all(), team) if s != chief)
    with pytest.raises(services.ServiceError) as caught:
        crisis.move_submit(seat_id=mate.pk, decision=decision.id,
                           action={"type": "place", "space": "loan"})
    assert caught.value.code == "not_captain"
    assert place(session, table, "loan") == "done"
    assert state_of(table).placements["loan"] == [team]
    last = TableAction.objects.filter(table=table).order_by("-seq").first()
    assert (last.actor, last.seat_id) == ("seat", chief.pk)


def test_a_move_the_engine_does_not_list_is_refused_and_changes_nothing() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "loan")
    decision = waiting(table)
    chief = captain(session, table, decision.deciders[0])
    for action, code in [({"type": "place", "space": "loan"}, "illegal_move"),
                         ({"type": "place", "space": "moon"}, "illegal_move"),
                         ({"type": "export", "contract": 0, "amount": 1}, "bad_action"),
                         ("{not json", "bad_action"), ({"space": "loan"}, "bad_action")]:
        with pytest.raises(services.ServiceError) as caught:
            crisis.move_submit(seat_id=chief.pk, decision=decision.id, action=action)
        assert caught.value.code == code
    with pytest.raises(services.ServiceError) as caught:
        crisis.move_submit(seat_id=chief.pk, decision="r1.place.9",
                           action={"type": "place", "space": "leadership"})
    assert caught.value.code == "stale_decision"
    assert TableAction.objects.filter(table=table).count() == 1


def test_the_other_team_is_told_it_is_not_its_turn() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    decision = waiting(table)
    other = next(n for n in state_of(table).names if n not in decision.deciders)
    with pytest.raises(services.ServiceError) as caught:
        crisis.move_submit(seat_id=captain(session, table, other).pk, decision=decision.id,
                           action={"type": "place", "space": "loan"})
    assert caught.value.code == "not_your_turn"


def test_the_captain_rotates_each_round_and_an_absent_captain_is_replaced() -> None:
    session = started(4, team_size=2)
    table = human_table(session)
    team = parties.members(table.seats.all(), "Team A")
    assert captain(session, table, "Team A") == team[0]
    while (session.stage, session.round) != ("planning", 2):
        session = advance(session)
    assert captain(session, table, "Team A") == team[1]
    presence.presence_leave(seat_id=team[1].pk)
    assert captain(session, table, "Team A") == team[0]


def test_a_move_arrives_as_a_form_buttons_json_through_the_message_dispatcher() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    decision = waiting(table)
    chief = captain(session, table, decision.deciders[0])
    raw = {"type": "move", "decision": decision.id, "expected": session.stage_id,
           "action": json.dumps({"type": "place", "space": "initiative"})}
    message = messages.parse(messages.seat_messages(LESSON), raw)
    assert messages.seat_act(chief.pk, LESSON, message) == {"move": "done"}
    assert state_of(table).placements["initiative"] == list(decision.deciders)


# ------------------------------------------------------------------ suggestions


def test_a_teammate_suggests_a_space_and_the_team_sees_it_without_a_move() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    decision = waiting(table)
    team = decision.deciders[0]
    chief = captain(session, table, team)
    mate = next(s for s in parties.members(table.seats.all(), team) if s != chief)
    crisis.suggest_submit(seat_id=mate.pk, decision=decision.id,
                          action={"type": "place", "space": "company-1"})
    crisis.suggest_submit(seat_id=mate.pk, decision=decision.id,
                          action={"type": "place", "space": "company-2"})  # replaces it
    (kept,) = crisis.team_suggestions(table, state_of(table), team)
    assert (kept.seat, kept.action["space"]) == (mate, "company-2")
    assert not TableAction.objects.filter(table=table).exists()
    with pytest.raises(services.ServiceError) as caught:
        crisis.suggest_submit(seat_id=mate.pk, decision=decision.id,
                              action={"type": "place", "space": "moon"})
    assert caught.value.code == "illegal_move"
    place(session, table, "company-2")
    assert crisis.team_suggestions(table, state_of(table), team) == []  # its decision closed


# ------------------------------------------------------------------ the turn timer


def later(monkeypatch: pytest.MonkeyPatch, seconds: int) -> None:
    """The clock jumps ``seconds`` ahead (for the timer and for what is stored from now on)."""
    moment = clock.now() + timedelta(seconds=seconds)
    monkeypatch.setattr(clock, "now", lambda: moment)
    monkeypatch.setattr(log_module, "now", lambda: moment)


def test_a_turn_not_taken_in_time_puts_the_manager_on_government_subsidy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = advance(started(4, team_size=2, turn_seconds=30))
    table = human_table(session)
    decision = waiting(table)
    team = decision.deciders[0]
    vp_before = state_of(table).player(team).vp
    with pytest.raises(services.ServiceError) as caught:
        crisis.turns_due(session=fresh(session), expected=session.stage_id)
    assert caught.value.code == "no_turn_due"
    later(monkeypatch, 31)
    assert crisis.turns_due(session=fresh(session), expected=session.stage_id) == [1]
    after = state_of(table)
    assert after.placements["government-subsidy"] == [team]
    assert after.player(team).vp == vp_before and after.player(team).penalty == 0
    assert turns.turn_left(table, fresh(session), after) == 30  # the next team's turn is fresh


def test_an_overdue_turn_takes_its_default_when_anything_happens_at_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = advance(started(4, team_size=2, turn_seconds=30))
    table = human_table(session)
    place(session, table, "loan")
    later(monkeypatch, 45)
    second = waiting(table).deciders[0]
    services.table_settle(Table.objects.get(pk=table.pk), fresh(session), None)
    assert state_of(table).placements["government-subsidy"] == [second]


def test_no_timer_means_a_turn_waits_for_the_team(monkeypatch: pytest.MonkeyPatch) -> None:
    session = advance(started(4, team_size=2, turn_seconds=0))
    table = human_table(session)
    later(monkeypatch, 3600)
    with pytest.raises(services.ServiceError):
        crisis.turns_due(session=fresh(session), expected=session.stage_id)
    assert turns.turn_left(table, fresh(session), state_of(table)) is None


# ------------------------------------------------------------------ closing a stage


def test_next_closes_planning_with_defaults_and_skips_what_nobody_can_do() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "loan")
    session = advance(session)
    # Every other Manager went to Government Subsidy: nobody has a Company to run or a
    # Manager on Exports, so the lesson goes straight to Evaluation.
    assert session.stage == "evaluation"
    (played,) = state_of(table).history[:1]
    assert played["placements"]["government-subsidy"] == ["Team B", "Team A", "Team B",
                                                          "Team A", "Team B", "Team A",
                                                          "Team B"]
    assert TableAction.objects.filter(table=table, actor="teacher").count() == 7


def test_next_opens_production_when_a_team_has_a_company_to_run() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    place(session, table, "company-1")
    session = advance(session)
    assert session.stage == "production"
    assert turns.stage_decisions(session, state_of(table))


def test_the_rounds_last_move_is_held_until_the_teacher_reaches_evaluation() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    busy_round(session, table)
    session = to_stage(session, "exports")
    assert state_of(table).phase == "exports"
    for _n in range(20):
        decision = waiting(table)
        chief = captain(session, table, decision.deciders[0])
        outcome = crisis.move_submit(seat_id=chief.pk, decision=decision.id,
                                     action={"type": "pass"}, expected=session.stage_id)
        if outcome == "held":
            break
    assert outcome == "held"
    held = HeldMove.objects.get(table=table)
    assert state_of(table).round == 1 and state_of(table).history[-1].get("evaluation") is None
    session = advance(session)
    assert session.stage == "evaluation"
    after = state_of(table)
    assert after.round == 2 and after.history[0]["evaluation"]["goal"] > 0
    last = TableAction.objects.filter(table=table, round=1).order_by("-seq").first()
    assert last.payload == held.action


# ------------------------------------------------------------------ repaying a loan


def give_a_loan(session: ClassSession, table: Table) -> str:
    """Round 1: the first team takes the Loan (10 credits, one loan)."""
    team = waiting(table).deciders[0]
    place(session, table, "loan")
    place(session, table, "exports")
    return team


def test_a_loan_is_repaid_during_exports_before_the_interest() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = give_a_loan(session, table)
    other = next(n for n in state_of(table).names if n not in waiting(table).deciders)
    with pytest.raises(services.ServiceError) as caught:  # not that team's turn at Planning
        crisis.move_submit(seat_id=captain(session, table, other).pk, decision=None,
                           action={"type": "repay"})
    assert caught.value.code == "not_now"
    session = to_stage(session, "exports")
    assert state_of(table).player(team).loans == 1
    crisis.move_submit(seat_id=captain(session, table, team).pk, decision=None,
                       action={"type": "repay"}, expected=session.stage_id)
    assert state_of(table).player(team).loans == 0
    reasons = [e.reason for e in table.ledger.all()]
    assert "repay" in reasons


def test_a_loan_cannot_be_repaid_while_the_event_is_shown() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = give_a_loan(session, table)
    session = to_stage(advance(to_stage(session, "evaluation")), "event")
    with pytest.raises(services.ServiceError) as caught:
        crisis.move_submit(seat_id=captain(session, table, team).pk, decision=None,
                           action={"type": "repay"}, expected=session.stage_id)
    assert caught.value.code == "not_now"


# ------------------------------------------------------------------ the production planner


def test_the_planner_builds_a_draft_the_captain_confirms() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    for _n in range(12):  # every Manager on Subsidy, but one buys the first Company
        decision = waiting(table)
        if decision.kind != "place":
            break
        space = "company-1" if decision.id == "r1.place.1" else "employee-1" \
            if decision.id == "r1.place.3" else "government-subsidy"
        place(session, table, space)
    session = to_stage(session, "production")
    state = state_of(table)
    owner = next(p for p in state.players if p.companies)
    decision = next(d for d in engine.decisions(state) if owner.name in d.deciders)
    chief = captain(session, table, owner.name)
    company = owner.companies[0]
    crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="company", company=company)
    (draft,) = Suggestion.objects.filter(seat=chief, decision=decision.id)
    assert draft.action["plan"] == [{"company": company, "staff": [], "bonus": []}]
    with pytest.raises(services.ServiceError) as caught:  # not staffed: the engine says why
        crisis.move_submit(seat_id=chief.pk, decision=decision.id, action=draft.action)
    assert caught.value.code == "bad_plan" and "needs these Employees" in caught.value.message
    with pytest.raises(services.ServiceError) as caught:
        crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="staff",
                           company=company, tile="E9-9")
    assert caught.value.code == "bad_plan"
    crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="auto")
    draft.refresh_from_db()
    assert draft.action["plan"] == production.auto_plan(state, owner)
    crisis.plan_change(seat_id=chief.pk, decision=decision.id, op="clear")
    draft.refresh_from_db()
    assert draft.action["plan"] == []
    # The last plan of a round nobody exports in would end the round: it waits for Evaluation.
    assert crisis.move_submit(seat_id=chief.pk, decision=decision.id,
                              action=draft.action) == "held"
    assert HeldMove.objects.get(table=table).action["plan"] == []
    assert owner.name not in state_of(table).produced


# ------------------------------------------------------------------ bots, absentees, undo


def test_a_bot_captain_plays_its_teams_turns_when_planning_opens() -> None:
    session = started(2, "bots", team_size=2)  # two students and two bots in two teams
    table = human_table(session)
    assert not TableAction.objects.filter(table=table).exists()  # the Event is shown first
    session = advance(session)
    bot_teams = {t for t, m in parties.parties(table.seats.all()).items()
                 if captain(session, table, t).is_bot}
    assert len(bot_teams) == 1, "seed 5 gives one team a bot captain in round 1"
    if waiting(table).deciders[0] not in bot_teams:
        place(session, table, "loan")  # the students' team first, then the bot's turn
    assert waiting(table).deciders[0] not in bot_teams
    moves = TableAction.objects.filter(table=table, actor="bot")
    assert moves and {m.payload["player"] for m in moves} <= bot_teams

def test_a_team_whose_members_were_all_removed_is_played_by_a_bot() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    for seat in parties.members(table.seats.all(), team):
        services.seat_remove(session=fresh(session), seat=seat)
    assert waiting(table).deciders[0] != team
    assert any(a.payload.get("player") == team
               for a in TableAction.objects.filter(table=table))


def test_undo_takes_back_the_step_with_its_moves_suggestions_and_held_move() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    decision = waiting(table)
    team = decision.deciders[0]
    chief = captain(session, table, team)
    mate = next(s for s in parties.members(table.seats.all(), team) if s != chief)
    crisis.suggest_submit(seat_id=mate.pk, decision=decision.id,
                          action={"type": "place", "space": "loan"})
    place(session, table, "loan")
    services.session_undo(session=fresh(session), expected=fresh(session).stage_id)
    assert fresh(session).stage == "event"
    assert not TableAction.objects.filter(table=table).exists()
    assert not Suggestion.objects.exists()


# ------------------------------------------------------------------ a whole lesson


def play_out(session: ClassSession) -> ClassSession:
    for _n in range(60):
        if session.stage == "final":
            return session
        session = advance(session)
    raise AssertionError("the lesson did not end")


def test_a_whole_lesson_of_defaults_and_bots_ends_and_its_records_replay() -> None:
    session = play_out(started(6, "bots", here=False, team_size=2))
    assert session.status == "finished"
    for table in session.tables.all():
        assert verify_table(table) == []
        state = state_of(table)
        assert state.phase == "over"
        replayed = replay(game_record(table)).state
        assert engine.to_dict(replayed) == engine.to_dict(state)


def test_the_shorter_game_ends_after_round_5s_evaluation() -> None:
    session = play_out(started(4, team_size=2, here=False, rounds=5))
    assert (session.stage, session.round, session.status) == ("final", 5, "finished")
    assert all(script.last_round(session) for _t in session.tables.all())


def test_the_shorter_game_scores_the_teams_as_they_stood_when_round_5_ended() -> None:
    from facilitator.lessons.crisis import scoring

    session = play_out(started(4, team_size=2, here=False, rounds=5, difficulty="easy"))
    table = human_table(session)
    state = state_of(table)
    assert state.round == 6  # the engine already drew round 6's Event and charged interest
    at_end = scoring.state_at_round_end(table, 5)
    evaluated = state.history[4]["evaluation"]["vp"]
    for team in state.names:
        credits = sum(e.amount if e.destination == f"player:{team}" else -e.amount
                      for e in table.ledger.filter(round__lte=5)
                      if f"player:{team}" in (e.source, e.destination))
        assert at_end.player(team).credits == credits
        assert at_end.player(team).vp == evaluated[team]
    scores = scoring.final_scores(table, state, 5)
    assert sorted(s["place"] for s in scores.values()) in ([1, 2], [1, 1])


def test_the_length_estimate_counts_every_turn_of_a_bot_game() -> None:
    from facilitator.lessons.crisis import pacing

    two = pacing.turns_per_round(2, games=3, seed=7)
    five = pacing.turns_per_round(5, games=3, seed=7)
    assert two["turns"] >= 2 * 4  # every Manager placed is a turn, four a team at least
    assert five["turns"] > two["turns"]
    full = pacing.lesson_minutes(20, 7, turn_seconds=30, production_seconds=90)
    assert full == 7 * (2 * pacing.BEAT + 20 * 30 + 90) / 60
    assert pacing.lesson_minutes(20, 5, turn_seconds=30, production_seconds=90) < full


def test_undoing_the_evaluation_brings_the_held_move_back_as_it_was() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    busy_round(session, table)
    session = to_stage(session, "exports")
    for _n in range(20):
        decision = waiting(table)
        outcome = crisis.move_submit(
            seat_id=captain(session, table, decision.deciders[0]).pk, decision=decision.id,
            action={"type": "pass"}, expected=session.stage_id)
        if outcome == "held":
            break
    session = advance(session)
    assert state_of(table).round == 2
    services.session_undo(session=fresh(session), expected=fresh(session).stage_id)
    assert fresh(session).stage == "exports" and state_of(table).round == 1
    assert turns.held_move(Table.objects.get(pk=table.pk), state_of(table)) is not None


def test_a_phone_without_a_socket_moves_by_a_plain_form_post() -> None:
    from django.test import Client

    session = services.session_create(owner=make_teacher(), game="crisis",
                                       options={"team_size": 2})
    tokens = join(session, 4)
    services.session_start(session=fresh(session), seed=5)
    session = advance(fresh(session))
    table = human_table(session)
    decision = waiting(table)
    chief = captain(session, table, decision.deciders[0])
    phone = Client()
    phone.cookies["sic_seat"] = tokens[chief.nickname]
    answer = phone.post("/play/act/", {"type": "move", "decision": decision.id,
                                       "expected": session.stage_id,
                                       "action": json.dumps({"type": "place",
                                                             "space": "leadership"})})
    assert answer.status_code == 302
    assert state_of(table).placements["leadership"] == list(decision.deciders)
