"""State in Class's charts (Tension, service levels, taxes, a player's coins), drawn with the
platform's chart kit (``facilitator.charts``: the rules every chart keeps)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from facilitator.kit.charts import GRID, INK, MUTED, OKABE_ITO, tally_bars
from facilitator.kit.charts import Frame as _Frame
from facilitator.kit.charts import hatch as _hatch
from facilitator.kit.charts import label as _label
from facilitator.kit.charts import marker as _marker
from facilitator.kit.charts import num as _num
from facilitator.kit.charts import svg as _svg
from facilitator.kit.charts import text as _text
from facilitator.kit.charts import uid as _uid
from games.state_in_class import data

__all__ = ["tally_bars"]  # the platform's vote bars, for the lesson's screens too


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


# --------------------------------------------------------------------------- charts


def tension_chart(history: Sequence[Mapping[str, Any]], *, width: int = 360,
                  height: int = 200, big: bool = False) -> str:
    """Tension at the start and after each round, with the scoring bands and the fail line.
    ``big``: the projector's size, its band labels larger (read from the back row)."""
    points = tension_series(history)
    uid = _uid("tension", points, width, height, big)
    band_size = 11.0 if big else 8.5
    f = _Frame(width, height, 0.5, data.FAIL_TENSION + 0.5, rounds=data.ROUNDS,
              right=134 if big else 102, top=16)
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
        body.append(_text(f.x1 + 10, (top + bottom) / 2 + 3.5, label, size=band_size,
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
                 height: int = 200, big: bool = False) -> str:
    """The three service levels (1–5) at the start and after each round. ``big``: the
    projector's size, its legend and notes larger."""
    series = levels_series(history)
    styles = _service_styles()
    uid = _uid("levels", series, width, height, big)
    legend_size, note_size = (11.0, 9.5) if big else (9.0, 7.5)
    f = _Frame(width, height, 0.5, data.MAX_LEVEL + 0.5, rounds=data.ROUNDS,
              right=34, top=30)
    body = f.value_axis(range(data.MIN_LEVEL, data.MAX_LEVEL + 1)) + f.round_axis()
    for rnd in data.OBSOLESCENCE_ROUNDS:
        x = f.x(rnd)
        body.append(f'<line x1="{_num(x)}" y1="{f.y0 - 4}" x2="{_num(x)}" y2="{f.y1}" '
                    f'stroke="{MUTED}" stroke-width="1" stroke-dasharray="1 3"/>')
        body.append(_text(x, f.y0 - 7, _("obsolescence"), size=note_size, fill=MUTED))
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
                          size=legend_size, anchor="start"))
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
    f = _Frame(width, height, 0, hi, rounds=data.ROUNDS,
              right=82, top=16 if labels else 8)
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
    marked = [f"{names[k]} {goals[k]}" for k in ("get-by", "live-well", "thrive") if k in goals]
    if marked:  # the dashed lines, in words too
        desc += " " + _("Savings goals: %(goals)s.") % {"goals": ", ".join(marked)}
    if exclusion_rounds:
        desc += " " + _("An X marks a round with an Exclusion.")
    return _svg(uid, width, height, _("Coins by round"), desc, body)
