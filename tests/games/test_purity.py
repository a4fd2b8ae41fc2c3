"""The engines are pure: no Django, no module-level random, deterministic (docs/engine.md)."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import games

GAMES_DIR = Path(games.__file__).parent
ROOT = GAMES_DIR.parent
SOURCES = sorted(GAMES_DIR.rglob("*.py"))


def parsed():
    for path in SOURCES:
        yield path.relative_to(ROOT), ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_there_are_engine_sources_to_check():
    names = {str(p.relative_to(ROOT)) for p in SOURCES}
    assert {"games/core.py", "games/state_in_class/rules.py"} <= names


def test_nothing_under_games_imports_django():
    offenders = []
    for path, tree in parsed():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                offenders += [(path, a.name) for a in node.names
                              if a.name.split(".")[0] == "django"]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == \
                    "django":
                offenders.append((path, node.module))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "__import__"):
                offenders.append((path, "__import__"))
    assert offenders == []


def test_importing_every_engine_module_does_not_load_django():
    modules = [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in SOURCES]
    modules = [m.removesuffix(".__init__") for m in modules]
    code = ("import importlib, sys\n"
            f"for m in {modules!r}:\n"
            "    importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_no_module_level_random_only_seeded_random_instances():
    offenders = []
    for path, tree in parsed():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "random" and node.attr != "Random"):
                offenders.append((path, node.lineno, f"random.{node.attr}"))
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                offenders += [(path, node.lineno, f"from random import {a.name}")
                              for a in node.names if a.name != "Random"]
    assert offenders == []


def test_random_instances_are_always_seeded():
    offenders = []
    for path, tree in parsed():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "Random" and not node.args):
                offenders.append((path, node.lineno))
    assert offenders == []


def test_no_clock_and_no_io_in_the_engine():
    banned = {"time", "datetime", "os", "socket", "subprocess", "requests", "urllib"}
    offenders = []
    for path, tree in parsed():
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [(path, n) for n in names if n.split(".")[0] in banned]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "open":
                offenders.append((path, "open()"))
    assert offenders == []


PLAY = """
import json
from games.state_in_class.bots import RandomPolicy
from games.state_in_class.simulate import play
from games.state_in_class.audiences import summary
out = []
for seed in range(5):
    state, record = play([RandomPolicy() for _ in range(8)], seed)
    out.append([summary(state), record])
print(json.dumps(out, sort_keys=True))
"""


def test_the_same_game_comes_out_the_same_in_another_process():
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1]
