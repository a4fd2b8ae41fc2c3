"""The lesson kit: everything a lesson module may use of the platform.

A lesson module (``facilitator/lessons/<game>/``, or any app that installs one) imports from
the platform only this package, ``facilitator.models`` and ``facilitator.errors``; the platform
imports no game (``tests/facilitator/test_platform_boundary.py`` holds both directions). What
each part guarantees, and how a module uses it: docs/modules.md.

- **The lesson's shape**: :class:`Lesson` (the hooks a module fills), :class:`StepPlan` (where
  the teacher's "next" goes), :class:`Ballot` (a secret ballot a step opens), :class:`Message`
  (a module's own socket or form message), the seating (``kit.seating``).
- **A table's game** (the action log; docs/record.md): ``load_state``, ``apply_action`` (with
  who acted and how), ``engine_of``, ``engine_error``, ``record_actions``, ``game_record``,
  ``replay_table``.
- **Locks and steps**: ``locked_session`` (the session's row lock), ``check_can_drive`` (the
  teacher may act at this moment), ``last_step``, ``record_step`` (a step Undo takes back),
  ``seat_turn`` (a student's action: the table locked, the seat checked), ``table_seats``,
  ``table_settle`` (bots act, a full bag is counted, the snapshot is saved).
- **Secret ballots**: ``vote_open``, ``vote_close`` (our privacy rule, once for every
  module), ``bot_ballot``, and the open bag's reads (``kit.bags``).
- **Parties and captains** (``kit.parties``): teams, the captain by rotation, the stand-in
  while the captain's phone is asleep, and whose decision a move is.
- **Screens**: ``kit.broadcast`` (what the sockets are told), ``online`` (connected seats),
  ``remembered`` (a read kept for the screens rendered together), ``reopened_notice``,
  ``projector_view`` and ``session_for_teacher`` (a module's own teacher page), ``now``.
- **Timers** (``countdown``, ``stage_countdown``): a module's timer counted in lesson time
  (it stands still while the lesson is paused) and the countdown every screen shows of it,
  with the shared template ``facilitator/_countdown.html``.
- **Debriefs**: ``kit.reports`` (PDF, CSV and their shared context, a handout's turning
  points), ``kit.charts`` (the charts' drawing primitives) and ``kit.whatif`` (a module's
  side of "What if we had…?": ``WhatIf``, ``Chart``).
"""

from typing import Any

from facilitator import clock, presence
from facilitator.countdown import countdown, stage_countdown
from facilitator.kept_reads import remembered
from facilitator.kit import bags, broadcast, charts, parties, reports, seating, whatif
from facilitator.lessons.base import Ballot, Lesson, StepPlan
from facilitator.log import (
    apply_action,
    engine_error,
    engine_of,
    game_record,
    load_state,
    record_actions,
    replay_table,
)
from facilitator.messages import Message, Option, number_field
from facilitator.notices import reopened_notice
from facilitator.selectors import projector_view, session_for_teacher
from facilitator.services import seat_turn, table_settle, vote_close, vote_open
from facilitator.services.sessions import check_can_drive, last_step, locked_session, record_step
from facilitator.services.settle import bot_ballot
from facilitator.services.turns import table_seats

__all__ = [
    "Ballot",
    "Lesson",
    "Message",
    "Option",
    "StepPlan",
    "apply_action",
    "bags",
    "bot_ballot",
    "broadcast",
    "charts",
    "check_can_drive",
    "countdown",
    "engine_error",
    "engine_of",
    "game_record",
    "last_step",
    "load_state",
    "locked_session",
    "now",
    "number_field",
    "online",
    "parties",
    "projector_view",
    "record_actions",
    "record_step",
    "remembered",
    "reopened_notice",
    "replay_table",
    "reports",
    "seat_turn",
    "seating",
    "session_for_teacher",
    "stage_countdown",
    "table_seats",
    "table_settle",
    "vote_close",
    "vote_open",
    "whatif",
]


def __getattr__(name: str) -> Any:
    """``now`` (the server's clock) and ``online`` (the connected seats) are looked up when
    used, so a module always reads the clock and presence the platform reads."""
    if name == "now":
        return clock.now
    if name == "online":
        return presence.online
    raise AttributeError(f"the lesson kit has no {name!r}")
