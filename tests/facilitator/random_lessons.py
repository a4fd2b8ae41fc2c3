"""Random lessons of every module, played through the real services as a class would: each
builder starts a lesson from a seeded ``random.Random`` and yields its actions (``Call``) one
by one, for a test to run and look at the screens in between (held results; presenters that
read nothing)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from facilitator import parties, presence, services
from facilitator.lessons.austerity import modes as aus_modes
from facilitator.lessons.austerity import script as aus_script
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.crisis import services as crisis_services
from facilitator.lessons.crisis import turns as crisis_turns
from facilitator.lessons.poleconomy import script as pol_script
from facilitator.lessons.poleconomy import services as pol_services
from facilitator.lessons.poleconomy import turns as pol_turns
from facilitator.lessons.state_in_class import services as sic_services
from facilitator.lessons.state_in_class.pacing import VOTE_STAGES, tie_shown
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Seat, Table
from facilitator.services.turns import table_seats
from games import austerity as austerity_engine
from games.crisis import bots as crisis_bots
from tests.facilitator.lesson import fresh, join, make_teacher


@dataclass
class Call:
    """One action of a lesson, as a socket or a form would ask it."""

    name: str
    run: Callable[[], Any]
    table: int | None = None  # the table acted at; None: the teacher's
    seat: Seat | None = None  # who acts: their party's phones show their own confirmation
    ballot: bool = False  # a token in the table's open bag
    keeps: bool = False  # a move the service may keep until the teacher's step


# --------------------------------------------------------------------------- the actions


def step(session: ClassSession) -> Call:
    def run() -> None:
        now = fresh(session)
        services.session_advance(confirm=True, session=now, expected=now.stage_id)
    return Call(f"the teacher's step from {fresh(session).stage_id}", run)


def ballot(session: ClassSession, seat: Seat, option: str, **which: Any) -> Call:
    def run() -> None:
        services.ballot_cast(seat_id=seat.pk, option=option, expected=fresh(session).stage_id,
                             **which)
    return Call(f"{seat.nickname}'s token ({fresh(session).stage_id})", run,
                table=seat.table.number, seat=seat, ballot=True)


def voters_left(table: Table) -> list[Seat]:
    """For each party at ``table`` whose token is not yet in its open bag, its first student
    (none: no bag open, or only bots left, which vote by themselves)."""
    bag = Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()
    if bag is None:
        return []
    voted = set(bag.receipts.values_list("seat__player_name", flat=True))
    out = []
    for name, members in parties.parties(table_seats(table)).items():
        students = [m for m in members if not m.is_bot]
        if name not in voted and students:
            out.append(students[0])
    return out


def game_of(table: Table) -> Any:
    """The table's game now (not as the ``table`` read earlier holds it)."""
    return load_state(Table.objects.get(pk=table.pk))


def decide(session: ClassSession, what: str, table: Table, seat: Seat,
           run: Callable[[], Any], *, keeps: bool = False) -> Call:
    return Call(f"{seat.nickname}'s {what} ({fresh(session).stage_id})", run,
                table=table.number, seat=seat, keeps=keeps)


# --------------------------------------------------------------------------- the lessons

Lesson = tuple[ClassSession, Iterator[Call]]  # a started lesson and its actions


def started(game: str, students: int, fill: str | None, rng: random.Random,
            options: dict[str, Any]) -> ClassSession:
    session = services.session_create(owner=make_teacher(), game=game, options=options)
    join(session, students)
    services.session_start(session=fresh(session), fill=fill, seed=rng.randrange(1000))
    for seat in Seat.objects.filter(session=session, is_bot=False):
        presence.presence_join(seat_id=seat.pk)  # every phone is connected
    return fresh(session)


def state_in_class(rng: random.Random, students: int, rounds: int) -> Lesson:
    """Pacts, the tax and budget votes and the tie-breaks of the first ``rounds`` rounds
    (round 4 is the Midlife Crossroads), bots filling the tables."""
    session = started("state-in-class", students, "bots", rng, {})

    def calls() -> Iterator[Call]:
        for table in session.tables.order_by("number"):
            for seat in parties.voters(s for s in table_seats(table) if not s.is_bot):
                yield decide(session, "pact", table, seat, lambda s=seat: (
                    sic_services.pact_submit(seat_id=s.pk, coins=rng.randrange(4),
                                             expected=fresh(session).stage_id)))
        while fresh(session).stage != Stage.FINAL and fresh(session).round <= rounds:
            now = fresh(session)
            kind = VOTE_STAGES.get(now.stage)
            for table in now.tables.order_by("number"):
                for seat in voters_left(table) if kind else ():
                    options = (["A", "B", "C", "D"] if kind == "tax"
                               else ["health", "education", "shield"])
                    yield ballot(session, seat, rng.choice(options), kind=kind)
                for _tie in range(10):  # a decider may pass; a ranking may tie twice
                    state = game_of(table)
                    if not tie_shown(now.stage) or state.phase != "tie_break":
                        break
                    decider = parties.members(table_seats(table), state.tie.deciders[0])[0]
                    choice = rng.choice([*state.tie.options,
                                         *([None] if state.tie.kind == "tax" else [])])
                    yield decide(session, "tie-break", table, decider,
                                 lambda d=decider, c=choice: sic_services.tie_break_submit(
                                     seat_id=d.pk, choice=c))
            yield step(session)

    return session, calls()


def austerity(rng: random.Random, students: int, years: int, fill: str | None = None,
              event_ballots: bool = False, **options: Any) -> Lesson:
    """The budget sessions' ballots, the student ministers' decisions (and, with
    ``event_ballots``, every event decided by a table ballot) of the first ``years``."""
    session = started("austerity", students, fill, rng, options)

    def calls() -> Iterator[Call]:
        if event_ballots:
            yield Call("the teacher's switch of events to table ballots", lambda: (
                aus_services.mode_switch(session=fresh(session), kind=aus_modes.EVENT,
                                         mode=aus_modes.BALLOT, table=None,
                                         expected=fresh(session).stage_id)))
        while (fresh(session).stage != aus_script.FINAL
               and aus_script.year_of(fresh(session)) <= years):
            for _turn in range(400):  # everyone acts until nobody has anything to do
                acted = False
                now = fresh(session)
                for table in now.tables.order_by("number"):
                    for seat in voters_left(table):
                        bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
                        yield ballot(session, seat, rng.choice(bag.options),
                                     decision=bag.decision)
                        acted = True
                    state = game_of(table)
                    chair = aus_script.minister_acting(table_seats(table),
                                                       aus_script.year_of(now))
                    if (chair is None or chair.is_bot or voters_left(table)
                            or not aus_script.minister_may_act(fresh(session), state)
                            or Bag.objects.filter(table=table,
                                                  status=Bag.Status.OPEN).exists()):
                        continue
                    decision = austerity_engine.decisions(state)[0]
                    choice = rng.choice(decision.options)
                    yield decide(session, f"{decision.id} {choice}", table, chair,
                                 lambda c=chair, d=decision.id, o=choice: aus_services.decide(
                                     seat_id=c.pk, decision=d, choice=o,
                                     expected=fresh(session).stage_id))
                    acted = True
                if not acted or now.stage != aus_script.YEAR:
                    break
            yield step(session)

    return session, calls()


def crisis(rng: random.Random, students: int, upto: int, **options: Any) -> Lesson:
    """The student captains' moves of the first ``upto`` rounds (each a move of a bot
    policy), bot teams and bots completing teams playing by themselves."""
    session = started("crisis", students, "bots", rng, options)

    def move() -> Call | None:
        now = fresh(session)
        for table in now.tables.order_by("number"):
            state = game_of(table)
            if crisis_turns.held_move(table, state) is not None:
                continue
            for decision in crisis_turns.stage_decisions(now, state):
                seats = table_seats(table)
                chief = parties.acting(parties.members(seats, decision.deciders[0]),
                                       crisis_turns.round_of(now))
                if chief is None or chief.is_bot:
                    continue
                action = crisis_turns.bot_move(table, state, decision,
                                              rng.choice(crisis_bots.POLICIES))
                return decide(session, decision.id, table, chief,
                              lambda c=chief, d=decision.id, a=action: (
                                  crisis_services.move_submit(
                                      seat_id=c.pk, decision=d, action=a,
                                      expected=fresh(session).stage_id)), keeps=True)
        return None

    def calls() -> Iterator[Call]:
        while (fresh(session).stage != crisis_turns.FINAL
               and crisis_turns.round_of(fresh(session)) <= upto):
            for _turn in range(200):
                found = move()
                if found is None:
                    break
                yield found
            yield step(session)

    return session, calls()


def poleconomy(rng: random.Random, students: int, upto: int, **options: Any) -> Lesson:
    """The first ``upto`` rounds: the game master's Governments, the student Prime
    Ministers' proposals, the players' orders (a bot policy's, or none) and Parliament's
    ballots, then the close and every beat of the replay."""
    session = started("poleconomy", students, "bots", rng, options)

    def calls() -> Iterator[Call]:
        while fresh(session).stage != pol_script.FINAL and fresh(session).round <= upto:
            now = fresh(session)
            for table in now.tables.order_by("number"):
                state = game_of(table)
                seats = table_seats(table)
                if now.stage == pol_script.GOVERNMENT and state.phase == "government":
                    ranked = [p.name for p in sorted(state.players, key=lambda p: -p.votes)]
                    yield Call(f"the game master's Government at table {table.number}",
                               lambda n=table.number, m=ranked[:2]: (
                                   pol_services.master_government(
                                       session=fresh(session), table=n, members=m, pm=m[0],
                                       expected=fresh(session).stage_id)))
                pm = pol_turns.captain_of(seats, state.pm, now.round) if state.pm else None
                if now.stage == pol_script.PROPOSAL and pm and not pm.is_bot:
                    items = {"salaries": {"pm": rng.choice([10, 15, 20])}}
                    yield decide(session, "proposal", table, pm, lambda s=pm, i=items: (
                        pol_services.proposal_write(seat_id=s.pk, items=i,
                                                    expected=fresh(session).stage_id)))
                if now.stage != pol_script.ORDERS:
                    continue
                for player in state.players:
                    captain = pol_turns.captain_of(seats, player.name, now.round)
                    if captain is None or captain.is_bot or rng.random() < 0.2:
                        continue  # a player without orders plays by the NMR rule
                    orders = pol_turns.policy_of(table).orders(state, player.name, rng)
                    if orders is not None:
                        orders.pop("consent", None)
                        for kind in pol_script.CONSENT_KINDS:
                            orders.get("pm", {}).pop(kind, None)
                    yield decide(session, "orders", table, captain, lambda s=captain, o=orders: (
                        pol_services.orders_send(seat_id=s.pk, orders=o,
                                                 expected=fresh(session).stage_id)))
                for seat in voters_left(table):
                    if rng.random() < 0.9:
                        bag = Bag.objects.get(table=table, status=Bag.Status.OPEN)
                        yield ballot(session, seat, rng.choice(["yes", "no"]),
                                     decision=bag.decision)
            yield step(session)

    return session, calls()


