"""How a class sits in Crisis: whole teams of the lesson's size at tables of 2 to 5 teams.

The lesson's ``seating``/``seating_error`` and the lobby's text (``presenters``) both ask
here, so what Start does and what the lobby says it will do are one rule.
"""

from __future__ import annotations

from django.utils.translation import ngettext

from facilitator.kit.seating import SeatingPlan, even_split

FEWEST_TEAMS, MOST_TEAMS = 2, 5


def seating_plan(students: int, fill: str | None, team_size: int) -> SeatingPlan | None:
    """Teams of ``team_size`` at tables of 2 to 5 teams, as few tables as possible and as even
    as possible (30 in teams of 3: two tables of five teams). Bots (``fill="bots"``) complete
    the last team and, if needed, make up a second team; without them the class must split
    into whole teams at whole tables."""
    if students < 1:
        return None
    teams = -(-students // team_size)
    if fill != "bots" and teams * team_size != students:
        return None
    if fill == "bots":
        teams = max(teams, FEWEST_TEAMS)
    split = even_split(teams, FEWEST_TEAMS, MOST_TEAMS)
    if split is None:
        return None
    seats = [n * team_size for n in split]
    return SeatingPlan(seats, bots=sum(seats) - students, party_size=team_size)


def seating_error(students: int, fill: str | None, team_size: int) -> str:
    """Why ``students`` cannot sit that way in teams of ``team_size``, for the teacher."""
    if fill != "bots":
        return ngettext(
            "%(n)d student cannot be split into teams of %(size)d at tables of 2 to 5 "
            "teams. Let bots fill the empty places, or choose another team size.",
            "%(n)d students cannot be split into teams of %(size)d at tables of 2 to 5 "
            "teams. Let bots fill the empty places, or choose another team size.",
            students) % {"n": students, "size": team_size}
    return ngettext("%(n)d student cannot be seated that way.",
                    "%(n)d students cannot be seated that way.", students) % {"n": students}
