"""PostgreSQL for State in Class: Django's backend, with the connection's health checked only
when it may have gone stale.

``CONN_HEALTH_CHECKS`` makes Django run ``SELECT 1`` before the first query of every request,
and Channels starts a "request" at every database hop: every ballot paid a round trip for it.
A connection used less than ``IDLE_BEFORE_CHECK`` seconds ago is trusted instead (a server
restart in that window makes that one query fail with a database error, which the caller
reports; Django then drops the broken connection); one idle for longer is checked as before,
so the first hop after a quiet spell never meets a connection the server has closed.
"""

from __future__ import annotations

import time
from typing import Any

from django.db.backends.postgresql import base

IDLE_BEFORE_CHECK = 10.0  # seconds


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.used_at = 0.0

    def close_if_health_check_failed(self) -> None:
        now = time.monotonic()
        if self.connection is not None and now - self.used_at < IDLE_BEFORE_CHECK:
            self.health_check_done = True  # used a moment ago: trusted
        super().close_if_health_check_failed()
        self.used_at = now
