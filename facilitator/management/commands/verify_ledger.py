"""``manage.py verify_ledger``: prove every table's ledger equals its engine state.

For each table: the cached snapshot equals a full replay of the log, every account's ledger
balance equals the engine's (``balances``: every account the engine keeps), and the ledger
sums to zero (no coin or credit created or lost). Exits non-zero, listing the problems, if
any table fails.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.log import verify_table
from facilitator.management.teacher import TeacherCommand
from facilitator.models import Table


class Command(TeacherCommand):
    help = "Check that every table's ledger and snapshot agree with a replay of its log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--session", type=int, help="only the tables of this session id")

    def handle(self, *args: Any, **options: Any) -> None:
        tables = Table.objects.select_related("session").order_by("session_id", "number")
        if options["session"] is not None:
            tables = tables.filter(session_id=options["session"])
        failures = 0
        checked = 0
        for table in tables:
            checked += 1
            for problem in verify_table(table):
                failures += 1
                self.stderr.write(_("session %(session)d table %(table)d: %(problem)s") % {
                    "session": table.session_id, "table": table.number, "problem": problem})
        tables_text = ngettext("%(n)d table", "%(n)d tables", checked) % {"n": checked}
        if failures:
            raise CommandError(_("%(problems)s in %(tables)s") % {
                "problems": ngettext("%(n)d problem", "%(n)d problems", failures) % {
                    "n": failures},
                "tables": tables_text})
        self.stdout.write(_("%(tables)s checked: ledger, snapshot and replay agree.") % {
            "tables": tables_text})
