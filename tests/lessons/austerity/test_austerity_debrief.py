"""Austerity's debrief PDFs tell each country's game: checked with pdftotext against the
replayed log, the lesson's rules (the minister's rotation, the tie rule) and the ballots cast."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from PIL import Image

from facilitator.lessons.austerity import portfolios, script
from facilitator.lessons.austerity.debrief import handouts
from facilitator.lessons.austerity.lesson import LESSON
from facilitator.lessons.austerity.scoring import UNFINISHED_RULE
from facilitator.log import replay_table
from facilitator.models import Bag, ClassSession, Table
from games.austerity import data
from tests.lessons.austerity.austerity_scripted import default_plan, finished_lessons
from tests.reports.conftest import pdf_info, pdf_text, poppler

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def austerity(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Finished Austerity lessons for this module's tests (``finished_lessons``)."""
    yield from finished_lessons(django_db_blocker)

ARTIFACTS = Path("artifacts/austerity-debrief")
CHOICE_WORDS = {"0": "no", "1": "1 time", "2": "2 times", "no": "no", "yes": "yes",
                "none": "none", "keep": "keep the cards"}
REASONS = {t: f"{data.TRACK_NAMES[t]} fell to 0" for t in data.TRACKS}
WON = {"debt-free": "no Debt cube was left in Used at Year End"}


def result_line(state: Any) -> str:
    if state.result == "won":
        return f"Won in year {state.year}: {WON[state.reason]}."
    return f"Lost in year {state.year}: {REASONS[state.reason]}."


@pytest.fixture(scope="module")
def rendered(austerity: dict[str, Any], django_db_blocker: Any) -> dict[str, bytes]:
    with django_db_blocker.unblock():
        two, ended = austerity["two"], austerity["ended"]
        return {
            "class": handouts.DEBRIEF.class_handout(two, paper="a4"),
            "students": handouts.DEBRIEF.student_handouts(two, paper="a4"),
            "class_es": handouts.DEBRIEF.class_handout(two, paper="a4", language="es"),
            "students_es": handouts.DEBRIEF.student_handouts(two, paper="a4", language="es"),
            "ended": handouts.DEBRIEF.class_handout(ended, paper="a4"),
            "bots": handouts.DEBRIEF.class_handout(austerity["bots"], paper="letter"),
        }


def seats(table: Table) -> list[Any]:
    return list(table.seats.filter(shares__isnull=True).order_by("position"))


def expected_choice(table: Table, bag: Bag) -> str:
    """What the students' ballots chose, by the lesson's tie rule (the plan says who voted
    what: the tests know it, the debrief does not)."""
    year = int(bag.decision.split(".")[0][1:])
    item = script.item_of(bag.decision)
    votes = [default_plan(item, year, i, list(bag.options)) for i, _s in enumerate(seats(table))]
    tally = Counter(v for v in votes if v is not None)
    return script.winner(item, script.ranking(tally))[0]


def test_class_handout_tells_each_country_year_by_year(austerity, rendered, tmp_path):
    text = pdf_text(rendered["class"], tmp_path)
    session = austerity["two"]
    for table in session.tables.order_by("number"):
        state = replay_table(table)
        names = [s.nickname for s in seats(table)]
        start = text.index(f"Table {table.number} ")
        years = {}
        for entry in state.history:
            year = entry["year"]
            minister = names[(year - 1) % len(names)]  # the seats take turns in position order
            years[year] = text.index(f"Year {year} · Finance Minister: {minister}", start)
        for entry in state.history:
            year = entry["year"]
            end = years.get(year + 1, len(text))
            part = text[years[year]:end]
            for line in entry["log"]:
                if line["kind"] == "draw" and line["event"]:
                    assert data.EVENTS[line["event"]].name in part, (table.number, year, line)
            for bag in table.bags.filter(decision__startswith=f"y{year}.budget."):
                item = script.item_of(bag.decision)
                label = {"taxes": "Raise taxes", "borrow": "Borrow", "loan": "Pay a loan"}[item]
                voted = bag.receipts.count()
                told = (f"{label}: {CHOICE_WORDS[expected_choice(table, bag)]} "
                        f"({voted} of {len(names)} voted")
                # 3 ballots or more: the tally follows; fewer: only the result.
                assert told + (": " if voted >= 3 else ")") in part
                if item == "borrow" and expected_choice(table, bag) != "0":
                    assert "What changed before the first draw:" in part
                    assert "new Debt cube" in part.split("# DRAWN")[0]
        assert result_line(state) in text[start:]


def test_bots_are_marked_and_get_no_page_and_policy_turns_are_told(austerity, tmp_path):
    session = austerity["bots"]
    table = session.tables.get()
    state = replay_table(table)
    text = pdf_text(handouts.DEBRIEF.class_handout(session), tmp_path)
    bots = list(table.seats.filter(is_bot=True).order_by("position"))
    assert len(bots) == 2 and all(f"{b.nickname} (bot)" in text for b in bots)
    assert int(pdf_info(handouts.DEBRIEF.student_handouts(session), tmp_path)["Pages"]) == 2
    assert "Policy card" in text and "New institution" in text
    told = 0
    for entry in state.history[:-1]:  # a policy turn at Year End is the next year's ballot
        for line in entry["log"]:
            if line["kind"] == "policy" and table.bags.filter(
                    decision=f"y{entry['year'] + 1}.budget.policy").exists():
                label = ("turn " + data.POLICY_CARDS[line["card"]].name
                         if line["choice"] == "turn" else "keep the cards")
                assert f"Policy card: {label} (4 of 4 voted: " in text
                told += 1
    assert told == state.year - 1 >= 1  # every year after the first asked the policy card


def test_the_cuts_table_counts_every_cuts_step_the_engine_took(austerity, rendered, tmp_path):
    text = pdf_text(rendered["class"], tmp_path)
    session = austerity["two"]
    for table in session.tables.order_by("number"):
        state = replay_table(table)
        steps = Counter(line["institution"] for e in state.history for line in e["log"]
                        if line["kind"] == "cuts")
        finals = Counter(line["institution"] for e in state.history for line in e["log"]
                         if line["kind"] == "cuts" and line["final"])
        part = text[text.index(f"Table {table.number} "):]
        part = part[part.index("The cuts and who bore them"):part.index("Year by year")]
        for inst in state.institutions:
            institution = data.INSTITUTIONS[inst]
            assert (f"{institution.name} {steps[inst]} {finals[inst]} "
                    f"{institution.cuts_text}") in part


def test_the_cover_gives_each_countrys_result_and_the_class(austerity, rendered, tmp_path):
    text = pdf_text(rendered["class"], tmp_path)
    cover = text[:text.index("How to use this handout")]
    assert "4A Economics" in cover and "Lena Ortiz" in cover and "Economic Crash" in cover
    for table in austerity["two"].tables.order_by("number"):
        state = replay_table(table)
        tracks = sum(state.tracks.values())
        kind = {"won": "Won", "lost": "Lost"}[state.result]
        assert (f"{table.number} {len(seats(table))} {kind} {result_line(state)} {tracks} "
                f"{portfolios.debt(state)}") in cover


def test_the_tables_side_by_side_compare_tracks_and_debt_year_by_year(austerity):
    session = ClassSession.objects.get(pk=austerity["two"].pk)
    html = handouts.DEBRIEF.class_html(session, paper="a4")
    for table in session.tables.order_by("number"):
        state = replay_table(table)
        tracks = [sum(e["tracks"].values()) for e in state.history] + [sum(state.tracks.values())]
        debt = [e["bag"]["debt"] for e in state.history] + [portfolios.debt(state)]
        for values in (tracks, debt):
            assert f"table {table.number}: {', '.join(map(str, values))}" in html


def test_a_bag_of_three_or_more_shows_its_tally_and_a_smaller_one_only_its_result(austerity,
                                                                                 tmp_path):
    """Twins: the same game, but year 1's bags held other ballots (a tax bag of 5, a borrow
    bag of 2) that chose the same. The tax line gives each twin's own tally; the borrow line
    is the same word for word (two tokens of five: the bag was never opened)."""
    twin_a, twin_b = austerity["twin_a"], austerity["twin_b"]
    texts = [pdf_text(handouts.DEBRIEF.class_handout(s), tmp_path) for s in (twin_a, twin_b)]
    assert "Raise taxes: 1 time (5 of 5 voted: no 1 · 1 time 3 · 2 times 1)" in texts[0]
    assert "Raise taxes: 1 time (5 of 5 voted: no 0 · 1 time 4 · 2 times 1)" in texts[1]
    for text in texts:
        assert "Borrow: no (2 of 5 voted: fewer than 3, so the bag was not opened)" in text
        assert "a tie" not in text
    without_tax_line = [t.replace("no 1 · 1 time 3", "").replace("no 0 · 1 time 4", "")
                        for t in texts]
    assert without_tax_line[0] == without_tax_line[1]


def test_a_table_ballot_outside_the_budget_session_is_not_told_as_a_budget_item(austerity):
    session = ClassSession.objects.get(pk=austerity["two"].pk)
    before = handouts.DEBRIEF.class_html(session, paper="a4")
    Bag.objects.create(table=session.tables.get(number=1), decision="y1.motion1",
                       options=["no", "yes"], status=Bag.Status.COUNTED, key_ref="motion")
    assert handouts.DEBRIEF.class_html(session, paper="a4") == before


def test_the_debrief_never_reads_a_sealed_ballot(austerity):
    """What was chosen comes from the log's counted actions and the receipts, never from the
    sealed ballots (a counted bag has none left; an open one must not be read)."""
    with CaptureQueriesContext(connection) as queries:
        handouts.DEBRIEF.class_html(austerity["two"], paper="a4")
        handouts.DEBRIEF.students_html(austerity["two"], paper="a4")
    sql = " ".join(q["sql"].lower() for q in queries.captured_queries)
    assert "sealedballot" not in sql and "receipt" in sql


def test_a_country_the_lesson_ended_early_is_unfinished_with_its_rule(austerity, rendered,
                                                                     tmp_path):
    session = austerity["ended"]
    table = session.tables.get()
    state = replay_table(table)
    assert state.result is None
    text = pdf_text(rendered["ended"], tmp_path)
    tracks, debt = sum(state.tracks.values()), portfolios.debt(state)
    assert (f"Unfinished after year 1: score {tracks - 2 * debt} (tracks {tracks}, "
            f"less 2 × {debt} Debt cubes).") in text
    assert "Year 1 · Finance Minister" in text and "Year 2 ·" not in text  # not begun
    assert " ".join(str(UNFINISHED_RULE).split()) in text


def test_student_pages_one_each_with_portfolio_and_minister_year(austerity, rendered, tmp_path):
    session = austerity["two"]
    students = list(session.seats.filter(is_bot=False, table__isnull=False)
                    .order_by("table__number", "position"))
    assert int(pdf_info(rendered["students"], tmp_path)["Pages"]) == len(students)
    letter = handouts.DEBRIEF.student_handouts(session, paper="letter")
    assert int(pdf_info(letter, tmp_path)["Pages"]) == len(students)
    for seat in students:
        page = pdf_text(handouts.DEBRIEF.student_handouts(session, seat_id=seat.pk), tmp_path)
        assert int(pdf_info(handouts.DEBRIEF.student_handouts(session, seat_id=seat.pk),
                            tmp_path)["Pages"]) == 1
        table = seat.table
        state, start = replay_table(table), table_start(table)
        portfolio = portfolios.PORTFOLIOS[seat.position % 6]
        track = portfolios.TRACK_OF[portfolio]
        before = start.tracks[track] if track else portfolios.debt(start)
        after = state.tracks[track] if track else portfolios.debt(state)
        assert f"{seat.nickname} · table {table.number}" in page
        assert f"{portfolios.NAMES[portfolio]} · you defended" in page
        assert f"From {before} to {after}" in page
        n = len(seats(table))
        years = [y for y in range(1, state.year + 1) if (y - 1) % n == seat.position]
        if years:
            assert f"You were the Finance Minister in year {', '.join(map(str, years))}." in page
        else:
            assert "You were not the Finance Minister this time." in page


def table_start(table: Table) -> Any:
    from games import austerity as engine

    return engine.new_game(table.config, table.seed)


def test_handouts_in_spanish(austerity, rendered, tmp_path):
    with translation.override("es"):
        if translation.gettext("Year by year") == "Year by year":
            pytest.skip("the Spanish catalogue is not compiled (make compilemessages)")
    text = pdf_text(rendered["class_es"], tmp_path)
    assert "Año a año" in text and "Ministro de Hacienda" in text
    assert "Recortes" in text and "Year by year" not in text
    pages = pdf_text(rendered["students_es"], tmp_path)
    assert "Tu país" in pages and "Your country" not in pages
    students = austerity["two"].seats.filter(is_bot=False, table__isnull=False).count()
    assert int(pdf_info(rendered["students_es"], tmp_path)["Pages"]) == students
    letter = handouts.DEBRIEF.student_handouts(austerity["two"], paper="letter", language="es")
    assert int(pdf_info(letter, tmp_path)["Pages"]) == students


def test_reports_are_the_lessons_and_the_reports_page_lists_each_result(austerity, client):
    assert LESSON.reports() is not None
    session = ClassSession.objects.get(pk=austerity["two"].pk)
    client.force_login(session.owner)
    page = client.get(f"/teacher/lessons/{session.pk}/reports/").content.decode()
    for table in session.tables.order_by("number"):
        state = replay_table(table)
        assert result_line(state) in page
    for what in ("class.pdf", "students.pdf", "rounds.csv", "results.csv",
                 "table/1/record.json"):
        response = client.get(f"/teacher/lessons/{session.pk}/reports/{what}")
        assert response.status_code == 200, what


def test_pages_render_to_png_and_are_not_blank(rendered, tmp_path):
    tool = poppler("pdftoppm")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for key, pdf in rendered.items():
        path = tmp_path / f"{key}.pdf"
        path.write_bytes(pdf)
        for old in ARTIFACTS.glob(f"{key}-*.png"):
            old.unlink()
        subprocess.run([tool, "-png", "-r", "60", str(path), str(ARTIFACTS / key)], check=True)
        images = sorted(ARTIFACTS.glob(f"{key}-*.png"))
        assert images
        for image in images:
            grey = Image.open(image).convert("L")
            assert sum(grey.histogram()[:128]) > 0.005 * grey.width * grey.height, image
