"""Tests are laid out as the code is (docs/testing.md, "Where a test goes"): a game's engine
tests in ``tests/games/<game>/``, its lesson module's in ``tests/lessons/<game>/``, and nothing
of one game in a file of the platform's or of what every game shares.

A file is a game's when its name says so (``test_crisis_exports.py``, ``austerity_lesson.py``).
The game folders have no ``__init__.py``, so pytest imports their test modules by file name
alone: a file there starts with its game's name, which keeps every name unique."""

from __future__ import annotations

import re
from pathlib import Path

from games.registry import ENGINES

TESTS = Path(__file__).resolve().parent
GAMES = sorted(game_id.replace("-", "_") for game_id in ENGINES)
GAME_FOLDERS = ("games", "lessons")


def python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def games_named(path: Path) -> list[str]:
    """The games whose name is a whole part of the file's name (``_``-separated)."""
    return [g for g in GAMES if re.search(rf"(^|_){g}(_|$)", path.stem)]


def folder_game(path: Path) -> str | None:
    """The game whose folder holds the file: ``tests/games/<game>/…`` or
    ``tests/lessons/<game>/…``."""
    parts = path.relative_to(TESTS).parts
    if len(parts) > 2 and parts[0] in GAME_FOLDERS and parts[1] in GAMES:
        return parts[1]
    return None


def test_every_game_has_a_folder_for_its_engine_tests_and_one_for_its_lesson_tests():
    missing = [f"tests/{kind}/{g}/" for g in GAMES for kind in GAME_FOLDERS
               if not (TESTS / kind / g).is_dir()]
    assert not missing, f"no folder for: {', '.join(missing)}"


def test_a_file_named_for_a_game_lives_in_that_games_folders():
    misplaced = []
    for path in python_files():
        named = games_named(path)
        if named and folder_game(path) not in named:
            where = " or ".join(f"tests/{kind}/{g}/" for g in named for kind in GAME_FOLDERS)
            misplaced.append(f"{path.relative_to(TESTS.parent)} belongs in {where}")
    assert not misplaced, "\n".join(misplaced)


def test_a_file_in_a_games_folder_is_named_for_that_game():
    unnamed = []
    for path in python_files():
        game = folder_game(path)
        if game and path.name != "conftest.py" and not re.match(rf"(test_)?{game}_", path.name):
            unnamed.append(f"{path.relative_to(TESTS.parent)} should start with "
                           f"test_{game}_ (a test module) or {game}_ (its helpers)")
    assert not unnamed, "\n".join(unnamed)


def test_the_layout_rules_recognise_a_games_file_wherever_it_is():
    assert games_named(Path("test_crisis_exports.py")) == ["crisis"]
    assert games_named(Path("test_state_in_class_split.py")) == ["state_in_class"]
    assert games_named(Path("austerity_lesson.py")) == ["austerity"]
    assert games_named(Path("test_ballot_outcomes.py")) == []
    assert games_named(Path("test_crisisless.py")) == []
    assert folder_game(TESTS / "games" / "crisis" / "test_crisis_x.py") == "crisis"
    assert folder_game(TESTS / "lessons" / "austerity" / "test_austerity_x.py") == "austerity"
    assert folder_game(TESTS / "facilitator" / "test_austerity_x.py") is None
    assert folder_game(TESTS / "games" / "test_crisis_x.py") is None
