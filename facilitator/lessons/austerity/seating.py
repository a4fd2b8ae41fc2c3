"""How a class sits in Austerity: tables of 4 to 8, or one country for the whole class.

The lesson's ``seating``/``seating_error`` and the lobby's text (``presenters``) both ask
here, so what Start does and what the lobby says it will do are one rule.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from facilitator.kit import seating as platform_seating
from facilitator.kit.seating import SeatingPlan
from facilitator.lessons.austerity import options
from facilitator.models import CLASS_SIZE_MAX

SMALLEST, LARGEST = 4, 8


def seating_plan(students: int, fill: str | None, options_: dict[str, Any]) -> SeatingPlan | None:
    """One table holding the whole class (up to the class cap), or tables of 4 to 8."""
    if options_.get("seating") == options.CLASS:
        return SeatingPlan([students]) if 1 <= students <= CLASS_SIZE_MAX else None
    return platform_seating.plan(students, fill, SMALLEST, LARGEST)


def seating_error(students: int, fill: str | None, options_: dict[str, Any]) -> str:
    """Why ``students`` cannot sit that way, for the teacher."""
    if options_.get("seating") != options.CLASS and fill is None:
        return ngettext(
            "%(n)d student cannot be split into tables of 4 to 8. Fill the gaps with "
            "bots, or let some students share a seat.",
            "%(n)d students cannot be split into tables of 4 to 8. Fill the gaps with "
            "bots, or let some students share a seat.", students) % {"n": students}
    return ngettext("%(n)d student cannot be seated that way.",
                    "%(n)d students cannot be seated that way.", students) % {"n": students}
