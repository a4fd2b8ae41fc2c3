"""Services write: every change to a lesson goes through one of these atomic functions.

Each takes keyword arguments only, checks everything first, raises ``ServiceError`` with a
specific code and message (and then nothing has changed), and tells the sockets what changed
only after the transaction commits. Actions on one table are serialised by the table's row
lock (PostgreSQL) or SQLite's immediate transactions; teacher actions lock the session first.

One module per concern: ``sessions`` (create, pause, archive), ``joining`` (the lobby and
seats), ``starting`` (seating the class), ``steps`` (the teacher's next and undo),
``ballots`` (secret ballots), ``settle`` (bots and full bags after every change), ``turns``
(a student's action), ``timer``. A lesson module's own services (its own kinds of action) live
in its folder and build on these.
"""

from facilitator.errors import ServiceError
from facilitator.services.ballots import vote_close, vote_open
from facilitator.services.casting import ballot_cast
from facilitator.services.joining import (
    NICKNAME_MAX,
    clean_nickname,
    seat_claim,
    seat_join,
    seat_remove,
    seat_reseat,
    session_by_code,
)
from facilitator.services.sessions import session_archive, session_create, session_pause
from facilitator.services.settle import BOT_VOTE_NOISE, table_settle
from facilitator.services.starting import _unique, session_start
from facilitator.services.steps import bags_recover, session_advance, session_undo
from facilitator.services.timer import TIMER_STEP, timer_change, timer_left
from facilitator.services.tokens import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    hash_token,
    new_seat_token,
    normalise_code,
)
from facilitator.services.turns import seat_turn, table_seats

__all__ = [
    "BOT_VOTE_NOISE",
    "JOIN_CODE_ALPHABET",
    "JOIN_CODE_LENGTH",
    "NICKNAME_MAX",
    "TIMER_STEP",
    "ServiceError",
    "_unique",
    "bags_recover",
    "ballot_cast",
    "clean_nickname",
    "hash_token",
    "new_seat_token",
    "normalise_code",
    "seat_claim",
    "seat_join",
    "seat_remove",
    "seat_reseat",
    "seat_turn",
    "session_advance",
    "session_archive",
    "session_by_code",
    "session_create",
    "session_pause",
    "session_start",
    "session_undo",
    "table_seats",
    "table_settle",
    "timer_change",
    "timer_left",
    "vote_close",
    "vote_open",
]
