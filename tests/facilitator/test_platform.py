"""The platform runs any lesson module: these tests drive it with a tiny fake game
(``tests/fakegame``: Coin Jar), never with State in Class."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.template.loader import render_to_string

from facilitator import selectors, services
from facilitator.log import game_record, ledger_balances, load_state, verify_table
from facilitator.models import Bag, BallotReceipt, ClassSession, SealedBallot, TableAction
from facilitator.screens import phone_context, projector_context
from games.registry import replay
from tests.facilitator.lesson import fresh, make_teacher
from tests.fakegame import engine
from tests.fakegame.installed import coin_jar_installed, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def coin_jar(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with coin_jar_installed(monkeypatch):
        yield


def vote(session: ClassSession, options: list[int]) -> None:
    bag = Bag.objects.get(table__session=session, status=Bag.Status.OPEN)
    seats = session.seats.filter(is_bot=False).order_by("position")
    for seat, option in zip(seats, options, strict=False):
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=option,
                             expected=fresh(session).stage_id)


def counts(session: ClassSession) -> list[dict]:
    return [a.payload for a in TableAction.objects.filter(table__session=session)
            .order_by("seq") if a.payload["type"] == "count"]


def not_playable_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poleconomy as a module still in preparation would be (every module here is offered)."""
    from facilitator.lessons.poleconomy.lesson import LESSON as poleconomy

    monkeypatch.setattr(poleconomy, "playable", False)


def test_the_new_lesson_page_offers_every_installed_module(client, monkeypatch) -> None:
    not_playable_yet(monkeypatch)
    client.force_login(make_teacher())
    page = client.get("/teacher/lessons/new/?game=coin-jar").content.decode()
    assert "Coin Jar" in page and "State in Class" in page and "In preparation" in page
    assert 'name="game" value="coin-jar"' in page


def test_a_module_that_is_not_playable_yet_cannot_be_created(monkeypatch) -> None:
    not_playable_yet(monkeypatch)
    with pytest.raises(services.ServiceError) as caught:
        services.session_create(owner=make_teacher(), game="poleconomy")
    assert caught.value.code == "unknown_game"


def test_start_seats_the_class_as_the_module_says_and_opens_its_first_ballot() -> None:
    session = started(3)
    table = session.tables.get()
    assert sorted(table.config["players"]) == ["S1", "S2", "S3"]
    bag = Bag.objects.get(table=table)
    assert (bag.decision, bag.options, bag.status) == ("1:jar", ["fill", "skip"], "open")
    assert session.stage == "vote" and session.stage_id == "0:vote"


def test_a_full_bag_is_counted_with_its_tally_and_the_ledger_follows_the_engine() -> None:
    session = started(3)
    vote(session, [0, 0, 1])  # the last ballot fills the bag: counted at once
    assert counts(session) == [{"type": "count", "decision": "1:jar",
                                "tally": {"fill": 2, "skip": 1}}]
    table = session.tables.get()
    assert not SealedBallot.objects.exists()
    assert ledger_balances(table) == engine.balances(load_state(table))
    assert verify_table(table) == []


def test_a_bag_of_fewer_than_three_tokens_is_closed_unopened_unless_everyone_voted() -> None:
    from facilitator.models import Bag

    session = started(3)
    vote(session, [0, 1])  # the third student never votes
    with pytest.raises(services.ServiceError) as refused:  # not confirmed: nothing moves
        services.session_advance(session=fresh(session), expected=fresh(session).stage_id)
    assert refused.value.code == "confirm_count" and counts(session) == []
    services.session_advance(confirm=True, session=fresh(session),
                             expected=fresh(session).stage_id)
    (count,) = counts(session)
    assert count == {"type": "count", "decision": "1:jar", "outcome": []}  # as if nobody voted
    assert "ballot" not in str(game_record(session.tables.get()))
    assert Bag.objects.get(decision="1:jar").set_aside == 2


def test_a_weighted_ballot_keeps_only_its_outcome_everywhere() -> None:
    session = started(3)
    vote(session, [1, 1, 1])
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    bag = Bag.objects.get(table__session=session, status=Bag.Status.OPEN)
    assert sorted(bag.weights.values()) == [1, 1, 3]
    vote(session, [0, 1, 1])  # weights 3 + 1 + 1: the first voter's "fill" outweighs
    last = counts(session)[-1]
    assert set(last) == {"type", "decision", "outcome"}
    state = load_state(session.tables.get())
    assert state.history[-1]["tally"] is None


def test_undoing_a_count_discards_the_votes_and_asks_again() -> None:
    session = started(3)
    vote(session, [1, 1])  # the teacher counts: their step's undo reopens the bag
    services.session_advance(confirm=True, session=fresh(session), expected=fresh(session).stage_id)
    services.session_undo(session=fresh(session))
    bag = Bag.objects.get(table__session=session, decision="1:jar")
    assert bag.status == "open" and bag.reopened == "undo"
    assert not BallotReceipt.objects.filter(bag=bag).exists()


def test_the_record_replays_to_the_lessons_state() -> None:
    session = started(3)
    vote(session, [0, 0, 0])
    table = session.tables.get()
    replayed = replay(game_record(table))
    assert engine.to_dict(replayed.state) == engine.to_dict(load_state(table))


def test_the_platform_screens_render_the_modules_templates() -> None:
    session = started(3)
    seat = session.seats.filter(is_bot=False).first()
    phone = render_to_string("play/_screen.html",
                             phone_context(selectors.seat_view(seat)))
    assert 'name="decision" value="1:jar"' in phone
    console = render_to_string("facilitator/_console_live.html",
                               {**projector_context(selectors.projector_view(session)),
                                "csrf_token": "x"})
    assert "0 of 3 voted" in console and "Round 0" in console


def teams_of_two(students: int = 4) -> ClassSession:
    session = services.session_create(owner=make_teacher(), game=engine.GAME_ID,
                                      options={"team_size": 2})
    for i in range(students):
        services.seat_join(code=session.join_code, nickname=f"S{i + 1}")
    services.session_start(session=fresh(session), seed=7)
    return fresh(session)


def test_seats_can_sit_in_teams_that_play_one_engine_player() -> None:
    session = teams_of_two(4)
    table = session.tables.get()
    assert table.config == {"players": ["Team 1", "Team 2"]}
    names = sorted(session.seats.values_list("player_name", flat=True))
    assert names == ["Team 1", "Team 1", "Team 2", "Team 2"]
    seat = session.seats.order_by("position").first()
    party = selectors.seat_view(seat)["seat"]["party"]
    assert party["name"] == "Team 1" and len(party["members"]) == 2


def mixed(students: int, sizes: list[int]) -> ClassSession:
    session = services.session_create(owner=make_teacher(), game=engine.GAME_ID,
                                      options={"parties": sizes})
    for i in range(students):
        services.seat_join(code=session.join_code, nickname=f"S{i + 1}")
    services.session_start(session=fresh(session), fill="bots", seed=7)
    return fresh(session)


def test_a_table_can_mix_a_team_and_players_alone_with_bots_in_its_last_places() -> None:
    session = mixed(4, [2, 1, 1, 1])
    table = session.tables.get()
    seats = list(table.seats.order_by("position"))
    assert [s.position for s in seats] == [0, 1, 2, 3, 4]
    assert [s.player_name for s in seats[:2]] == ["Team 1", "Team 1"]
    assert [s.player_name for s in seats[2:]] == [s.nickname for s in seats[2:]]
    assert [s.is_bot for s in seats] == [False, False, False, False, True]
    assert table.config == {"players": ["Team 1", *[s.nickname for s in seats[2:]]]}
    party = selectors.seat_view(seats[1])["seat"]["party"]
    assert party["name"] == "Team 1" and len(party["members"]) == 2
    bag = Bag.objects.get(table=table)
    services.ballot_cast(seat_id=seats[0].pk, decision=bag.decision, option=0)
    with pytest.raises(services.ServiceError) as caught:
        services.ballot_cast(seat_id=seats[1].pk, decision=bag.decision, option=0)
    assert caught.value.code == "already_voted"  # the team's one token


def test_a_team_puts_one_token_in_the_bag() -> None:
    session = teams_of_two(4)
    first, mate = session.seats.filter(player_name="Team 1").order_by("position")
    bag = Bag.objects.get(table__session=session)
    services.ballot_cast(seat_id=first.pk, decision=bag.decision, option=0)
    with pytest.raises(services.ServiceError) as caught:
        services.ballot_cast(seat_id=mate.pk, decision=bag.decision, option=1)
    assert caught.value.code == "already_voted"
    other = session.seats.filter(player_name="Team 2").first()
    progress = services.ballot_cast(seat_id=other.pk, decision=bag.decision, option=0)
    assert progress is None  # two teams, two tokens: the bag is full and counted
    assert counts(session)[0]["outcome"] == [["fill"]]  # 2 ballots: the outcome only


def test_a_teams_captain_rotates_by_round_and_a_connected_member_stands_in_for_one_asleep(
) -> None:
    from facilitator import parties

    session = teams_of_two(4)
    team = parties.members(session.tables.get().seats.all(), "Team 1")
    online = {s.pk for s in team}
    assert parties.captain(team, 1) == team[0]
    assert parties.captain(team, 2) == team[1]
    assert parties.acting(team, 2, online) == team[1]
    # the round's captain is asleep: still the captain, and the team-mate acts for them
    assert parties.captain(team, 2) == team[1]
    assert parties.acting(team, 2, {team[0].pk}) == team[0]
    assert parties.stands_in_for(team[0], team, 2, {team[0].pk}) == team[1]
    assert parties.stands_in_for(team[1], team, 2, {team[0].pk}) is None
    assert parties.acting(team, 2, set()) == team[1]  # nobody on a socket: the captain


def test_a_move_for_the_captain_is_refused_to_a_teammate() -> None:
    from facilitator import parties

    session = teams_of_two(4)
    team = parties.members(session.tables.get().seats.all(), "Team 1")
    captain = parties.captain(team, session.round)
    mate = next(s for s in team if s != captain)
    with pytest.raises(services.ServiceError) as caught:
        services.seat_turn(mate.pk, None, captain_only=True)
    assert caught.value.code == "not_captain"
