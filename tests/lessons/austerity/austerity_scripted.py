"""A scripted Austerity lesson for the debrief tests: whole games, every student acting through
the services as the phones would (ballots in the budget session, the Finance Minister's
decisions), bots where the seating needs them, the same outcome on every run.

Students vote by a small plan (``plan``: item, year, seat index -> option); a student minister
plays one of the engine's bot policies (``cautious`` by default: its countries last a few
years), so a country's story is a plausible one.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

from django.contrib.auth import get_user_model

from facilitator import services
from facilitator.lessons.austerity import script
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.log import load_state
from facilitator.models import Bag, ClassSession, Seat, Table
from games import austerity as engine
from games.austerity import bots as policies
from tests.facilitator.lesson import fresh, join
from tests.reports.scripted import seeded

# (item, year, seat index, options) -> the option voted for, or None: that student abstains.
Plan = Callable[[str, int, int, list[str]], "str | None"]


def default_plan(item: str, year: int, index: int, options: list[str]) -> str | None:
    """Most students want one Raise Taxes and no loan; a few want more; nobody borrows in
    year 1, some do later; loans are paid when asked; a new institution only for some."""
    if item == script.TAXES:
        return "1" if index % 3 else "2"
    if item == script.BORROW:
        return "0" if year == 1 or index % 2 else "1"
    if item == script.LOAN:
        return script.YES if index % 3 else script.NO
    return options[0] if index % 2 else options[-1]


@contextlib.contextmanager
def playable() -> Iterator[None]:
    """The module is offered as "in preparation"; these lessons are created anyway."""
    before = LESSON.playable
    type(LESSON).playable = True  # type: ignore[misc]
    try:
        yield
    finally:
        type(LESSON).playable = before  # type: ignore[misc]


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.filter(shares__isnull=True, removed=False).order_by("position"))


def _vote(session: ClassSession, plan: Plan) -> None:
    item = script.STAGE_ITEMS[session.stage]
    for table in session.tables.order_by("number"):
        bag = Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()
        if bag is None:
            continue
        humans = [s for s in _seats(table) if not s.is_bot]
        for index, seat in enumerate(humans):
            if Bag.objects.filter(pk=bag.pk, status=Bag.Status.OPEN).exists():
                option = plan(item, script.year_of(session), index, list(bag.options))
                if option is None:
                    continue
                services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=option,
                                     expected=fresh(session).stage_id)


def _play_year(session: ClassSession, table: Table, minister: str) -> None:
    """A student minister plays a bot policy (actions, then the pending decision)."""
    policy = policies.get_policy(minister)
    rng = random.Random(f"{table.seed}:minister")
    for _n in range(500):
        session = fresh(session)
        state = load_state(Table.objects.get(pk=table.pk))
        if not script.minister_may_act(session, state):
            return
        chair = script.minister(_seats(table), script.year_of(session))
        assert chair is not None
        if chair.is_bot:
            return
        move = policy(state, rng)
        pending = {d.action: d for d in engine.decisions(state)}
        decision = pending["action"] if move["type"] == "action" else pending[move["type"]]
        aus_services.decide(seat_id=chair.pk, decision=decision.id,
                            choice=move.get("choice", "draw"), expected=session.stage_id)
    raise AssertionError("the year did not end")


def austerity_lesson(*, teacher: Any, students: int, seed: int, title: str = "",
                     fill: str | None = None, plan: Plan = default_plan, language: str = "en",
                     minister: str = "cautious", stop_after: int | None = None,
                     portfolios: bool = False, **options: Any) -> ClassSession:
    """A lesson played to its final stage (or, ``stop_after`` years, left there and marked
    finished: the teacher ended it early, so its countries are unfinished)."""
    with playable(), seeded(seed):
        session = services.session_create(owner=teacher, game="austerity", title=title,
                                           language=language, options=options)
        join(session, students)
        if portfolios:  # the lesson option (its form and check come with the lesson's core)
            ClassSession.objects.filter(pk=session.pk).update(
                options={**session.options, "portfolios": True})
        services.session_start(session=fresh(session), fill=fill, seed=seed)
        session = fresh(session)
        for _n in range(400):
            if session.stage == script.FINAL:
                return session
            if stop_after is not None and session.stage == script.YEAR_END \
                    and session.round >= stop_after:
                ClassSession.objects.filter(pk=session.pk).update(
                    status=ClassSession.Status.FINISHED)
                return fresh(session)
            if session.stage in script.STAGE_ITEMS:
                _vote(session, plan)
            if session.stage == script.YEAR:
                for table in session.tables.order_by("number"):
                    _play_year(session, table, minister)
            services.session_advance(confirm=True,
                                     session=fresh(session), expected=fresh(session).stage_id)
            session = fresh(session)
    raise AssertionError("the lesson did not end")



def twin_plan(taxes: list[str], borrow: list[str | None]) -> Plan:
    """The default plan, except year 1's tax and borrow ballots (by seat index)."""

    def plan(item: str, year: int, index: int, options: list[str]) -> str | None:
        if year == 1 and item == "taxes":
            return taxes[index]
        if year == 1 and item == "borrow":
            return borrow[index]
        return default_plan(item, year, index, options)
    return plan


def finished_lessons(django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Austerity lessons played to the end: two tables with portfolios; a country the
    teacher ended after its first year; two students with two bots, with policy cards and
    the extra institutions; and twins that differ only in year 1's tallies
    (one bag of 5 ballots, one of 2), never in what those ballots chose.

    For a module-scoped fixture (``yield from finished_lessons(django_db_blocker)``): the
    lessons are committed to the test database while the module runs and deleted after it
    (no test using them may use ``transactional_db``, which would flush them)."""
    with django_db_blocker.unblock():
        users = get_user_model().objects
        teacher = users.create_user(username="austerity-teacher", password="x-austerity",
                                    first_name="Lena", last_name="Ortiz")
        data = {
            "teacher": teacher,
            "two": austerity_lesson(teacher=teacher, students=9, seed=3, title="4A Economics",
                                    portfolios=True),
            "ended": austerity_lesson(teacher=teacher, students=5, seed=5, title="Ended early",
                                      seating="class", stop_after=1),
            "bots": austerity_lesson(teacher=teacher, students=2, seed=4, title="With bots",
                                     fill="bots", bot_policy="cautious", policies=True,
                                     extra_institutions=True),
            "twin_a": austerity_lesson(teacher=teacher, students=5, seed=7, title="Twins",
                                       seating="class",
                                       plan=twin_plan(["1", "1", "1", "2", "0"],
                                                      ["1", "0", None, None, None])),
            "twin_b": austerity_lesson(teacher=teacher, students=5, seed=7, title="Twins",
                                       seating="class",
                                       plan=twin_plan(["1", "1", "1", "1", "2"],
                                                      ["0", "0", None, None, None])),
        }
        try:
            yield data
        finally:
            ClassSession.objects.filter(owner=teacher).delete()
            users.filter(pk=teacher.pk).delete()
