"""The attacks of ``test_what_the_teacher_can_learn`` on both databases.

The suite runs on one database: PostgreSQL when ``DATABASE_URL`` names it (CI), else SQLite.
Whichever it is, this runs the attacks and the property once more on SQLite, in a process of
its own, so that CI proves them on both (a laptop without PostgreSQL proves SQLite twice).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).with_name("test_what_the_teacher_can_learn.py")


@pytest.mark.slow
def test_the_attacks_hold_on_sqlite_too(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(HERE), "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", "--basetemp", str(tmp_path / "run")],
        env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
