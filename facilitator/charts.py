"""Server-side SVG charts: pure functions that return an ``<svg>`` string.

Shared by the PDF debriefs and the projector, so every chart:

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

from games.state_in_class import data

# Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO: dict[str, str] = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
INK = "#111111"
GRID = "#BBBBBB"
MUTED = "#555555"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _service_styles() -> dict[str, dict[str, str]]:
    """Colour (the rulebook's red/green/blue, colour-blind safe), dashes, marker, letter."""
    return {
        data.HEALTH: {"colour": OKABE_ITO["vermillion"], "dash": "", "marker": "circle",
                      "letter": pgettext("chart letter for Health", "H")},
        data.EDUCATION: {"colour": OKABE_ITO["green"], "dash": "8 4", "marker": "square",
                         "letter": pgettext("chart letter for Education", "E")},
        data.SHIELD: {"colour": OKABE_ITO["blue"], "dash": "2 3", "marker": "triangle",
                      "letter": pgettext("chart letter for Social Shield", "S")},
    }


# --------------------------------------------------------------------------- data series


def tension_series(history: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """(round, Tension) points: round 0 is the start (after the pact), then each round's end.

    A round cut short by the State failing ends at its last Tension value.
    """
    changes = [c for entry in history for c in entry.get("tension") or []]
    if changes:
        start = changes[0]["value"] - changes[0]["delta"]
    elif history and history[0].get("tension_after") is not None:
        start = history[0]["tension_after"]
    else:
        return []
    points = [(0, start)]
    value = start
    for entry in history:
        for change in entry.get("tension") or []:
            value = change["value"]
        after = entry.get("tension_after")
        points.append((entry["round"], after if after is not None else value))
    return points


def levels_series(history: Sequence[Mapping[str, Any]]) -> dict[str, list[tuple[int, int]]]:
    """Each service's level at the start (all at 1) and at the end of every finished round."""
    series = {s: [(0, data.MIN_LEVEL)] for s in data.SERVICES}
    for entry in history:
        levels = entry.get("levels")
        if levels:
            for s in data.SERVICES:
                series[s].append((entry["round"], levels[s]))
    return series


def coins_series(statement: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """A player's coins at the end of each round (round 0: after the opening pact)."""
    by_round: dict[int, int] = {}
    for line in statement:
        by_round[line["round"]] = line["balance"]
    points: list[tuple[int, int]] = []
    balance = 0
    for rnd in range(0, max(by_round, default=-1) + 1):
        balance = by_round.get(rnd, balance)
        points.append((rnd, balance))
    return points


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
    """A plot area: rounds 0..8 across, a value range up."""

    def __init__(self, width: int, height: int, lo: float, hi: float, *, left: int = 34,
                 right: int = 14, top: int = 12, bottom: int = 34, first_round: int = 0) -> None:
        self.width, self.height = width, height
        self.x0, self.x1 = left, width - right
        self.y0, self.y1 = top, height - bottom
        self.lo, self.hi = lo, hi
        self.first = first_round

    def x(self, rnd: float) -> float:
        span = data.ROUNDS - self.first
        return self.x0 + (rnd - self.first) * (self.x1 - self.x0) / span

    def y(self, value: float) -> float:
        return self.y1 - (value - self.lo) * (self.y1 - self.y0) / (self.hi - self.lo)

    def round_axis(self) -> list[str]:
        out = [f'<line x1="{self.x0}" y1="{self.y1}" x2="{self.x1}" y2="{self.y1}" '
               f'stroke="{INK}" stroke-width="1"/>']
        for rnd in range(self.first, data.ROUNDS + 1):
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


# --------------------------------------------------------------------------- charts


def tension_chart(history: Sequence[Mapping[str, Any]], *, width: int = 360,
                  height: int = 200) -> str:
    """Tension at the start and after each round, with the scoring bands and the fail line."""
    points = tension_series(history)
    uid = _uid("tension", points, width, height)
    f = _Frame(width, height, 0.5, data.FAIL_TENSION + 0.5, right=102, top=16)
    defs = (_hatch(f"{uid}-light", spacing=8, colour="#777777", width=0.7)
            + _hatch(f"{uid}-dense", spacing=4, colour="#555555", width=0.7)
            + _hatch(f"{uid}-fail", spacing=4, colour=INK, width=0.9, cross=True))
    body: list[str] = []
    bands = [(5, 7, f"url(#{uid}-light)", _("5–7: −2 points")),
             (8, 9, f"url(#{uid}-dense)", _("8–9: −5 points")),
             (10, 10, f"url(#{uid}-fail)", _("10: the State fails"))]
    for lo, hi, fill, label in bands:
        top, bottom = f.y(hi + 0.5), f.y(lo - 0.5)
        body.append(f'<rect x="{f.x0}" y="{_num(top)}" width="{f.x1 - f.x0}" '
                    f'height="{_num(bottom - top)}" fill="{fill}" fill-opacity="0.45"/>')
        body.append(_text(f.x1 + 12, (top + bottom) / 2 + 3.5, label, size=8.5,
                          anchor="start"))
    body += f.value_axis(range(2, data.FAIL_TENSION + 1, 2))
    body += f.round_axis()
    if points:
        body.append(f.polyline(points, colour=INK, width=2.5))
        for rnd, value in points:
            x, y = f.x(rnd), f.y(value)
            if value >= data.FAIL_TENSION:
                body.append(f'<path d="M{_num(x - 6)} {_num(y - 6)} L{_num(x + 6)} {_num(y + 6)} '
                            f'M{_num(x - 6)} {_num(y + 6)} L{_num(x + 6)} {_num(y - 6)}" '
                            f'stroke="{INK}" stroke-width="3"/>')
            else:
                body.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="4.5" fill="#FFFFFF" '
                            f'stroke="{INK}" stroke-width="2"/>')
            body.append(_label(x, y - 8, value))
    words = ", ".join(
        (_("start %(value)d") if r == 0 else _("round %(round)d: %(value)d"))
        % {"round": r, "value": v} for r, v in points)
    desc = _("Tension by round (10 means the State fails). %(values)s.") % {
        "values": words or _("no data yet")}
    return _svg(uid, width, height, _("Tension by round"), desc, body, defs)


def levels_chart(history: Sequence[Mapping[str, Any]], *, width: int = 360,
                 height: int = 200) -> str:
    """The three service levels (1–5) at the start and after each round."""
    series = levels_series(history)
    styles = _service_styles()
    uid = _uid("levels", series, width, height)
    f = _Frame(width, height, 0.5, data.MAX_LEVEL + 0.5, right=34, top=30)
    body = f.value_axis(range(data.MIN_LEVEL, data.MAX_LEVEL + 1)) + f.round_axis()
    for rnd in data.OBSOLESCENCE_ROUNDS:
        x = f.x(rnd)
        body.append(f'<line x1="{_num(x)}" y1="{f.y0 - 4}" x2="{_num(x)}" y2="{f.y1}" '
                    f'stroke="{MUTED}" stroke-width="1" stroke-dasharray="1 3"/>')
        body.append(_text(x, f.y0 - 7, _("obsolescence"), size=7.5, fill=MUTED))
    offsets = {data.HEALTH: -3.0, data.EDUCATION: 0.0, data.SHIELD: 3.0}
    slot = (width - 8) / len(data.SERVICES)
    for i, service in enumerate(data.SERVICES):
        style, points = styles[service], series[service]
        dy = offsets[service]
        body.append(f.polyline(points, colour=style["colour"], dash=style["dash"], dy=dy))
        for rnd, value in points:
            body.append(_marker(style["marker"], f.x(rnd), f.y(value) + dy, style["colour"], 3.5))
        # Legend along the top: line, marker, letter and name (readable without colour).
        lx, ly = 8 + i * slot + 12, 9
        body.append(f'<line x1="{_num(lx - 10)}" y1="{ly}" x2="{_num(lx + 10)}" y2="{ly}" '
                    f'stroke="{style["colour"]}" stroke-width="2.5"'
                    + (f' stroke-dasharray="{style["dash"]}"' if style["dash"] else "") + "/>")
        body.append(_marker(style["marker"], lx, ly, style["colour"], 3.5))
        body.append(_text(lx + 15, ly + 4, f'{style["letter"]} · {_(data.SERVICE_NAMES[service])}',
                          size=9, anchor="start"))
    # The letter of each line at its end; lines ending together get their letters side by side.
    ends: dict[tuple[int, int], list[str]] = {}
    for service in data.SERVICES:
        ends.setdefault(series[service][-1], []).append(styles[service]["letter"])
    for (last_r, last_v), letters in ends.items():
        body.append(_text(f.x(last_r) + 7, f.y(last_v) + 4, "".join(letters), size=10,
                          anchor="start", weight="bold", fill=INK))
    words = "; ".join(
        _(data.SERVICE_NAMES[s]) + ": "
        + ", ".join(f"{r}→{v}" if r else str(v) for r, v in series[s])
        for s in data.SERVICES)
    desc = _("Service levels (1 to 5) at the start and after each round. %(values)s.") % {
        "values": words}
    return _svg(uid, width, height, _("Service levels by round"), desc, body)


def tax_chart(history: Sequence[Mapping[str, Any]], *, width: int = 360,
              height: int = 200) -> str:
    """A grid of rounds × tax options: the winner in a black disc, other voted options dotted."""
    uid = _uid("tax", [(e.get("round"), e.get("tax")) for e in history], width, height)
    left, right, top, bottom = 100, 6, 8, 40
    rows, cols = data.TAX_OPTIONS, range(1, data.ROUNDS + 1)
    cw = (width - left - right) / len(cols)
    rh = (height - top - bottom) / len(rows)
    body: list[str] = []
    for i, option in enumerate(rows):
        y = top + (i + 0.5) * rh
        body.append(f'<line x1="{left}" y1="{_num(top + (i + 1) * rh)}" x2="{width - right}" '
                    f'y2="{_num(top + (i + 1) * rh)}" stroke="{GRID}" stroke-width="0.6"/>')
        body.append(_text(6, y + 4, f"{option} · {_(data.TAX_NAMES[option])}", size=9.5,
                          anchor="start"))
    by_round = {e["round"]: e for e in history}
    words = []
    for j, rnd in enumerate(cols):
        x = left + (j + 0.5) * cw
        entry = by_round.get(rnd)
        tax = (entry or {}).get("tax") or {}
        tie = tax.get("decided_by") in ("tie_break", "drawn", "carried_over")
        body.append(_text(x, height - bottom + 14, f"{rnd}*" if tie else rnd, size=10,
                          weight="bold" if tie else "normal"))
        if rnd == data.MIDLIFE_ROUND:
            body.append(f'<rect x="{_num(x - cw / 2 + 1)}" y="{top}" width="{_num(cw - 2)}" '
                        f'height="{_num(rh * len(rows))}" fill="#E4E4E4"/>')
            body.append(_text(x, top + rh * len(rows) / 2 + 4, "—", size=10, fill=MUTED))
            continue
        winner = tax.get("winner")
        tally = tax.get("tally") or {}
        for i, option in enumerate(rows):
            y = top + (i + 0.5) * rh
            if option == winner:
                body.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(min(cw, rh) * 0.4)}" '
                            f'fill="{INK}"/>')
                body.append(_text(x, y + 4.5, option, size=12, weight="bold", fill="#FFFFFF"))
            elif tally.get(option):  # a small tick per option that got votes, no numbers
                body.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2" fill="{MUTED}"/>')
        if winner:
            words.append(_("round %(round)d: %(option)s") % {"round": rnd, "option": winner})
    body.append(_text(left - 4, height - bottom + 14, _("Round"), size=9, anchor="end",
                      fill=MUTED))
    legend = _("● the tax that won · • other options with votes · 1* tie-break · "
               "— no vote (Midlife)")
    body.append(_text(6, height - 8, legend, size=8.5, anchor="start", fill=MUTED))
    desc = _("The tax chosen in each round. %(values)s.") % {
        "values": ", ".join(words) or _("no vote yet")}
    return _svg(uid, width, height, _("Tax chosen by round"), desc, body)


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


def coins_chart(statement: Sequence[Mapping[str, Any]], *,
                goals: Mapping[str, int] | None = None, exclusion_rounds: Sequence[int] = (),
                labels: bool = True, width: int = 420, height: int = 190) -> str:
    """One player's coins round by round, against their savings goals (dashed lines)."""
    points = coins_series(statement)
    goals = dict(goals or {})
    uid = _uid("coins", points, sorted(goals.items()), tuple(exclusion_rounds), width, height)
    top_value = max([v for _r, v in points] + list(goals.values()) + [10])
    step = next(s for s in (2, 5, 10, 20, 50, 100, 200, 500) if top_value / s <= 7) \
        if top_value <= 3500 else 1000
    hi = (top_value // step + 1) * step
    f = _Frame(width, height, 0, hi, right=82, top=16 if labels else 8)
    body = f.value_axis(range(0, hi + 1, step)) + f.round_axis()
    names = {"get-by": _("Get by"), "live-well": _("Live well"), "thrive": _("Thrive")}
    dashes = {"get-by": "2 3", "live-well": "6 3", "thrive": "10 3 2 3"}
    for key in ("get-by", "live-well", "thrive"):
        if key not in goals:
            continue
        y = f.y(goals[key])
        body.append(f'<line x1="{f.x0}" y1="{_num(y)}" x2="{f.x1}" y2="{_num(y)}" '
                    f'stroke="{OKABE_ITO["blue"]}" stroke-width="1.4" '
                    f'stroke-dasharray="{dashes[key]}"/>')
        body.append(_text(f.x1 + 9, y + 3.5, f"{names[key]} {goals[key]}", size=8.5,
                          anchor="start", fill=INK))
    if points:
        body.append(f.polyline(points, colour=INK, width=2.5))
        for rnd, value in points:
            x, y = f.x(rnd), f.y(value)
            if rnd in exclusion_rounds:
                body.append(f'<path d="M{_num(x - 5)} {_num(y - 5)} L{_num(x + 5)} {_num(y + 5)} '
                            f'M{_num(x - 5)} {_num(y + 5)} L{_num(x + 5)} {_num(y - 5)}" '
                            f'stroke="{OKABE_ITO["vermillion"]}" stroke-width="3"/>')
            else:
                body.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="4" fill="#FFFFFF" '
                            f'stroke="{INK}" stroke-width="2"/>')
            if labels:
                body.append(_label(x, y - 8, value))
    words = ", ".join(
        (_("start %(value)d") if r == 0 else _("round %(round)d: %(value)d"))
        % {"round": r, "value": v} for r, v in points)
    desc = _("Your coins at the end of each round. %(values)s.") % {
        "values": words or _("no data yet")}
    if exclusion_rounds:
        desc += " " + _("An X marks a round with an Exclusion.")
    return _svg(uid, width, height, _("Coins by round"), desc, body)
