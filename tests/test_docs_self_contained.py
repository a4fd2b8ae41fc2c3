"""The project explains itself: no file in the repository points to a file outside it.

The design once lived in documents kept beside the repository (a design document, notes on the
stack's traps, benchmark notes, the rulebooks and our edition notes for each game). Everything a
reader needs is now in the repository: the code's comments and ``docs/``. This test scans every
tracked text file and fails, naming ``file:line``, on

- a reference to one of those outside documents, by name or by section ("§3 of the design");
- a path to a Markdown file that does not exist in the repository: a backticked ``docs/...md``,
  a Markdown link, or any other ``name.md`` (resolved from the file's folder, then from the
  repository's root; in Python, ``"docs" / "engines" / "crisis.md"`` is joined first).

A rulebook is "the rulebook" and an edition note "our edition notes", never a path. Fast, no
database: it reads the files ``git ls-files`` lists.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[1]
THIS = PurePosixPath(Path(__file__).resolve().relative_to(ROOT).as_posix())

TEXT_SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".toml", ".txt", ".cfg", ".ini", ".sh",
                 ".yml", ".yaml"}
TEXT_NAMES = {"Makefile", ".ci/run"}
TEXT_FOLDERS = ("scripts/",)

# Documents that never were in the repository, by name or by section.
OUTSIDE = [
    (re.compile(r"\bDESIGN(?:\.md)?\s*§"), "a section of the old design document"),
    (re.compile(r"\bDESIGN\.md\b"), "the old design document"),
    (re.compile(r"\bSTACK(?:\.md\b|\s+traps?\b)"), "the old notes on the stack's traps"),
    (re.compile(r"\bBENCH-NOTES\b"), "the old benchmark notes"),
    (re.compile(r"(?<![\w.-])(?:\.\./)+shared\b"), "a folder beside the repository"),
    (re.compile(r"(?<![\w./-])shared/[\w.-]"), "a folder beside the repository"),
    (re.compile(r"(?<![\w-])rules/[\w-]+\.md\b"), "a rulebook's path"),
    (re.compile(r"[\w-]+-edition\.md\b"), "an edition note's path"),
    (re.compile(r"\bstate-in-class-roles\.md\b"), "an edition note's path"),
    (re.compile(r"\bcrisis-data\.md\b"), "an edition note's path"),
]

# Any name.md: a relative path with no scheme, no placeholder, no glob.
MD_PATH = re.compile(r"(?<![\w./<>*{}-])((?:\.{1,2}/)*[\w-]+(?:[./][\w-]+)*\.md)\b")
# A path built with pathlib in Python: "docs" / "engines" / "crisis.md".
JOINED = re.compile(r"""((?:["'][\w.-]+["']\s*/\s*)+)["']([\w.-]+\.md)["']""")
PIECE = re.compile(r"""["']([\w.-]+)["']""")
# A Markdown link's target (not a web address, not an anchor in the same page).
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def tracked_text_files() -> list[PurePosixPath]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    files = []
    for name in filter(None, names):
        path = PurePosixPath(name)
        if name.endswith(".po") or path == THIS:
            continue
        if path.suffix in TEXT_SUFFIXES or name in TEXT_NAMES or name.startswith(TEXT_FOLDERS):
            files.append(path)
    return files


def read_text(path: PurePosixPath) -> str | None:
    """The file's text, or None for a binary file (or one deleted but still tracked)."""
    try:
        data = (ROOT / path).read_bytes()
    except FileNotFoundError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def exists(target: str, where: PurePosixPath) -> bool:
    """Does ``target`` name a file in the repository, from ``where``'s folder or from the root?"""
    for base in (ROOT / where.parent, ROOT):
        candidate = (base / target).resolve()
        if candidate.is_relative_to(ROOT) and candidate.exists():
            return True
    return False


def joined_paths(line: str) -> tuple[list[str], str]:
    """Paths a Python line builds with ``/`` and the line with them blanked out."""
    paths = []

    def keep(match: re.Match[str]) -> str:
        paths.append("/".join([*PIECE.findall(match.group(1)), match.group(2)]))
        return " " * len(match.group(0))

    return paths, JOINED.sub(keep, line)


def problems_in(path: PurePosixPath, text: str) -> list[str]:
    """One line of report per offending line: ``file:line: what (the text found)``."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        reasons: dict[str, str] = {}
        for pattern, what in OUTSIDE:
            for match in pattern.finditer(line):
                reasons.setdefault(what, match.group(0))
        rest = line
        if path.suffix == ".py":
            paths, rest = joined_paths(line)
            for target in paths:
                if not (ROOT / target).exists():
                    reasons.setdefault(f"{target!r} is not in the repository", target)
        targets = set(MD_PATH.findall(rest))
        if path.suffix == ".md":
            targets |= {t for t in LINK.findall(rest) if ":" not in t}
        for target in sorted(targets):
            if not any(p.search(target) for p, _ in OUTSIDE) and not exists(target, path):
                reasons.setdefault(f"{target!r} is not in the repository", target)
        if reasons:
            said = "; ".join(what if what.endswith("repository") else f"{what} ({text!r})"
                             for what, text in reasons.items())
            found.append(f"{path}:{number}: {said}")
    return found


def test_no_reference_to_a_file_outside_the_repository() -> None:
    problems = []
    for path in tracked_text_files():
        text = read_text(path)
        if text is not None:
            problems += problems_in(path, text)
    assert not problems, (
        f"{len(problems)} line(s) refer to files outside the repository (say it in the "
        "repository's own words, point to docs/, or say 'the rulebook' / 'our edition notes'):\n"
        + "\n".join(problems))


@pytest.mark.parametrize("line, expected", [
    ("The record format (DESIGN §3).", 1),
    ("see DESIGN.md", 1),
    ("STACK.md trap 4", 1),
    ("channels-redis, STACK trap 1", 1),
    ("as in BENCH-NOTES", 1),
    ("`shared/rules/crisis.md`", 1),
    ("../shared/x", 1),
    ("see shared/hooks/before-stop", 1),
    ("`tests/games/shared/x.py` is ours", 0),
    ("``crisis-edition.md``", 1),
    ("`docs/nowhere.md`", 1),
    ("[the balance](nowhere.md)", 1),
    ("`docs/secrecy.md` and [engine](docs/engine.md)", 0),
    ("the rulebook and our edition notes", 0),
    ("a DESIGN_CONSTANT and a STACK of cards", 0),
])
def test_the_patterns_catch_what_they_should(line: str, expected: int) -> None:
    assert len(problems_in(PurePosixPath("README.md"), line)) == expected, line
