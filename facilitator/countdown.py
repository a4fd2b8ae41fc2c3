"""Countdowns: every timer a lesson runs, as the screens show it, written once for every module.

A countdown is the server's. While it runs the screens get its end time on the server's clock
(``ends_at``); the page (``static/js/live.js``) counts down to it by the server's time, which
it learns from every screen it gets (a view frame's ``now``, the page's ``data-now``), so a
phone whose clock is minutes wrong still shows the right time (its clock only measures the
time since the last screen). While it stands still (the teacher paused it, or the lesson is
paused) the screens get the seconds it has left and ``paused``. A screen's markup changes
only when the whole seconds shown do, so two renders within a second are the same.

Two kinds of timer share it:

- the stage's timer (``ClassSession.timer``, ``services.timer``): the teacher pauses it or
  adds time; a paused lesson freezes it (``services.sessions``);
- a module's own timer (a table's turn, one player's decision): it runs for ``seconds`` from
  ``since`` (a POSIX time the module keeps or derives) in *lesson time*, the time the lesson
  was not paused (``ClassSession.pauses``), so it stands still while the lesson is paused and
  goes on from there when it resumes. Its stated default (if any) is the module's to take once
  ``left`` is 0 (never while the lesson is paused).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from facilitator import clock
from facilitator.models import ClassSession

Countdown = dict[str, Any]  # {"ends_at", "left", "paused"}: the screens' view


def shown(*, left: float, now: float, paused: bool) -> Countdown:
    """A countdown with ``left`` seconds (never below 0) at ``now``: its end time while it
    runs (None while it stands still) and the whole seconds left, rounded up."""
    left = max(0.0, left)
    return {"ends_at": None if paused else now + left, "left": math.ceil(left),
            "paused": paused}


def stage_countdown(session: ClassSession, now: float | None = None) -> Countdown | None:
    """The stage's timer as the screens show it, or None when the stage has none."""
    timer = session.timer
    if not timer:
        return None
    now = clock.now().timestamp() if now is None else now
    if timer.get("left") is not None:  # the teacher paused it, or the lesson is paused
        return shown(left=timer["left"], now=now, paused=True)
    return shown(left=timer["ends_at"] - now, now=now, paused=False)


def paused_for(pauses: Sequence[Sequence[float | None]], since: float, now: float) -> float:
    """The seconds between ``since`` and ``now`` that the lesson spent paused (``pauses``:
    ``ClassSession.pauses``; a pause still on ends at ``now``)."""
    total = 0.0
    for start, end in pauses:
        if start is None:
            continue
        begin, stop = max(start, since), min(now if end is None else end, now)
        total += max(0.0, stop - begin)
    return total


def countdown(session: ClassSession, *, since: float, seconds: float,
              now: float | None = None) -> Countdown:
    """A module's timer of ``seconds`` that started at ``since``: it counts lesson time only,
    so it stands still (``paused``) while the lesson is paused."""
    now = clock.now().timestamp() if now is None else now
    run = now - since - paused_for(session.pauses or [], since, now)
    return shown(left=seconds - run, now=now, paused=session.paused)


def pause_marked(pauses: Sequence[Sequence[float | None]], *, paused: bool,
                 now: float) -> list[list[float | None]]:
    """``ClassSession.pauses`` once the lesson is paused (a pause starts at ``now``) or
    resumed (the pause still on ends at ``now``)."""
    marked = [list(p) for p in pauses]
    if paused and not (marked and marked[-1][1] is None):
        marked.append([now, None])
    elif not paused and marked and marked[-1][1] is None:
        marked[-1][1] = now
    return marked
