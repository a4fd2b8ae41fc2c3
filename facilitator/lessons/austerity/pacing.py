"""Austerity's pace: each wait of a table has a timer (lesson option ``timers``, seconds by
kind; the teacher may change them during the lesson), and the pace they make.

What is timed (the platform's stage timer shows the budget session's):

- the minister's pending decision, by its kind: ``draw`` (the window for Actions before the
  next pair: Actions taken in it do not restart it), ``event``, ``cuts``, ``income``. When it
  runs out the sensible bot's answer to the decision is taken (``turns.default_answer``:
  never an optional Action; a draw draws). A decision the teacher takes over is not timed;
- every table ballot of the year (``ballot``: a decision the table votes on, the Actions
  before a draw, a motion): when it runs out the bag is counted, absentees abstain.

A timer runs out when the teacher's console sends ``{"type": "expire", "table": N}`` at its
zero (``services.wait_expire`` checks the server's clock and refuses it early). Timers count
lesson time (``kit.countdown``): a paused lesson's timers stand still, and take no default.
``year_seconds`` is the pure measure of a played year (docs/modules.md gives the figure).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from facilitator import kit
from facilitator.kit import bags
from facilitator.lessons.austerity import modes, script
from facilitator.lessons.austerity import options as lesson_options
from facilitator.lessons.austerity.models import TablePlay
from facilitator.models import Bag, ClassSession, Table
from games.austerity import rules, setup, simulate
from games.core import Action

TIMED_DECISIONS = ("draw", "event", "cuts", "income")
Wait = tuple[str, str]  # (what the table waits for: a bag's or a decision's id, timer kind)


def year_seconds(actions: Iterable[Action], ballots: int,
                 timers: Mapping[str, int] = lesson_options.DEFAULT_TIMERS) -> int:
    """The timers of one played year added up: each of the minister's decisions (``actions``:
    the year's engine actions; optional Actions run inside the decision's timer and add
    nothing; the policy turn is a budget ballot) plus ``ballots`` table ballots."""
    decisions = sum(timers[a["type"]] for a in actions if a["type"] in TIMED_DECISIONS)
    return decisions + ballots * timers["ballot"]


def wait_now(table: Table, session: ClassSession, state: Any, play: TablePlay,
             bag: Bag | Literal["read"] | None = "read") -> Wait | None:
    """What the table waits for now that has a timer, or None (``bag``: the table's open
    bag, if the caller has read it)."""
    if bag == "read":
        bag = bags.open_bag(table)
    if bag is not None:
        in_year = session.stage in (script.YEAR, script.YEAR_END)
        return (bag.decision, "ballot") if in_year else None
    if not script.minister_may_act(session, state):
        return None
    main = modes.main_decision(state)
    if main is None or main.kind not in TIMED_DECISIONS:
        return None
    if modes.answered_by(play.modes, script.year_of(session), main) != modes.MINISTER:
        return None
    return main.id, main.kind


def mark(play: TablePlay, wait: Wait | None) -> None:
    """Start the timer of ``wait`` unless it is already the one running."""
    key = wait[0] if wait else None
    if play.wait.get("key") == key:
        return
    play.wait = {"key": key, "since": kit.now().timestamp()} if key else {}
    play.save(update_fields=["wait"])


def timer_info(session: ClassSession, play: TablePlay | None,
               wait: Wait | None) -> dict[str, Any] | None:
    """The table's timer for the screens: ``{"kind", "name", "decision", "seconds", "left",
    "running"}`` (None: nothing timed)."""
    if wait is None:
        return None
    key, kind = wait
    seconds = lesson_options.timers(session.options)[kind]
    return {"kind": kind, "name": str(lesson_options.TIMER_NAMES[kind]), "decision": key,
            "seconds": seconds, "left": countdown(session, play, wait)["left"],
            "running": not session.paused}


def countdown(session: ClassSession, play: TablePlay | None, wait: Wait) -> dict[str, Any]:
    """The countdown the screens show of ``wait``'s timer (``kit.countdown``: in lesson time,
    so it stands still while the lesson is paused). A wait whose timer has not started (after
    an Undo) shows its whole time until it does."""
    key, kind = wait
    started = play is not None and play.wait.get("key") == key
    since = play.wait["since"] if play is not None and started else kit.now().timestamp()
    return kit.countdown(session, since=since,
                         seconds=lesson_options.timers(session.options)[kind])


def seconds_left(session: ClassSession, play: TablePlay, wait: Wait) -> int | None:
    """Seconds before ``wait`` runs out (0: it has), None if its timer has not started."""
    if play.wait.get("key") != wait[0]:
        return None
    info = timer_info(session, play, wait)
    return None if info is None else int(info["left"])


def budget_ballots(state: Any, options: Mapping[str, Any]) -> int:
    """How many of the budget session's items open a ballot at a table in ``state`` (the
    state at the start of the year; the policy turn is asked from year 2)."""
    items = [script.TAXES, script.BORROW, script.LOAN]
    if options.get("extra_institutions"):
        items.append(script.INSTITUTION)
    return sum(1 for item in items if len(script.item_options(item, state)) >= 2)


def played_years(config: Mapping[str, Any], seed: int, policy: str = "sensible"
                 ) -> list[tuple[list[Action], int]]:
    """A bot game's years: each year's engine actions and its budget ballots (a policy turn
    taken at Year End counts as the next year's budget ballot)."""
    _final, record = simulate.play(config, seed, policy)
    state = setup.new_game(config, seed)
    years: list[tuple[list[Action], int]] = [([], budget_ballots(state, config))]
    for action in record["actions"]:
        before = state.year
        rules.step(state, action)
        if action["type"] != "policy":
            years[-1][0].append(action)
        if state.year != before and state.stage != "over":
            turned = 1 if action["type"] == "policy" else 0
            years.append(([], budget_ballots(state, config) + turned))
    return years
