import os
import runpy
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(settings.BASE_DIR)
SETTINGS_FILE = BASE_DIR / "stateinclass" / "settings.py"
ENV_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_PRODUCTION",
    "DEBUG",
    "ALLOWED_HOSTS",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
)


@pytest.fixture
def load_settings(monkeypatch, tmp_path):
    """Evaluate settings.py afresh under the given environment; returns its names."""

    def load(**env: str) -> dict[str, Any]:
        for name in ENV_VARS:
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "secret_key"))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(SETTINGS_FILE))

    return load


def test_classroom_defaults(load_settings):
    s = load_settings()
    assert s["DEBUG"] is False
    assert s["ALLOWED_HOSTS"] == ["*"]
    assert s["ASGI_APPLICATION"] == "stateinclass.asgi.application"
    assert s["INSTALLED_APPS"][0] == "daphne"
    assert {"channels", "facilitator"} <= set(s["INSTALLED_APPS"])
    assert s["SESSION_COOKIE_HTTPONLY"] and s["CSRF_COOKIE_HTTPONLY"]
    assert s["SESSION_COOKIE_SAMESITE"] == s["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert "django.middleware.csrf.CsrfViewMiddleware" in s["MIDDLEWARE"]
    assert "django.middleware.locale.LocaleMiddleware" in s["MIDDLEWARE"]
    assert [code for code, _ in s["LANGUAGES"]] == ["en", "es"]
    assert s["LOCALE_PATHS"] == [BASE_DIR / "locale"]


def test_env_lists_and_booleans(load_settings):
    s = load_settings(ALLOWED_HOSTS="class.example.org, 192.168.1.20,", DEBUG="true")
    assert s["ALLOWED_HOSTS"] == ["class.example.org", "192.168.1.20"]
    assert s["DEBUG"] is True
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        load_settings(DEBUG="maybe")


def test_default_database_is_sqlite_file_in_repo(load_settings):
    db = load_settings()["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(db["NAME"]) == BASE_DIR / "db.sqlite3"
    assert db["TEST"]["NAME"] != ":memory:"  # the live test server refuses in-memory SQLite
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_database_url_is_parsed(load_settings):
    s = load_settings(DATABASE_URL="postgres://lessons:pw@db.example:5433/classes")
    db = s["DATABASES"]["default"]
    assert db["ENGINE"] == "stateinclass.postgresql"  # Django's, checked only when idle
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("classes", "lessons", "pw")
    assert (db["HOST"], db["PORT"]) == ("db.example", 5433)
    assert "TEST" not in db


def test_in_memory_channel_layer_without_redis(load_settings):
    assert load_settings()["CHANNEL_LAYERS"] == {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1000},
        }
    }


def test_redis_url_switches_to_redis_layer_with_safe_options(load_settings):
    url = "redis://cache.example:6379/2"
    hosts = [{"address": url, "max_connections": 1000, "socket_timeout": None,
              "socket_connect_timeout": 5}]
    assert load_settings(REDIS_URL=url)["CHANNEL_LAYERS"] == {
        "default": {"BACKEND": "facilitator.channel_layer.PubSubChannelLayer",
                    "CONFIG": {"hosts": hosts}},
    }
    assert load_settings(REDIS_URL=url, SIC_CHANNEL_LAYER="core")["CHANNEL_LAYERS"] == {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                    "CONFIG": {"hosts": hosts, "capacity": 1000}},
    }


def test_secret_key_is_generated_once_and_kept_private(load_settings, tmp_path):
    key = load_settings()["SECRET_KEY"]
    key_file = tmp_path / "secret_key"
    assert key_file.read_text().strip() == key
    assert key_file.stat().st_mode & 0o077 == 0
    assert len(key) >= 50
    assert load_settings()["SECRET_KEY"] == key
    assert load_settings(SECRET_KEY="from-the-environment")["SECRET_KEY"] == "from-the-environment"


def test_production_requires_secret_key_and_hosts(load_settings, tmp_path):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(DJANGO_PRODUCTION="1", ALLOWED_HOSTS="class.example.org")
    assert not (tmp_path / "secret_key").exists()
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        load_settings(DJANGO_PRODUCTION="1", SECRET_KEY="x" * 60)


def test_production_uses_https_settings(load_settings):
    s = load_settings(DJANGO_PRODUCTION="1", SECRET_KEY="x" * 60, ALLOWED_HOSTS="class.example.org")
    assert s["SECURE_SSL_REDIRECT"] and s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"]
    assert s["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert s["SECURE_HSTS_SECONDS"] >= 60 * 60 * 24 * 365


def run_deploy_check(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ENV_VARS} | env
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_is_clean_in_production():
    result = run_deploy_check(
        DJANGO_PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="class.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_flags_classroom_mode():
    """The classroom (plain HTTP) mode is not for the internet, and the check says so."""
    result = run_deploy_check(SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode != 0
    assert "security.W004" in result.stderr  # no HSTS
