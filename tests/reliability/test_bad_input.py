"""Bad input: every form answers clearly and never with a 500; ``manage.py replay`` refuses a
malformed record with a clear error and a non-zero exit, never a traceback.

The socket protocol's fuzzing is in ``test_fuzz_protocol.py``; the fixed lists of bad frames
stay in ``tests/facilitator/test_websockets.py``.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facilitator.models import BallotReceipt, ClassSession, SealedBallot
from games.registry import get_engine
from tests.facilitator.lesson import drive_to, join, make_session, make_teacher, seat, started

BASE_DIR = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=300, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

# Text a person (or a script) could type or post: every unicode category, control and NUL
# characters, right-to-left marks, emoji, long runs, numbers in words.
NASTY = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=200),
    st.sampled_from(["", " ", "\x00", "A\x00B", "\u202eevil", "😀" * 30, "<script>x</script>",
                     "' OR 1=1 --", "%00", "../../etc/passwd", "-1", "0", "1e400", "NaN",
                     "9" * 400, "true", "null", "[]", "{}", "ACDEFH", "acd efh", "Ana",
                     "x" * 5000, "\u200b", "Ｚｏë", "Z\u0308oe"]),
    st.integers().map(str),
)
FIELD_VALUE = st.one_of(NASTY, st.lists(NASTY, min_size=2, max_size=3))


def assert_clear_answer(response: Any, what: str) -> None:
    """No server error; a refusal carries a readable message."""
    assert response.status_code < 500, (what, response.status_code)
    if response.status_code >= 400 and response.status_code not in (404, 405, 410):
        html = response.content.decode()
        assert 'role="alert"' in html or 'class="error' in html, (what, html[:800])


# --------------------------------------------------------------------------- forms


@pytest.mark.django_db
@FUZZ
@given(data=st.dictionaries(st.sampled_from(["code", "nickname", "csrfmiddlewaretoken",
                                             "extra", "code[]"]), FIELD_VALUE, max_size=4))
def test_fuzz_join_form_answers_every_post_with_a_clear_message(data, client, settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session = ClassSession.objects.filter(status="lobby").first() or make_session()
    if data.get("code") == "ACDEFH":
        data["code"] = session.join_code  # now and then the right code, with a bad nickname
    response = client.post("/join/", data)
    assert_clear_answer(response, data)
    if response.status_code == 400:
        assert 'role="alert"' in response.content.decode()


@pytest.mark.django_db
@FUZZ
@given(data=st.dictionaries(
    st.sampled_from(["title", "game", "language", "debate_seconds", "bots_allowed",
                     "bot_policy", "unknown"]), FIELD_VALUE, max_size=7))
def test_fuzz_new_lesson_form_answers_every_post_with_a_clear_message(data, settings):
    teacher = _teacher() if _teacher_exists() else make_teacher("fuzz-teacher")
    client = Client()
    client.force_login(teacher)
    before = ClassSession.objects.count()
    response = client.post("/teacher/lessons/new/", data)
    assert_clear_answer(response, data)
    if response.status_code == 302:
        assert ClassSession.objects.count() == before + 1
    else:
        assert response.status_code == 400 and ClassSession.objects.count() == before


def _teacher_exists() -> bool:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(username="fuzz-teacher").exists()


def _teacher() -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="fuzz-teacher")


@pytest.fixture
def lesson_at_the_tax_vote(db, settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session, tokens = started(8)
    session = drive_to(session, "tax_vote", 1)
    return session, tokens


PHONE_FIELDS = st.dictionaries(
    st.sampled_from(["type", "kind", "option", "coins", "choice", "expected", "id", "seat",
                     "player", "table"]),
    st.one_of(FIELD_VALUE, st.sampled_from(["ballot", "pact", "tie_break", "refresh", "tax",
                                            "budget", "A", "health", "pass", "1:tax_vote"])),
    max_size=6)


@pytest.mark.django_db
@FUZZ
@given(data=PHONE_FIELDS)
def test_fuzz_phone_form_posts_answer_clearly_and_count_nothing_invalid(
        data, lesson_at_the_tax_vote):
    session, tokens = lesson_at_the_tax_vote
    client = Client()
    client.cookies["sic_seat"] = tokens["Ana"]
    response = client.post("/play/act/", data)
    assert_clear_answer(response, data)
    # Whatever was posted, Ana's seat has at most one token in the bag, and nobody else's.
    ana = seat(session, "Ana")
    assert set(ana.receipts.values_list("seat_id", flat=True)) <= {ana.pk}
    table = ana.table
    table.refresh_from_db()
    receipts = BallotReceipt.objects.filter(bag__table=table)
    assert SealedBallot.objects.filter(bag__table=table).count() == receipts.count() <= 1


TEACHER_FIELDS = st.dictionaries(
    st.sampled_from(["type", "fill", "seat", "table", "choice", "expected", "id"]),
    st.one_of(FIELD_VALUE, st.sampled_from(["next", "undo", "pause", "resume", "remove",
                                            "start", "tie_break", "bots", "pairs"])),
    max_size=5)


@pytest.mark.django_db
@FUZZ
@given(data=TEACHER_FIELDS)
def test_fuzz_console_form_posts_answer_clearly(data, lesson_at_the_tax_vote):
    session, _tokens = lesson_at_the_tax_vote
    client = Client()
    client.force_login(session.owner)
    response = client.post(f"/teacher/lessons/{session.pk}/act/", data)
    assert_clear_answer(response, data)


@pytest.mark.django_db
@FUZZ
@given(path=st.sampled_from([
    "/join/{}/", "/seat/{}/", "/teacher/lessons/{}/", "/teacher/lessons/{}/qr.svg",
    "/teacher/lessons/1/tables/{}/record.json", "/teacher/lessons/1/students/",
    "/teacher/lessons/{}/reports/", "/teacher/lessons/1/reports/student/{}.pdf",
    "/teacher/lessons/1/reports/table/{}/record.json"]),
    value=st.one_of(st.integers(min_value=0, max_value=10**40).map(str),
                    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="/?#"),
                            min_size=1, max_size=80)))
def test_fuzz_urls_never_answer_with_a_server_error(path, value, settings):
    from urllib.parse import quote

    teacher = _teacher() if _teacher_exists() else make_teacher("fuzz-teacher")
    client = Client()
    client.force_login(teacher)
    response = client.get(path.format(quote(value)))
    assert response.status_code < 500, (path, value, response.status_code)


@pytest.mark.django_db
def test_bad_http_bodies_are_refused_without_a_server_error(client, settings):
    settings.JOIN_ATTEMPTS_PER_MINUTE = 10**6
    session = make_session()
    join(session, 1)
    bodies = [
        ("multipart/form-data; boundary=xyz", b"--xyz\r\nContent-Disposition: form-data\r\n"),
        ("multipart/form-data", b"no boundary"),
        ("application/x-www-form-urlencoded", b"code=%ZZ&nickname=%C3%28"),
        ("application/x-www-form-urlencoded", b"&".join(b"f%d=1" % i for i in range(2000))),
        ("application/x-www-form-urlencoded", b"nickname=" + b"x" * (3 * 1024 * 1024)),
        ("application/json", b'{"code": "ACDEFH"}'),
        ("text/plain", bytes(range(256))),
    ]
    for content_type, body in bodies:
        for url in ("/join/", "/play/act/", "/teacher/lessons/new/"):
            response = client.generic("POST", url, body, content_type=content_type)
            assert response.status_code < 500, (url, content_type, response.status_code)


# --------------------------------------------------------------------------- replay


def valid_record(seed: int) -> dict[str, Any]:
    """A whole game played at random with the engine alone: a record ``replay`` accepts."""
    engine = get_engine("state-in-class")
    rng = random.Random(seed)
    players = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"][:rng.choice([6, 7, 8])]
    state = engine.new_game({"players": players}, seed)
    actions: list[dict[str, Any]] = []

    def do(action: dict[str, Any]) -> None:
        nonlocal state
        state, _events = engine.apply(state, action)
        actions.append(action)

    for _ in range(400):
        if state.phase == "over":
            break
        if state.phase == "pact":
            for p in players:
                do({"type": "pact", "player": p, "coins": rng.randrange(min(3, 3) + 1)})
        elif state.phase in ("tax_vote", "budget_vote"):
            kind = state.phase.removesuffix("_vote")
            options = list("ABCD") if kind == "tax" else ["health", "education", "shield"]
            voters = [p for p in players if rng.random() < 0.9]
            for p in voters:
                do({"type": "ballot", "kind": kind, "player": p})
            tally: dict[str, int] = {}
            for _p in voters:
                option = rng.choice(options)
                tally[option] = tally.get(option, 0) + 1
            do({"type": "count", "kind": kind, "tally": tally})
        elif state.phase == "tie_break":
            legal = engine.legal_actions(state, state.tie.deciders[0])
            do(rng.choice(legal))
    return {"game": "state-in-class", "version": 1, "seed": seed,
            "config": {"players": players}, "actions": actions}


def json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                        st.text(max_size=20), st.sampled_from(["A", "tax", "Ana", "pact"]))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
        max_leaves=12)


@st.composite
def malformed_records(draw: Any) -> Any:
    """A valid record with a few random changes, or random JSON altogether."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values())
    record = json.loads(json.dumps(BASE_RECORDS[draw(st.integers(0, len(BASE_RECORDS) - 1))]))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["top", "config", "action", "action field", "truncate",
                                      "reorder"]))
        if where == "top":
            record[draw(st.sampled_from(["game", "version", "seed", "config", "actions",
                                         "extra"]))] = draw(json_values())
        elif where == "config":
            config = record.get("config")
            config = dict(config) if isinstance(config, dict) else {}
            key = draw(st.sampled_from(["players", "roles", "midlife_order", "x"]))
            config[key] = draw(json_values())
            record["config"] = config
        elif isinstance(record.get("actions"), list) and record["actions"]:
            i = draw(st.integers(0, len(record["actions"]) - 1))
            if where == "action":
                record["actions"][i] = draw(json_values())
            elif where == "action field" and isinstance(record["actions"][i], dict):
                record["actions"][i][draw(st.sampled_from(
                    ["type", "player", "coins", "kind", "tally", "choice", "x"]))] = draw(
                    json_values())
            elif where == "truncate":
                record["actions"] = record["actions"][:i]
            else:
                record["actions"].insert(i, record["actions"].pop())
    return record


BASE_RECORDS = [valid_record(seed) for seed in (1, 2, 3)]


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, database=None)
@given(record=malformed_records())
def test_fuzz_replay_refuses_a_malformed_record_with_a_clear_error(record, tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    try:
        call_command("replay", str(path), stdout=io.StringIO())
    except CommandError as exc:
        message = str(exc)
        assert message and "Traceback" not in message
        assert len(message) < 2000, message[:300]
    # Otherwise the changes left a valid record: it replayed (the output is checked elsewhere).


def test_replay_of_the_unchanged_records_works(tmp_path):
    for record in BASE_RECORDS:
        path = tmp_path / "ok.json"
        path.write_text(json.dumps(record))
        done = subprocess.run([sys.executable, "manage.py", "replay", str(path)], cwd=BASE_DIR,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["phase"] == "over"


MALFORMED_FILES: dict[str, bytes | None] = {
    "binary": bytes(range(256)),
    "latin-1": '{"game": "état"}'.encode("latin-1"),
    "empty": b"",
    "not json": b"game: state-in-class",
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
    "nested object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "a list": b"[1, 2, 3]",
    "a string": b'"state-in-class"',
    "huge number": b'{"game": "state-in-class", "seed": 1' + b"0" * 5000 + b"}",
    "no actions": b'{"game": "state-in-class", "seed": 1, "config": {"players": ["a"]}}',
    "NaN seed": b'{"game": "state-in-class", "seed": NaN, "config": {}, "actions": []}',
    "unknown game": b'{"game": "chess", "seed": 1, "config": {}, "actions": []}',
    "bad version": b'{"game": "state-in-class", "version": "1", "seed": 1, "config": {}, '
                   b'"actions": []}',
    "missing file": None,
}


@pytest.mark.parametrize("case", sorted(MALFORMED_FILES))
def test_fuzz_replay_of_a_malformed_file_exits_non_zero_without_a_traceback(case, tmp_path):
    content = MALFORMED_FILES[case]
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    done = subprocess.run([sys.executable, "manage.py", "replay", str(path)], cwd=BASE_DIR,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0, done.stdout[:300]
    assert "Traceback" not in done.stderr + done.stdout, done.stderr[-1500:]
    assert done.stderr.startswith("CommandError: "), done.stderr[:300]
    assert len(done.stderr) < 600, done.stderr[:600]


def test_replay_of_a_directory_or_from_stdin_exits_cleanly(tmp_path):
    done = subprocess.run([sys.executable, "manage.py", "replay", str(tmp_path)], cwd=BASE_DIR,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0 and done.stderr.startswith("CommandError: ")
    done = subprocess.run([sys.executable, "manage.py", "replay", "-"], cwd=BASE_DIR,
                          input=b"\xff\xfe\x00", capture_output=True, timeout=60, check=False)
    assert done.returncode != 0 and b"Traceback" not in done.stderr


def test_a_form_field_of_unicode_digits_is_not_a_number():
    """ "²" is a digit to str.isdigit, not a number to int(): it stays text, and the message
    is refused as a bad message instead of ending in a traceback."""
    from facilitator import messages
    from facilitator.lessons.state_in_class.lesson import LESSON

    assert messages.from_form({"type": "remove", "seat": "²"}, LESSON)["seat"] == "²"
    assert messages.from_form({"type": "pact", "coins": "²"}, LESSON)["coins"] == "²"
    assert messages.from_form({"type": "pact", "coins": "3"}, LESSON)["coins"] == 3
