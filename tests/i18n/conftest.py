"""The translation tests: the Spanish catalogue compiled before anything renders, and the
browser fixtures of tests/e2e (that package owns them) shared with the Spanish lesson in
test_spanish_browser.py.

``make test`` compiles the catalogue first (``make messages``); a bare ``pytest`` run gets it
compiled here the same way when the .mo is missing or older than the .po.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils.translation import trans_real

from tests.e2e.live import running_server
from tests.support import require

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def compile_catalogue() -> None:
    """Compile the Spanish .po as ``make messages`` does, if its .mo is missing or stale."""
    if MO.exists() and MO.stat().st_mtime >= PO.stat().st_mtime:
        return
    msgfmt = shutil.which("msgfmt")
    require(msgfmt is not None, "needs gettext (msgfmt) to compile the Spanish catalogue: "
                                "apt-get install gettext")
    assert msgfmt is not None
    partial = MO.with_name(f".django.{os.getpid()}.mo")
    subprocess.run([msgfmt, "--check-format", "-o", str(partial), str(PO)], check=True,
                   capture_output=True, text=True)
    partial.replace(MO)  # atomic: another process never reads half a catalogue
    # Forget catalogues this process has already loaded without the Spanish one.
    trans_real._translations = {}
    trans_real._default = None


@pytest.fixture(scope="session", autouse=True)
def spanish_catalogue() -> None:
    compile_catalogue()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_session: str,
           spanish_catalogue: None) -> Iterator[str]:
    """A daphne of our own (after the catalogue is compiled), for the Spanish lesson."""
    with running_server(tmp_path_factory.mktemp("i18n-e2e")) as url:
        yield url
