"""Poleconomy's lesson side with its real engine: seating in players and teams, parties and
Governments confirmed by the game master, the Prime Minister's proposal, sealed orders
editable until the close, NMR for missing orders, Parliament's secret weighted consent ballot,
the game master's corrections and their undo, the replay's beats and the press release."""

from __future__ import annotations

from typing import Any

import pytest

from facilitator import services
from facilitator.lessons.poleconomy import script
from facilitator.lessons.poleconomy import services as pol
from facilitator.lessons.poleconomy.lesson import LESSON
from facilitator.lessons.poleconomy.models import PendingOrders, Proposal
from facilitator.log import game_record, load_state, verify_table
from facilitator.models import (
    Bag,
    BallotReceipt,
    ClassSession,
    SealedBallot,
    Seat,
    Table,
    TableAction,
)
from games.registry import replay
from tests.facilitator.lesson import deterministic, fresh, join, make_teacher

pytestmark = pytest.mark.django_db

ROLL = {"move": {"roll": True}}


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)


def started(students: int, fill: str | None = None, **options: Any) -> ClassSession:
    session = services.session_create(owner=make_teacher(), game="poleconomy",
                                       options=options)
    join(session, students)
    services.session_start(session=fresh(session), fill=fill, seed=5)
    return fresh(session)


def advance(session: ClassSession) -> ClassSession:
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    return fresh(session)


def state_of(table: Table) -> Any:
    return load_state(Table.objects.get(pk=table.pk))


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.filter(shares__isnull=True, removed=False).order_by("position"))


def seat_named(table: Table, player: str) -> Seat:
    return next(s for s in seats_of(table) if s.player_name == player)


def coalition(state: Any) -> list[str]:
    """The two players with most votes: always more than half of three players' votes."""
    ranked = sorted(state.players, key=lambda p: -p.votes)
    return [p.name for p in ranked[:2]]


def to_proposal(session: ClassSession, parties: dict[str, list[str]] | None = None
                ) -> ClassSession:
    """Parties declared, the election rolled, a Government confirmed: round 1's proposal."""
    table = session.tables.get()
    if parties is not None:
        pol.master_parties(session=fresh(session), table=1, declared=parties)
    session = advance(session)
    assert session.stage == script.GOVERNMENT
    state = state_of(table)
    if state.phase == "government":
        from games.poleconomy.elections import majority_bloc

        if majority_bloc(state) is None:
            members = coalition(state)
            pol.master_government(session=fresh(session), table=1, members=members,
                                  pm=members[0])
    session = advance(session)
    assert (session.stage, session.round) == (script.PROPOSAL, 1)
    return session


def engine_actions(table: Table) -> list[dict[str, Any]]:
    return [a.payload for a in TableAction.objects.filter(table=table).order_by("seq")]


# ------------------------------------------------------------------ seating and options


def test_seating_makes_tables_of_3_to_6_players_each_a_student_or_a_team() -> None:
    assert LESSON.seating(12, None, {}).tables == [6, 6]
    assert LESSON.seating(7, None, {}).tables == [4, 3]
    assert LESSON.seating(2, None, {}) is None
    assert LESSON.seating(2, "bots", {}).bots == 1
    teams = LESSON.seating(8, None, {"team_size": 2})
    assert (teams.tables, teams.party_size, teams.bots) == ([8], 2, 0)
    short = LESSON.seating(7, "bots", {"team_size": 2})
    assert (short.tables, short.party_size, short.bots) == ([8], 2, 1)
    assert LESSON.seating(7, None, {"team_size": 2}) is None
    assert LESSON.seating(8, "pairs", {"team_size": 2}) is None
    assert "teams of 2" in LESSON.seating_error(7, None, {"team_size": 2})


def test_with_players_per_table_extra_students_double_up_into_teams_and_bots_fill_the_rest(
        ) -> None:
    five = LESSON.seating(5, None, {"players": 4, "team_size": 2})
    assert (five.tables, five.parties, five.bots) == ([5], ((2, 1, 1, 1),), 0)
    nine = LESSON.seating(9, None, {"players": 4, "team_size": 2})
    assert nine.parties == ((2, 1, 1, 1), (1, 1, 1, 1))
    thirteen = LESSON.seating(13, None, {"players": 4, "team_size": 2})
    assert thirteen.parties == ((2, 2, 2, 1), (2, 2, 1, 1))  # as even as possible, teams first
    alone = LESSON.seating(7, None, {"players": 4})
    assert alone is None  # two tables of 4 and 3 students: one empty player
    assert "Fill them with bots" in LESSON.seating_error(7, None, {"players": 4})
    filled = LESSON.seating(7, "bots", {"players": 4})
    assert (filled.tables, filled.table_bots, filled.bots) == ([4, 4], (0, 1), 1)
    assert LESSON.seating(5, "pairs", {"players": 4}) is None


def test_bot_players_take_places_at_every_table_and_the_students_share_the_others() -> None:
    four = LESSON.seating(4, None, {"players": 4, "team_size": 2, "bot_players": 1})
    assert (four.parties, four.table_bots) == (((2, 1, 1, 1),), (1,))
    seven = LESSON.seating(7, None, {"players": 4, "team_size": 2, "bot_players": 1})
    assert (seven.parties, seven.table_bots) == (((2, 1, 1, 1), (1, 1, 1, 1)), (1, 1))
    two = LESSON.seating(2, "bots", {"players": 4, "bot_players": 1})
    assert (two.parties, two.table_bots, two.bots) == (((1, 1, 1, 1),), (2,), 2)


def test_the_lobby_says_how_a_mixed_class_will_sit() -> None:
    from facilitator.lessons.poleconomy.presenters import seating_text

    options = {**LESSON.default_options, "players": 4, "team_size": 2}
    five = seating_text(options, 5)
    assert five == {"needs_fill": False, "text": "Start makes 1 table of 4 players (students "
                                                 "per player: 2 + 1 + 1 + 1)."}
    three = seating_text(options, 3)
    assert three["needs_fill"] and three["bots"] == "Add 1 bot and start (1 + 1 + 1 + bot)"
    assert three["pairs"] is None  # no button that cannot seat the class


def test_a_mixed_table_seats_a_team_and_students_alone_with_a_bot_player() -> None:
    session = started(3, fill="bots", players=4, team_size=2)
    seats = seats_of(session.tables.get())
    assert [s.is_bot for s in seats] == [False, False, False, True]
    assert [s.player_name for s in seats] == [s.nickname for s in seats]  # each alone


def test_a_mixed_table_names_its_team_for_the_lesson_and_its_students_alone_by_nickname(
        ) -> None:
    session = started(5, players=4, team_size=2)
    table = session.tables.get()
    seats = seats_of(table)
    assert table.config["players"] == ["Team 1", *[s.nickname for s in seats[2:]]]
    assert [s.player_name for s in seats[:2]] == ["Team 1", "Team 1"]


def test_a_tables_config_names_its_players_and_the_lessons_rounds() -> None:
    session = started(4, rounds=6)
    table = session.tables.get()
    names = [s.player_name for s in seats_of(table)]
    assert table.config == {"players": names, "rounds": 6, "consent_mode": "ballot"}
    assert session.stage == script.PARTIES and state_of(table).phase == "parties"


def test_teams_play_as_one_player_each_named_by_the_lesson() -> None:
    session = started(6, team_size=2)
    table = session.tables.get()
    assert table.config["players"] == ["Team 1", "Team 2", "Team 3"]
    assert [s.player_name for s in seats_of(table)].count("Team 1") == 2


@pytest.mark.parametrize("bad", [{"rounds": 0}, {"team_size": 5}, {"players": 7},
                                 {"players": 2}, {"bot_players": 1},
                                 {"players": 3, "bot_players": 3},
                                 {"players": 4, "bot_players": 1, "bots_allowed": False},
                                 {"bots_allowed": "yes"},
                                 {"bot_policy": "genius"}, {"colour": "red"}])
def test_options_the_lesson_cannot_run_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.session_create(owner=make_teacher(), game="poleconomy", options=bad)
    assert caught.value.code == "bad_options"


def test_the_options_form_gives_options_the_lesson_accepts() -> None:
    from facilitator.lessons.poleconomy.forms import OptionsForm

    form = OptionsForm(data={"rounds": "8", "team_size": "2", "bots_allowed": "on"})
    assert form.is_valid(), form.errors
    options = {**LESSON.default_options, **form.options()}
    LESSON.check_options(options)
    assert LESSON.table_config(["A", "B", "C"], options)["rounds"] == 8
    assert options["players"] == 0  # as the class splits
    mixed = OptionsForm(data={"rounds": "8", "team_size": "2", "players": "4"})
    assert mixed.is_valid(), mixed.errors
    assert LESSON.seating(5, None, {**LESSON.default_options, **mixed.options()}).parties


# ------------------------------------------------------------------ parties and Governments


def test_the_game_master_declares_parties_and_the_election_is_rolled_at_once() -> None:
    session = started(3)
    table = session.tables.get()
    a, b, _c = table.config["players"]
    pol.master_parties(session=session, table=1, declared={"Blues": [a, b]})
    state = state_of(table)
    assert state.parties == {"Blues": [a, b]} and state.elections == 1
    session = advance(session)  # the parties stand: next goes to the Government
    assert session.stage == script.GOVERNMENT
    assert engine_actions(table)[0] == {"type": "parties", "parties": {"Blues": [a, b]}}


def test_without_a_majority_next_waits_for_the_game_master_to_confirm_a_coalition() -> None:
    session = started(3)
    table = session.tables.get()
    session = advance(session)  # all Independents
    state = state_of(table)
    if state.phase == "orders":
        pytest.skip("this seed's election gave an Independent a majority")
    with pytest.raises(services.ServiceError) as caught:
        advance(session)
    assert caught.value.code == "no_government"
    members = coalition(state)
    pol.master_government(session=fresh(session), table=1, members=members, pm=members[1])
    assert (state_of(table).pm, state_of(table).government) == (
        members[1], sorted(members, key=table.config["players"].index))
    assert advance(session).stage == script.PROPOSAL


def test_a_phone_asks_for_a_party_and_a_bad_request_is_refused_with_the_engines_reason(
) -> None:
    session = started(3)
    table = session.tables.get()
    a, b, _c = seats_of(table)
    pol.politics_request(seat_id=a.pk, kind="party", members=[b.player_name], name="Greens",
                         expected=session.stage_id)
    from facilitator.lessons.poleconomy.models import PoliticsRequest

    request = PoliticsRequest.objects.get()
    assert (request.members, request.by) == ([a.player_name, b.player_name], a.player_name)
    assert state_of(table).parties == {}  # only the game master's confirmation declares it
    with pytest.raises(services.ServiceError) as caught:
        pol.politics_request(seat_id=a.pk, kind="party", members=[], name="Alone")
    assert caught.value.code == "bad_party"


# ------------------------------------------------------------------ orders


def test_orders_are_editable_until_the_close_and_missing_orders_are_nmr() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    session = advance(session)  # no proposal: the orders open with no ballot
    assert session.stage == script.ORDERS and not Bag.objects.filter(table=table).exists()
    first, second, third = seats_of(table)
    pol.orders_send(seat_id=first.pk, orders={"move": {"corner": "bonds", "act": False}},
                    expected=session.stage_id)
    pol.orders_send(seat_id=first.pk, orders=ROLL, expected=session.stage_id)  # edited
    pol.orders_send(seat_id=second.pk, orders=None, expected=session.stage_id)  # asks NMR
    assert PendingOrders.objects.filter(table=table).count() == 2
    assert engine_actions(table)[-1]["type"] != "orders"  # nothing reaches the engine yet
    assert not state_of(table).player(first.player_name).sent
    session = advance(session)  # the game master closes the orders
    assert session.stage == script.REPLAY
    orders = {a["player"]: a["orders"] for a in engine_actions(table) if a["type"] == "orders"}
    assert orders == {first.player_name: ROLL, second.player_name: None,
                      third.player_name: None}
    state = state_of(table)
    assert state.round == 2  # adjudicated: the engine waits for round 2
    turns = [e for r in state.history if r["round"] == 1 for e in r["events"]
             if e["type"] == "turn"]
    assert {e["player"]: e["nmr"] for e in turns} == {
        first.player_name: False, second.player_name: True, third.player_name: True}
    assert verify_table(Table.objects.get(pk=table.pk)) == []


def test_orders_the_engine_refuses_are_refused_with_its_reason_and_change_nothing() -> None:
    session = advance(to_proposal(started(3)))
    seat = seats_of(session.tables.get())[0]
    with pytest.raises(services.ServiceError) as caught:
        pol.orders_send(seat_id=seat.pk, orders={"move": {"fly": True}},
                        expected=session.stage_id)
    assert caught.value.code == "invalid_action"
    assert not PendingOrders.objects.exists()


def test_orders_are_refused_before_the_government_and_after_the_close() -> None:
    session = started(3)
    seat = seats_of(session.tables.get())[0]
    with pytest.raises(services.ServiceError) as caught:
        pol.orders_send(seat_id=seat.pk, orders=ROLL, expected=session.stage_id)
    assert caught.value.code == "orders_closed"
    session = advance(advance(to_proposal(fresh(session))))
    assert session.stage == script.REPLAY
    with pytest.raises(services.ServiceError) as caught:
        pol.orders_send(seat_id=seat.pk, orders=ROLL, expected=session.stage_id)
    assert caught.value.code == "orders_closed"


def test_the_pms_consent_items_go_in_the_proposal_not_in_the_orders() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = seat_named(table, state_of(table).pm)
    with pytest.raises(services.ServiceError) as caught:
        pol.orders_send(seat_id=pm.pk, orders={"pm": {"salaries": {"pm": 15}}},
                        expected=session.stage_id)
    assert caught.value.code == "use_proposal"


def test_a_teams_captain_sends_its_orders_and_a_teammate_suggests() -> None:
    session = advance(to_proposal(started(6, team_size=2)))
    table = session.tables.get()
    captain, mate = [s for s in seats_of(table) if s.player_name == "Team 1"]
    with pytest.raises(services.ServiceError) as caught:
        pol.orders_send(seat_id=mate.pk, orders=ROLL, expected=session.stage_id)
    assert caught.value.code == "not_captain"
    pol.orders_suggest(seat_id=mate.pk, orders=ROLL, expected=session.stage_id)
    pol.orders_send(seat_id=captain.pk, orders=ROLL, expected=session.stage_id)
    assert PendingOrders.objects.get().player == "Team 1"
    info = LESSON.seat_info(fresh(session), captain, table, [])
    assert info["orders"]["orders"] == ROLL
    assert [(s["by"], s["orders"]) for s in info["suggestions"]] == [(mate.nickname, ROLL)]


def test_a_bot_player_writes_its_orders_when_the_orders_open() -> None:
    session = advance(to_proposal(started(2, fill="bots")))
    table = session.tables.get()
    bot = next(s for s in seats_of(table) if s.is_bot)
    row = PendingOrders.objects.get(table=table, player=bot.player_name)
    assert row.seat == bot and row.orders["move"]["roll"] is True


# ------------------------------------------------------------------ the game master


def test_the_game_master_sees_orders_as_they_arrive_corrects_them_and_undo_restores() -> None:
    session = advance(to_proposal(started(3)))
    table = session.tables.get()
    seat = seats_of(table)[0]
    pol.orders_send(seat_id=seat.pk, orders=ROLL, expected=session.stage_id)
    from facilitator.lessons.poleconomy import presenters, reads

    panel = presenters.master_context(_view(session), reads.master_reads(session)
                                      )["tables"][0]["master"]
    assert "master" not in LESSON.projector_context(_view(session))["tables"][0]
    mine = next(p for p in panel["players"] if p["name"] == seat.player_name)
    assert (mine["sent"], mine["orders"]) == (True, ROLL)
    corrected = {"move": {"corner": "life-insurance", "act": True}}
    pol.master_orders(session=fresh(session), table=1, player=seat.player_name,
                      orders=corrected)
    shown = LESSON.seat_info(fresh(session), seat, table, [])["orders"]
    assert (shown["sent"], shown["orders"], shown["by_master"]) == (True, corrected, True)
    assert shown["summary"][0] == "Go straight to Life Insurance and take its action."
    services.session_undo(session=fresh(session))
    assert LESSON.seat_info(fresh(session), seat, table, [])["orders"]["orders"] == ROLL
    pol.master_orders(session=fresh(session), table=1, player=seat.player_name, orders=None,
                      clear=True)
    assert not LESSON.seat_info(fresh(session), seat, table, [])["orders"]["sent"]


def _view(session: ClassSession) -> dict[str, Any]:
    from facilitator import selectors

    return selectors.projector_view(fresh(session))


# ------------------------------------------------------------------ Parliament's consent


def propose_salary(session: ClassSession, table: Table, salary: int = 14) -> Seat:
    pm = seat_named(table, state_of(table).pm)
    pol.proposal_write(seat_id=pm.pk, items={"salaries": {"pm": salary}},
                       expected=fresh(session).stage_id)
    return pm


def test_the_consent_ballot_is_weighted_runs_with_the_orders_and_only_its_outcome_is_kept(
) -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = propose_salary(session, table)
    session = advance(session)  # the orders open: the proposal is public, the bag is open
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    state = state_of(table)
    assert bag.decision == "r1.consent.salaries" and bag.options == ["yes", "no"]
    assert bag.weights == {p.name: p.votes for p in state.players}
    for seat in seats_of(table):
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option="yes",
                             expected=session.stage_id)
    assert Bag.objects.get(pk=bag.pk).status == Bag.Status.OPEN  # full: waits for the close
    session = advance(session)
    assert Bag.objects.get(pk=bag.pk).status == Bag.Status.COUNTED
    counts = [a for a in engine_actions(table) if a["type"] == "count"]
    assert counts == [{"type": "count", "decision": "r1.consent.salaries",
                       "outcome": "carried"}]
    assert state_of(table).pm_salary == 14
    record = str(game_record(table))
    assert "tally" not in record and not SealedBallot.objects.exists()
    pm_orders = next(a for a in engine_actions(table)
                     if a["type"] == "orders" and a["player"] == pm.player_name)
    assert pm_orders["orders"]["pm"]["salaries"] == {"pm": 14}
    assert replay(game_record(Table.objects.get(pk=table.pk))).state.round == 2


def test_abstaining_players_do_not_consent_so_a_proposal_falls_without_a_majority() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = propose_salary(session, table)
    session = advance(session)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    state = state_of(table)
    # The PM alone says yes: one player of three never holds more than half of the votes
    # here unless their votes do; the expected outcome follows the rulebook's rule.
    services.ballot_cast(seat_id=pm.pk, decision=bag.decision, option="yes",
                         expected=session.stage_id)
    session = advance(session)
    votes = state.player(pm.player_name).votes
    expected = "carried" if 2 * votes > state.total_votes else "not-carried"
    (count,) = [a for a in engine_actions(table) if a["type"] == "count"]
    assert count["outcome"] == expected
    assert (state_of(table).pm_salary == 14) == (expected == "carried")


def test_one_ballot_settles_every_item_of_the_proposal() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = seat_named(table, state_of(table).pm)
    other = next(s for s in seats_of(table) if s != pm)
    pol.proposal_write(seat_id=pm.pk, items={
        "tax": {"per_company": 2},
        "payments": [{"to": other.player_name, "amount": 3}]},
        press_release="Help for small firms", expected=session.stage_id)
    session = advance(session)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    assert bag.decision == "r1.consent.tax+payments"
    session = advance(session)  # nobody voted: not carried
    counts = [a for a in engine_actions(table) if a["type"] == "count"]
    assert [c["decision"] for c in counts] == ["r1.consent.tax", "r1.consent.payments"]
    assert {c["outcome"] for c in counts} == {"not-carried"}


def test_nothing_stored_links_a_student_to_their_consent() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    propose_salary(session, table)
    session = advance(session)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    choices = dict(zip([s.pk for s in seats_of(table)], ["yes", "no", "yes"], strict=True))
    for seat_id, option in choices.items():
        services.ballot_cast(seat_id=seat_id, decision=bag.decision, option=option,
                             expected=session.stage_id)
    # While the bag is open: receipts name seats, sealed ballots name no seat.
    assert BallotReceipt.objects.filter(bag=bag).count() == 3
    assert {f.name for f in SealedBallot._meta.get_fields()} >= {"bag", "sealed"}
    assert not any(f.name == "seat" for f in SealedBallot._meta.get_fields())
    panel = str(LESSON.projector_context(_view(session)))
    assert "'yes'" not in panel.replace("'options': ['yes', 'no']", "")
    session = advance(session)
    from django.apps import apps

    for model in apps.get_app_config("lesson_poleconomy").get_models():
        for row in model.objects.values():
            assert "yes" not in str(row) and "tally" not in str(row), model
    for action in TableAction.objects.filter(table=table):
        assert "tally" not in action.payload and "yes" not in str(action.payload)


# ------------------------------------------------------------------ replay and the press


def test_the_replay_shows_the_round_one_beat_at_a_time_from_the_board_before_it() -> None:
    session = advance(to_proposal(started(3)))
    table = session.tables.get()
    before = {p["name"]: p["position"] for p in _view(session)["tables"][0]["game"]["players"]}
    session = advance(session)
    beats = script.beats(state_of(table), 1)
    assert len(beats) == 1 + 3 + 1  # the round's start, three turns, its end
    screen = LESSON.projector_context(_view(session))["tables"][0]
    assert len(screen["replay"]["beats"]) == 1 and not screen["replay"]["done"]
    assert {p["name"]: p["position"] for p in screen["board"]["players"]} == before
    ids = {session.stage_id}
    first = beats[1][0]["player"]  # the first turn's beat: only its mover has moved
    moved = next(e["to"] for e in beats[1] if e["type"] == "move")
    session = advance(session)
    ids.add(session.stage_id)
    board = LESSON.projector_context(_view(session))["tables"][0]["board"]
    assert {p["name"]: p["position"] for p in board["players"]} == {**before, first: moved}
    for shown in range(3, len(beats) + 1):
        session = advance(session)
        assert session.stage == script.REPLAY and len(script.beats(state_of(table), 1)) == 5
        ids.add(session.stage_id)
        screen = LESSON.projector_context(_view(session))["tables"][0]
        assert len(screen["replay"]["beats"]) == shown
    assert screen["replay"]["done"] and len(ids) == len(beats)
    services.session_undo(session=fresh(session))  # one beat back
    assert len(LESSON.projector_context(_view(session))["tables"][0]["replay"]["beats"]) == 4
    session = advance(advance(fresh(session)))
    assert (session.stage, session.round) in {(script.PROPOSAL, 2), (script.GOVERNMENT, 1)}


def test_a_press_release_reaches_the_projector_only_once_the_game_master_approves_it(
) -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = seat_named(table, state_of(table).pm)
    other = next(s for s in seats_of(table) if s != pm)
    pol.proposal_write(seat_id=pm.pk, items={"payments": [{"to": other.player_name,
                                                           "amount": 2}]},
                       press_release="Roads for everyone", expected=session.stage_id)
    assert LESSON.projector_context(_view(session))["tables"][0]["proposal"] is None
    session = advance(session)
    shown = LESSON.projector_context(_view(session))["tables"][0]["proposal"]
    assert shown["press_release"] == "" and shown["press_waiting"]
    pol.master_press(session=fresh(session), table=1)
    shown = LESSON.projector_context(_view(session))["tables"][0]["proposal"]
    assert shown["press_release"] == "Roads for everyone"
    services.session_undo(session=fresh(session))
    assert Proposal.objects.get().approved_by is None


def test_a_payment_needs_a_press_release_and_only_the_pm_proposes() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = seat_named(table, state_of(table).pm)
    other = next(s for s in seats_of(table) if s != pm)
    with pytest.raises(services.ServiceError) as caught:
        pol.proposal_write(seat_id=pm.pk, items={"payments": [{"to": other.player_name,
                                                               "amount": 2}]},
                           expected=session.stage_id)
    assert caught.value.code == "press_release"
    with pytest.raises(services.ServiceError) as caught:
        pol.proposal_write(seat_id=other.pk, items={"salaries": {"pm": 12}},
                           expected=session.stage_id)
    assert caught.value.code == "not_pm"
    assert not Proposal.objects.exists()


def test_a_bot_votes_in_parliament_and_votes_again_when_an_undone_count_empties_the_bag(
) -> None:
    session = started(2, fill="bots")
    table = session.tables.get()
    bot = next(s for s in seats_of(table) if s.is_bot)
    session = advance(session)  # parties: all Independents
    state = state_of(table)
    humans = [s for s in seats_of(table) if not s.is_bot]
    if state.phase == "government":
        from games.poleconomy.elections import majority_bloc

        if majority_bloc(state) is None:
            pol.master_government(session=fresh(session), table=1,
                                  members=[h.player_name for h in humans],
                                  pm=humans[0].player_name)
    session = advance(session)
    state = state_of(table)
    assert state.pm != bot.player_name, "this seed's election makes the bot PM"
    propose_salary(session, table)
    session = advance(session)
    bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
    assert set(BallotReceipt.objects.filter(bag=bag).values_list("seat", flat=True)) == {
        bot.pk}
    assert PendingOrders.objects.filter(table=table, player=bot.player_name).exists()
    session = advance(session)  # the close counts the bag
    services.session_undo(session=fresh(session))
    reopened = Bag.objects.get(pk=bag.pk)
    assert reopened.status == Bag.Status.OPEN and reopened.reopened == "undo"
    assert set(BallotReceipt.objects.filter(bag=bag).values_list("seat", flat=True)) == {
        bot.pk}
    assert not state_of(table).player(humans[0].player_name).sent  # orders wait again


def test_the_last_round_is_replayed_to_its_end_before_the_final_scores() -> None:
    session = advance(to_proposal(started(3, rounds=1)))
    table = session.tables.get()
    session = advance(session)  # the close: the engine plays the last round, the game ends
    assert state_of(table).phase == "over"
    assert session.stage == script.REPLAY  # the class still watches the round
    assert LESSON.projector_context(_view(session))["tables"][0]["final"] is None
    for _beat in range(len(script.beats(state_of(table), 1)) - 1):
        session = advance(session)
        assert session.stage == script.REPLAY
    screen = LESSON.projector_context(_view(session))["tables"][0]
    assert screen["final"] is not None  # the last beat shown: the scores with it
    session = advance(session)
    assert session.stage == script.FINAL and session.status == ClassSession.Status.FINISHED
    final = LESSON.projector_context(_view(session))["tables"][0]["final"]
    scores = state_of(table)
    from games.poleconomy import scores as engine_scores

    expected = engine_scores(scores)
    assert {r["name"]: r["score"] for r in final} == {
        n: v["score"] for n, v in expected["players"].items()}
    assert [r["name"] for r in final if r["winner"]] == expected["winners"]


def test_the_game_master_ends_a_game_the_players_agree_to_end() -> None:
    session = advance(to_proposal(started(3)))
    table = session.tables.get()
    pol.master_end(session=fresh(session), table=1)
    assert state_of(table).over_reason == "agreed"
    with pytest.raises(services.ServiceError) as caught:
        pol.master_end(session=fresh(session), table=1)
    assert caught.value.code == "game_over"
    assert advance(session).stage == script.FINAL


def test_bots_complete_the_last_team_and_a_teams_students_send_its_orders() -> None:
    session = advance(to_proposal(started(5, fill="bots", team_size=2)))
    table = session.tables.get()
    seats = seats_of(table)
    assert [s.is_bot for s in seats] == [False] * 5 + [True]  # the bot fills the last gap
    last = [s for s in seats if s.player_name == "Team 3"]
    student = next(s for s in last if not s.is_bot)
    for round_ in (1, 2):  # whatever the rotation, the team's one student is its captain
        from facilitator.lessons.poleconomy import turns

        assert turns.captain_of(seats, "Team 3", round_) == student
    pol.orders_send(seat_id=student.pk, orders=ROLL, expected=session.stage_id)
    assert PendingOrders.objects.get(player="Team 3").seat == student
    info = LESSON.seat_info(fresh(session), student, table, [])
    assert info["party"]["is_captain"] and info["party"]["captain"] == student.nickname


def test_undoing_a_game_master_step_keeps_the_pms_proposal() -> None:
    session = to_proposal(started(3))
    table = session.tables.get()
    pm = propose_salary(session, table, salary=12)
    other = next(s for s in seats_of(table) if s != pm)
    pol.orders_send(seat_id=other.pk, orders=ROLL, expected=session.stage_id)
    pol.master_orders(session=fresh(session), table=1, player=other.player_name,
                      orders=None, clear=True)
    propose_salary(session, table, salary=16)
    services.session_undo(session=fresh(session))  # the correction is taken back
    assert Proposal.objects.get(table=table).items == {"salaries": {"pm": 16}}
    assert LESSON.seat_info(fresh(session), other, table, [])["orders"]["orders"] == ROLL


def test_the_proposal_form_sets_every_cabinet_ministers_salary_and_says_so() -> None:
    from facilitator.lessons.poleconomy import orderform, presenters

    items = orderform.proposal_from_fields({"salary_ministers": "7", "tax_per_company": "4",
                                            "tax_companies_at_least": "2"}, ["Ben", "Cai"])
    assert items == {"salaries": {"ministers": {"Ben": 7, "Cai": 7}},
                     "tax": {"per_company": 4, "companies_at_least": 2}}
    assert presenters.proposal_lines(items) == [
        "Salaries: Ben $7; Cai $7", "Tax: $4 a Company, only with 2 Companies or more"]
    assert orderform.proposal_from_fields({"salary_ministers": "7"}, []) == {}
    with pytest.raises(services.ServiceError) as caught:
        orderform.proposal_from_fields({"salary_pm": "9"}, [])
    assert caught.value.code == "bad_orders"  # the PM's salary is never below $10


def test_poleconomy_is_offered_on_the_new_lesson_page_with_its_seating_options(client) -> None:
    client.force_login(make_teacher())
    page = client.get("/teacher/lessons/new/?game=poleconomy").content.decode()
    assert 'name="game" value="poleconomy"' in page
    for field in ("rounds", "players", "team_size", "bot_players", "bots_allowed"):
        assert f'name="{field}"' in page, field
    response = client.post("/teacher/lessons/new/", {
        "game": "poleconomy", "language": "es", "title": "Poleconomía", "rounds": "2",
        "players": "4", "team_size": "2", "bot_players": "1", "bots_allowed": "on"})
    assert response.status_code == 302
    session = ClassSession.objects.get(title="Poleconomía")
    assert {k: session.options[k] for k in ("rounds", "players", "team_size", "bot_players")
            } == {"rounds": 2, "players": 4, "team_size": 2, "bot_players": 1}
