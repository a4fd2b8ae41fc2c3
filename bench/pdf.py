"""PDF debrief benchmark: the class handout for 4 tables and 32 student handouts.

    python bench/pdf.py [--runs 5] [--artifacts]

Builds a finished lesson of 4 tables × 8 students in a temporary SQLite database (every
student acting through the services, see tests/reports/scripted.py), then times, each as the
median of ``--runs`` runs (at least 3):

- the class handout (one PDF, 4 tables): target 3 s or less;
- the 32 student handouts as one PDF (one page each): target 15 s or less;
- the 32 student handouts one PDF at a time (as the per-student download does);
- the class handout as the download serves it once it has been built (the stored PDF,
  ``facilitator.reports.handouts``), against its first build through the store.

Prints a table and writes ``bench/results/pdf.json`` (cores, commit, load average, pages).
Wall-clock medians are the figures; CPU seconds are printed too, because on a busy machine
the wall clock also measures the other processes. ``--artifacts`` keeps the PDFs in
``artifacts/``. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def pages(pdf: bytes) -> int | None:
    """The page count, read by ``pdfinfo`` (poppler-utils) when it is installed."""
    if not shutil.which("pdfinfo"):
        return None
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        out = subprocess.run(["pdfinfo", handle.name], capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", out, flags=re.M)
    return int(match.group(1)) if match else None


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, object]:
    """Median wall seconds, median CPU seconds, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per measure (min 3)")
    parser.add_argument("--seed", type=int, default=1, help="seating seed of the lesson")
    parser.add_argument("--artifacts", action="store_true", help="keep the PDFs in artifacts/")
    args = parser.parse_args()
    runs = max(3, args.runs)

    tmp = tempfile.TemporaryDirectory(prefix="sic-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stateinclass.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import weasyprint

    from tests.reports.scripted import scripted_lesson

    start = time.perf_counter()
    session = scripted_lesson(students=32, seed=args.seed, title="Bench 4 × 8")
    setup = time.perf_counter() - start
    seats = list(session.seats.filter(is_bot=False).values_list("pk", flat=True))
    assert session.tables.count() == 4 and len(seats) == 32, "expected 4 tables of 8"
    pdf = session.lesson.reports()  # the lesson module's debrief

    pdf.class_handout(session)  # warm up: fonts, templates, the shared stylesheet
    class_wall, class_cpu, class_pdf = timed(lambda: pdf.class_handout(session), runs)
    all_wall, all_cpu, all_pdf = timed(lambda: pdf.student_handouts(session), runs)
    one_wall, one_cpu, _last = timed(
        lambda: [pdf.student_handouts(session, seat_id=s) for s in seats], runs)
    assert isinstance(class_pdf, bytes) and isinstance(all_pdf, bytes)

    from facilitator.models import Handout
    from facilitator.reports import handouts

    name = handouts.key(handouts.CLASS, paper="a4", language=session.language)

    def first_build() -> bytes:
        Handout.objects.filter(session=session).delete()
        return handouts.handout_get(session=session, name=name,
                                    build=lambda: pdf.class_handout(session))

    first_wall, first_cpu, _first = timed(first_build, runs)
    stored_wall, stored_cpu, stored_pdf = timed(
        lambda: handouts.handout_get(session=session, name=name,
                                     build=lambda: pdf.class_handout(session)), runs)
    assert stored_pdf == _first

    result = {
        "benchmark": "pdf", "commit": commit(), "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(), "weasyprint": weasyprint.__version__,
        "runs": runs, "lesson": "4 tables x 8 students", "setup_seconds": round(setup, 2),
        "class_handout": {"median_seconds": round(class_wall, 3),
                          "median_cpu_seconds": round(class_cpu, 3),
                          "pages": pages(class_pdf), "target_seconds": 3},
        "student_handouts_one_pdf": {"median_seconds": round(all_wall, 3),
                                     "median_cpu_seconds": round(all_cpu, 3),
                                     "pages": pages(all_pdf), "target_seconds": 15},
        "student_handouts_32_pdfs": {"median_seconds": round(one_wall, 3),
                                     "median_cpu_seconds": round(one_cpu, 3),
                                     "target_seconds": 15},
        "class_handout_first_build": {"median_seconds": round(first_wall, 3),
                                      "median_cpu_seconds": round(first_cpu, 3)},
        "class_handout_stored": {"median_seconds": round(stored_wall, 4),
                                 "median_cpu_seconds": round(stored_cpu, 4),
                                 "ratio_to_first_build": round(stored_wall / first_wall, 4)},
    }
    print(f"{'measure (median of ' + str(runs) + ')':<38}{'wall s':>9}{'cpu s':>9}"
          f"{'pages':>7}{'target':>8}")
    for label, key in (("class handout, 4 tables", "class_handout"),
                       ("32 student handouts, one PDF", "student_handouts_one_pdf"),
                       ("32 student handouts, 32 PDFs", "student_handouts_32_pdfs")):
        r = result[key]
        print(f"{label:<38}{r['median_seconds']:>9.2f}{r['median_cpu_seconds']:>9.2f}"
              f"{r.get('pages') or '':>7}{'≤ ' + str(r['target_seconds']) + ' s':>8}")
    for label, key in (("class handout, first build (stored)", "class_handout_first_build"),
                       ("class handout, served again", "class_handout_stored")):
        r = result[key]
        print(f"{label:<38}{r['median_seconds']:>9.3f}{r['median_cpu_seconds']:>9.3f}")
    print(f"cores {result['cores']}, load average {result['load_average']}, "
          f"commit {result['commit']}")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "pdf.json").write_text(json.dumps(result, indent=2) + "\n")
    if args.artifacts:
        art = ROOT / "artifacts"
        art.mkdir(exist_ok=True)
        (art / "bench-class.pdf").write_bytes(class_pdf)
        (art / "bench-students.pdf").write_bytes(all_pdf)
    tmp.cleanup()


if __name__ == "__main__":
    main()
