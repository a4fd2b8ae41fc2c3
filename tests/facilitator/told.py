"""What the services ask the screens to do around a count, and the screens as the sockets
would render them (tests that compare screens before and after a count)."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string

from facilitator import broadcast, selectors
from facilitator.models import ClassSession, Seat
from facilitator.screens import phone_context, projector_context
from tests.facilitator.lesson import fresh


class Told:
    """The seats asked to render again, the projector's refreshes, the progress frames and
    the held counts' ``counted`` frames (table, bag generation, seats)."""

    def __init__(self) -> None:
        self.rendered: list[int] = []
        self.projector = 0
        self.progress: list[dict[str, Any]] = []
        self.counted: list[tuple[int, str, list[int]]] = []

    def clear(self) -> None:
        self.rendered.clear()
        self.projector = 0
        self.progress.clear()
        self.counted.clear()


def listen(monkeypatch: pytest.MonkeyPatch) -> Told:
    """A ``Told`` that records what ``broadcast`` is asked, which still sends it."""
    told = Told()
    real_refresh, real_progress, real_counted = (broadcast.refresh, broadcast.progress,
                                                 broadcast.counted)

    def refresh(session_id: int, seat_ids: Any = (), *, projector: bool = True) -> None:
        seat_ids = list(seat_ids)
        told.rendered.extend(seat_ids)
        told.projector += projector
        real_refresh(session_id, seat_ids, projector=projector)

    def progress(session_id: int, table_number: int, what: dict[str, Any],
                 seat_id: int | None = None) -> None:
        told.progress.append(what)
        real_progress(session_id, table_number, what, seat_id)

    def counted(table_number: int, bag: str, seat_ids: Any) -> None:
        seat_ids = list(seat_ids)
        told.counted.append((table_number, bag, seat_ids))
        real_counted(table_number, bag, seat_ids)

    monkeypatch.setattr(broadcast, "refresh", refresh)
    monkeypatch.setattr(broadcast, "progress", progress)
    monkeypatch.setattr(broadcast, "counted", counted)
    return told


def screen(seat: Seat) -> str:
    """The phone's screen now, as its socket would send it."""
    view = selectors.seat_view(seat)
    return render_to_string("play/_screen.html", {**phone_context(view), "csrf_token": "x"})


def console(session: ClassSession) -> str:
    """The teacher's console now, as its socket would send it."""
    view = selectors.projector_view(fresh(session))
    return render_to_string("facilitator/_console_live.html",
                            {**projector_context(view, join_url="http://x/"), "csrf_token": "x"})
