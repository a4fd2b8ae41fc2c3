"""Settings for the random-play workers: the project's, on a private in-memory SQLite database.

Each worker process (``python -m tests.reliability.random_games``) migrates its own in-memory
database, so several play at once on a multi-core runner, whatever database the rest of the
suite uses. Broadcasts are switched off (no channel layer: the services' "refresh" hints go
nowhere); everything else is the product's code and settings.
"""

import os

os.environ.pop("REDIS_URL", None)
os.environ.pop("DATABASE_URL", None)

from stateinclass.settings import *  # noqa: F403

DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:",
                         "OPTIONS": {"transaction_mode": "IMMEDIATE"}}}
CHANNEL_LAYERS: dict = {}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
JOIN_ATTEMPTS_PER_MINUTE = 10**6
