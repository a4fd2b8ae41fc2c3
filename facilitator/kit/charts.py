"""The charts' drawing primitives and palette (SVG, colour-blind safe with marks and
patterns), for a module's own charts."""

from facilitator.charts import (
    GRID,
    INK,
    MUTED,
    OKABE_ITO,
    Frame,
    hatch,
    label,
    marker,
    num,
    svg,
    tally_bars,
    text,
    uid,
)

__all__ = ["GRID", "INK", "MUTED", "OKABE_ITO", "Frame", "hatch", "label", "marker", "num",
           "svg", "tally_bars", "text", "uid"]
