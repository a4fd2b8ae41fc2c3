"""Data export for research and teachers' records (pure reads).

- ``table_record``: a table's game record (docs/record.md), the replay input: config, seed and
  every decision, ballots rebuilt from the receipts (who voted, never what).
- ``rounds_csv``: one row per table and round: the public history (tallies, winners, split,
  Tension changes with their causes, levels and funds).
- ``results_csv``: one row per player: the final count.

``anonymous=True`` replaces every player name with "Player 1…8" (seat order at the table) in
all three. The CSVs use stable machine ids (``could_not_pay``, ``shield``), not translated
texts, so files from different classes and languages can be put together.
"""

from __future__ import annotations

import copy
import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from facilitator.log import game_record
from facilitator.models import Table


def pseudonyms(names: Sequence[str]) -> dict[str, str]:
    """Player name -> "Player N", in seat order (the order of ``config.players``)."""
    return {name: f"Player {i}" for i, name in enumerate(names, start=1)}


def _rename(value: Any, names: Mapping[str, str]) -> Any:
    return names.get(value, value) if isinstance(value, str) else value


def anonymise_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The same record with every player name replaced; it still replays to the same game."""
    out = copy.deepcopy(dict(record))
    # The students who acted for someone else are named "Student N" in order of appearance.
    students: dict[str, str] = {}
    for acted in out.get("acted", []):
        if "by" in acted:
            acted["by"] = students.setdefault(acted["by"], f"Student {len(students) + 1}")
    config = out["config"]
    names = pseudonyms(config.get("players", []))
    for acted in out.get("acted", []):
        if "player" in acted:  # a seat a config does not name (Austerity's) is numbered too
            acted["player"] = names.setdefault(acted["player"], f"Player {len(names) + 1}")
    if "players" not in config:  # a config that names no player (Austerity's) is anonymous
        return out
    config["players"] = [names[n] for n in config["players"]]
    if "roles" in config:
        config["roles"] = {names.get(k, k): v for k, v in config["roles"].items()}
    for action in out["actions"]:
        if "player" in action:
            action["player"] = _rename(action["player"], names)
    return out


def table_record(table: Table, *, anonymous: bool = False) -> dict[str, Any]:
    record = game_record(table)
    return anonymise_record(record) if anonymous else record


# --------------------------------------------------------------------------- CSV


def csv_text(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: cell(row.get(k)) for k in columns})
    return buffer.getvalue()


def cell(value: Any) -> Any:
    """Booleans as 0/1; texts that a spreadsheet would run as a formula are quoted."""
    if isinstance(value, bool):
        return int(value)
    if value is None:
        return ""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
