"""Poleconomy's lesson options, their checks, the seating of a class and a table's config."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.errors import ServiceError
from facilitator.kit.seating import SeatingPlan, even_split, plan
from games.poleconomy import bots as engine_bots

SMALLEST, LARGEST = 3, 6  # players (a student or a team) at one table
TEAM_SIZES = (1, 2, 3, 4)
PLAYERS = (0, 3, 4, 5, 6)  # players per table; 0: as the class splits (every player a team)
ROUNDS = (1, 30)
BOT_PLAYERS = (0, 1, 2)  # bots playing at every table (with a number of players per table)
DEFAULTS: dict[str, Any] = {"rounds": 12, "team_size": 1, "players": 0, "bot_players": 0,
                            "bots_allowed": True, "bot_policy": "builder"}


def check(options: dict[str, Any]) -> None:
    """``ServiceError("bad_options")`` for an option the engine or the lesson cannot run."""
    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not whole(options["rounds"]) or not ROUNDS[0] <= options["rounds"] <= ROUNDS[1]:
        raise ServiceError("bad_options", _("The number of rounds must be between 1 and 30."))
    if not whole(options["team_size"]) or options["team_size"] not in TEAM_SIZES:
        raise ServiceError("bad_options", _("A player is one student or a team of 2 to 4."))
    if not whole(options["players"]) or options["players"] not in PLAYERS:
        raise ServiceError("bad_options", _("A table has 3 to 6 players."))
    bot_players = options["bot_players"]
    if not whole(bot_players) or bot_players not in BOT_PLAYERS:
        raise ServiceError("bad_options", _("A table has 0 to 2 bot players."))
    if bot_players and not options["players"]:
        raise ServiceError("bad_options", _("Bot players need a number of players per table."))
    if bot_players and options["bots_allowed"] is False:
        raise ServiceError("bad_options", _("Bot players need bots to be allowed."))
    if bot_players >= options["players"] > 0:
        raise ServiceError("bad_options", _("A table needs at least one student player."))
    if not isinstance(options["bots_allowed"], bool):
        raise ServiceError("bad_options", _("'%(option)s' must be yes or no.")
                           % {"option": "bots_allowed"})
    if options["bot_policy"] not in engine_bots.POLICIES:
        raise ServiceError("bad_options", _("Unknown bot behaviour."))


def mixed_seating(students: int, fill: str | None, players: int, largest: int,
                  bot_players: int = 0) -> SeatingPlan | None:
    """Tables of ``players`` players each, mixing teams and students alone.

    ``bot_players`` of each table's players are bots; the others are the students', as few
    tables as hold the class with teams of at most ``largest``, the students split evenly
    between them. At a table with more students than places, the extra students double up
    into teams as even as possible, teams first (5 students, 4 places: a team of 2 and 3
    students alone); a table with fewer seats each alone and, with ``fill="bots"``, bots play
    its empty places (else None). Students never share a phone here (``fill="pairs"``: None).
    """
    places = players - bot_players
    if students < 1 or fill == "pairs" or places < 1:
        return None
    tables = -(-students // (places * largest))
    base, extra = divmod(students, tables)
    parties: list[tuple[int, ...]] = []
    bots: list[int] = []
    for here in [base + 1] * extra + [base] * (tables - extra):
        if here < places and fill != "bots":
            return None
        size, bigger = divmod(here, places) if here >= places else (1, 0)
        students_here = (size + 1,) * bigger + (size,) * (places - bigger)
        empty = max(places - here, 0)
        parties.append(students_here[:places - empty] + (1,) * (empty + bot_players))
        bots.append(empty + bot_players)
    return SeatingPlan([sum(p) for p in parties], bots=sum(bots), parties=tuple(parties),
                       table_bots=tuple(bots))


def seating(students: int, fill: str | None, team_size: int, players: int = 0,
            bot_players: int = 0) -> SeatingPlan | None:
    """Tables of 3 to 6 players, a player being one student or a team of ``team_size``.

    Students who fill whole players sit evenly; otherwise ``fill="bots"`` adds the fewest bots
    (a short last team is completed by bots, then bots play whole players until the class
    splits), and ``fill="pairs"`` lets students share a phone (single players only).
    With ``players`` (3 to 6), every table has that many players: ``mixed_seating``."""
    if players:
        return mixed_seating(students, fill, players, team_size, bot_players)
    if students < 1:
        return None
    if team_size == 1:
        return plan(students, fill, SMALLEST, LARGEST)
    players, short = divmod(students, team_size)
    if short == 0 and (split := even_split(players, SMALLEST, LARGEST)) is not None:
        return SeatingPlan([n * team_size for n in split], party_size=team_size)
    if fill != "bots":
        return None
    players += 1 if short else 0
    while even_split(players, SMALLEST, LARGEST) is None:
        players += 1
    split = even_split(players, SMALLEST, LARGEST) or []
    seats = [n * team_size for n in split]
    return SeatingPlan(seats, bots=sum(seats) - students, party_size=team_size)


def seating_error(students: int, fill: str | None, team_size: int, players: int = 0,
                  bot_players: int = 0) -> str:
    if players and fill == "pairs":
        return _("Students do not share phones here: fill the empty players with bots.")
    if players and fill is None:
        return ngettext(
            "%(n)d student leaves empty players at tables of %(players)d players. Fill them "
            "with bots, or choose fewer players per table.",
            "%(n)d students leave empty players at tables of %(players)d players. Fill them "
            "with bots, or choose fewer players per table.", students
        ) % {"n": students, "players": players}
    if fill is None:
        if team_size == 1:
            return ngettext(
                "%(n)d student cannot be split into tables of 3 to 6 players. Fill the gaps "
                "with bots, or let some students share a phone.",
                "%(n)d students cannot be split into tables of 3 to 6 players. Fill the gaps "
                "with bots, or let some students share a phone.", students) % {"n": students}
        return ngettext(
            "%(n)d student cannot be split into teams of %(size)d at tables of 3 to 6 "
            "players. Fill the gaps with bots.",
            "%(n)d students cannot be split into teams of %(size)d at tables of 3 to 6 "
            "players. Fill the gaps with bots.", students) % {"n": students, "size": team_size}
    if fill == "pairs" and team_size > 1:
        return _("Teams cannot share phones: fill the gaps with bots.")
    return ngettext("%(n)d student cannot be seated that way.",
                    "%(n)d students cannot be seated that way.", students) % {"n": students}


def class_seating(students: int, fill: str | None,
                  options: dict[str, Any]) -> SeatingPlan | None:
    """How a class sits under the lesson's ``options`` (``Lesson.seating``; the lobby's text
    asks the same): teams never share phones."""
    size = int(options.get("team_size", 1))
    if fill == "pairs" and size > 1:
        return None
    return seating(students, fill, size, *_players(options))


def class_seating_error(students: int, fill: str | None, options: dict[str, Any]) -> str:
    """Why the class cannot sit that way under ``options`` (``Lesson.seating_error``)."""
    return seating_error(students, fill, int(options.get("team_size", 1)), *_players(options))


def _players(options: dict[str, Any]) -> tuple[int, int]:
    """Players per table (0: as the class splits) and the bots among them."""
    return int(options.get("players", 0)), int(options.get("bot_players", 0))


def table_config(names: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """The engine config of one table: its players in seat order and the lesson's length.
    Parliament consents by secret ballot (``consent_mode`` "ballot", the engine's default)."""
    return {"players": list(names), "rounds": int(options["rounds"]),
            "consent_mode": "ballot"}
