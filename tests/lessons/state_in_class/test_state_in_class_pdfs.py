"""The debrief PDFs tell this class's game: checked with pdftotext against the replayed log."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from PIL import Image

from facilitator.lessons.state_in_class.debrief import handouts
from facilitator.log import replay_table
from facilitator.models import ClassSession, Seat
from facilitator.reports import pdf
from games.state_in_class import data
from games.state_in_class.rules import scores
from tests.reports.conftest import finished_lessons, pdf_info, pdf_text, poppler

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def lessons(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Finished lessons for this module's tests (``tests/reports/conftest.py``)."""
    yield from finished_lessons(django_db_blocker)

MINUS = "−"
CAUSES = {
    "could_not_pay": "the {role} ({player}) could not pay",
    "midlife": "the {role} ({player}) got an Exclusion at the Midlife Crossroads",
    "service_at_level_1": "{service} was still at level 1",
    "strong_services": "all three services were at level 4 or more",
    "storm": "the Great storm",
    "weak_country": "the country was weak when the {role} ({player}) drew “Nothing happens "
                    "to you”",
}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def cause(change: dict[str, Any]) -> str:
    return CAUSES[change["reason"]].format(
        role=data.ROLES[change["role"]].name if change.get("role") else "",
        player=change.get("player", ""),
        service=data.SERVICE_NAMES.get(change.get("service", ""), ""))


def round_segments(text: str, state: Any) -> dict[int, str]:
    """Each round's part of a table's story (from its title to the next round's title)."""
    marks = [(e["round"], f"Round {e['round']} · {data.EVENT_NAMES[e['event']]}")
             for e in state.history]
    starts = [(rnd, text.index(mark)) for rnd, mark in marks]
    end = text.index("The final count", starts[-1][1])
    out = {}
    for i, (rnd, start) in enumerate(starts):
        stop = starts[i + 1][1] if i + 1 < len(starts) else end
        out[rnd] = text[start:stop]
    return out


def final_row(name: str, row: dict[str, Any], winner: bool, bot: bool = False) -> str:
    b = row["breakdown"]
    cells = [("★ " if winner else "") + name + (" (bot)" if bot else ""),
             data.ROLES[row["role"]].name, str(row["coins"]),
             "—" if row["pact"] is None else str(row["pact"]), data.GOAL_NAMES[row["goal"]],
             str(row["exclusions"]), signed(b["dividend"]), signed(b["legacy"]),
             signed(b["life_goal"]), signed(b["exclusions"]), signed(b["tension"]),
             str(row["score"])]
    return " ".join(cells)


@pytest.fixture(scope="module")
def rendered(lessons: dict[str, Any], django_db_blocker: Any) -> dict[str, bytes]:
    with django_db_blocker.unblock():
        full, failing, two = lessons["full"], lessons["failing"], lessons["two"]
        return {
            "class": handouts.DEBRIEF.class_handout(full, paper="a4"),
            "students": handouts.DEBRIEF.student_handouts(full, paper="a4"),
            "failing": handouts.DEBRIEF.class_handout(failing, paper="a4"),
            "two": handouts.DEBRIEF.class_handout(two, paper="letter"),
        }


def test_class_handout_tells_every_round_of_the_game(lessons, rendered, tmp_path: Path):
    session = lessons["full"]
    state = replay_table(session.tables.get())
    assert state.phase == "over" and not state.failed and state.round == data.ROUNDS
    text = pdf_text(rendered["class"], tmp_path)
    assert "3B Economics" in text and "Marta Ruiz" in text
    segments = round_segments(text, state)
    assert sorted(segments) == list(range(1, data.ROUNDS + 1))
    for entry in state.history:
        segment = segments[entry["round"]]
        tax = entry.get("tax")
        if entry["round"] == data.MIDLIFE_ROUND:
            assert tax is None and "Tax chosen" not in segment
            for draw in entry["midlife"]:  # every Midlife card and who drew it
                assert f"{draw['player']} ({data.ROLES[draw['role']].name})" in segment
                assert data.MIDLIFE_CARDS[draw["card"]].name in segment
        else:
            winner = tax["winner"]
            assert f"Tax chosen: {winner} · {data.TAX_NAMES[winner]}" in segment, entry["round"]
            tally = " · ".join(f"{o}: {tax['tally'][o]}" for o in data.TAX_OPTIONS)
            assert tally in segment
            assert f"Revenue: {entry['revenue']} coins" in segment
            shares = " · ".join(f"{data.SERVICE_NAMES[s]} +{entry['split']['shares'][s]}"
                                for s in entry["split"]["ranking"])
            assert f"3-2-1 split: {shares}" in segment
        for change in entry.get("tension") or []:  # every Tension change, with its cause
            assert f"{signed(change['delta'])}: {cause(change)}" in segment, change
        levels = " · ".join(f"{data.SERVICE_NAMES[s]} {entry['levels'][s]} (fund "
                            f"{entry['funds'][s]}/{state.price})" for s in data.SERVICES)
        assert levels in segment
        if entry.get("obsolescence"):
            assert "Obsolescence: every service dropped one level." in segment


def test_class_handout_has_the_final_count_with_every_score(lessons, rendered, tmp_path):
    state = replay_table(lessons["full"].tables.get())
    final = scores(state)
    text = pdf_text(rendered["class"], tmp_path)
    count = text[text.index("The final count"):]
    for name, row in final["players"].items():
        assert final_row(name, row, name in final["winners"]) in count, name
    assert f"The pact: {final['pact_total']} coins, revealed at the count." in count
    assert "Winners: " + ", ".join(final["winners"]) in count


def test_the_cover_gives_each_table_result(lessons, rendered, tmp_path):
    text = pdf_text(rendered["two"], tmp_path)
    cover = text[:text.index("How to use this handout")]
    assert "Two tables" in cover and "TABLES 2" in cover and "STUDENTS 16" in cover
    for table in lessons["two"].tables.all():
        state = replay_table(table)
        total = sum(s.level for s in state.services.values())
        legacy = "Legacy reached" if total >= 12 else "No Legacy"
        assert f"{legacy} ({total} of 12 levels)" in cover
        assert "The State survived" in cover
    assert "The tables side by side" in text  # the comparison page and its charts


def test_a_failed_state_is_told_with_its_causes(lessons, rendered, tmp_path):
    state = replay_table(lessons["failing"].tables.get())
    assert state.failed
    text = pdf_text(rendered["failing"], tmp_path)
    assert f"The State failed in round {state.round}: Tension reached 10" in text
    assert "The State failed, so nobody wins." in text
    segments = round_segments(text, state)
    for entry in state.history:
        for change in entry.get("tension") or []:
            assert f"{signed(change['delta'])}: {cause(change)}" in segments[entry["round"]]
    assert "Look at the Tension causes round by round." in text  # the failure question


def test_no_vote_of_any_student_appears(lessons, rendered, tmp_path):
    """Tallies only: no name is ever next to a vote, and a tie-break's decider is not named."""
    for key, session in (("class", lessons["full"]), ("failing", lessons["failing"])):
        state = replay_table(session.tables.get())
        text = pdf_text(rendered[key], tmp_path)
        names = [p.name for p in state.players]
        assert not re.search(r"\bvoted (for )?(A|B|C|D|Health|Education|Social Shield)\b", text)
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b[^.]{{0,40}}\b(voted|vote[sd]?|chose)\b",
                                 text), name
        segments = round_segments(text, state)
        for entry in state.history:
            for tie in entry.get("tie_breaks") or []:
                tax_part = segments[entry["round"]].split("Budget vote".upper())[0]
                assert tie["player"] not in tax_part


def test_reports_never_read_a_vote_counter(lessons):
    """The tallies come from the log; the live per-option counters are never consulted."""
    with CaptureQueriesContext(connection) as queries:
        handouts.DEBRIEF.class_html(lessons["full"], paper="a4")
        handouts.DEBRIEF.students_html(lessons["full"], paper="a4")
    sql = " ".join(q["sql"].lower() for q in queries.captured_queries)
    assert "votecounter" not in sql


def test_student_handouts_one_page_each_with_their_facts(lessons, rendered, tmp_path):
    session = lessons["full"]
    state = replay_table(session.tables.get())
    final = scores(state)
    students = list(Seat.objects.filter(session=session, is_bot=False))
    info = pdf_info(rendered["students"], tmp_path)
    assert int(info["Pages"]) == len(students) == 8
    text = pdf_text(rendered["students"], tmp_path)
    pages = re.split(r"Page \d+ of \d+", text)[:-1]
    assert len(pages) == len(students)
    for seat, page in zip(sorted(students, key=lambda s: s.position), pages, strict=True):
        row = final["players"][seat.player_name]
        assert f"{seat.nickname} · table 1" in page
        assert f"Your score {row['score']}" in page
        assert f"Coins at the end {row['coins']}" in page
        assert f"Your pact contribution {row['pact']}" in page
        assert f"Life goal reached {data.GOAL_NAMES[row['goal']]}" in page
        assert "YOUR BANK STATEMENT" in page and "THINK ABOUT IT" in page
        assert page.count("?") >= 3  # three reflection prompts
        others = [s.nickname for s in students if s.pk != seat.pk]
        assert not any(f"{o} · table" in page for o in others)


def test_one_student_alone(lessons, tmp_path):
    session = lessons["full"]
    seat = Seat.objects.filter(session=session, is_bot=False).order_by("position").last()
    alone = handouts.DEBRIEF.student_handouts(session, paper="letter", seat_id=seat.pk)
    assert int(pdf_info(alone, tmp_path)["Pages"]) == 1
    assert f"{seat.nickname} · table 1" in pdf_text(alone, tmp_path)


@pytest.mark.parametrize(("paper", "size"), [("a4", "595.276 x 841.89 pts (A4)"),
                                             ("letter", "612 x 792 pts (letter)")])
def test_paper_sizes(lessons, tmp_path, paper, size):
    session = lessons["full"]
    for content in (handouts.DEBRIEF.class_handout(session, paper=paper),
                    handouts.DEBRIEF.student_handouts(session, paper=paper)):
        info = pdf_info(content, tmp_path)
        assert info["Page size"] == size
    # On Letter too, every student fits on one page.
    assert int(info["Pages"]) == Seat.objects.filter(session=session, is_bot=False).count()


def test_same_log_same_text(lessons, rendered, tmp_path):
    session = ClassSession.objects.get(pk=lessons["full"].pk)  # fresh objects, fresh replay
    again = handouts.DEBRIEF.class_handout(session, paper="a4")
    assert pdf_text(again, tmp_path) == pdf_text(rendered["class"], tmp_path)
    html = handouts.DEBRIEF.students_html(session, paper="a4")
    assert html == handouts.DEBRIEF.students_html(session, paper="a4")
    assert pdf_text(handouts.DEBRIEF.student_handouts(session, paper="a4"), tmp_path) == \
        pdf_text(rendered["students"], tmp_path)


def test_reports_are_rebuilt_from_the_log_not_the_snapshot(lessons, tmp_path):
    """No stale data: a wrong cached snapshot does not change the handout."""
    session = lessons["failing"]
    table = session.tables.get()
    before = handouts.DEBRIEF.class_html(session, paper="a4")
    snapshot = table.snapshot
    try:
        table.snapshot = {**snapshot, "tension": 1, "failed": False}
        table.save(update_fields=["snapshot"])
        assert handouts.DEBRIEF.class_html(session, paper="a4") == before
    finally:
        table.snapshot = snapshot
        table.save(update_fields=["snapshot"])


def test_handouts_follow_the_session_language(lessons):
    session = ClassSession.objects.get(pk=lessons["full"].pk)
    session.language = "es"
    assert '<html lang="es">' in handouts.DEBRIEF.class_html(session, paper="a4")
    assert '<html lang="es">' in handouts.DEBRIEF.students_html(session, paper="a4")


def test_pages_render_to_png_and_are_not_blank(rendered, tmp_path):
    tool = poppler("pdftoppm")
    for key in ("class", "students"):
        path = tmp_path / f"{key}.pdf"
        path.write_bytes(rendered[key])
        subprocess.run([tool, "-png", "-r", "40", "-f", "1", "-l", "2", str(path),
                        str(tmp_path / key)], check=True)
        images = sorted(tmp_path.glob(f"{key}-*.png"))
        assert len(images) == 2
        for image in images:
            grey = Image.open(image).convert("L")
            dark = sum(grey.histogram()[:128])
            assert dark > 0.01 * grey.width * grey.height  # real content, not an empty page


def test_bots_and_shared_seats(tmp_path):
    """Bots get no handout and are marked in the class handout; a shared seat gives each of
    its two students a page."""
    from tests.facilitator.lesson import make_teacher
    from tests.reports.scripted import scripted_lesson

    teacher = make_teacher("reports-mixed")
    with_bots = scripted_lesson(students=5, seed=3, teacher=teacher, title="Bots", fill="bots")
    bots = list(with_bots.seats.filter(is_bot=True))
    assert bots
    text = pdf_text(handouts.DEBRIEF.class_handout(with_bots), tmp_path)
    assert f"{bots[0].nickname} (bot)" in text
    pages = handouts.DEBRIEF.student_handouts(with_bots)
    assert int(pdf_info(pages, tmp_path)["Pages"]) == 5

    pairs = scripted_lesson(students=9, seed=3, teacher=teacher, title="Pairs", fill="pairs")
    partner = pairs.seats.filter(shares__isnull=False).first()
    assert partner is not None
    pages = handouts.DEBRIEF.student_handouts(pairs)
    assert int(pdf_info(pages, tmp_path)["Pages"]) == 9
    alone = pdf_text(handouts.DEBRIEF.student_handouts(pairs, seat_id=partner.pk), tmp_path)
    assert f"You shared a seat with {partner.shares.nickname}." in alone


def test_a_title_cannot_break_out_of_the_page_css():
    expected = '"A \\"b\\" \\\\ \\3C /style\\3E \\3C p\\3E x"'
    assert pdf.css_string('A "b" \\ </style><p>x') == expected
