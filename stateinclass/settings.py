"""Django settings for State in Class, read from the environment.

Two modes:

* classroom (default): `make run` on a teacher's laptop. Plain HTTP on the school wifi, DEBUG off,
  any host name accepted, a secret key generated once into `.secret_key`.
* production (`DJANGO_PRODUCTION=1`): HTTPS behind a proxy, SECRET_KEY and ALLOWED_HOSTS required,
  `manage.py check --deploy` is clean.

See README.md for the environment variables.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false).")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def read_secret_key(path: Path, *, create: bool) -> str:
    """The key stored in `path`; generated there (readable by the owner only) if `create`."""
    if path.exists():
        return path.read_text().strip()
    if not create:
        raise ImproperlyConfigured(f"Set SECRET_KEY or put one in {path} (production mode).")
    key = secrets.token_urlsafe(50)
    path.touch(mode=0o600)
    path.write_text(key + "\n")
    return key


PRODUCTION = env_bool("DJANGO_PRODUCTION", False)
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY") or read_secret_key(
    Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key")), create=not PRODUCTION
)

# Classroom laptops are reached by whatever LAN address the wifi gave them, so any host is
# accepted there; a public server must name its hosts.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "*")
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS (comma-separated host names) in production.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "facilitator",
    # Lesson modules (docs/modules.md): each app names its lesson; the platform imports none.
    "facilitator.lessons.state_in_class",
    "facilitator.lessons.austerity",
    "facilitator.lessons.crisis",
    "facilitator.lessons.poleconomy",
]
# The game a new lesson plays when none is named (the new-lesson page offers every module).
DEFAULT_GAME = "state-in-class"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "facilitator.middleware.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "stateinclass.urls"
WSGI_APPLICATION = "stateinclass.wsgi.application"
ASGI_APPLICATION = "stateinclass.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL (PostgreSQL in production), else a SQLite file in the repository.
DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # Writers take the lock when the transaction starts (SQLite has no SELECT ... FOR UPDATE),
        # and wait for each other instead of failing with "database is locked".
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
    # The live test server refuses an in-memory SQLite database.
    # One file per test run, so two runs on one machine do not share (and break) it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with health checks only after the connection sat idle
    # (stateinclass/postgresql/base.py): no SELECT 1 before every ballot.
    DATABASES["default"]["ENGINE"] = "stateinclass.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        # psycopg sends each statement and its parameters apart (server-side binding) instead
        # of quoting the parameters into the statement in Python, and prepares a statement
        # once a connection has run it 5 times: a ballot's fixed statements are parsed and
        # planned once per connection (docs/performance.md). No connection pooler sits in
        # between (a transaction pooler would need prepare_threshold None).
        "server_side_binding": True,
        "prepare_threshold": 5,
    })
# Keep database connections open between socket messages (docs/performance.md). With the
# default (0) Channels closed the connection after every message: each ballot opened a new
# one (a PostgreSQL login; for SQLite, closing the last connection checkpoints the WAL), which
# tripled the cost of a ballot. Health checks drop a connection that the server has closed
# (on PostgreSQL only after it sat idle: stateinclass/postgresql/base.py).
# The test suite sets 0 (tests/conftest.py), so no connection outlives a test database.
DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DB_CONN_MAX_AGE", "300"))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# Channels: Redis when several daphne processes serve one site, else in-process memory.
# With Redis, channels-redis' Pub/Sub layer, made safe for a Redis restart
# (facilitator/channel_layer.py: every socket reconnects to a fresh view); SIC_CHANNEL_LAYER=core
# picks channels-redis' core layer instead (the benchmark compares them). The Redis options avoid
# three traps of the stack (docs/architecture.md, "Traps in the stack"): idle sockets dying at
# 5 s, redis-py's 100-connection pool cap, and, for the core layer, messages silently dropped by a
# full channel.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # socket_timeout None: redis-py's default 5 s killed a socket idle for as long as
    # channels-redis' blocking wait, and with any timeout redis-py 8 wraps reads in
    # asyncio.wait_for, which on Python 3.11 can swallow a cancel, so consumers hung for 10 s at
    # shutdown. Connecting still times out.
    _redis_hosts = [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": None,
                     "socket_connect_timeout": 5}]
    if os.environ.get("SIC_CHANNEL_LAYER", "pubsub") == "core":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": _redis_hosts, "capacity": 1000},
            },
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "facilitator.channel_layer.PubSubChannelLayer",
                "CONFIG": {"hosts": _redis_hosts},
            },
        }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1000},
        },
    }

# The cache holds only short-lived counters (join-code guesses per client, hashed). Several
# daphne processes must share them, so with Redis the cache lives there too.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": "sic"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
JOIN_ATTEMPTS_PER_MINUTE = int(os.environ.get("JOIN_ATTEMPTS_PER_MINUTE", "20"))
# New seats one client address may make in one lesson per minute (a phone that already holds
# a seat there gets it back and is not counted). 48 = the largest class (40) and a table (8)
# of students joining again after the teacher removed a nickname: a whole class behind one
# school address gets in within a minute; a script refilling a lesson is slowed. Per lesson,
# so the classes of a school behind one address do not share it (docs/architecture.md).
JOIN_NEW_SEATS_PER_MINUTE = int(os.environ.get("JOIN_NEW_SEATS_PER_MINUTE", "48"))
# Failed teacher (and admin) logins per client address per minute before every login from it
# waits for the minute to end: a teacher who mistypes a few times is never held up, a guesser
# gets 10 tries a minute (docs/architecture.md, "Rate limits").
LOGIN_FAILURES_PER_MINUTE = int(os.environ.get("LOGIN_FAILURES_PER_MINUTE", "10"))

# A websocket `view` frame carries the screen (HTML, paced to the teacher's stage) and its
# phase. With LIVE_VIEW_DATA it also carries the data the screen was rendered from (the
# selectors' view): the test suite reads it (tests/conftest.py). Off otherwise: that data is
# not paced (a curious student reading frames would see a count's result before the class
# does), and it is larger than the HTML, on school wifi.
LIVE_VIEW_DATA = env_bool("LIVE_VIEW_DATA", False)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "facilitator:dashboard"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# A lesson has its language (chosen by the teacher); a phone may pick its own with the
# "English · Español" switch, which stores the choice in this cookie (Django's set_language
# view sets it). LocaleMiddleware honours it on every page; /play/ and the phone's socket
# prefer it to the lesson's language; the projector and the handouts always ignore it.
LANGUAGE_COOKIE_NAME = "sic_lang"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = PRODUCTION
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves static files under daphne with DEBUG off. In classroom mode it reads them
# straight from static/ (no collectstatic step); production serves the hashed, compressed
# files that `manage.py collectstatic` puts in STATIC_ROOT.
WHITENOISE_USE_FINDERS = not PRODUCTION
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cookies: HttpOnly and SameSite=Lax everywhere; Secure in production.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# Errors reach the console even with DEBUG off (the classroom server runs in a terminal).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
