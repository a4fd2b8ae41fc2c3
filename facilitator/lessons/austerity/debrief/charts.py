"""Austerity's debrief charts, drawn with the platform's chart kit (``facilitator.charts``:
the rules every chart keeps). Both read the story's samples (one per draw and one per year
start) and mark the years along the bottom.

- ``tracks_chart``: the five tracks, one strip each (small multiples: no line crosses
  another, so it reads in black and white), 0 to 10, the losing 0 a grey band, explained.
- ``debt_chart``: Debt cubes in the bag (solid, circles) and owed in all (dashed, squares).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from facilitator.kit.charts import GRID, INK, MUTED, OKABE_ITO
from facilitator.kit.charts import label as _label
from facilitator.kit.charts import marker as _marker
from facilitator.kit.charts import num as _num
from facilitator.kit.charts import svg as _svg
from facilitator.kit.charts import text as _text
from facilitator.kit.charts import uid as _uid
from facilitator.lessons.austerity.debrief import words
from games.austerity import data


@dataclass
class Sample:
    """The country after a draw (``draw`` 0: the start), what the charts draw
    (the story takes one per draw and one per year start)."""

    draw: int  # draws in the whole game so far
    year: int
    tracks: dict[str, int]
    debt_in_bag: int
    debt_owed: int  # wherever it lies: the bag, Current, Used


LOST_FILL = "#CFCFCF"  # the losing 0: a grey band (a hatch pattern doubles the drawing time)
TRACK_STYLES = {
    data.EMPLOYMENT: (OKABE_ITO["blue"], "circle"),
    data.SAFETY: (OKABE_ITO["vermillion"], "square"),
    data.WEALTH: (OKABE_ITO["green"], "triangle"),
    data.HEALTH: (OKABE_ITO["purple"], "circle"),
    data.POPULARITY: (OKABE_ITO["orange"], "square"),
}


class _Axis:
    """Samples across (one step each), years marked by a line where each begins."""

    def __init__(self, samples: Sequence[Sample], x0: float, x1: float) -> None:
        self.samples, self.x0, self.x1 = samples, x0, x1

    def x(self, i: int) -> float:
        span = max(len(self.samples) - 1, 1)
        return self.x0 + i * (self.x1 - self.x0) / span

    def year_starts(self) -> list[tuple[int, int]]:
        """(sample index, year) where each year begins."""
        out, last = [], None
        for i, s in enumerate(self.samples):
            if s.year != last:
                out.append((i, s.year))
                last = s.year
        return out

    def years(self, top: float, bottom: float) -> list[str]:
        """A dotted line at each year's start and its label under the plot."""
        body = []
        starts = self.year_starts()
        for n, (i, year) in enumerate(starts):
            x = self.x(i)
            nxt = self.x(starts[n + 1][0]) if n + 1 < len(starts) else self.x1
            if i:
                body.append(f'<line x1="{_num(x)}" y1="{_num(top)}" x2="{_num(x)}" '
                            f'y2="{_num(bottom)}" stroke="{MUTED}" stroke-width="0.8" '
                            f'stroke-dasharray="2 2"/>')
            body.append(_text((x + nxt) / 2 if nxt > x else x, bottom + 12,
                              _("Year %(n)d") % {"n": year}, size=9.5))
        return body


def tracks_chart(samples: Sequence[Sample], *, width: int = 680, strip: int = 66,
                 names_left: bool = False, brief: bool = False) -> str:
    """The five tracks through the game, one strip each; the losing 0 a grey band. Each
    strip's name is above it, or (``names_left``, for a shorter chart) to its left. Values
    are printed at each year's start and at the end; ``brief``: at the start and the end only
    (fewer texts: every ``<text>`` costs WeasyPrint time on every page it is drawn)."""
    left, right, top = (164 if names_left else 30), 14, 2
    height = top + strip * len(data.TRACKS) + 24
    uid = _uid("aus-tracks", [(s.draw, s.year, sorted(s.tracks.items())) for s in samples],
               width, strip, names_left, brief)
    axis = _Axis(samples, left, width - right)
    body: list[str] = []
    bottom = top + strip * len(data.TRACKS)
    for n, track in enumerate(data.TRACKS):
        name_y = top + n * strip + (strip / 2 + 4 if names_left else 11)
        y_top = top + n * strip + (7 if names_left else 19)
        y_bot = top + (n + 1) * strip - 5

        def y(value: float, y_top: float = y_top, y_bot: float = y_bot) -> float:
            return y_bot - value * (y_bot - y_top) / data.TRACK_MAX

        colour, shape = TRACK_STYLES[track]
        lost_top = y(0.5)
        body.append(f'<rect x="{left}" y="{_num(lost_top)}" width="{width - right - left}" '
                    f'height="{_num(y_bot - lost_top)}" fill="{LOST_FILL}"/>')
        body.append(f'<line x1="{left}" y1="{_num(y_bot)}" x2="{width - right}" '
                    f'y2="{_num(y_bot)}" stroke="{INK}" stroke-width="1"/>')
        for v in (5, 10):
            body.append(f'<line x1="{left}" y1="{_num(y(v))}" x2="{width - right}" '
                        f'y2="{_num(y(v))}" stroke="{GRID}" stroke-width="0.6"/>')
        for v in (10,) if brief else (5, 10):
            body.append(_text(left - 7, y(v) + 3, v, size=8, anchor="end", fill=MUTED))
        body.append(_text(left - 7, y_bot + 1, "0", size=8, anchor="end", weight="bold"))
        name_x = 4 if names_left else left
        body.append(_marker(shape, name_x + 5, name_y - 3.5, colour, 3.2))
        body.append(_text(name_x + 13, name_y, words.track(track), size=10, anchor="start",
                          weight="bold"))
        points = [(axis.x(i), y(s.tracks[track])) for i, s in enumerate(samples)]
        if points:
            pts = " ".join(f"{_num(px)},{_num(py)}" for px, py in points)
            body.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                        f'stroke-width="2.2" stroke-linejoin="round"/>')
            label_at = {0, len(samples) - 1} if brief else (
                {i for i, _y in axis.year_starts()} | {len(samples) - 1})
            for i, (px, py) in enumerate(points):
                value = samples[i].tracks[track]
                if value <= data.TRACK_MIN:
                    body.append(f'<path d="M{_num(px - 5)} {_num(py - 5)} L{_num(px + 5)} '
                                f'{_num(py + 5)} M{_num(px - 5)} {_num(py + 5)} '
                                f'L{_num(px + 5)} {_num(py - 5)}" stroke="{INK}" '
                                f'stroke-width="2.6"/>')
                elif i in label_at:
                    body.append(_marker(shape, px, py, colour, 3.2))
                if i in label_at:
                    body.append(_label(px + (7 if i == 0 else 0),
                                       py - 5 if value < 8 else py + 13, value))
    body += axis.years(top, bottom)
    body.append(_text(width - right, height - 1, _("grey band: 0, the game is lost"), size=8,
                      anchor="end", fill=MUTED))
    desc = _("The five tracks (0 to 10) after every draw. %(values)s.") % {"values": "; ".join(
        words.track(t) + ": " + ", ".join(
            _("year %(year)d starts at %(value)d") % {"year": year,
                                                       "value": samples[i].tracks[t]}
            for i, year in axis.year_starts()) + ", " + _("ends at %(value)d") % {
            "value": samples[-1].tracks[t]} for t in data.TRACKS) if samples else "—"}
    return _svg(uid, width, height, _("The tracks, draw by draw"), desc, body)


def debt_chart(samples: Sequence[Sample], *, width: int = 680, height: int = 150,
               brief: bool = False) -> str:
    """Debt cubes in the bag (what the next draws may bring) and owed in all."""
    left, right, top, bottom = 32, 14, 34, 22
    uid = _uid("aus-debt", [(s.draw, s.year, s.debt_in_bag, s.debt_owed) for s in samples],
               width, height, brief)
    axis = _Axis(samples, left, width - right)
    hi = max([s.debt_owed for s in samples] + [4])
    y0, y1 = top, height - bottom

    def y(value: float) -> float:
        return y1 - value * (y1 - y0) / hi

    step = 1 if hi <= 6 else 2 if hi <= 12 else 5
    body: list[str] = []
    for v in range(0, hi + 1, step):
        body.append(f'<line x1="{left}" y1="{_num(y(v))}" x2="{width - right}" '
                    f'y2="{_num(y(v))}" stroke="{GRID}" stroke-width="0.6"/>')
        body.append(_text(left - 5, y(v) + 3.5, v, size=8.5, anchor="end"))
    series = [("debt_owed", _("Debt cubes owed in all (bag, Current, Used)"), "5 3", "square",
               MUTED),
              ("debt_in_bag", _("Debt cubes in the bag"), "", "circle", INK)]
    for n, (key, name, dash, shape, colour) in enumerate(series):
        pts = [(axis.x(i), y(getattr(s, key))) for i, s in enumerate(samples)]
        if pts:
            dashes = f' stroke-dasharray="{dash}"' if dash else ""
            body.append('<polyline points="' + " ".join(f"{_num(a)},{_num(b)}" for a, b in pts)
                        + f'" fill="none" stroke="{colour}" stroke-width="2.2"{dashes}/>')
            for i, (px, py) in enumerate(pts):
                if i in ({0} if brief else {j for j, _y in axis.year_starts()}) \
                        or i == len(pts) - 1:
                    body.append(_marker(shape, px, py, colour, 3.2))
                    if key == "debt_in_bag":
                        body.append(_label(px + (7 if i == 0 else 0), py - 6,
                                           getattr(samples[i], key)))
        lx = left + (1 - n) * 320
        body.append(f'<line x1="{lx}" y1="10" x2="{lx + 22}" y2="10" stroke="{colour}" '
                    f'stroke-width="2.2"' + (f' stroke-dasharray="{dash}"' if dash else "")
                    + "/>")
        body.append(_marker(shape, lx + 11, 10, colour, 3.2))
        body.append(_text(lx + 28, 13.5, name, size=9.5, anchor="start"))
    body += axis.years(top, y1)
    desc = _("Debt cubes in the bag after every draw: %(values)s.") % {
        "values": ", ".join(str(s.debt_in_bag) for s in samples) or "—"}
    return _svg(uid, width, height, _("Debt, draw by draw"), desc, body)


TABLE_STYLES = (("", "circle"), ("6 3", "square"), ("2 3", "triangle"), ("10 3 2 3", "circle"),
                ("", "square"), ("6 3", "triangle"), ("2 3", "circle"), ("10 3 2 3", "square"))


def compare_chart(series: Mapping[int, Sequence[tuple[float, int]]], *, title: str, lo: int,
                  hi: int, years: int, width: int = 340, height: int = 190) -> str:
    """One line per table (its number at the line's end, its own dash and marker), x: the
    years (a point at each year's start and one at the end), y: ``lo`` to ``hi``."""
    left, right, top, bottom = 30, 26, 10, 30
    uid = _uid("aus-compare", sorted((k, tuple(v)) for k, v in series.items()), title, width)
    span = max(years, 1)

    def x(year: float) -> float:
        return left + (year - 1) * (width - left - right) / span

    def y(value: float) -> float:
        return height - bottom - (value - lo) * (height - top - bottom) / max(hi - lo, 1)

    body: list[str] = []
    step = max(1, (hi - lo) // 5)
    for v in range(lo, hi + 1, step):
        body.append(f'<line x1="{left}" y1="{_num(y(v))}" x2="{width - right}" '
                    f'y2="{_num(y(v))}" stroke="{GRID}" stroke-width="0.6"/>')
        body.append(_text(left - 5, y(v) + 3.5, v, size=8.5, anchor="end"))
    for year in range(1, years + 1):
        body.append(_text(x(year), height - bottom + 13, year, size=9))
    body.append(_text((left + width - right) / 2, height - 4,
                      _("At the start of each year, and at the end"), size=8.5, fill=MUTED))
    words_: list[str] = []
    for n, (table, points) in enumerate(sorted(series.items())):
        dash, shape = TABLE_STYLES[n % len(TABLE_STYLES)]
        if not points:
            continue
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        body.append('<polyline points="' + " ".join(f"{_num(x(a))},{_num(y(b))}"
                                                     for a, b in points)
                    + f'" fill="none" stroke="{INK}" stroke-width="1.8"{dashes}/>')
        for a, b in points:
            body.append(_marker(shape, x(a), y(b), INK, 3))
        last_x, last_y = points[-1]
        body.append(_text(x(last_x) + 6, y(last_y) + 4 + (n % 2) * 6 - 3, table, size=9.5,
                          anchor="start", weight="bold"))
        words_.append(_("table %(n)d: %(values)s") % {
            "n": table, "values": ", ".join(str(b) for _a, b in points)})
    desc = f"{title}. " + "; ".join(words_) + "."
    return _svg(uid, width, height, title, desc, body)
