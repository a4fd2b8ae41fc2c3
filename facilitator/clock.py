"""The time seam: services ask ``now()``; tests may replace it."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
