"""Crisis's lesson options, their checks, and the engine config they give a table.

``rounds``: the full game (7) or our shorter variant (``SHORT_ROUNDS``): the lesson ends after
that round's Evaluation and scores the teams as the engine scores a game ended then
(``games.crisis.scores``: VP + credits // 5 − 2 per loan − Penalty tiles; Axia is bankrupt only
if its track fell below 0).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from facilitator.errors import ServiceError
from games.crisis import bots, cards, data

TEAM_SIZES = (2, 3, 4)
SHORT_ROUNDS = 5
ROUND_COUNTS = (cards.ROUNDS, SHORT_ROUNDS)
TURN_SECONDS = (0, 30, 45, 60, 90, 120)  # 0: no per-turn timer
PRODUCTION_SECONDS = (0, 60, 90, 120, 180, 240)  # the Production stage's countdown
BOT_TEAMS = (0, 1, 2, 3)  # rival bot teams at every table (a small class still has rivals)
# 30-second turns by default: with 60 a table of five teams may need over two hours for 7
# rounds (pacing.py; docs/engines/crisis.md, "How long a lesson takes").
DEFAULTS: dict[str, Any] = {
    "team_size": 3, "difficulty": data.MEDIUM, "bots_allowed": True, "bot_policy": "sensible",
    "rounds": cards.ROUNDS, "turn_seconds": 30, "production_seconds": 90, "bot_teams": 0,
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check(options: dict[str, Any]) -> None:
    """``ServiceError("bad_options")`` for an option the engine or the lesson cannot run."""
    def bad(message: str) -> ServiceError:
        return ServiceError("bad_options", message)

    if options["team_size"] not in TEAM_SIZES or not _is_int(options["team_size"]):
        raise bad(_("Teams have 2, 3 or 4 students."))
    if options["difficulty"] not in data.DIFFICULTIES:
        raise bad(_("Unknown difficulty."))
    if not isinstance(options["bots_allowed"], bool):
        raise bad(_("'%(option)s' must be yes or no.") % {"option": "bots_allowed"})
    if options["bot_policy"] not in bots.POLICIES:
        raise bad(_("Unknown bot behaviour."))
    if options["rounds"] not in ROUND_COUNTS or not _is_int(options["rounds"]):
        raise bad(_("Play the full 7 rounds or the shorter game of %(n)d rounds.")
                  % {"n": SHORT_ROUNDS})
    if options["turn_seconds"] not in TURN_SECONDS or not _is_int(options["turn_seconds"]):
        raise bad(_("Choose a turn timer from the list."))
    if (options["production_seconds"] not in PRODUCTION_SECONDS
            or not _is_int(options["production_seconds"])):
        raise bad(_("Choose a Production timer from the list."))
    bot_teams = options.get("bot_teams", 0)
    if bot_teams not in BOT_TEAMS or not _is_int(bot_teams):
        raise bad(_("A table has 0 to 3 bot teams."))
    if bot_teams and options["bots_allowed"] is False:
        raise bad(_("Bot teams need bots to be allowed."))


def bot_teams(options: dict[str, Any]) -> int:
    """The rival bot teams at each table (lessons made before the option: none)."""
    return int(options.get("bot_teams") or 0)


def table_config(names: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """A table's engine config: its teams, in seat order, are the engine's players (the first
    starts), at the lesson's difficulty."""
    return {"players": list(names), "difficulty": options["difficulty"]}
