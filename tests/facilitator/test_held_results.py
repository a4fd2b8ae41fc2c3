"""Held results: no screen shows an outcome before the teacher's step that reveals it.

The engines play ahead of the class: a bag is counted by its last token, Austerity's Year End
runs with the year's last draw, Poleconomy's close adjudicates the whole round, and a Crisis
move that would end the round is kept for the teacher's Evaluation. Each module says, for a
table, whether an outcome waits for the teacher's step and, if so, the game as the table's
screens show it (``Lesson.held_back``; docs/modules.md, "Held results"). Random lessons of
every module, played through the real services, render after every action the screens the
sockets would send (the console, which the projector shows, and every phone), and hold them
to three things:

- **Nothing of the outcome held**: while a table's game has played past what its screens
  show, every screen of that table (its phones and the projector) is the screen of the game
  shown (rendered again with the table's game replaced by it), or, where it rightly says
  that the table waits (a year done, a replay's length), does not change when every number
  the game holds beyond the game shown is changed (``played_otherwise``). Either way it
  shows no number the engine played ahead.
- **The action held shows nothing**: an action whose outcome is wholly held (a token whose
  count only marks the bag, ``Lesson.count_only_marks_the_bag``; a move the service keeps
  for the teacher's step) changes no screen but in the allowed parts and on the acting
  party's own phones; and then ``held_back`` must say its table waits.
- **Nothing moves until the step**: from then on until the teacher's next step, every
  action (another table's, a bot's, the teacher's that is not a step) changes the waiting
  table's phones, and for an action at that table the projector too, in nothing but the
  allowed parts and the acting party's own phones (the teacher's: the console).

The allowed parts, taken out of every screen alike (``plain``): progress (any element
marked ``data-progress``: "7 of 8 have voted", "The bag has been counted.", who still plays
and the console's note about them), the row marked as whose turn it is (``class="now"``),
the parts a held count swaps on the page (``data-until-counted`` and the ``<template
data-once-counted>`` that replaces it: static/js/live.js carries that out on the count's
frame and the server renders the same after it, so every screen is compared as swapped) and
the countdown (``data-countdown``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

import pytest
from django.db import transaction
from django.utils import translation

from facilitator.kept_reads import screen_reads
from facilitator.log import engine_of, load_state
from facilitator.models import Bag, ClassSession, Seat, Table, TeacherStep
from tests.facilitator.lesson import deterministic, fresh
from tests.facilitator.random_lessons import (
    Call,
    Lesson,
    austerity,
    crisis,
    poleconomy,
    state_in_class,
    voters_left,
)
from tests.facilitator.told import console, screen

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def reproducible(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    deterministic(monkeypatch)
    with translation.override("en"):
        yield


# --------------------------------------------------------------------------- the screens

UNTIL_COUNTED = re.compile(
    r'<(?P<tag>div|form|span)\b[^>]*\bdata-until-counted="\d+"[^>]*>.*?</(?P=tag)>'
    r'(?:\s*<template data-once-counted="\d+">(?P<once>.*?)</template>)?', re.S)
COUNTDOWN = re.compile(r'<span\b[^>]*\bdata-countdown\b[^>]*>'
                       r'(?:[^<]|<span\b[^>]*>[^<]*</span>)*</span>')
PROGRESS = re.compile(r'<(?P<tag>p|span|form)\b[^>]*\bdata-progress="[^"]*"[^>]*>'
                      r'(?:(?!</?(?P=tag)\b).)*</(?P=tag)>', re.S)
TURN = re.compile(r' class="(?:now)?"')
EMPTY = re.compile(r'<(?P<tag>p|div|span)\b[^>]*></(?P=tag)>')


def plain(html: str) -> str:
    """A screen without the parts allowed to change while an outcome waits (the module's
    docstring), laid out as a browser shows it (whitespace between tags unseen)."""
    html = UNTIL_COUNTED.sub(lambda m: m.group("once") or "", html)
    html = TURN.sub("", PROGRESS.sub("", COUNTDOWN.sub("", html)))
    html = re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()
    return EMPTY.sub("", html)  # what held only a countdown or progress


def phones(session: ClassSession, tables: set[int]) -> list[Seat]:
    return list(Seat.objects.filter(session=session, is_bot=False, removed=False,
                                    table__number__in=tables).select_related("table")
                .order_by("table__number", "position"))


def name_of(seat: Seat) -> str:
    return f"table {seat.table.number}, {seat.nickname}"


def screens(session: ClassSession, tables: set[int], only: set[str] | None = None
            ) -> dict[str, str]:
    """The projector and the phones at ``tables`` (or the ``only`` ones of them), as their
    sockets render them: the console alone, the phones together (one set of kept reads)."""
    session = fresh(session)
    out = {}
    if only is None or "projector" in only:
        with screen_reads():
            out["projector"] = plain(console(session))
    with screen_reads():
        for seat in phones(session, tables):
            if only is None or name_of(seat) in only:
                out[name_of(seat)] = plain(screen(seat))
    return out


def screens_with(session: ClassSession, games: dict[int, Any], tables: set[int],
                 only: set[str]) -> dict[str, str]:
    """The same screens rendered with some tables' games replaced (``games``: table number
    -> snapshot), then rolled back."""
    point = transaction.savepoint()
    try:
        for number, snapshot in games.items():
            Table.objects.filter(session=session, number=number).update(snapshot=snapshot)
        return screens(session, tables, only)
    finally:
        transaction.savepoint_rollback(point)


ABSENT = object()


def played_otherwise(game: Any, shown: Any) -> Any:
    """``game`` (a snapshot) with every number it holds that ``shown`` (the snapshot of the
    game the screens show) does not hold at the same place changed, as if the outcome held
    had come out otherwise: a screen that shows any of them renders differently."""
    if isinstance(game, dict):
        return {key: played_otherwise(value, shown.get(key, ABSENT)
                                      if isinstance(shown, dict) else ABSENT)
                for key, value in game.items()}
    if isinstance(game, list):
        return [played_otherwise(value, shown[n] if isinstance(shown, list) and n < len(shown)
                                 else ABSENT) for n, value in enumerate(game)]
    if isinstance(game, int) and not isinstance(game, bool) and game != shown:
        return game + 1 if game + 1 != shown else game + 2
    return game


def differences(before: dict[str, str], after: dict[str, str], skip: set[str]) -> list[str]:
    """Each screen of both that differs (but ``skip``), with what changed in it."""
    return [f"{name}:\n{changes(before[name], after[name])}"
            for name in sorted(set(before) & set(after) - skip) if before[name] != after[name]]


def changes(before: str, after: str) -> str:
    """The first parts of a screen that changed, tag by tag."""
    old, new = re.split(r"(?=<)", before), re.split(r"(?=<)", after)
    out = [f"  - {''.join(old[a:b])[:300]}\n  + {''.join(new[c:d])[:300]}"
           for tag, a, b, c, d in SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
           if tag != "equal"]
    return "\n".join(out[:4])


# --------------------------------------------------------------------------- the watch


@dataclass
class Watch:
    """Runs a lesson's actions and holds the screens after each to held results (the
    module's docstring), counting what it compared."""

    session: ClassSession
    waiting: dict[int, dict[str, str]] = field(default_factory=dict)  # table -> screens
    seen: Counter[str] = field(default_factory=Counter)

    def held(self) -> dict[int, tuple[Any, Any]]:
        """Each table whose outcome waits for the teacher's step: its game, and the game its
        screens show (``Lesson.held_back``)."""
        lesson = self.session.lesson
        out = {}
        for table in Table.objects.filter(session=self.session).order_by("number"):
            game = load_state(table)
            shown = lesson.held_back(table, game)
            if shown is not None:
                out[table.number] = (game, shown)
        return out

    def wholly_held(self, call: Call) -> Callable[[], bool] | None:
        """For an action whose outcome may be wholly held (a bag's last token, a move the
        service may keep): a test, after it, of whether it was (its count only marks the
        bag; the move was kept, the game unchanged). None for any other action."""
        if call.table is None:
            return None
        table = Table.objects.get(session=self.session, number=call.table)
        if call.keeps:
            return lambda game=table.snapshot: Table.objects.get(pk=table.pk).snapshot == game
        bag = Bag.objects.filter(table=table, status=Bag.Status.OPEN).first()
        if not call.ballot or bag is None or len(voters_left(table)) != 1:
            return None
        return lambda: (Bag.objects.get(pk=bag.pk).status == Bag.Status.COUNTED
                        and self.session.lesson.count_only_marks_the_bag(
                            fresh(self.session), bag.decision))

    def own(self, call: Call, number: int) -> set[str]:
        """The screens that show the acting user's own confirmation at table ``number``."""
        if call.table is None:
            return {"projector"}  # the teacher's console
        if call.table != number or call.seat is None:
            return set()
        return {name_of(s) for s in phones(self.session, {number})
                if s.player_name == call.seat.player_name}

    def run(self, call: Call) -> None:
        tables = (set(self.waiting) | {call.table}) - {None}
        wholly = self.wholly_held(call)
        before = screens(self.session, tables) if wholly else {}
        steps = TeacherStep.objects.filter(session=self.session).count()
        call.run()
        held = self.held()
        after = screens(self.session, set(held) | tables) if held else {}
        if wholly is not None and wholly():
            assert call.table in held, (f"{call.name}'s outcome waits for the teacher's step, "
                                        "but held_back says nothing waits at its table")
            own = self.own(call, call.table)
            wrong = differences(before, after, own)
            assert not wrong, (f"{call.name}, whose outcome waits for the teacher's step, "
                               "changed screens:\n" + "\n".join(wrong))
            self.seen["screens the action held left as they were"] += len(set(before) - own)
        ahead = {n: games for n, games in held.items() if games[0] is not games[1]}
        if ahead:
            self.nothing_ahead(call, ahead, after)
        if TeacherStep.objects.filter(session=self.session).count() == steps:
            for number in sorted(set(held) & set(self.waiting)):
                self.still(call, number, after)
        self.seen["outcomes held"] += len(set(held) - set(self.waiting))
        self.waiting = {n: after for n in held}

    def nothing_ahead(self, call: Call, ahead: dict[int, tuple[Any, Any]],
                      after: dict[str, str]) -> None:
        """Every screen of the tables whose game has played past what they show is the
        screen of the game shown, or does not change with the numbers played ahead."""
        tables = set(ahead)
        names = {k for k in after if k == "projector" or int(k.split()[1][:-1]) in tables}
        games = {n: tuple(engine_of(Table.objects.get(session=self.session, number=n))
                          .to_dict(state) for state in pair) for n, pair in ahead.items()}
        shown = screens_with(self.session, {n: g[1] for n, g in games.items()}, tables, names)
        rest = {k for k in names if shown[k] != after[k]}
        otherwise = screens_with(self.session, {n: played_otherwise(*g)
                                                for n, g in games.items()},
                                 tables, rest) if rest else {}
        wrong = differences(after, otherwise, set())
        assert not wrong, (f"after {call.name}, screens show what tables {sorted(tables)} "
                           "hold back (they are not the screens of the game shown, and change "
                           "with the outcome held):\n" + "\n".join(wrong))
        self.seen["screens of the game shown"] += len(names - rest)
        self.seen["screens that say the table waits, and no more"] += len(rest)

    def still(self, call: Call, number: int, after: dict[str, str]) -> None:
        """While table ``number`` waits for the teacher's step, an action that is not a step
        changes its phones (and, at that table, the projector) in nothing but the allowed
        parts and the acting party's own screens."""
        mine = {k for k in after if k.startswith(f"table {number},")}
        if call.table in (number, None):
            mine.add("projector")
        own = self.own(call, number)
        reference = self.waiting[number]
        wrong = differences({k: reference[k] for k in mine if k in reference}, after, own)
        assert not wrong, (f"{call.name} changed screens while table {number} waits for the "
                           "teacher's step:\n" + "\n".join(wrong))
        self.seen["screens still while an outcome waits"] += len(mine - own)


def play(session: ClassSession, calls: Iterator[Call]) -> Counter[str]:
    watch = Watch(fresh(session))
    for call in calls:
        watch.run(call)
    return watch.seen


# --------------------------------------------------------------------------- the property

LESSONS = [
    # a lesson from its seed, and the outcomes held it must at least meet
    pytest.param(1, lambda rng: state_in_class(rng, 14, 5), 8, id="state-in-class-two-tables"),
    pytest.param(2, lambda rng: state_in_class(rng, 9, 4), 6, id="state-in-class-with-bots"),
    pytest.param(3, lambda rng: austerity(rng, 13, 2), 8, id="austerity-two-tables"),
    pytest.param(4, lambda rng: austerity(rng, 11, 2, "bots", policies=True,
                                          extra_institutions=True, portfolios=True),
                 8, id="austerity-every-option"),
    pytest.param(5, lambda rng: austerity(rng, 9, 1, event_ballots=True), 3,
                 id="austerity-event-ballots"),
    pytest.param(6, lambda rng: crisis(rng, 8, 3, team_size=2), 2, id="crisis-four-teams"),
    pytest.param(7, lambda rng: crisis(rng, 7, 3, team_size=2, bot_teams=1, rounds=5), 2,
                 id="crisis-bot-teams"),
    pytest.param(8, lambda rng: poleconomy(rng, 4, 3), 2, id="poleconomy-players"),
    pytest.param(9, lambda rng: poleconomy(rng, 6, 3, team_size=2), 2, id="poleconomy-teams"),
]


@pytest.mark.parametrize(("seed", "lesson", "held"), LESSONS)
def test_no_screen_shows_an_outcome_before_the_teachers_step_that_reveals_it(
        seed: int, lesson: Callable[[random.Random], Lesson], held: int) -> None:
    seen = play(*lesson(random.Random(seed)))
    assert seen["outcomes held"] >= held, seen
