"""What the teacher's own tools can learn about a vote (docs/secrecy.md): small bags,
recounts, and counts the teacher did not confirm.

The attacks of a curious teacher, through the services as the console's requests reach them:
a one-ballot count read back from the record, undo-and-recount with one more voter, a bag of
two. Then a random-sequence property: whatever the teacher does (cast, count, undo, recount,
pause, export), nothing the teacher can read leaves a seat with exactly one option consistent
with it, unless the rules made it public.
"""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace
from typing import Any

import pytest

from facilitator import privacy, services
from facilitator.errors import ServiceError
from facilitator.log import game_record
from facilitator.models import Bag, ClassSession, TableAction
from facilitator.screens import projector_context
from facilitator.selectors import projector_view
from games.state_in_class.rules import vote_outcome
from tests.facilitator.lesson import (
    all_pacts,
    dump_facilitator,
    fresh,
    humans,
    started,
)

pytestmark = pytest.mark.django_db

OPTIONS = {"tax": ["A", "B", "C", "D"], "budget": ["health", "education", "shield"]}


def teacher_next(session: ClassSession, *, confirm: bool = False) -> ClassSession:
    session = fresh(session)
    return services.session_advance(session=session, expected=session.stage_id,
                                    confirm=confirm)


def at_vote(kind: str, students: int = 6) -> ClassSession:
    """A State in Class table of students only (bots would vote too), at ``kind``'s vote."""
    session, _tokens = started(students)
    all_pacts(session)
    for _ in range(3):  # pact -> event -> debate -> tax vote
        session = teacher_next(session)
    if kind == "budget":
        everyone_votes(session, "tax", "A")
        session = teacher_next(session)  # the tax is counted: pay
        session = teacher_next(session)  # budget vote
    assert session.stage == f"{kind}_vote"
    return session


def everyone_votes(session: ClassSession, kind: str, option: str) -> None:
    for seat in humans(fresh(session).tables.get()):
        services.ballot_cast(seat_id=seat.pk, kind=kind, option=option,
                             expected=fresh(session).stage_id)


def cast(session: ClassSession, kind: str, votes: dict[int, str]) -> None:
    """Students (by seat position) put these tokens in the bag."""
    seats = humans(fresh(session).tables.get())
    for position, option in votes.items():
        services.ballot_cast(seat_id=seats[position].pk, kind=kind, option=option,
                             expected=fresh(session).stage_id)


def counts(session: ClassSession, kind: str | None = None) -> list[dict[str, Any]]:
    return [a for a in game_record(fresh(session).tables.get())["actions"]
            if a["type"] == "count" and kind in (None, a["kind"])]


def ballots_before_count(record: dict[str, Any]) -> list[tuple[list[str], dict[str, Any]]]:
    """Each count of the record with the voters the record lists just before it."""
    out, voters = [], []
    for action in record["actions"]:
        if action["type"] == "ballot":
            voters.append(action["player"])
        elif action["type"] == "count":
            out.append((voters, action))
            voters = []
    return out


# ------------------------------------------------------------------ attack 1: one ballot


@pytest.mark.parametrize("kind", ["tax", "budget"])
def test_a_count_with_tokens_missing_is_refused_without_the_teachers_confirmation(kind):
    session = at_vote(kind)
    cast(session, kind, {0: OPTIONS[kind][0]})
    before = dump_facilitator()
    with pytest.raises(ServiceError) as refused:
        teacher_next(session)  # a plain form post: no "count anyway" in it
    assert refused.value.code == "confirm_count"
    assert "5 tokens are not in the bag" in refused.value.message
    assert dump_facilitator() == before  # nothing counted, nothing moved


@pytest.mark.parametrize("kind", ["tax", "budget"])
def test_a_one_ballot_count_closes_the_bag_unopened_however_often_it_is_undone(kind):
    session = at_vote(kind)
    seats = humans(fresh(session).tables.get())
    for voter in range(len(seats)):  # the attack: each student alone, then undo
        services.ballot_cast(seat_id=seats[voter].pk, kind=kind, option=OPTIONS[kind][1],
                             expected=fresh(session).stage_id)
        session = teacher_next(session, confirm=True)
        record = game_record(fresh(session).tables.get())
        (voters, count), = [(v, c) for v, c in ballots_before_count(record)
                            if c["kind"] == kind]
        assert voters == []  # the set-aside token is in no record
        assert count.get("outcome") == [] and "tally" not in count  # as if nobody voted
        assert fresh(session).set_aside == {"1": 1}
        assert Bag.objects.get(decision=f"1:{kind}").set_aside == 1
        session = services.session_undo(session=fresh(session))
        assert fresh(session).stage == f"{kind}_vote"


def test_the_console_and_the_phones_say_a_bag_was_closed_unopened():
    from django.template.loader import render_to_string

    session = at_vote("tax")
    cast(session, "tax", {0: "B", 1: "B"})
    session = teacher_next(session, confirm=True)
    context = projector_context(projector_view(fresh(session)))
    html = render_to_string("facilitator/_console_live.html", {**context, "csrf_token": "x"})
    assert "fewer than 3 tokens, so the bag was closed unopened" in html
    assert context["tables"][0]["tax_result"]["how"] == "carried_over"  # the rule for none


def test_a_bag_of_three_tokens_of_six_is_counted_once_the_teacher_confirms():
    session = at_vote("tax")
    cast(session, "tax", {0: "A", 1: "B", 2: "B"})
    session = teacher_next(session, confirm=True)
    (count,) = counts(session)
    assert count["tally"] == {"A": 1, "B": 2}


# ------------------------------------------------------------------ attack 2: recount


def test_a_decision_counted_again_after_an_undo_publishes_its_outcome_only():
    session = at_vote("budget")
    cast(session, "budget", {0: "health", 1: "health", 2: "health", 3: "education"})
    session = teacher_next(session, confirm=True)
    (first,) = counts(session, "budget")
    assert first["tally"] == {"health": 3, "education": 1}
    session = services.session_undo(session=fresh(session))
    # the same four as before, and one more: the difference must not be published
    cast(session, "budget", {0: "health", 1: "health", 2: "health", 3: "education",
                             4: "education"})
    session = teacher_next(session, confirm=True)
    (second,) = counts(session, "budget")
    assert "tally" not in second and second["outcome"] == [["health"], ["education"]]
    context = projector_context(projector_view(fresh(session)))
    assert context["tables"][0]["budget_result"]["bars"] is None  # no second tally shown


def test_a_recount_publishes_its_outcome_only_even_after_the_vote_was_opened_anew():
    session = at_vote("tax")
    cast(session, "tax", {0: "A", 1: "A", 2: "C"})
    session = teacher_next(session, confirm=True)
    session = services.session_undo(session=fresh(session))  # the count
    session = services.session_undo(session=fresh(session))  # the step that opened the vote
    session = teacher_next(session)  # the vote opens again: a new bag
    cast(session, "tax", {0: "A", 1: "A", 2: "C", 3: "C"})
    session = teacher_next(session, confirm=True)
    (count,) = counts(session)
    assert "tally" not in count


# ------------------------------------------------------------------ attack 3: a bag of two


def seats_like(*names: str, weights: dict[str, int] | None = None) -> tuple[Any, list[Any]]:
    bag = SimpleNamespace(weights=weights or {})
    seats = [SimpleNamespace(pk=i + 1, player_name=n, position=i + 1, removed=False,
                             shares_id=None) for i, n in enumerate(names)]
    return bag, seats


def test_every_ballot_states_the_privacy_rule():
    bag, seats = seats_like("Ana", "Ben", "Cai")
    assert "a bag with fewer than 3 tokens is never opened" in privacy.ballot_secrecy(
        bag, seats, seats[0])


def test_a_ballot_of_two_voters_says_in_advance_that_the_result_shows_the_others_vote():
    bag, seats = seats_like("Ana", "Ben")
    assert privacy.ballot_secrecy(bag, seats, seats[0]) == (
        "Only 2 votes are cast at your table: the result will show how the other voted.")


def test_a_weighted_ballot_names_a_party_holding_half_the_votes_or_more():
    bag, seats = seats_like("Ana", "Ben", "Cai", weights={"Ana": 6, "Ben": 3, "Cai": 3})
    assert "Your votes are 6 of the 12" in privacy.ballot_secrecy(bag, seats, seats[0])
    assert privacy.ballot_secrecy(bag, seats, seats[1]).startswith(
        "Ana holds half or more of the votes")
    balanced, _ = seats_like("Ana", "Ben", "Cai", weights={"Ana": 5, "Ben": 4, "Cai": 3})
    assert "never opened" in privacy.ballot_secrecy(balanced, seats, seats[1])


def test_a_phones_ballot_shows_its_secrecy_line():
    from django.template.loader import render_to_string

    from facilitator.screens import phone_context
    from facilitator.selectors import seat_view

    session = at_vote("tax")
    seat = humans(fresh(session).tables.get())[0]
    context = phone_context(seat_view(seat))
    html = render_to_string("play/_ballot_secrecy.html", context)
    assert "a bag with fewer than 3 tokens is never opened" in html


# ------------------------------------------------------------------ who acted, and how


def test_the_record_says_who_acted_and_how_for_every_decision():
    session = at_vote("tax")
    everyone_votes(session, "tax", "B")  # the bag fills and counts itself
    record = game_record(fresh(session).tables.get())
    assert len(record["acted"]) == len(record["actions"])
    for action, acted in zip(record["actions"], record["acted"], strict=True):
        if action["type"] in ("pact", "ballot"):
            assert acted == {"how": "chose", "player": action["player"]}
        elif action["type"] == "count":
            assert acted == {"how": "vote"}


def test_a_record_without_who_acted_still_replays():
    from games.registry import get_engine

    record = game_record(at_vote("tax").tables.get())
    del record["acted"]
    engine = get_engine(record["game"])
    state, _events = engine.replay_actions(engine.new_game(record["config"], record["seed"]),
                                           record["actions"])
    assert state.phase == "tax_vote"


# ------------------------------------------------------------------ the property


def consistent_options(voters: list[str], count: dict[str, Any], kind: str
                       ) -> dict[str, set[str]]:
    """Each voter's options for which some assignment of options to every voter gives what
    the count published (its tally, or its outcome only)."""
    options = OPTIONS[kind]
    found: dict[str, set[str]] = {v: set() for v in voters}
    for assignment in itertools.product(options, repeat=len(voters)):
        tally = {o: assignment.count(o) for o in options}
        shown = ({"tally": tally} if "tally" in count
                 else {"outcome": vote_outcome(kind, tally) if voters else []})
        if all(shown[k] == count[k] for k in shown):
            for voter, option in zip(voters, assignment, strict=True):
                found[voter].add(option)
    return found


def csv_tallies(session: ClassSession, kind: str) -> list[dict[str, int]]:
    """The tallies the rounds spreadsheet holds for ``kind``, as a count's ``tally``."""
    import csv
    import io

    from facilitator.lessons.state_in_class.debrief.spreadsheets import rounds_csv

    prefix = "tax_votes_" if kind == "tax" else "budget_votes_"
    out = []
    for row in csv.DictReader(io.StringIO(rounds_csv(session))):
        votes = {k.removeprefix(prefix): int(v) for k, v in row.items()
                 if k.startswith(prefix) and v not in ("", None)}
        if votes:
            out.append({o: n for o, n in votes.items() if n})
    return out


def public_by_the_rules(voters: list[str], count: dict[str, Any]) -> bool:
    """A unanimous tally of a real vote of three or more, counted once, is public (as with
    the physical bag)."""
    tally = count.get("tally") or {}
    return len(voters) >= 3 and sum(1 for n in tally.values() if n) == 1


@pytest.mark.parametrize("seed", range(8))
def test_nothing_the_teacher_reads_singles_out_a_vote_over_random_teacher_actions(seed):
    """Cast, count (confirmed or not), undo, recount, pause, export in random order: every
    count the teacher ever saw in the record, export or console, leaves each voter at least
    two options, unless the rules made the result public."""
    rng = random.Random(seed)
    kind = rng.choice(["tax", "budget"])
    session = at_vote(kind)
    seen: list[tuple[list[str], dict[str, Any]]] = []
    for _step in range(40):
        session = fresh(session)
        table = session.tables.get()
        voting = session.stage == f"{kind}_vote"
        move = rng.choice(["cast", "cast", "cast", "count", "undo", "pause", "export"])
        try:
            if move == "cast" and voting:
                voted = set(Bag.objects.get(table=table, status=Bag.Status.OPEN)
                            .receipts.values_list("seat_id", flat=True))
                free = [s for s in humans(table) if s.pk not in voted]
                if free:
                    services.ballot_cast(seat_id=rng.choice(free).pk, kind=kind,
                                         option=rng.choice(OPTIONS[kind]),
                                         expected=session.stage_id)
            elif move == "count" and voting:
                teacher_next(session, confirm=rng.random() < 0.7)
            elif move == "undo" and session.stage != "debate":
                services.session_undo(session=session)
            elif move == "undo":
                teacher_next(session)  # back to the vote
            elif move == "pause":
                services.session_pause(session=session, paused=not session.paused)
            elif move == "export":
                from facilitator.reports.export import table_record

                table_record(table, anonymous=rng.random() < 0.5)
        except ServiceError as exc:
            assert exc.code in ("confirm_count", "paused", "tie_break_pending"), exc.message
        if fresh(session).paused and rng.random() < 0.5:
            services.session_pause(session=fresh(session), paused=False)
        record = game_record(fresh(session).tables.get())
        for voters, count in ballots_before_count(record):
            if count.get("kind") == kind and (voters, count) not in seen:
                seen.append((voters, count))
        shown = projector_context(projector_view(fresh(session)))["tables"][0]
        result = shown.get(f"{kind}_result") or {}
        if result.get("bars") is not None:  # a tally on the projector is a tally kept
            assert any("tally" in c for _v, c in seen)
        for tally in csv_tallies(fresh(session), kind):  # and one in the spreadsheet too
            assert any(c.get("tally") == tally for _v, c in seen), tally
    for voters, count in seen:
        if public_by_the_rules(voters, count):
            continue
        for voter, options in consistent_options(voters, count, kind).items():
            assert len(options) >= 2, (voter, voters, count)


def test_the_oracle_finds_the_one_ballot_count_that_main_published():
    """The property's oracle, on the record a one-ballot count used to leave."""
    count = {"type": "count", "kind": "budget", "outcome": [["health"]]}
    assert consistent_options(["Ana"], count, "budget") == {"Ana": {"health"}}
    count = {"type": "count", "kind": "tax", "outcome": []}
    assert consistent_options([], count, "tax") == {}


def test_a_stand_in_acts_for_an_asleep_captain_and_the_record_says_so():
    from facilitator import parties

    _bag, seats = seats_like("Team 1", "Team 1")
    team = [SimpleNamespace(**{**vars(s), "is_bot": False, "nickname": f"S{s.pk}"})
            for s in seats]
    chief = parties.captain(team, 1)
    assert parties.acting(team, 1, {team[1].pk}) == team[1]
    assert parties.stands_in_for(team[1], team, 1, {team[1].pk}) == chief
    assert TableAction.How.STAND_IN == "stand_in"
