"""An Austerity budget item's count renders no screen: its frame carries out the change.

A budget item's bag is counted when its last token goes in, and its result is held back until
the teacher moves on (``facts``). So the count changes little: on the console the table's
vote block becomes "Everyone has voted." and its "Count this table's vote now" button goes; on
each phone "Your token is in the bag" becomes "Everyone has voted". Those parts are marked
``data-until-counted`` (with the bag's generation), each followed by what replaces it in a
``<template data-once-counted>``; the count's frames (the console's ``progress`` with
``counted``, each phone's ``counted``) have the page swap them (static/js/live.js), and no
screen is rendered. These lessons, played through the services, render every screen around
each count and require that the swap gives what the next render shows.
"""

from __future__ import annotations

import random
import re

import pytest

from facilitator import bags, services
from facilitator.lessons.austerity import modes, script
from facilitator.lessons.austerity import services as aus_services
from facilitator.models import Bag, ClassSession, Seat
from tests.facilitator.lesson import deterministic, fresh
from tests.facilitator.told import Told, console, listen, screen
from tests.lessons.austerity.austerity_lesson import (
    advance,
    minister_answers,
    open_bag,
    pending,
    seats_of,
    started,
    to_the_year,
    vote,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def offered(monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)


def as_counted(html: str, table: int, bag: str) -> str:
    """``html`` as the page shows it after the count's frame (static/js/live.js,
    ``showCounted``): each part marked until bag ``bag`` of ``table`` is counted gives way to
    the template after it, or goes."""
    part = re.compile(rf'<(div|form|span)\b[^>]*\bdata-until-counted="{table}" '
                      rf'data-bag="{bag}"[^>]*>(.*?)</\1>'
                      rf'(?:\s*<template data-once-counted="{table}">(.*?)</template>)?', re.S)

    def swap(found: re.Match[str]) -> str:
        assert f"<{found.group(1)} " not in found.group(2), "a marked part holds its own kind"
        return found.group(3) or ""

    return part.sub(swap, html)


def same(html: str) -> str:
    """Markup as a browser lays it out: whitespace between tags is not shown."""
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> Told:
    return listen(monkeypatch)


def count_each_table(session: ClassSession, rng: random.Random, told: Told) -> int:
    """Every table's students vote; around each table's last ballot, the console and every
    phone are compared. Returns the phones compared."""
    compared = 0
    for table in session.tables.order_by("number"):
        bag = open_bag(table)
        if bag is None:  # the item cannot apply at this table (or its game is over)
            continue
        humans = [s for s in seats_of(table) if not s.is_bot]
        for seat in humans[:-1]:
            services.ballot_cast(seat_id=seat.pk, decision=bag.decision,
                                 option=rng.randrange(len(bag.options)),
                                 expected=session.stage_id)
        phones = list(Seat.objects.filter(table=table, is_bot=False, removed=False))
        before = {s.pk: screen(s) for s in phones}
        projector = console(session)
        generation = bags.generation(bag)
        assert f'data-until-counted="{table.number}" data-bag="{generation}"' in projector
        told.clear()
        assert services.ballot_cast(seat_id=humans[-1].pk, decision=bag.decision,
                                    option=rng.randrange(len(bag.options)),
                                    expected=session.stage_id) is None  # counted
        assert Bag.objects.get(pk=bag.pk).status == Bag.Status.COUNTED
        assert told.rendered == [] and told.projector == 0  # no screen is rendered...
        assert [p.get("counted") for p in told.progress] == [True]  # ...the frames say it
        assert [(n, g) for n, g, _s in told.counted] == [(table.number, generation)]
        assert {s.pk for s in phones} <= set(told.counted[0][2])
        assert same(console(session)) == same(as_counted(projector, table.number, generation))
        for seat in phones:
            if seat.pk == humans[-1].pk:
                # Its own ack shows its (hidden) token-in-the-bag block, whose heading the
                # frame turns too.
                assert 'data-until-counted' in before[seat.pk].split("data-voted hidden")[1]
                continue
            assert same(screen(seat)) == same(as_counted(before[seat.pk], table.number,
                                                         generation)), seat.nickname
            compared += 1
    return compared


def play_lesson(session: ClassSession, rng: random.Random, told: Told, years: int) -> int:
    compared = 0
    while script.year_of(fresh(session)) <= years and fresh(session).stage != script.FINAL:
        session = fresh(session)
        if session.stage in script.STAGE_ITEMS:
            compared += count_each_table(session, rng, told)
        elif session.stage == script.YEAR:
            for table in session.tables.all():
                minister_answers(session, table)
        session = advance(session)
    return compared


@pytest.mark.parametrize(("students", "fill", "options"), [
    (13, None, {}),
    (11, "bots", {"portfolios": True, "policies": True, "extra_institutions": True}),
    (9, None, {"scenario": "random", "difficulty": "hard"}),
])
def test_a_budget_items_count_renders_no_screen(students, fill, options, told):
    session = started(students, fill, seed=students, **options)
    compared = play_lesson(session, random.Random(students), told, years=2)
    assert compared >= 20, compared


def test_a_ballot_of_the_year_is_played_out_at_once(told):
    """A decision the table votes on during the year is not held back: its count renders
    the console and every phone again, and sends no ``counted`` frame."""
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    aus_services.mode_switch(session=fresh(session), kind=modes.EVENT, mode=modes.BALLOT,
                             table=None, expected=fresh(session).stage_id)
    minister_answers(session, table)  # draws until the table must vote on an event
    decision = pending(table)
    told.clear()
    vote(session, table, [decision.options[0]] * 5)  # the fifth ballot fills the bag
    assert open_bag(table) is None or open_bag(table).decision != decision.id
    assert told.counted == []
    assert told.projector >= 1 and {s.pk for s in seats_of(table)} <= set(told.rendered)
    assert all(not p.get("counted") for p in told.progress)


def portfolio_figure(html: str) -> str:
    found = re.search(r'<p class="big-number">(.*?)</p>', html, re.S)
    assert found, "no portfolio on the phone"
    return same(found.group(1))


def test_a_phones_portfolio_does_not_give_a_held_count_away():
    """Borrowing puts a Debt cube in the bag: the Treasury's phone shows that only once the
    teacher moves on, like the board."""
    session = advance(started(8, portfolios=True))  # no tax rise: on to borrowing
    assert session.stage == script.budget_stage(script.BORROW)
    table = session.tables.get()
    treasury = next(s for s in seats_of(table) if s.position % 6 == 5)
    shown = portfolio_figure(screen(treasury))
    bag = open_bag(table)
    vote(session, table, [len(bag.options) - 1] * 8)  # borrow as often as allowed
    assert open_bag(table) is None  # counted
    assert portfolio_figure(screen(treasury)) == shown
    advance(session)
    assert "worse" in portfolio_figure(screen(treasury)) != shown
