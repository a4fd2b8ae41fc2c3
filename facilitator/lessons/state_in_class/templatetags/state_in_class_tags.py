"""Template helpers of State in Class's screens."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("state_in_class/projector/_bars.html")
def bars(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Tally bars as inline SVG (sizes are SVG attributes, so no inline CSS is needed)."""
    height = 64
    return {"rows": [{**row, "y": i * height, "width": max(row["percent"] * 6, 0)}
                     for i, row in enumerate(rows)],
            "height": height * len(rows), "row_height": height - 12}
