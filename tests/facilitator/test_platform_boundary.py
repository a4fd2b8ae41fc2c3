"""The platform knows no game: only a lesson module (``facilitator/lessons/<game>/``) may import
its engine, and no platform module or template names a module's code or templates."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ROOT / "facilitator" / "lessons"
# What a platform module may import from games/: the protocol, the registry and the shape of
# a simulator's options.
SHARED = {"games", "games.core", "games.i18n", "games.registry", "games.simulation"}
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


# What a lesson module may import from the platform: the lesson kit, the models and the
# errors (facilitator/kit; docs/modules.md). Its own package, and the games, are its own.
MODULE_MAY_USE = ("facilitator.kit", "facilitator.models", "facilitator.errors")


def module_files(module: str) -> list[Path]:
    return [p for p in (LESSONS / module).rglob("*.py") if "migrations" not in p.parts]


def reaches_past_the_kit(module: str, name: str) -> bool:
    own = f"facilitator.lessons.{module}"
    return (name.startswith("facilitator") and name != "facilitator"
            and not name.startswith((own + ".", *(m + "." for m in MODULE_MAY_USE)))
            and name not in (own, *MODULE_MAY_USE, "facilitator.kit"))


def test_a_lesson_module_uses_the_platform_through_the_kit_only() -> None:
    offenders = []
    for module in MODULES:
        for path in module_files(module):
            for name in imported(path):
                # ``from facilitator import kit`` names the package and then ``kit``
                if name.startswith("facilitator.kit") or name == "facilitator":
                    continue
                if reaches_past_the_kit(module, name):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_coin_jar_the_module_to_copy_uses_the_platform_through_the_kit_only() -> None:
    """Coin Jar (``tests/fakegame``) is the smallest module, the one docs/modules.md walks
    through: it keeps the rule every module keeps."""
    offenders = [f"{path.relative_to(ROOT)}: {name}"
                 for path in (ROOT / "tests" / "fakegame").rglob("*.py")
                 if path.name != "installed.py"  # test scaffolding: installs it for a test
                 for name in imported(path)
                 if not name.startswith("facilitator.kit") and name != "facilitator"
                 and reaches_past_the_kit("coin_jar", name)]
    assert offenders == []


def test_a_lesson_module_imports_no_other_lesson_module() -> None:
    offenders = [f"{path.relative_to(ROOT)}: {name}"
                 for module in MODULES for path in module_files(module)
                 for name in imported(path)
                 for other in MODULES if other != module
                 and name.startswith(f"facilitator.lessons.{other}")]
    assert offenders == []


def test_the_kit_check_would_catch_an_internal(tmp_path: Path) -> None:
    assert reaches_past_the_kit("crisis", "facilitator.services.sessions")
    assert reaches_past_the_kit("crisis", "facilitator.bags.bag_cast")
    assert not reaches_past_the_kit("crisis", "facilitator.kit.parties")
    assert not reaches_past_the_kit("crisis", "facilitator.models.Seat")
    assert not reaches_past_the_kit("crisis", "facilitator.lessons.crisis.play")
