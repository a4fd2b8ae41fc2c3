"""Privacy for minors: no IP address or browser identification stored, nicknames only, old
lessons purged with everything they own, and the phone says plainly what the teacher sees."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from facilitator import services
from facilitator.clock import now
from facilitator.forms import JoinForm
from facilitator.models import (
    Bag,
    BallotReceipt,
    ClassSession,
    Handout,
    LedgerEntry,
    Presence,
    SealedBallot,
    Seat,
    Table,
    TableAction,
    TeacherStep,
)
from tests.facilitator.lesson import drive_to_the_end, fresh, make_session, make_teacher, started
from tests.facilitator.test_websockets import _dump_database
from tests.reliability.support import cache_contents

BASE_DIR = Path(__file__).resolve().parents[2]
ADDRESS, FORWARDED = "203.0.113.77", "198.51.100.23"
AGENT = "Mozilla/5.0 (UniqueTestPhone-7QX) SecretBrowser/9.9"
SENTENCE = "Your teacher sees your nickname and what you do in the game, never how you vote."
# State in Class's own addition on its phones: roles and coins are that game's.
GAME_SENTENCE = "Your teacher also sees your role; your coins stay secret until the final count."


@pytest.mark.django_db
def test_privacy_no_ip_address_or_user_agent_is_stored(settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    cache.clear()
    headers = {"REMOTE_ADDR": ADDRESS, "HTTP_USER_AGENT": AGENT,
               "HTTP_X_FORWARDED_FOR": FORWARDED, "HTTP_X_REAL_IP": FORWARDED}
    teacher = make_teacher()
    teacher.set_password("a-long-password-42")
    teacher.save()
    console = Client(**headers)
    assert console.post("/accounts/login/", {"username": "teacher",
                                             "password": "a-long-password-42"}).status_code == 302
    console.post("/teacher/lessons/new/", {"title": "3B", "game": "state-in-class",
                                           "language": "en", "debate_seconds": 120,
                                           "bot_policy": "civic"})
    session = ClassSession.objects.get()
    phones = []
    for n, name in enumerate(["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]):
        client = Client(**{**headers, "REMOTE_ADDR": f"203.0.113.{n + 10}"})
        client.post("/join/", {"code": "WRONG1", "nickname": name})  # a failed guess too
        assert client.post("/join/", {"code": session.join_code, "nickname": name}
                           ).status_code == 302
        phones.append(client)
    console.post(f"/teacher/lessons/{session.pk}/act/", {"type": "start"})
    session = fresh(session)
    for client in phones:
        client.post("/play/act/", {"type": "pact", "coins": 1, "expected": session.stage_id})
        client.get("/play/")
    # Every row of every table, and every saved login session, decoded.
    stored = repr(_dump_database()) + repr([s.get_decoded() for s in Session.objects.all()])
    for secret in (ADDRESS, FORWARDED, "203.0.113.1", "UniqueTestPhone", "SecretBrowser"):
        assert secret not in stored, secret
    # The join-code rate limit keeps only a keyed hash of the address, and only in the cache.
    assert cache_contents() and not any("203.0.113" in entry for entry in cache_contents())


def test_privacy_nicknames_only_no_other_personal_data_is_asked_or_kept():
    assert list(JoinForm().fields) == ["code", "nickname"]
    personal = {"name", "first", "last", "email", "mail", "phone", "birth", "birthday", "age",
                "ip", "address", "agent", "device", "school", "gender", "photo", "location"}
    for model in [*apps.get_app_config("facilitator").get_models(), *lesson_models()]:
        for field in model._meta.get_fields():
            words = set(field.name.lower().split("_"))
            # The engine's name for a seat, and the name of a party students form (Poleconomy).
            allowed = field.name == "player_name" or (model.__name__, field.name) == (
                "PoliticsRequest", "name")
            assert not words & personal or allowed, (model, field.name)


# --------------------------------------------------------------------------- purge

# Every facilitator model, and how its rows belong to a lesson (a new model must be added
# here, and to purge_sessions if it does not cascade from ClassSession).
OWNER_OF = {
    ClassSession: "pk", Table: "session_id", Seat: "session_id", TeacherStep: "session_id",
    TableAction: "table__session_id", Bag: "table__session_id",
    BallotReceipt: "bag__table__session_id", SealedBallot: "bag__table__session_id",
    LedgerEntry: "table__session_id", Presence: "seat__session_id", Handout: "session_id",
}
# The lesson modules' own models (facilitator/lessons/<game>/models.py), by their label.
MODULE_OWNER_OF = {
    "Motion": "table__session_id", "Support": "motion__table__session_id",
    "TablePlay": "table__session_id", "Suggestion": "table__session_id",
    "HeldMove": "table__session_id", "PendingOrders": "table__session_id",
    "Proposal": "table__session_id", "PoliticsRequest": "table__session_id",
    "RoundBoard": "table__session_id",
}


def lesson_models() -> list[Any]:
    return [model for config in apps.get_app_configs()
            if config.name.startswith("facilitator.lessons.") for model in config.get_models()]


def owned_models() -> dict[Any, str]:
    return {**OWNER_OF, **{m: MODULE_OWNER_OF[m.__name__] for m in lesson_models()}}


def rows_of(session_ids: set[int]) -> dict[str, int]:
    return {f"{model._meta.label}": model.objects.filter(**{f"{path}__in": session_ids}).count()
            for model, path in owned_models().items()}


def finished_lesson(teacher: Any, days_ago: int, *, status: str = "finished",
                    fill: str | None = None, students: int = 8) -> ClassSession:
    session, _tokens = started(students, teacher=teacher, fill=fill)
    session = drive_to_the_end(session)  # the State may fail before round 8
    ClassSession.objects.filter(pk=session.pk).update(
        status=status, finished_at=now() - timedelta(days=days_ago, hours=1))
    return fresh(session)


@pytest.mark.django_db
def test_privacy_purge_sessions_deletes_finished_lessons_with_everything_they_own(settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    assert set(OWNER_OF) == set(apps.get_app_config("facilitator").get_models())
    assert {m.__name__ for m in lesson_models()} <= set(MODULE_OWNER_OF)
    teacher, other = make_teacher("t1"), make_teacher("t2")
    old = finished_lesson(teacher, 40)
    old_archived = finished_lesson(other, 31, status="archived", fill="bots", students=5)
    recent = finished_lesson(teacher, 10)
    abandoned = make_session(teacher)  # an old lesson that never ended is not "finished"
    ClassSession.objects.filter(pk=abandoned.pk).update(created_at=now() - timedelta(days=90))
    running, _ = started(8, teacher=other)
    purged, kept = {old.pk, old_archived.pk}, {recent.pk, abandoned.pk, running.pk}
    before_purged, before_kept = rows_of(purged), rows_of(kept)
    for name in ("Table", "Seat", "TeacherStep", "TableAction", "Bag", "BallotReceipt",
                 "LedgerEntry"):
        assert before_purged[f"facilitator.{name}"] > 0, name  # rows of every kind
    out = io.StringIO()
    call_command("purge_sessions", "--older-than", "30", "--dry-run", stdout=out)
    assert "2 finished lesson" in out.getvalue()
    assert rows_of(purged) == before_purged
    call_command("purge_sessions", "--older-than", "30", stdout=out)
    assert "Deleted 2 finished lesson" in out.getvalue()
    assert set(rows_of(purged).values()) == {0}
    assert rows_of(kept) == before_kept
    # Nothing of theirs is left anywhere: no nickname of theirs in any row of any table.
    dump = repr(_dump_database())
    assert old.join_code not in dump or ClassSession.objects.filter(
        join_code=old.join_code).exists()
    assert TableAction.objects.filter(seat__isnull=True, table__isnull=True).count() == 0
    with pytest.raises(CommandError):
        call_command("purge_sessions", "--older-than", "-1")


def test_privacy_purge_sessions_is_documented_in_the_readme():
    readme = (BASE_DIR / "README.md").read_text()
    assert "purge_sessions --older-than" in readme
    privacy = readme.split("## Privacy", 1)[1].split("\n## ", 1)[0]
    assert "No IP address" in privacy and "nickname" in privacy and "--dry-run" in privacy


# --------------------------------------------------------------------------- the phone


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_privacy_the_phone_says_plainly_what_the_teacher_can_and_cannot_see(language,
                                                                             settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session = make_session(language=language)
    client = Client()
    join_page = client.get(f"/join/{session.join_code}/").content.decode()
    _seat, token = services.seat_join(code=session.join_code, nickname="Ana")
    client.cookies["sic_seat"] = token
    lobby = client.get("/play/").content.decode()
    if language == "en":
        for page in (join_page, lobby):
            assert SENTENCE in page
        assert GAME_SENTENCE in lobby and "coins" not in join_page  # the join page: any game
    else:
        assert "Tu profe ve tu apodo y lo que haces en la partida, pero nunca lo que votas." \
            in lobby


def run_command_line() -> list[str]:
    """The daphne command line of ``make run`` (Makefile variables filled in)."""
    makefile = (BASE_DIR / "Makefile").read_text()
    [line] = [ln.strip() for ln in makefile.splitlines() if "bin/daphne" in ln]
    line = line.removeprefix("exec ").replace("$(VENV)", ".venv").replace("$(PORT)", "PORT")
    return line.split()


@pytest.mark.slow
def test_privacy_the_classroom_server_prints_no_phones_address(tmp_path):
    """``make run`` serves with no access log: it would list every student's address."""
    import os
    import subprocess
    import sys
    import urllib.request

    from tests.facilitator.test_two_daphne import free_port
    from tests.reliability.test_restart import wait_port

    port = free_port()
    args = [a.replace("PORT", str(port)).replace("0.0.0.0", "127.0.0.1")
            for a in run_command_line()]
    assert "--access-log" in args and args[args.index("--access-log") + 1] == "/dev/null"
    args[0] = str(Path(sys.executable).with_name("daphne"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    log = tmp_path / "daphne.log"
    with log.open("wb") as out:
        process = subprocess.Popen(args, cwd=BASE_DIR, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        wait_port(port, True, 60, "daphne")
        for path in ("/", "/join/", "/about/"):
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10).read()
    finally:
        process.terminate()
        process.wait(timeout=15)
    output = log.read_text(errors="replace")
    # An access log line reads: 127.0.0.1:53412 - - [30/Nov/2026:11:33:58] "GET /join/" 200
    assert not re.search(r"\d+\.\d+\.\d+\.\d+:\d+ - -", output), output[-2000:]
    assert '"GET /' not in output, output[-2000:]
