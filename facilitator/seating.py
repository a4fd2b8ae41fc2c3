"""Splitting a class into tables of a lesson module's sizes (pure functions, no database).

The sizes default to 6–8 players, State in Class's tables; every module passes its own."""

from __future__ import annotations

from dataclasses import dataclass

MIN_TABLE = 6
MAX_TABLE = 8


def even_split(players: int, smallest: int = MIN_TABLE, largest: int = MAX_TABLE
               ) -> list[int] | None:
    """Tables of ``smallest``–``largest`` players as even as possible, using as few tables as
    possible; None if impossible (with 6–8:

    20 → [7, 7, 6]; 32 → [8, 8, 8, 8]; 17 → None: two tables hold 16 at most, three need 18).
    """
    if players < smallest:
        return None
    tables = -(-players // largest)
    if tables * smallest > players:
        return None
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


@dataclass(frozen=True)
class SeatingPlan:
    tables: list[int]  # seats per table
    bots: int = 0  # bot seats added
    pairs: int = 0  # seats shared by two students
    # Seats per engine player: 1, or a team's size (consecutive seats of a table form a team;
    # ``facilitator.parties``).
    party_size: int = 1
    # Or, per table, the seats of each engine player in seat order (teams and players alone
    # mixed, e.g. ``(2, 1, 1, 1)``), with ``table_bots``: how many of each table's seats are
    # bots (its last places, each a player alone). Empty: every party is ``party_size``.
    parties: tuple[tuple[int, ...], ...] = ()
    table_bots: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        """A plan with ``parties`` fills every seat of each table, and its bots are the table's
        last parties, each of one seat (a module's mistake fails here, not halfway through a
        start)."""
        if not self.parties:
            return
        if len(self.parties) != len(self.tables) or len(self.table_bots) != len(self.tables):
            raise ValueError("parties and table_bots need one entry per table")
        for seats, sizes, bots in zip(self.tables, self.parties, self.table_bots, strict=True):
            if sum(sizes) != seats or not 0 <= bots <= len(sizes) or min(sizes) < 1 \
                    or any(n != 1 for n in sizes[len(sizes) - bots:]):
                raise ValueError(f"a table of {seats} seats cannot hold parties {sizes} "
                                 f"with {bots} bots")
        if sum(self.table_bots) != self.bots:
            raise ValueError("table_bots must add up to bots")

    @property
    def seats(self) -> int:
        return sum(self.tables)


def plan(students: int, fill: str | None = None, smallest: int = MIN_TABLE,
         largest: int = MAX_TABLE) -> SeatingPlan | None:
    """How to seat ``students``: evenly if possible, else as ``fill`` says.

    ``fill="bots"``: add the fewest bots that make an even split possible.
    ``fill="pairs"``: let the fewest pairs of students share a seat (and a phone).
    Returns None when the students cannot be seated that way.
    """
    if students < 1:
        return None
    split = even_split(students, smallest, largest)
    if split is not None:
        return SeatingPlan(split)
    if fill == "bots":
        seats = students
        while even_split(seats, smallest, largest) is None:
            seats += 1
        return SeatingPlan(even_split(seats, smallest, largest) or [], bots=seats - students)
    if fill == "pairs":
        for seats in range(students - 1, (students + 1) // 2 - 1, -1):
            split = even_split(seats, smallest, largest)
            if split is not None:
                return SeatingPlan(split, pairs=students - seats)
    return None
