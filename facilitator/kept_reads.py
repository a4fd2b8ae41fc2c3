"""The reads kept for one screen being rendered (``screen_reads``), and what they hold.

A leaf: it imports nothing of the platform at run time, so the modules whose reads it keeps
(``table_reads`` fills it; ``bags.open_bag``, ``bags.voter_ids``, ``presence.online`` and
``services.turns.table_seats`` answer from it) import it without importing each other.

Within ``screen_reads()`` (one screen being rendered, which writes nothing) a table's reads
are kept once read, keyed by table (never by seat), and a module may keep its own reads with
``remembered``. Outside it nothing is kept: every call reads the database, as services must.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from facilitator.models import Bag, Seat, Table

T = TypeVar("T")
_scope: ContextVar[dict[Hashable, Any] | None] = ContextVar("screen_reads", default=None)


@contextmanager
def screen_reads() -> Iterator[None]:
    """Render one screen: what it reads of the tables is read once (see the module)."""
    token = _scope.set({}) if _scope.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _scope.reset(token)


def remembered(key: Hashable, read: Callable[[], T]) -> T:
    """``read()``, once per screen being rendered (every time outside ``screen_reads``)."""
    memo = _scope.get()
    if memo is None:
        return read()
    if key not in memo:
        memo[key] = read()
    return memo[key]  # type: ignore[no-any-return]


@dataclass
class OpenBag:
    bag: Bag
    generation: str
    voters: list[tuple[int, str]] = field(default_factory=list)  # (seat id, player), by seat

    @property
    def decision(self) -> str:
        return self.bag.decision


@dataclass
class TableReads:
    """One lesson's tables (or one table) and what the screens need of each."""

    tables: list[Table]
    seats: dict[int, list[Seat]]  # by table id, in seat order
    online: set[int]
    open_bags: dict[int, OpenBag]  # by table id

    def roster_seats(self, table: Table) -> list[Seat]:
        return self.seats.get(table.pk, [])

    def voter_names(self, table: Table) -> dict[str, list[str]]:
        """The open bag's voters by decision (as ``log._bag_voters`` gives them)."""
        bag = self.open_bags.get(table.pk)
        if bag is None or not bag.voters:
            return {}
        return {bag.decision: [name for _seat, name in bag.voters]}

    def bag_info(self, table: Table) -> dict[str, str]:
        bag = self.open_bags.get(table.pk)
        return {"reopened": "", "bag": ""} if bag is None else {
            "reopened": bag.bag.reopened, "bag": bag.generation}


def keep(reads: TableReads) -> None:
    """Keep ``reads`` for the screen being rendered (nothing outside ``screen_reads``)."""
    memo = _scope.get()
    if memo is None:
        return
    for table in reads.tables:
        memo[("table", table.pk)] = reads
    memo.setdefault("seats", set()).update(s.pk for group in reads.seats.values()
                                           for s in group)
    memo.setdefault("online", set()).update(reads.online)


def kept(table_id: int) -> TableReads | None:
    """The reads of table ``table_id`` kept for the screen being rendered, if any."""
    memo = _scope.get()
    return None if memo is None else memo.get(("table", table_id))


def kept_online(seat_ids: list[int]) -> set[int] | None:
    """Which of ``seat_ids`` are online, if every one is a seat of a table already read."""
    memo = _scope.get()
    if memo is None or not seat_ids:
        return None
    known: set[int] = memo.get("seats", set())
    if not known.issuperset(seat_ids):
        return None
    online: set[int] = memo.get("online", set())
    return online.intersection(seat_ids)
