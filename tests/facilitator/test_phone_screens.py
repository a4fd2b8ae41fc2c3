"""Phones rendered together (``facilitator.phone_screens``): each phone gets exactly the
screen it gets rendered alone, and a table is read once for all its phones."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from facilitator import clock, kept_reads, services
from facilitator.consumers import SeatConsumer
from facilitator.errors import ServiceError
from facilitator.lessons.austerity import motions
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.models import ClassSession, Seat
from facilitator.phone_screens import PhoneScreens, render_together
from tests.facilitator.lesson import (
    deterministic,
    drive_to,
    fresh,
    humans,
    join,
    make_teacher,
    started,
)
from tests.lessons.austerity import austerity_lesson as aus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def playable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LESSON, "playable", True)
    deterministic(monkeypatch)
    # Timers count down between two renders of one screen: time stands still here.
    start = clock.now()
    monkeypatch.setattr("facilitator.clock.now", lambda: start)
    # The render thread's tidy-up would close the test's own connection (its transaction).
    monkeypatch.setattr("facilitator.phone_screens.close_old_connections", lambda: None)


def phones(session: ClassSession, languages: tuple[str, ...] = ("en",)) -> list[SeatConsumer]:
    """A socket for each seat of the lesson, as ``SeatConsumer.connect`` leaves it."""
    out = []
    for i, seat in enumerate(Seat.objects.filter(session=session).order_by("pk")):
        phone = SeatConsumer()
        phone.seat = Seat(id=seat.pk, session_id=seat.session_id, token_hash=seat.token_hash)
        phone.token_hash = seat.token_hash or ""
        phone.language = languages[i % len(languages)]
        phone.scope = {"cookies": {"csrftoken": f"csrf{i}"}}
        out.append(phone)
    return out


def alone(screens: list[SeatConsumer]) -> list[dict[str, Any]]:
    """Each screen as a socket rendered it before: in reads of its own."""
    frames = []
    for screen in screens:
        with kept_reads.screen_reads():
            frames.append(screen.render())
    return frames


def together(screens: list[SeatConsumer]) -> list[Any]:
    frames: list[Any] = [None] * len(screens)

    def deliver(i: int, frame: Any) -> None:
        frames[i] = frame

    render_together(screens, deliver)  # type: ignore[arg-type]
    return frames


def assert_same_screens(session: ClassSession, languages: tuple[str, ...] = ("en",)) -> None:
    screens = phones(fresh(session), languages)
    assert together(screens) == alone(screens)


def test_austerity_phones_together_see_what_each_sees_alone_through_a_budget_item() -> None:
    session = aus.started(16, seed=5, portfolios=True)
    one, two = session.tables.order_by("number")
    both = ("en", "es")
    assert_same_screens(session, both)  # the tax item open at both tables
    aus.vote(session, one, ["1", "2", "0"])  # three tokens in the bag at table 1
    assert_same_screens(session, both)
    for seat in aus.seats_of(one)[3:]:  # the others: table 1's bag is counted, held back
        services.ballot_cast(seat_id=seat.pk, decision=aus.open_bag(one).decision,
                             option="1", expected=fresh(session).stage_id)
    assert_same_screens(session, both)
    aus.vote(session, two, ["2"] * 8)
    session = aus.advance(session)  # the count shown, the next item open
    assert_same_screens(session, both)


def test_austerity_phones_together_see_their_own_motion_support() -> None:
    session = aus.to_the_year(aus.started(8, seed=5, seating="class"))
    table = session.tables.get()
    raiser = aus.seats_of(table)[0]
    kind, target = motions.choices_now(fresh(session), aus.state_of(table), {})[0]
    motions.motion_raise(seat_id=raiser.pk, kind=kind, target=target,
                         expected=fresh(session).stage_id)
    screens = phones(fresh(session))
    frames = together(screens)
    assert frames == alone(screens)
    supported = [f["view"]["seat"]["motions"][0]["supported"] for f in frames]
    assert supported.count(True) == 1  # the raiser's phone only


def test_state_in_class_phones_together_see_what_each_sees_alone_during_a_vote() -> None:
    session, _tokens = started(16)
    assert_same_screens(session, ("es", "en"))  # the pact
    session = drive_to(session, Stage.TAX_VOTE, 2)
    one = session.tables.order_by("number").first()
    for seat in humans(one)[:3]:
        services.ballot_cast(seat_id=seat.pk, kind="tax", option="B",
                             expected=session.stage_id)
    assert_same_screens(session, ("es", "en"))


def test_a_table_is_read_once_for_the_phones_rendered_together() -> None:
    session = aus.started(8, seed=5)
    screens = phones(session)
    with CaptureQueriesContext(connection) as one_by_one:
        alone(screens)
    with CaptureQueriesContext(connection) as at_once:
        together(screens)
    # Each phone still reads its own seat; the table's reads are shared.
    assert len(at_once) <= len(one_by_one) // 3, (len(at_once), len(one_by_one))


class Slow:
    """A screen whose render waits for the test (rendered in the thread)."""

    def __init__(self, name: str, gate: Any = None) -> None:
        self.name, self.gate = name, gate

    def render(self) -> dict[str, Any]:
        if self.gate is not None:
            self.gate.wait(5)
        if self.name == "broken":
            raise RuntimeError("this render fails")
        return {"type": "view", "html": self.name}


def test_the_queue_renders_waiting_phones_in_one_job_and_each_gets_its_own_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    executor = ThreadPoolExecutor(1)
    jobs: list[int] = []
    gate = threading.Event()

    def counting(screens: list[Any], deliver: Any) -> None:
        jobs.append(len(screens))
        render_together(screens, deliver)

    monkeypatch.setattr("facilitator.phone_screens.render_together", counting)

    async def scenario() -> list[Any]:
        queue = PhoneScreens(lambda: executor)
        first = asyncio.ensure_future(queue.render(Slow("first", gate)))
        await asyncio.sleep(0.05)  # the first job is under way, held at its render
        rest = [asyncio.ensure_future(queue.render(Slow(n))) for n in ("a", "broken", "b")]
        left = asyncio.ensure_future(queue.render(Slow("left")))
        await asyncio.sleep(0)
        left.cancel()  # that phone went away while it waited
        gate.set()
        return await asyncio.gather(first, *rest, left, return_exceptions=True)

    results = asyncio.run(scenario())
    executor.shutdown()
    assert [r["html"] for r in results if isinstance(r, dict)] == ["first", "a", "b"]
    assert isinstance(results[2], RuntimeError)
    assert isinstance(results[4], asyncio.CancelledError)
    assert jobs == [1, 3]  # the three waiting phones in one job; the one that left skipped


@pytest.mark.parametrize("game", ["crisis", "poleconomy"])
def test_every_modules_phones_together_see_what_each_sees_alone(game: str) -> None:
    session = services.session_create(owner=make_teacher(), game=game, options={})
    join(session, 9)  # Crisis: three teams of three
    services.session_start(session=fresh(session), seed=5)
    for _stage in range(4):
        assert_same_screens(session, ("en", "es"))
        try:
            services.session_advance(confirm=True,
                                     session=fresh(session), expected=fresh(session).stage_id)
        except ServiceError:  # this stage waits for the students' moves
            break
