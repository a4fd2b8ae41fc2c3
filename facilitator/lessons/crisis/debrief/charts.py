"""Crisis's debrief chart, drawn with the platform's chart kit (``facilitator.kit.charts``):
Axia's Financial Status (the Crisis track) at the start and after each round's Evaluation,
its value printed at every point, the zones' floors as labelled lines and bankruptcy (below 0)
a grey band, so it reads in black and white."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from facilitator.kit.charts import GRID, INK, MUTED, OKABE_ITO, Frame
from facilitator.kit.charts import label as _label
from facilitator.kit.charts import marker as _marker
from facilitator.kit.charts import num as _num
from facilitator.kit.charts import svg as _svg
from facilitator.kit.charts import text as _text
from facilitator.kit.charts import uid as _uid
from games.crisis import data

BANKRUPT_FILL = "#D9D9D9"


def track_chart(start: int, after: Sequence[int], *, rounds: int, width: int = 640,
                height: int = 210) -> str:
    """The track from ``start`` through ``after`` (one value per round played) on a frame of
    ``rounds`` rounds."""
    values = [start, *after]
    lo = min(-5, min(values) - 3)
    hi = max(35, max(values) + 3)
    frame = Frame(width, height, lo, hi, rounds=max(rounds, 1), left=40, right=104)
    body = [f'<rect x="{frame.x0}" y="{_num(frame.y(0))}" width="{frame.x1 - frame.x0}" '
            f'height="{_num(frame.y(lo) - frame.y(0))}" fill="{BANKRUPT_FILL}"/>',
            _text(frame.x1 + 16, (frame.y(0) + frame.y(lo)) / 2 + 4, _("bankrupt"), size=10,
                  anchor="start", fill=INK)]
    for zone in data.ZONES:
        floor = data.ZONE_FLOOR[zone]
        y = frame.y(floor)
        style = (f'stroke="{INK}" stroke-width="1.2"' if not floor else
                 f'stroke="{MUTED}" stroke-width="0.8" stroke-dasharray="4 3"')
        body.append(f'<line x1="{frame.x0}" y1="{_num(y)}" x2="{frame.x1}" y2="{_num(y)}" '
                    f'{style}/>')
        body.append(_text(frame.x1 + 16, y - 3, _(data.ZONE_NAMES[zone]), size=10,
                          anchor="start", fill=MUTED))
    body += [f'<line x1="{frame.x0}" y1="{frame.y0}" x2="{frame.x0}" y2="{frame.y1}" '
             f'stroke="{GRID}" stroke-width="0.6"/>', *frame.round_axis()]
    points = list(enumerate(values))
    body.append(frame.polyline(points, colour=OKABE_ITO["blue"]))
    for rnd, value in points:
        body.append(_marker("circle", frame.x(rnd), frame.y(value), OKABE_ITO["blue"]))
        body.append(_label(frame.x(rnd), frame.y(value) - 8, value))
    title = _("Axia's Financial Status, round by round")
    desc = _("The Crisis track: %(values)s.") % {
        "values": ", ".join([_("%(n)d at the start") % {"n": start}]
                            + [_("%(n)d after round %(r)d") % {"n": v, "r": i}
                               for i, v in enumerate(after, start=1)])}
    return _svg(_uid("crisis-track", start, tuple(after), rounds), width, height, title, desc,
                body)
