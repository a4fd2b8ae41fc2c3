"""Reading the countdowns a rendered screen shows (``templates/facilitator/_countdown.html``),
for the tests of every module's timers."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from django.template.loader import render_to_string

from facilitator import selectors
from facilitator.models import ClassSession, Seat
from facilitator.screens import phone_context, projector_context


@dataclass(frozen=True)
class Shown:
    """One countdown on a screen: its end time on the server's clock (None while it stands
    still), the whole seconds left, whether it says it is paused, the time it shows and its
    label."""

    ends_at: float | None
    left: int
    paused: bool
    text: str
    label: str


class _Reader(HTMLParser):
    """Every element marked ``data-countdown``, with the attributes of its ``data-time`` and
    the text of its parts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, Any]] = []
        self.depth = 0  # inside a countdown: the open elements' depth, else 0
        self.part = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if self.depth:
            self.depth += 1
            if "data-time" in named:
                self.found[-1]["time"], self.part = named, "text"
            elif "countdown-label" in (named.get("class") or "").split():
                self.part = "label"
            elif named.get("class") == "countdown-paused":
                self.found[-1]["paused"] = True
        elif "data-countdown" in named:
            self.depth = 1
            self.found.append({"time": {}, "text": "", "label": "", "paused": False})

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
            self.part = ""

    def handle_data(self, data: str) -> None:
        if self.depth and self.part:
            self.found[-1][self.part] += data


def countdowns(page: str) -> list[Shown]:
    """The countdowns on a rendered screen, in page order."""
    reader = _Reader()
    reader.feed(page)
    shown = []
    for f in reader.found:
        time = f["time"]
        shown.append(Shown(
            ends_at=float(time["data-ends-at"]) if "data-ends-at" in time else None,
            left=int(time["data-left"]), paused=f["paused"], text=f["text"].strip(),
            label=f["label"].strip()))
    return shown


def console_page(session: ClassSession) -> str:
    """The teacher's console (what the projector shows), rendered as its socket sends it."""
    return render_to_string("facilitator/_console_live.html",
                            projector_context(selectors.projector_view(session)))


def phone_page(seat: Seat) -> str:
    """A phone's screen, rendered as its socket sends it."""
    return render_to_string("play/_screen.html", phone_context(selectors.seat_view(seat)))
