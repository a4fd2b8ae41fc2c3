"""``manage.py purge_sessions --older-than DAYS``: delete old finished lessons for good.

Deletes every finished or archived lesson that ended more than DAYS days ago, with everything
it owns: tables, seats (nicknames), action logs, ballot receipts and counters, ledger rows and
teacher steps. ``--dry-run`` only counts.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.clock import now
from facilitator.management.teacher import TeacherCommand
from facilitator.models import ClassSession


class Command(TeacherCommand):
    help = "Delete finished lessons older than a number of days, with all their data."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, required=True, metavar="DAYS",
                            help="delete lessons that finished more than DAYS days ago")
        parser.add_argument("--dry-run", action="store_true", help="only count")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["older_than"]
        if days < 0:
            raise CommandError(_("--older-than must be 0 or more days"))
        cutoff = now() - timedelta(days=days)
        old = ClassSession.objects.filter(
            status__in=[ClassSession.Status.FINISHED, ClassSession.Status.ARCHIVED],
            finished_at__lt=cutoff)
        count = old.count()
        values = {"lessons": ngettext("%(n)d finished lesson", "%(n)d finished lessons",
                                      count) % {"n": count},
                  "days": ngettext("%(n)d day", "%(n)d days", days) % {"n": days}}
        if options["dry_run"]:
            self.stdout.write(_("%(lessons)s older than %(days)s would be deleted.") % values)
            return
        with transaction.atomic():
            old.delete()
        self.stdout.write(_("Deleted %(lessons)s older than %(days)s, with their tables, seats, "
                            "logs, ballots and ledgers.") % values)
