"""Fixed SQL for the hottest statements, read into model instances as the ORM gives them.

The ORM builds every query afresh (about half of a ballot's CPU went there,
docs/performance.md). A ``Rows`` knows a model's columns once and turns a row of a fixed
statement into an instance with ``Model.from_db``, each value through the same converters the
ORM applies (so a JSON column is a dict, an SQLite boolean a ``bool``). Columns left out are
deferred: reading one later loads it with one query, exactly as ``QuerySet.only`` does.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


class Rows(Generic[M]):
    """``model``'s columns ``fields`` (default: all) in fixed SQL, and its rows as instances."""

    def __init__(self, model: type[M], fields: list[str] | None = None) -> None:
        self.model = model
        concrete = model._meta.concrete_fields
        self.fields: list[Field[Any, Any]] = [
            f for f in concrete if fields is None or f.name in fields or f.attname in fields]
        self.attnames = [f.attname for f in self.fields]
        self.table = model._meta.db_table
        self._converters: dict[str, list[tuple[int, Any, list[Any]]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def columns(self, alias: str) -> str:
        """The SELECT list for these columns of ``alias`` (the table's name in the query)."""
        return ", ".join(f'{alias}."{f.column}"' for f in self.fields)

    def _converters_for(self, connection: BaseDatabaseWrapper
                        ) -> list[tuple[int, Any, list[Any]]]:
        """The columns that need converting: position, expression, the ORM's converters."""
        found = self._converters.get(connection.alias)
        if found is None:
            found = []
            for i, field in enumerate(self.fields):
                col = field.get_col(self.table)
                converters = [*connection.ops.get_db_converters(col),
                              *field.get_db_converters(connection)]
                if converters:
                    found.append((i, col, converters))
            self._converters[connection.alias] = found
        return found

    def load(self, values: tuple[Any, ...] | list[Any], using: str = "default") -> M:
        """An instance from ``values``: one per column, in the order of ``columns``."""
        connection = connections[using]
        converted = list(values)
        for i, col, converters in self._converters_for(connection):
            value = converted[i]
            for convert in converters:
                value = convert(value, col, connection)
            converted[i] = value
        return self.model.from_db(using, self.attnames, converted)

    def prep(self, name: str, value: Any, using: str = "default") -> Any:
        """``value`` for the column of field ``name`` in a statement's parameters."""
        field = self.model._meta.get_field(name)
        return field.get_db_prep_save(value, connections[using])  # type: ignore[union-attr]
