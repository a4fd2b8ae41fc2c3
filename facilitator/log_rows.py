"""Fixed SQL for the log's writes: a table's next action, its ledger entries, its snapshot.

The rows the ORM would write, each value through its field's own ``get_db_prep_save``
(``Rows.prep``), in statements built once: a count appends to the log, the ledger and the
snapshot, and building those statements with the ORM cost more than running them
(docs/performance.md, "The vote path toward the physical limit"). Call inside the
transaction that holds the table's row lock: the next ``seq`` of the log and of the ledger is
read under it, so no other writer can take it. ``tests/facilitator/test_vote_path.py``
checks that the rows read back exactly as the ORM wrote them before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection

from facilitator.models import LedgerEntry, Table, TableAction
from facilitator.rows import Rows

ACTION = Rows(TableAction)
LEDGER = Rows(LedgerEntry)
TABLE = Rows(Table, ["snapshot"])
_ACTION_COLUMNS = ("table_id", "seq", "step_id", "actor", "seat_id", "on_behalf_id", "how",
                   "round", "payload", "created_at")
_LEDGER_COLUMNS = ("table_id", "action_id", "seq", "round", "source", "destination", "amount",
                   "reason", "details")
_LEDGER_ROW = f"({', '.join(['%s'] * len(_LEDGER_COLUMNS))})"
LEDGER_ROWS_PER_STATEMENT = 100  # far below every backend's limit on parameters

# The action's seq is the table's last + 1, read in the same statement.
_ACTION_SQL = (
    f"INSERT INTO {ACTION.table} ({', '.join(_ACTION_COLUMNS)}) VALUES "
    f"(%s, (SELECT COALESCE(MAX(seq), 0) + 1 FROM {ACTION.table} WHERE table_id = %s), "
    f"%s, %s, %s, %s, %s, %s, %s, %s)")
_LAST_LEDGER_SQL = f"SELECT COALESCE(MAX(seq), 0) FROM {LEDGER.table} WHERE table_id = %s"
_SNAPSHOT_SQL = f"UPDATE {TABLE.table} SET snapshot = %s WHERE id = %s"


def action_append(*, table_id: int, step_id: int | None, actor: str, seat_id: int | None,
                  round_: int, payload: dict[str, Any], created_at: Any,
                  on_behalf_id: int | None = None, how: str = "") -> int:
    """Append one action to the table's log (``seq``: the last one's + 1); its id."""
    params = [table_id, table_id, step_id, actor, seat_id, on_behalf_id, how, round_,
              ACTION.prep("payload", payload), ACTION.prep("created_at", created_at)]
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{_ACTION_SQL} RETURNING id", params)
            return int(cursor.fetchone()[0])
        cursor.execute(_ACTION_SQL, params)
        return int(cursor.lastrowid)


def ledger_append(*, table_id: int, action_id: int | None,
                  transfers: Iterable[dict[str, Any]]) -> None:
    """Append the transfers to the table's ledger, numbered after its last entry."""
    rows = list(transfers)
    if not rows:
        return
    with connection.cursor() as cursor:
        cursor.execute(_LAST_LEDGER_SQL, [table_id])
        last = int(cursor.fetchone()[0])
        for start in range(0, len(rows), LEDGER_ROWS_PER_STATEMENT):
            chunk = rows[start:start + LEDGER_ROWS_PER_STATEMENT]
            params: list[Any] = []
            for i, t in enumerate(chunk, start=last + start + 1):
                params += [table_id, action_id, i, t["round"], t["source"], t["destination"],
                           t["amount"], t["reason"], LEDGER.prep("details", t["details"])]
            cursor.execute(f"INSERT INTO {LEDGER.table} ({', '.join(_LEDGER_COLUMNS)}) VALUES "
                           + ", ".join([_LEDGER_ROW] * len(chunk)), params)


def snapshot_save(*, table_id: int, snapshot: dict[str, Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_SNAPSHOT_SQL, [TABLE.prep("snapshot", snapshot), table_id])
