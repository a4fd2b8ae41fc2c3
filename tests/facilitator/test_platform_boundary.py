"""The platform knows no game: only a lesson module (``facilitator/lessons/<game>/``) may import
its engine, and no platform module or template names a module's code or templates."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "facilitator" / "lessons"
# What a platform module may import from games/: the protocol and the registry.
SHARED = {"games", "games.core", "games.i18n", "games.registry"}
MODULES = sorted(p.name for p in LESSONS.iterdir() if (p / "__init__.py").exists())


def platform_files(suffix: str) -> list[Path]:
    roots = [ROOT / "facilitator", ROOT / "templates", ROOT / "stateinclass"]
    return [p for root in roots for p in root.rglob(f"*{suffix}")
            if not any(p.is_relative_to(LESSONS / m) for m in MODULES)]


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_there_are_lesson_modules_to_keep_out() -> None:
    assert {"state_in_class", "austerity", "crisis", "poleconomy"} <= set(MODULES)


def test_no_platform_module_imports_a_game_or_a_lesson_module() -> None:
    offenders = []
    for path in platform_files(".py"):
        for name in imported(path):
            game = name.startswith("games.") and name.split(".")[:2] != ["games", "core"] \
                and ".".join(name.split(".")[:2]) not in SHARED
            module = any(name == f"facilitator.lessons.{m}"
                         or name.startswith(f"facilitator.lessons.{m}.") for m in MODULES)
            if game or module:
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_no_platform_template_names_a_modules_templates() -> None:
    pattern = re.compile(r"\{%\s*(?:include|extends)\s+[\"'](" + "|".join(MODULES) + r")/")
    offenders = [str(p.relative_to(ROOT)) for p in platform_files(".html")
                 if pattern.search(p.read_text())]
    assert offenders == []


def test_the_check_would_catch_an_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from games.state_in_class import data\n"
                      "import facilitator.lessons.state_in_class.script\n")
    assert {"games.state_in_class", "facilitator.lessons.state_in_class.script"} <= \
        imported(sneaky)
