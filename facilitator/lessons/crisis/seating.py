"""How a class sits in Crisis: whole teams of the lesson's size at tables of 2 to 5 teams.

The lesson's ``seating``/``seating_error`` and the lobby's text (``presenters``) both ask
here, so what Start does and what the lobby says it will do are one rule.
"""

from __future__ import annotations

from django.utils.translation import ngettext

from facilitator.kit.seating import SeatingPlan, even_split

FEWEST_TEAMS, MOST_TEAMS = 2, 5


def seating_plan(students: int, fill: str | None, team_size: int,
                 bot_teams: int = 0) -> SeatingPlan | None:
    """Teams of ``team_size`` at tables of 2 to 5 teams, as few tables as possible and as even
    as possible (30 in teams of 3: two tables of five teams). Bots (``fill="bots"``) complete
    the last team and, if needed, make up a second team; without them the class must split
    into whole teams at whole tables."""
    if students < 1:
        return None
    if bot_teams:
        return with_bot_teams(students, team_size, bot_teams)
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


def student_teams(students: int, team_size: int) -> list[int]:
    """The class in as few teams of at most ``team_size`` as possible, as even as possible
    (5 in teams of 2: 2 + 2 + 1)."""
    teams = -(-students // team_size)
    base, extra = divmod(students, teams)
    return [base + 1] * extra + [base] * (teams - extra)


def with_bot_teams(students: int, team_size: int, bot_teams: int) -> SeatingPlan | None:
    """Every table plays against ``bot_teams`` rival bot teams (each one bot seat, in the
    table's last places): the students' teams (``student_teams``) split over as few tables as
    hold them beside the bots, as evenly as possible. A class of 5 in teams of 3 with 2 bot
    teams: one table of a team of 3, a team of 2 and two bot teams."""
    teams = student_teams(students, team_size)
    room = MOST_TEAMS - bot_teams
    if room < 1:
        return None
    split = even_split(len(teams), 1, room)
    if split is None:
        return None
    parties, start = [], 0
    for n in split:
        parties.append((*teams[start:start + n], *(1,) * bot_teams))
        start += n
    return SeatingPlan([sum(p) for p in parties], bots=bot_teams * len(parties),
                       party_size=team_size, parties=tuple(parties),
                       table_bots=(bot_teams,) * len(parties))


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
