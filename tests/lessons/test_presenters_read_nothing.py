"""A module's presenters are pure: they turn the views the platform and the module's reads
gathered (``session_info``, ``table_info``, ``seat_info``; Poleconomy's game master page:
``reads.master_reads``) into template context, and read nothing themselves.

Held two ways: no presenters module imports a read of the kit or the database API, and in a
random lesson of every module, after every action, building the projector's and every
phone's context runs no database statement.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from facilitator import selectors
from facilitator.kept_reads import screen_reads
from facilitator.lessons.poleconomy import presenters as pol_presenters
from facilitator.lessons.poleconomy import reads as pol_reads
from facilitator.models import Seat
from tests.facilitator import random_lessons as lessons
from tests.facilitator.lesson import deterministic, fresh

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("state_in_class", "austerity", "crisis", "poleconomy")
# The kit's reads and writes: a presenter is handed their results, never calls them.
KIT_IO = {"load_state", "record_actions", "remembered", "bags", "table_seats", "online",
          "projector_view", "session_for_teacher", "apply_action", "game_record",
          "replay_table", "locked_session", "record_step", "last_step", "seat_turn",
          "table_settle", "vote_open", "vote_close", "bot_ballot", "broadcast",
          "check_can_drive"}
QUERY_API = {"objects", "filter", "exclude", "select_related", "prefetch_related",
             "values_list", "refresh_from_db", "save", "delete"}


def io_in(path: Path) -> list[str]:
    """What the module at ``path`` reads or writes beyond its arguments, one line each."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = {a.name for a in node.names}
            if module == "facilitator.kit" and names & KIT_IO:
                found.append(f"line {node.lineno}: from facilitator.kit import "
                             f"{sorted(names & KIT_IO)}")
            if module.startswith("django.db") or module.endswith((".services", ".reads")) \
                    or names & {"services", "reads"}:
                found.append(f"line {node.lineno}: imports {module} {sorted(names)}")
        elif isinstance(node, ast.Attribute) and (
                node.attr in QUERY_API or (isinstance(node.value, ast.Name)
                                           and node.value.id == "kit" and node.attr in KIT_IO)):
            found.append(f"line {node.lineno}: .{node.attr}")
    return found


@pytest.mark.parametrize("module", MODULES)
def test_a_modules_presenters_import_no_read_and_query_nothing(module: str) -> None:
    path = ROOT / "facilitator" / "lessons" / module / "presenters.py"
    assert io_in(path) == [], f"{path.name} of {module} reads for itself"


def test_the_check_finds_a_presenter_that_reads_for_itself(tmp_path: Path) -> None:
    reading = tmp_path / "presenters.py"
    reading.write_text("from facilitator.kit import load_state\n"
                       "from facilitator.models import Table\n"
                       "def f(n):\n    return Table.objects.filter(number=n)\n")
    assert len(io_in(reading)) == 3


def contexts(session, master: bool) -> None:
    """The projector's and every phone's template context built from views read first."""
    session = fresh(session)
    lesson = session.lesson
    view = selectors.projector_view(session)
    reads = pol_reads.master_reads(session) if master else None
    phones = [selectors.seat_view(s) for s in
              Seat.objects.filter(session=session, is_bot=False, removed=False)]
    with CaptureQueriesContext(connection) as ran:
        lesson.projector_context(view, join_url="http://testserver/join/")
        for phone in phones:
            lesson.phone_context(phone)
        if master:
            pol_presenters.master_context(view, reads)
    assert [q["sql"] for q in ran.captured_queries] == [], session.stage


PLAYED: list[tuple[int, Callable[[random.Random], lessons.Lesson]]] = [
    (1, lambda rng: lessons.state_in_class(rng, 9, 2)),
    (3, lambda rng: lessons.austerity(rng, 9, 1)),
    (6, lambda rng: lessons.crisis(rng, 8, 2, team_size=2)),
    (8, lambda rng: lessons.poleconomy(rng, 4, 2)),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("seed", "lesson"), PLAYED, ids=[m for m in MODULES])
def test_every_screens_context_is_built_without_a_database_statement(
        seed: int, lesson: Callable[[random.Random], lessons.Lesson],
        monkeypatch: pytest.MonkeyPatch) -> None:
    deterministic(monkeypatch)
    session, calls = lesson(random.Random(seed))
    master = session.game == "poleconomy"
    built = 0
    for call in calls:
        call.run()
        with screen_reads():
            contexts(session, master)
        built += 1
    assert built >= 20
