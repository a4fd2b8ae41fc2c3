"""The platform's main button (``facilitator.main_button``) with Coin Jar, which says nothing of
its own (``Lesson.step_label``'s defaults): "Count the votes" only when the press will open
ballots, "Close the vote" when the bags hold none it would open (a bag of fewer than three
tokens, not everyone's, closes unopened), the next stage's name otherwise, and the final
stage's name when the press ends the lesson; the page is told the label a ballot brings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from facilitator import services
from facilitator.models import Bag, ClassSession
from tests.facilitator.countdowns import console_page
from tests.facilitator.lesson import fresh
from tests.facilitator.main_button import assert_labelled, main_label, walk
from tests.fakegame.installed import coin_jar_installed, started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def coin_jar(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with coin_jar_installed(monkeypatch):
        yield


def ballots(session: ClassSession, count: int) -> None:
    """``count`` more students put a token in the open bag."""
    bag = Bag.objects.filter(table__session=session, status=Bag.Status.OPEN).first()
    if bag is None:
        return
    voters = list(session.seats.filter(is_bot=False).exclude(receipts__bag=bag)
                  .order_by("position"))
    for seat in voters[:count]:
        services.ballot_cast(seat_id=seat.pk, decision=bag.decision, option=0,
                             expected=fresh(session).stage_id)


def test_a_count_is_announced_only_when_the_press_will_open_ballots() -> None:
    session = started(students=4)
    assert main_label(session) == "Close the vote"  # nobody has voted
    assert 'data-voted-label="Count the votes ▶"' in console_page(session)
    ballots(session, 2)
    assert main_label(session) == "Close the vote"  # two of four: closed unopened
    ballots(session, 1)
    assert main_label(session) == "Count the votes"
    assert "data-voted-label" not in console_page(session)


def test_a_whole_lesson_says_what_every_press_does() -> None:
    session = started(students=4)
    counts = iter([3, 0])  # the first vote: three of four vote; the second: nobody
    presses = walk(session, lambda s: ballots(s, next(counts, 0)))
    assert_labelled(fresh(session).lesson, presses)
    assert [p.label for p in presses] == ["Count the votes", "Close the vote", "The end"]
    assert [p.votes for p in presses] == [3, 0, None]
    assert presses[-1].finished
