"""Engines are found, not listed: a package under ``games/`` that declares a ``GAME_ID`` is
an engine (``games.registry.discovered``); adding a game's engine is adding its folder."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from games.registry import ENGINES, discovered


def package(root: Path, name: str, members: dict[str, str]) -> object:
    """A package ``name`` under ``root`` whose subpackages have the given ``__init__``s."""
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("")
    for member, source in members.items():
        if member.endswith(".py"):
            (root / name / member).write_text(source)
            continue
        (root / name / member).mkdir()
        (root / name / member / "__init__.py").write_text(source)
    return importlib.import_module(name)


def test_every_game_of_the_project_is_found() -> None:
    assert sorted(ENGINES) == ["austerity", "crisis", "poleconomy", "state-in-class"]


def test_a_package_with_a_game_id_is_an_engine_and_nothing_else_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    found = package(tmp_path, "found_games", {
        "zebra": 'GAME_ID = "zebra-game"\n', "alpha": 'GAME_ID = "alpha-game"\n',
        "helpers": "HELPER = 1\n", "core.py": 'GAME_ID = "a module, not a package"\n'})
    engines = discovered(found)
    assert list(engines) == ["alpha-game", "zebra-game"]
    assert engines["zebra-game"].__name__ == "found_games.zebra"


def test_two_packages_with_one_game_id_are_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    twins = package(tmp_path, "twin_games", {"one": 'GAME_ID = "twin"\n',
                                              "two": 'GAME_ID = "twin"\n'})
    with pytest.raises(RuntimeError, match="two engines declare the game id 'twin'"):
        discovered(twins)
