"""Server-side SVG charts: pure functions that return an ``<svg>`` string.

The platform's chart kit (the palette, SVG primitives, a round-by-round frame, vote bars);
each lesson module draws its own charts with it (State in Class's:
``facilitator/lessons/state_in_class/charts.py``). Every chart:

- takes plain engine data (a table's public ``history``, a tally, a player's ``statement``)
  and keyword-only sizes, and returns a self-contained inline SVG (no scripts, no external
  fonts or images; safe for a strict CSP when inlined);
- uses the Okabe–Ito palette (colour-blind safe) *and* stays readable in black and white:
  every series also has its own dash pattern, marker shape and letter, bands are hatched and
  labelled, values are printed next to the marks;
- carries ``<title>`` and ``<desc>`` (the data in words) for screen readers.

Texts go through Django's gettext, so call the functions inside the language you want
(``translation.override``). Output is deterministic: the same data gives the same string.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

# Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO: dict[str, str] = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
INK = "#111111"
GRID = "#BBBBBB"
MUTED = "#555555"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


# --------------------------------------------------------------------------- SVG helpers


def _uid(kind: str, *parts: Any) -> str:
    """A deterministic id prefix, so several charts can share one HTML page."""
    return kind + "-" + hashlib.sha1(repr(parts).encode()).hexdigest()[:8]


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, label: Any, *, size: float = 11, anchor: str = "middle",
          weight: str = "normal", fill: str = INK, extra: str = "") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}"{extra}>'
            f"{escape(str(label))}</text>")


def _label(x: float, y: float, value: Any) -> str:
    """A value printed above a point, on a small white plate so grid lines do not cross it."""
    w = 6.5 * len(str(value)) + 3
    return (f'<rect x="{_num(x - w / 2)}" y="{_num(y - 9.5)}" width="{_num(w)}" height="12" '
            f'fill="#FFFFFF" fill-opacity="0.85"/>'
            + _text(x, y, value, size=10, weight="bold"))


def _svg(uid: str, width: int, height: int, title: str, desc: str, body: list[str],
         defs: str = "") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-labelledby="{uid}-t {uid}-d" font-family="{FONT}">'
        f'<title id="{uid}-t">{escape(title)}</title><desc id="{uid}-d">{escape(desc)}</desc>'
        + (f"<defs>{defs}</defs>" if defs else "")
        + "".join(body) + "</svg>"
    )


def _hatch(pid: str, *, spacing: int, colour: str = INK, width: float = 0.8,
           cross: bool = False) -> str:
    lines = f'<path d="M0 {spacing} L{spacing} 0" stroke="{colour}" stroke-width="{width}"/>'
    if cross:
        lines += f'<path d="M0 0 L{spacing} {spacing}" stroke="{colour}" stroke-width="{width}"/>'
    return (f'<pattern id="{pid}" width="{spacing}" height="{spacing}" '
            f'patternUnits="userSpaceOnUse">{lines}</pattern>')


def _marker(shape: str, x: float, y: float, colour: str, size: float = 4.5) -> str:
    common = f'fill="#FFFFFF" stroke="{colour}" stroke-width="2"'
    if shape == "square":
        return (f'<rect x="{_num(x - size)}" y="{_num(y - size)}" width="{_num(2 * size)}" '
                f'height="{_num(2 * size)}" {common}/>')
    if shape == "triangle":
        pts = f"{_num(x)},{_num(y - size - 1)} {_num(x - size - 1)},{_num(y + size)} " \
              f"{_num(x + size + 1)},{_num(y + size)}"
        return f'<polygon points="{pts}" {common}/>'
    return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(size)}" {common}/>'


class _Frame:
    """A plot area: rounds 0..``rounds`` across, a value range up."""

    def __init__(self, width: int, height: int, lo: float, hi: float, *, rounds: int,
                 left: int = 34, right: int = 14, top: int = 12, bottom: int = 34,
                 first_round: int = 0) -> None:
        self.width, self.height = width, height
        self.x0, self.x1 = left, width - right
        self.y0, self.y1 = top, height - bottom
        self.lo, self.hi = lo, hi
        self.first, self.rounds = first_round, rounds

    def x(self, rnd: float) -> float:
        span = self.rounds - self.first
        return self.x0 + (rnd - self.first) * (self.x1 - self.x0) / span

    def y(self, value: float) -> float:
        return self.y1 - (value - self.lo) * (self.y1 - self.y0) / (self.hi - self.lo)

    def round_axis(self) -> list[str]:
        out = [f'<line x1="{self.x0}" y1="{self.y1}" x2="{self.x1}" y2="{self.y1}" '
               f'stroke="{INK}" stroke-width="1"/>']
        for rnd in range(self.first, self.rounds + 1):
            label = pgettext("the beginning of the game", "Start") if rnd == 0 else str(rnd)
            out.append(_text(self.x(rnd), self.y1 + 15, label, size=10))
        out.append(_text((self.x0 + self.x1) / 2, self.y1 + 29, _("Round"), size=10,
                         fill=MUTED))
        return out

    def value_axis(self, ticks: Sequence[int]) -> list[str]:
        out = []
        for v in ticks:
            y = self.y(v)
            out.append(f'<line x1="{self.x0}" y1="{_num(y)}" x2="{self.x1}" y2="{_num(y)}" '
                       f'stroke="{GRID}" stroke-width="0.6"/>')
            out.append(_text(self.x0 - 6, y + 4, v, size=10, anchor="end"))
        return out

    def polyline(self, points: Sequence[tuple[float, float]], *, colour: str, dash: str = "",
                 width: float = 2.5, dy: float = 0) -> str:
        pts = " ".join(f"{_num(self.x(r))},{_num(self.y(v) + dy)}" for r, v in points)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                f'stroke-width="{_num(width)}" stroke-linejoin="round"{dashes}/>')


def tally_bars(tally: Mapping[str, int], options: Sequence[str], labels: Mapping[str, str],
               *, winner: str | None = None, width: int = 360, row_height: int = 26) -> str:
    """Horizontal bars of one counted vote (never anything about who voted what)."""
    uid = _uid("tally", sorted(tally.items()), tuple(options), winner, width)
    height = row_height * len(options) + 8
    left, right = 150, 40
    most = max([*tally.values(), 1])
    body: list[str] = []
    defs = _hatch(f"{uid}-win", spacing=5, colour="#FFFFFF", width=1.2)
    for i, option in enumerate(options):
        votes = tally.get(option, 0)
        y = 4 + i * row_height
        bar = (width - left - right) * votes / most
        is_winner = option == winner
        label = labels.get(option, option)
        body.append(_text(left - 8, y + row_height / 2 + 4, label, size=11, anchor="end",
                          weight="bold" if is_winner else "normal"))
        if votes:
            fill = INK if is_winner else "#8A8A8A"
            body.append(f'<rect x="{left}" y="{_num(y + 3)}" width="{_num(bar)}" '
                        f'height="{row_height - 6}" fill="{fill}"/>')
            if is_winner:
                body.append(f'<rect x="{left}" y="{_num(y + 3)}" width="{_num(bar)}" '
                            f'height="{row_height - 6}" fill="url(#{uid}-win)"/>')
        body.append(_text(left + bar + 6, y + row_height / 2 + 4,
                          f"{votes} ★" if is_winner else votes, size=11, anchor="start",
                          weight="bold" if is_winner else "normal"))
    desc = ", ".join(f"{labels.get(o, o)}: {tally.get(o, 0)}" for o in options)
    if winner:
        desc += ". " + _("Chosen: %(option)s.") % {"option": labels.get(winner, winner)}
    return _svg(uid, width, height, _("Votes counted"), desc, body, defs)


def _ticks(lo: float, hi: float, most: int = 4) -> list[int]:
    """Whole-number ticks from ``lo`` to ``hi``: at most ``most`` + 1, on a round step."""
    span = max(hi - lo, 1)
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        step = candidate
        if span / candidate <= most:
            break
    first = int(lo // step * step)
    return [v for v in range(first, int(hi) + 1, step) if v >= lo]


def compare_lines(real: Sequence[tuple[int, float]], alt: Sequence[tuple[int, float]], *,
                  title: str, axis: str, names: tuple[str, str], marks: Sequence[int] = (),
                  changed: int | None = None, lo: float | None = None,
                  hi: float | None = None, width: int = 320, height: int = 166) -> str:
    """One track as it went (``real``) and as it would have gone (``alt``) on one scale:
    (step, value) points, the steps being rounds or years (``axis`` names them).

    As played: a solid black line with round marks; the what-if: a dashed vermillion line
    with triangles, drawn on top (where they agree, the dashes lie on the solid line). Each
    line's last value is printed at its end. ``marks``: steps where the bot took a decision
    in the what-if, hatched; ``changed``: the step of the changed decision, a dotted line."""
    steps = [s for s, _v in (*real, *alt)]
    values = [v for _s, v in (*real, *alt)]
    first, last = (min(steps), max(steps)) if steps else (0, 1)
    if first == last:
        first -= 1
    low = min(values, default=0) if lo is None else lo
    high = max(values, default=1) if hi is None else hi
    if lo is None and low > 0 and low <= (high - low):
        low = 0  # a scale from 0 where the values do not sit far above it
    if high <= low:
        high = low + 1
    uid = _uid("compare", tuple(real), tuple(alt), title, tuple(marks), changed, low, high)
    frame = _Frame(width, height, low, high, rounds=last, first_round=first, left=44,
                   right=18, top=22, bottom=34)
    body: list[str] = []
    defs = _hatch(f"{uid}-bot", spacing=6, colour="#777777", width=1)
    half = (frame.x(first + 1) - frame.x(first)) / 2
    for step in sorted(set(marks)):
        x0 = max(frame.x0, frame.x(step) - half)
        x1 = min(frame.x1, frame.x(step) + half)
        body.append(f'<rect x="{_num(x0)}" y="{frame.y0}" width="{_num(x1 - x0)}" '
                    f'height="{frame.y1 - frame.y0}" fill="url(#{uid}-bot)" '
                    f'fill-opacity="0.55"/>')
    for v in _ticks(low, high, most=5):
        y = frame.y(v)
        body.append(f'<line x1="{frame.x0}" y1="{_num(y)}" x2="{frame.x1}" y2="{_num(y)}" '
                    f'stroke="{GRID}" stroke-width="0.8"/>')
        body.append(_text(frame.x0 - 6, y + 5, v, size=13, anchor="end"))
    body.append(f'<line x1="{frame.x0}" y1="{frame.y1}" x2="{frame.x1}" y2="{frame.y1}" '
                f'stroke="{INK}" stroke-width="1"/>')
    for step in range(first, last + 1):
        if step in steps:
            body.append(_text(frame.x(step), frame.y1 + 16, step, size=13))
    body.append(_text((frame.x0 + frame.x1) / 2, frame.y1 + 31, axis, size=12, fill=MUTED))
    if changed is not None and first <= changed <= last:
        x = _num(frame.x(changed))
        body.append(f'<line x1="{x}" y1="{frame.y0 - 6}" x2="{x}" y2="{frame.y1}" '
                    f'stroke="{INK}" stroke-width="1.5" stroke-dasharray="2 3"/>')
    vermillion = OKABE_ITO["vermillion"]
    for points, colour, dash, shape in ((real, INK, "", "circle"),
                                        (alt, vermillion, "7 4", "triangle")):
        if not points:
            continue
        if len(points) > 1:
            body.append(frame.polyline(points, colour=colour, dash=dash, width=3))
        body += [_marker(shape, frame.x(s), frame.y(v), colour, size=4) for s, v in points]
    ends = [p[-1] for p in (real, alt) if p]
    if len(ends) == 2 and ends[0] == ends[1]:
        ends = ends[:1]
    top = max(v for _s, v in ends) if ends else 0
    for s, v in ends:  # the higher end's value above it, the lower one's below (or, where
        value = _num(v)  # that would cross the axis, on its left)
        w = 9 * len(value) + 4
        x, y = frame.x(s) + 6, max(15.0, frame.y(v) - 10)
        if v != top:
            x, y = frame.x(s) + 6, frame.y(v) + 24
            if y > frame.y1 - 2:
                x, y = frame.x(s) - 8, frame.y(v) + 5
        body.append(f'<rect x="{_num(x - w)}" y="{_num(y - 13)}" width="{_num(w)}" '
                    f'height="16" fill="#FFFFFF" fill-opacity="0.85"/>'
                    + _text(x - 2, y, value, size=15, anchor="end", weight="bold"))
    desc = "; ".join(f"{name}: " + ", ".join(f"{s}: {_num(v)}" for s, v in points)
                     for name, points in zip(names, (real, alt), strict=True))
    return _svg(uid, width, height, title, desc, body, defs)


# The kit, for lesson modules' charts.
uid, num, text, label, svg = _uid, _num, _text, _label, _svg
hatch, marker, Frame = _hatch, _marker, _Frame
