"""The handouts credit the right Finance Minister (issue 30, item 1): a default taken when
the minister's timer ran out, a team-mate standing in and the teacher standing in are still
the minister's year, and each is told beside the minister's name; the table's own votes are
nobody's year."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from facilitator import clock, parties
from facilitator.lessons.austerity import modes, options
from facilitator.lessons.austerity import services as aus_services
from facilitator.lessons.austerity.debrief import spreadsheets, story
from facilitator.models import Table
from tests.facilitator.lesson import fresh
from tests.lessons.austerity.austerity_lesson import (
    minister_of,
    pending,
    seats_of,
    started,
    to_the_year,
    vote,
)
from tests.lessons.austerity.test_austerity_pace import playable  # noqa: F401 (autouse)

pytestmark = pytest.mark.django_db


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    start = clock.now()

    def at(seconds: float) -> None:
        monkeypatch.setattr("facilitator.clock.now", lambda: start + timedelta(seconds=seconds))

    return at


def test_timer_stand_in_and_teacher_still_credit_the_minister(
        later: Callable[[float], None], monkeypatch: pytest.MonkeyPatch) -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    minister = minister_of(session, table)
    mate = next(s for s in seats_of(table) if s != minister and not s.is_bot)
    # the minister's timer runs out before the first draw: the draw is the default
    later(options.DEFAULT_TIMERS["draw"] + 30)  # the timer started after the fixture
    aus_services.wait_expire(session=fresh(session), table=1)
    # the minister's phone sleeps: a team-mate stands in for one decision
    monkeypatch.setattr(parties.presence, "online", lambda ids: {mate.pk})
    decision = pending(table)
    aus_services.decide(seat_id=mate.pk, decision=decision.id, choice=decision.options[0],
                        expected=fresh(session).stage_id)
    # the teacher answers the next one from the console
    decision = pending(table)
    aus_services.teacher_decide(session=fresh(session), table=1, decision=decision.id,
                                choice=decision.options[0])

    told = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
    year = told.years[0]
    assert year.ministers == [minister.nickname]
    assert year.minister_notes == [
        f"{minister.nickname}'s timer ran out once: the sensible choice was taken.",
        f"{mate.nickname} stood in for {minister.nickname} (1 decision).",
        f"The teacher stood in for {minister.nickname} (1 decision)."]
    by_seat = {s.seat_id: s for s in told.seats}
    assert by_seat[minister.pk].minister_years == [1]
    assert by_seat[mate.pk].minister_years == [] and by_seat[mate.pk].stood_in_years == [1]
    assert spreadsheets.ministers(told, 1, anonymous=False) == f"{minister.nickname};teacher"

    page = render_to_string("austerity/reports/_year.html", {"y": year})
    assert f"Finance Minister: {minister.nickname}" in page and "the teacher," not in page
    assert f"stood in for {minister.nickname}" in page
    with translation.override("es"):
        spanish = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
        assert "stood in" not in " ".join(spanish.years[0].minister_notes)


def test_a_table_vote_of_the_year_is_nobodys_year_not_the_teachers() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    minister = minister_of(session, table)
    aus_services.mode_switch(session=fresh(session), kind=modes.ACTIONS, mode=modes.BALLOT)
    vote(session, table, ["borrow"] * 5)
    assert Table.objects.get(pk=table.pk).actions.filter(
        payload__choice="borrow", how="vote").exists()
    told = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
    year = told.years[0]
    assert not year.teacher_stood_in and year.minister_notes == []
    assert "the teacher" not in year.ministers
    assert spreadsheets.ministers(told, 1, anonymous=False) in ("", minister.nickname)


def test_an_older_log_without_how_still_names_who_acted() -> None:
    session = to_the_year(started(5, seating="class"))
    table = session.tables.get()
    minister = minister_of(session, table)
    decision = pending(table)
    aus_services.decide(seat_id=minister.pk, decision=decision.id,
                        choice=decision.options[0], expected=fresh(session).stage_id)
    Table.objects.get(pk=table.pk).actions.update(how="", on_behalf=None)
    told = story.table_story(Table.objects.get(pk=table.pk), with_charts=False)
    assert told.years[0].ministers == [minister.nickname]
    assert next(s for s in told.seats if s.seat_id == minister.pk).minister_years == [1]
