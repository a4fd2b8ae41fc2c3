"""``manage.py purge_sessions --older-than DAYS``: delete old finished lessons for good.

Deletes every finished or archived lesson that ended more than DAYS days ago, with everything
it owns: tables, seats (nicknames), action logs, ballot receipts and counters, ledger rows and
teacher steps. ``--dry-run`` only counts.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from facilitator.clock import now
from facilitator.models import ClassSession


class Command(BaseCommand):
    help = "Delete finished lessons older than a number of days, with all their data."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, required=True, metavar="DAYS",
                            help="delete lessons that finished more than DAYS days ago")
        parser.add_argument("--dry-run", action="store_true", help="only count")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["older_than"]
        if days < 0:
            raise CommandError("--older-than must be 0 or more days")
        cutoff = now() - timedelta(days=days)
        old = ClassSession.objects.filter(
            status__in=[ClassSession.Status.FINISHED, ClassSession.Status.ARCHIVED],
            finished_at__lt=cutoff)
        count = old.count()
        if options["dry_run"]:
            self.stdout.write(f"{count} finished lesson(s) older than {days} days would be "
                              "deleted.")
            return
        with transaction.atomic():
            old.delete()
        self.stdout.write(f"Deleted {count} finished lesson(s) older than {days} days, with "
                          "their tables, seats, logs, ballots and ledgers.")
