"""``make``'s choice of Python (scripts/find-python) and of keeping .venv (scripts/make-venv).

Each test runs the script with a PATH of its own: stub ``python3.N`` scripts that answer the
version question like the real interpreter, and make a fake virtualenv when asked to.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIND = ROOT / "scripts" / "find-python"
MAKE_VENV = ROOT / "scripts" / "make-venv"
NEEDS = "State in Class needs Python 3.11 or newer"

# A stand-in for an interpreter: prints its version for `-c`, makes a virtualenv for `-m venv`
# (with a copy of itself as its python), and imports ensurepip or not (ENSUREPIP: 0 or 1).
STUB = """#!/bin/sh
case "$*" in
  *ensurepip*) exit ENSUREPIP ;;
  "-m venv "*) mkdir -p "$3/bin" && echo "home = stub" > "$3/pyvenv.cfg" \\
                 && cp "$0" "$3/bin/python" && echo "$0" > "$3/made-by"; exit $? ;;
  -c*) echo VERSION ;;
esac
"""


def stub(folder: Path, name: str, version: str | None, *, venv_module: bool = True) -> Path:
    """An executable ``folder/name`` claiming ``version`` (None: it exits 127, as a pyenv shim
    of a version that is not installed does)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    text = STUB.replace("VERSION", version or "").replace("ENSUREPIP", "0" if venv_module else "1")
    path.write_text(text if version else "#!/bin/sh\nexit 127\n")
    path.chmod(0o755)
    return path


def tools(tmp_path: Path) -> Path:
    """The few programs the scripts and stubs need, and no Python."""
    folder = tmp_path / "tools"
    folder.mkdir(exist_ok=True)
    for tool in ("sh", "mkdir", "cp", "rm"):
        target = folder / tool
        if not target.exists():
            target.symlink_to(shutil.which(tool) or f"/bin/{tool}")
    return folder


def run(script: Path, tmp_path: Path, *dirs: Path, args: tuple[str, ...] = (),
        python: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.pathsep.join([*map(str, dirs), str(tools(tmp_path))]), "HOME": str(tmp_path)}
    if python is not None:
        env["PYTHON"] = python
    return subprocess.run([shutil.which("sh") or "/bin/sh", str(script), *args], env=env,
                          capture_output=True, text=True, timeout=30, check=False)


def one_sentence(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].endswith("."), done.stderr
    return lines[0]


def test_the_newest_python_3_11_or_later_on_path_is_chosen(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    stub(first, "python3.10", "3.10")
    stub(first, "python3.11", "3.11")
    stub(second, "python3.12", "3.12")
    stub(second, "python3.12-config", "3.13")  # not an interpreter
    done = run(FIND, tmp_path, first, second)
    assert (done.returncode, done.stdout.strip()) == (0, str(second / "python3.12"))


def test_a_python_that_does_not_run_is_passed_over(tmp_path):
    stub(tmp_path / "bin", "python3.13", None)
    stub(tmp_path / "bin", "python3.12", "3.12")
    assert run(FIND, tmp_path, tmp_path / "bin").stdout.strip() == str(
        tmp_path / "bin" / "python3.12")


def test_of_two_of_the_same_version_the_first_on_path_wins(tmp_path):
    stub(tmp_path / "a", "python3.13", "3.13")
    stub(tmp_path / "b", "python3.13", "3.13")
    assert run(FIND, tmp_path, tmp_path / "a", tmp_path / "b").stdout.strip() == str(
        tmp_path / "a" / "python3.13")


def test_python3_is_the_fallback_when_it_is_new_enough(tmp_path):
    stub(tmp_path / "bin", "python3.10", "3.10")
    stub(tmp_path / "bin", "python3", "3.12")
    assert run(FIND, tmp_path, tmp_path / "bin").stdout.strip() == str(
        tmp_path / "bin" / "python3")


def test_only_old_pythons_get_one_sentence_naming_them(tmp_path):
    stub(tmp_path / "bin", "python3.10", "3.10")
    stub(tmp_path / "bin", "python3", "3.9")
    sentence = one_sentence(run(FIND, tmp_path, tmp_path / "bin"))
    assert sentence.startswith(NEEDS)
    assert "python3.10 (3.10)" in sentence and "python3 (3.9)" in sentence
    assert "PYTHON=" in sentence and "apt install" in sentence


def test_no_python_at_all_gets_one_sentence(tmp_path):
    sentence = one_sentence(run(FIND, tmp_path))
    assert sentence.startswith(f"{NEEDS}, and there is no python3 on PATH")


def test_python_variable_overrides_the_search_and_is_checked(tmp_path):
    newest = stub(tmp_path / "bin", "python3.13", "3.13")
    chosen = stub(tmp_path / "other", "python3.12", "3.12")
    old = stub(tmp_path / "other", "python3.10", "3.10")
    assert run(FIND, tmp_path, newest.parent, python=str(chosen)).stdout.strip() == str(chosen)
    assert "is Python 3.10" in one_sentence(run(FIND, tmp_path, newest.parent, python=str(old)))
    assert "does not run" in one_sentence(run(FIND, tmp_path, python="python3.99"))


def made_by(venv: Path) -> str:
    return (venv / "made-by").read_text().strip()


def test_make_venv_makes_it_with_the_newest_then_keeps_it_when_a_newer_one_appears(tmp_path):
    venv, bin_ = tmp_path / "venv", tmp_path / "bin"
    stub(bin_, "python3.11", "3.11")
    done = run(MAKE_VENV, tmp_path, bin_, args=(str(venv),))
    assert done.returncode == 0, done.stderr
    assert made_by(venv) == str(bin_ / "python3.11")
    stub(bin_, "python3.13", "3.13")  # an upgrade installs a newer Python
    done = run(MAKE_VENV, tmp_path, bin_, args=(str(venv),))
    assert (done.returncode, done.stdout) == (0, "")
    assert made_by(venv) == str(bin_ / "python3.11")


def test_make_venv_makes_it_anew_for_another_python_version_or_a_broken_one(tmp_path):
    venv, bin_ = tmp_path / "venv", tmp_path / "bin"
    stub(bin_, "python3.11", "3.11")
    newer = stub(bin_, "python3.12", "3.12")
    run(MAKE_VENV, tmp_path, bin_, args=(str(venv),), python=str(bin_ / "python3.11"))
    assert made_by(venv) == str(bin_ / "python3.11")
    done = run(MAKE_VENV, tmp_path, bin_, args=(str(venv),), python=str(newer))
    assert done.returncode == 0 and "again" in done.stdout
    assert made_by(venv) == str(newer)
    (venv / "bin" / "python").unlink()  # the Python it was made with was removed
    done = run(MAKE_VENV, tmp_path, bin_, args=(str(venv),))
    assert done.returncode == 0 and "no longer runs" in done.stdout
    assert made_by(venv) == str(newer)


def test_make_venv_never_deletes_a_folder_that_is_not_a_virtualenv(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    stub(tmp_path / "bin", "python3.12", "3.12")
    sentence = one_sentence(run(MAKE_VENV, tmp_path, tmp_path / "bin", args=(str(folder),),
                                python="python3.12"))
    assert "is not a virtualenv" in sentence
    assert (folder / "keep.txt").read_text() == "mine"


def test_make_venv_says_which_package_is_missing_without_the_venv_module(tmp_path):
    stub(tmp_path / "bin", "python3.13", "3.13", venv_module=False)
    sentence = one_sentence(run(MAKE_VENV, tmp_path, tmp_path / "bin",
                                args=(str(tmp_path / "venv"),)))
    assert "sudo apt install python3.13-venv" in sentence
    assert not (tmp_path / "venv").exists()


def test_make_passes_python_to_the_venv_script():
    done = subprocess.run(["make", "-n", "-s", "install", "PYTHON=/opt/python3.13",
                           "VENV=/nonexistent/venv"], cwd=ROOT, capture_output=True, text=True,
                          timeout=30, check=False)
    assert "PYTHON='/opt/python3.13' sh scripts/make-venv '/nonexistent/venv'" in done.stdout
