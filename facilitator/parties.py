"""Parties: who acts for one engine player.

- a student on their own phone (a seat);
- two students sharing a phone (the partner's seat ``shares`` the other's: it has no vote and
  no action of its own, and follows the game on its own phone);
- a team: several seats, each on its own phone, seated as one engine player (the same
  ``player_name`` at the same table). Every member sees the team's own view; the **captain**
  makes the team's moves; a secret ballot takes one token per team;
- every voter of a table (a ``VOTERS`` decision), which is the set of parties.

The captain rotates each round in seat order (round 1: the first member); a captain whose
phone is not connected is replaced, for that round, by the next member who is. With nobody
connected (phones on plain form posts, which hold no socket) the rotation's member stays
captain; a module that wants a bot for an absent team checks ``presence`` itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from facilitator import presence
from facilitator.models import Seat


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


def captain(members_: list[Seat], round_: int, online: set[int] | None = None) -> Seat | None:
    """The member who acts for the party in round ``round_`` (see the module docstring);
    None only for a party with no member. ``online``: the connected seats (read from
    presence if not given); bots always are."""
    if not members_:
        return None
    if len(members_) == 1:
        return members_[0]
    if online is None:
        online = presence.online(s.pk for s in members_ if not s.is_bot)
    start = max(round_ - 1, 0) % len(members_)
    for i in range(len(members_)):
        seat = members_[(start + i) % len(members_)]
        if seat.is_bot or seat.pk in online:
            return seat
    return members_[start]


def is_captain(seat: Seat, seats: Iterable[Seat], round_: int) -> bool:
    """Whether ``seat`` acts for its party now (always, for a party of one)."""
    group = members(seats, seat.player_name)
    if len(group) <= 1:
        return True
    return captain(group, round_) == seat


def team_names(count: int, name: str) -> list[str]:
    """``count`` party names from a module's pattern ``name`` (with ``%(n)s``)."""
    return [name % {"n": i + 1} for i in range(count)]
