"""A real server for browser runs: daphne in a subprocess on 127.0.0.1, its own SQLite file.

Shared by the e2e fixtures (tests/e2e/fixtures.py) and the join benchmark (bench/join.py).
Nothing here listens beyond the loopback interface, and the server is stopped on exit.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from tests import support

ROOT = Path(__file__).resolve().parents[2]
TEACHER, PASSWORD = "e2e-teacher", "e2e-long-password-2026"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
PROJECTOR = {"viewport": {"width": 1600, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


def free_port() -> int:
    return support.free_port("127.0.0.1")  # this worker's own range (parallel runs)


def server_env(db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "DATABASE_URL", "DJANGO_PRODUCTION", "DEBUG")}
    env.update(DATABASE_URL=f"sqlite:///{db}", DJANGO_SETTINGS_MODULE="stateinclass.settings",
               JOIN_ATTEMPTS_PER_MINUTE="1000", PYTHONUNBUFFERED="1")
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, text=True,
                   capture_output=True, timeout=120, check=True)


@contextlib.contextmanager
def running_server(workdir: Path, app: str = "stateinclass.asgi:application") -> Iterator[str]:
    """Migrate a fresh SQLite file in ``workdir``, add the teacher, serve ``app`` (an ASGI
    application's dotted path); yields the URL."""
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "e2e.sqlite3"
    for stale in workdir.glob("e2e.sqlite3*"):
        stale.unlink()
    env = server_env(db)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "shell", "-c",
           "from django.contrib.auth import get_user_model as g; "
           f"g().objects.create_user('{TEACHER}', password='{PASSWORD}')")
    port = free_port()
    log_path = workdir / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port),
             "--access-log", os.devnull, app],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/about/", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("daphne did not start:\n"
                                       + log_path.read_text(errors="replace")[-3000:]) from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def local_path(url: str) -> str:
    """The path of a join address as printed on the projector.

    The projector prints the laptop's wifi address (phones cannot reach "localhost"); the test
    server listens on 127.0.0.1 only, so phones open the same path there.
    """
    parts = urlsplit(url.strip())
    assert parts.scheme == "http" and parts.path.startswith("/join/"), url
    return parts.path
