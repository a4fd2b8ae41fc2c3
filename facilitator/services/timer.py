"""The stage's countdown (e.g. State in Class's debate), kept by the server so every screen
shows the same time."""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator import broadcast, clock
from facilitator.errors import ServiceError
from facilitator.models import ClassSession
from facilitator.services.sessions import check_can_drive, locked_session

TIMER_STEP = 30  # seconds the teacher's "+30 s" adds


def timer_left(timer: dict[str, Any] | None) -> tuple[int, bool]:
    """The timer's seconds left (rounded up) and whether it is running."""
    if not timer:
        return 0, False
    if timer.get("left") is not None:
        return max(0, math.ceil(timer["left"])), False
    return max(0, math.ceil(timer["ends_at"] - clock.now().timestamp())), True


@transaction.atomic
def timer_change(*, session: ClassSession, action: str,
                 expected: str | None = None) -> ClassSession:
    """The teacher pauses or resumes the timer ("toggle"), or adds 30 s ("add")."""
    session = locked_session(session)
    check_can_drive(session, expected)
    if not session.timer:
        raise ServiceError("no_timer", _("There is no timer at this moment of the lesson."),
                           status=409)
    timer, moment_ = dict(session.timer), clock.now().timestamp()
    if action == "toggle":
        if timer.get("left") is None:
            timer = {"ends_at": None, "left": max(0.0, timer["ends_at"] - moment_)}
        else:
            timer = {"ends_at": moment_ + timer["left"], "left": None}
    elif action == "add":
        if timer.get("left") is None:
            timer["ends_at"] += TIMER_STEP
        else:
            timer["left"] += TIMER_STEP
    else:
        raise ServiceError("bad_message", _("Unknown timer action."))
    session.timer = timer
    session.save(update_fields=["timer"])
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session


