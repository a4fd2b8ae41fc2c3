"""Parties: who acts for one engine player.

- a student on their own phone (a seat);
- two students sharing a phone (the partner's seat ``shares`` the other's: it has no vote and
  no action of its own, and follows the game on its own phone);
- a team: several seats, each on its own phone, seated as one engine player (the same
  ``player_name`` at the same table). Every member sees the team's own view; the **captain**
  makes the team's moves; a secret ballot takes one token per team;
- every voter of a table (a ``VOTERS`` decision), which is the set of parties.

The captain rotates each round in seat order (round 1: the first member) and stays the
captain named on every screen. While the captain's phone has no open socket (asleep, or out of
the wifi), the next member in that order whose phone is connected **stands in**: they may act
for the party, the screens name them as acting for the captain, and the record says so
(``TableAction.How.STAND_IN``). With nobody connected (phones on plain form posts, which hold
no socket) the captain acts; a module that wants a bot for an absent team checks ``presence``
itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from facilitator import presence
from facilitator.models import Seat, TableAction


def voters(seats: Iterable[Seat]) -> list[Seat]:
    """The seats that may act for their party: not removed, not on a partner's phone."""
    return [s for s in seats if not s.removed and s.shares_id is None]


def parties(seats: Iterable[Seat]) -> dict[str, list[Seat]]:
    """The table's parties: each engine player's acting seats, in seat order."""
    out: dict[str, list[Seat]] = {}
    for seat in sorted(voters(seats), key=lambda s: s.position or 0):
        out.setdefault(seat.player_name, []).append(seat)
    return out


def members(seats: Iterable[Seat], player_name: str) -> list[Seat]:
    return parties(seats).get(player_name, [])


def captain(members_: list[Seat], round_: int) -> Seat | None:
    """The party's captain in round ``round_``, by the rotation (see the module docstring):
    the member named on every screen, whose decision it is. None only for a party with no
    member."""
    if not members_:
        return None
    return members_[max(round_ - 1, 0) % len(members_)]


def acting(members_: list[Seat], round_: int, online: set[int] | None = None) -> Seat | None:
    """The member who may act for the party now: the captain, or while the captain's phone
    is not connected, the next member in seat order whose phone is (the stand-in). With
    nobody connected, the captain. ``online``: the connected seats (read from presence if not
    given); bots always are."""
    chief = captain(members_, round_)
    if chief is None or len(members_) == 1:
        return chief
    if online is None:
        online = presence.online(s.pk for s in members_ if not s.is_bot)
    start = members_.index(chief)
    for i in range(len(members_)):
        seat = members_[(start + i) % len(members_)]
        if seat.is_bot or seat.pk in online:
            return seat
    return chief


def stands_in_for(seat: Seat, members_: list[Seat], round_: int,
                  online: set[int] | None = None) -> Seat | None:
    """The captain whom ``seat`` acts for now as a stand-in, or None (``seat`` is the captain,
    or may not act)."""
    chief = captain(members_, round_)
    if chief is None or chief == seat or acting(members_, round_, online) != seat:
        return None
    return chief


def on_whose_behalf(seat: Seat, seats: Iterable[Seat], round_: int) -> tuple[Seat, str]:
    """Whose decision ``seat``'s move for its party is, and how it is taken (the record's
    "who acted, and how"): its own (``chose``), or the captain's it stands in for
    (``stand_in``)."""
    chief = stands_in_for(seat, members(seats, seat.player_name), round_)
    if chief is None:
        return seat, TableAction.How.CHOSE
    return chief, TableAction.How.STAND_IN


def is_captain(seat: Seat, seats: Iterable[Seat], round_: int) -> bool:
    """Whether ``seat`` may act for its party now: its captain, or the captain's stand-in
    (always, for a party of one)."""
    group = members(seats, seat.player_name)
    if len(group) <= 1:
        return True
    return acting(group, round_) == seat


def team_names(count: int, name: str) -> list[str]:
    """``count`` party names from a module's pattern ``name`` (with ``%(n)s``)."""
    return [name % {"n": i + 1} for i in range(count)]
