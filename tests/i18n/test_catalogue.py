"""The Spanish catalogue covers every text the project shows, and nothing in it is broken.

The sources are extracted the way ``make catalogue`` does (Django's makemessages, with the
Makefile's options) into a copy of the project, merged with the committed
``locale/es/LC_MESSAGES/django.po``; an entry that comes out untranslated or fuzzy is a text
with no Spanish. So adding ``{% translate "X" %}``, ``gettext("X")`` or an engine text marked
with ``games.i18n._`` without translating it fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.i18n.po import Entry, read
from tests.support import require

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
GLOSSARY = ROOT / "docs" / "glossary.md"
# Not part of the product (or not source at all): never copied for the extraction.
NOT_SOURCES = (".git", ".venv", "artifacts", "bench", "tests", "staticfiles", "__pycache__",
               ".hypothesis", ".pytest_cache", ".ruff_cache", "*.egg-info", "node_modules",
               "*.sqlite3*", "*.mo", "*.pdf", "*.png", ".secret_key")
PYTHON_FORMAT = re.compile(r"%\((\w+)\)[-+ #0]*\d*(?:\.\d+)?[sdifr]")
BRACE_FORMAT = re.compile(r"(?<!\{)\{(\w+)(?:![rsa])?(?::[^}]*)?\}(?!\})")
TAG = re.compile(r"</?[a-z]+\b[^>]*>")


def makemessages_options() -> list[str]:
    """``MAKEMESSAGES_OPTIONS`` from the Makefile (one list for ``make catalogue`` and us)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    match = re.search(r"^MAKEMESSAGES_OPTIONS\s*:?=\s*(.+)$", text, flags=re.M)
    assert match, "the Makefile lost MAKEMESSAGES_OPTIONS"
    return match.group(1).split()


def gettext_tools() -> None:
    for tool in ("xgettext", "msgmerge", "msguniq", "msgfmt"):
        require(shutil.which(tool) is not None,
                f"needs gettext ({tool}) to extract the catalogue: apt-get install gettext")


def copy_project(target: Path) -> Path:
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    return target


def extract(project: Path) -> Path:
    """Run makemessages for Spanish in ``project`` (a copy); returns its merged .po."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DJANGO_PRODUCTION", "SECRET_KEY_FILE", "PYTHONPATH")}
    env.update(SECRET_KEY="catalogue-test", DJANGO_SETTINGS_MODULE="stateinclass.settings")
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "es", *makemessages_options()],
        cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "locale" / "es" / "LC_MESSAGES" / "django.po"


def problems(entries: list[Entry]) -> list[str]:
    """Every entry with no Spanish (or only a fuzzy guess), one line each."""
    out = []
    for e in entries:
        if e.obsolete or e.msgid == "":
            continue
        if not e.translated:
            out.append(f"untranslated: {e.msgid!r}")
        elif e.fuzzy:
            out.append(f"fuzzy: {e.msgid!r} -> {e.msgstr!r}")
    return out


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> list[Entry]:
    gettext_tools()
    project = copy_project(tmp_path_factory.mktemp("catalogue") / "project")
    return read(extract(project))


@pytest.fixture(scope="module")
def catalogue() -> list[Entry]:
    return [e for e in read(PO) if not e.obsolete]


def test_every_text_the_project_uses_has_spanish(extracted):
    assert len(extracted) > 500  # the extraction really read the templates, code and games
    missing = problems(extracted)
    assert not missing, (
        f"{len(missing)} text(s) without Spanish: run `make catalogue`, translate them in "
        "locale/es/LC_MESSAGES/django.po (terms: docs/glossary.md) and remove any fuzzy "
        "flag:\n" + "\n".join(missing))


def test_the_engine_texts_and_their_reasons_are_extracted(extracted):
    """games/ marks texts with gettext_noop (as ``_``); xgettext must find them all."""
    ids = {e.msgid for e in extracted}
    for msgid in ("Social Shield", "The civil service exam", "Maximum effort",
                  "You lose {n} coins; an Exclusion token if you cannot pay.",
                  "The budget vote is not open: the tax vote is open.",
                  "{name} has already voted in this {kind} vote."):
        assert msgid in ids, msgid


def test_a_new_text_without_spanish_is_caught(tmp_path):
    gettext_tools()
    project = copy_project(tmp_path / "project")
    (project / "templates" / "_catalogue_probe.html").write_text(
        '{% load i18n %}<p>{% translate "A sentence nobody has translated yet" %}</p>\n'
        '<p>{% blocktranslate count n=3 %}{{ n }} probe{% plural %}{{ n }} probes'
        '{% endblocktranslate %}</p>\n', encoding="utf-8")
    found = problems(read(extract(project)))
    assert "untranslated: 'A sentence nobody has translated yet'" in found
    # msgmerge may guess from a similar entry ("%(n)d problem"): a fuzzy guess fails too.
    assert any(line.startswith(("untranslated: '%(n)s probe'", "fuzzy: '%(n)s probe'"))
               for line in found), found
    assert len(found) == 2, found


def test_the_committed_catalogue_has_no_fuzzy_or_empty_entry(catalogue):
    assert not problems(catalogue)


def test_the_header_is_spanish_with_two_plural_forms(catalogue):
    header = next(e for e in catalogue if e.msgid == "")
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    assert fields["Language"] == "es"
    assert fields["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert fields["Content-Type"] == "text/plain; charset=UTF-8"
    assert not header.fuzzy
    plural = [e for e in catalogue if e.msgid_plural]
    assert plural and all(len(e.msgstr) == 2 for e in plural)


def test_msgfmt_accepts_the_catalogue_with_every_check():
    msgfmt = shutil.which("msgfmt")
    require(msgfmt is not None, "needs gettext (msgfmt): apt-get install gettext")
    result = subprocess.run([msgfmt, "--check", "-o", os.devnull, str(PO)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _same(kind: str, pattern: re.Pattern[str], source: str, translation: str) -> list[str]:
    want, got = Counter(pattern.findall(source)), Counter(pattern.findall(translation))
    if kind == "tags":  # the same elements (attributes may hold translated words)
        want = Counter(t.split()[0].rstrip(">") for t in pattern.findall(source))
        got = Counter(t.split()[0].rstrip(">") for t in pattern.findall(translation))
    return [] if want == got else [f"{kind}: {dict(want)} -> {dict(got)}"]


def test_every_translation_keeps_its_placeholders_and_markup(catalogue):
    """%(name)s, {name} and <a>/<strong> survive translation, in every plural form."""
    bad = []
    for e in catalogue:
        if e.msgid == "":
            continue
        sources = [e.msgid] if e.msgid_plural is None else [e.msgid, e.msgid_plural]
        for i, translation in enumerate(e.msgstr):
            source = sources[min(i, len(sources) - 1)]
            if e.msgid_plural is not None and i == 0:
                # A singular may spell out the number ("1 coin"): compare with the plural.
                source = e.msgid_plural
            found = (_same("placeholders", PYTHON_FORMAT, source, translation)
                     + _same("braces", BRACE_FORMAT, source, translation)
                     + _same("tags", TAG, source, translation))
            bad += [f"{e.msgid!r}: {problem}" for problem in found]
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------------------- the glossary


def glossary_rows(section: str) -> list[list[str]]:
    """The rows of the first table after the heading ``section`` in docs/glossary.md."""
    text = GLOSSARY.read_text(encoding="utf-8")
    start = text.index(section)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not re.match(r"^\|\s*-", line):
            rows.append([cell.strip().strip("`") for cell in line.strip("|").split("|")])
    return rows[1:]  # without the header row


def test_the_glossary_and_the_catalogue_agree(catalogue):
    """A glossary term that is also a whole text on screen is translated as the glossary says."""
    by_id = {e.msgid: e for e in catalogue if e.msgctxt is None and not e.msgid_plural}
    rows = glossary_rows("## Game terms")
    assert len(rows) >= 40
    checked = 0
    for english, spanish, *_notes in rows:
        if english in by_id:
            checked += 1
            assert by_id[english].msgstr[0] == spanish, (english, by_id[english].msgstr,
                                                         spanish)
    assert checked >= 30


def test_no_translation_uses_a_word_the_glossary_rules_out(catalogue):
    avoid = glossary_rows("## Words we do not use")
    assert avoid
    bad = []
    for e in catalogue:
        for translation in e.msgstr if e.msgid else []:
            for word, *_use in avoid:
                if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", translation):
                    bad.append(f"{word!r} in {translation!r}")
    assert not bad, "\n".join(bad)
