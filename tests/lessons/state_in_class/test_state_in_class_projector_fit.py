"""Every stage of the projector fits one screen, without scrolling, at 1920×1080 and at
1280×720 (many classroom projectors), for one table and for several.

Students here are light (``tests/e2e/fit.py``): each is its own cookie jar posting the
phone's plain forms, so a class of 32 or 40 costs no browser. Everyone gives 3
coins to the pact; three students per table vote (tax C, the budget rotating; a bag of fewer
is never opened), which mostly keeps the State standing; the others abstain. Budget ties
(two services with no votes) are decided from the console, as a teacher would for an absent
decider.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e import ui
from tests.e2e.fit import SIZES, Student, fits, join_class

# What the console says, in each language the fit is checked in (Spanish runs longer).
WORDS = {
    "en": {"students": "{n} students", "one": "1 student", "gaps": "Choose below how to fill "
           "the gaps.", "bots": "Add 5 bots and start (6)", "asking": "have not voted: count "
           "anyway?", "handouts": "Handouts and records"},
    "es": {"students": "{n} estudiantes", "one": "1 estudiante", "gaps": "Elige abajo cómo "
           "completar las mesas.", "bots": "Añadir 5 bots y empezar (6)", "asking": "no han "
           "votado: ¿hacer el recuento igualmente?", "handouts": "Hojas y registros"},
}
SERVICES = ["health", "education", "shield"]


def start(teacher: Page, students: int, browser: Browser, server: str,
          language: str = "en") -> list[Student]:
    words = WORDS[language]
    address = ui.new_lesson(teacher, f"Fit {students} {language}",
                            class_size=max(32, students), language=language)
    if students == 8:  # one student alone: Start cannot act, and says why
        class_ = join_class(browser, server, address, 1)
        expect(teacher.locator(".lobby .count")).to_contain_text(words["one"])
        expect(teacher.locator("button[data-key=next]")).to_be_disabled()
        expect(teacher.locator("#next-blocked")).to_have_text(words["gaps"])
        expect(teacher.locator(".lobby .fill button").first).to_have_text(words["bots"])
        class_ += join_class(browser, server, address, students - 1, first=2)
    else:
        class_ = join_class(browser, server, address, students)
    expect(teacher.locator(".lobby .count")).to_contain_text(
        words["students"].format(n=students))
    ui.press_next(teacher, "click")
    expect(teacher.locator(".board").first).to_be_visible()
    tables = teacher.locator(".board").count()
    for table in range(tables):  # the first three students seated at each table vote
        names = teacher.locator(f"#table-{table + 1} .seats .nick").all_inner_texts()[:3]
        for name in names:
            voter = next(s for s in class_ if s.nickname == name.strip())
            voter.voter, voter.table = True, table
    return class_


def walk(teacher: Page, class_: list[Student], label: str, *, play: bool = True,
         language: str = "en") -> list[str]:
    """Press on to the final count, checking the fit at every stage. ``play=False``: nobody
    gives to the pact (Tension starts at 4) and each voter picks tax D, which the working
    class cannot pay: the State fails within a round or two, straight to the final count."""
    wrong: list[str] = []
    voters = [s for s in class_ if s.voter]
    while (stage := ui.stage(teacher)) != "final":
        current = teacher.locator(".rounds li.current")
        rnd = current.inner_text() if current.count() else "0"
        wrong += fits(teacher, f"{label} round {rnd} {stage}")
        if rnd == "1" and stage in ("debate", "end_of_round") and teacher.locator(
                ".focus-link").count():  # one table's details, and back to all of them
            teacher.locator('#table-1 a[data-focus="1"]').click()  # "Show only table 1"
            expect(teacher.locator("#table-2")).to_be_hidden()
            wrong += fits(teacher, f"{label} round {rnd} {stage} (table 1 only)")
            teacher.locator('a[data-focus=""]:visible').first.click()  # "Show all tables"
            expect(teacher.locator("#table-2")).to_be_visible()
        if stage == "pact" and play:  # everyone gives 3: Tension starts at 1
            for s in class_:
                s.post(type="pact", coins="3")
        elif stage in ("tax_vote", "budget_vote") and not teacher.locator(".board .failed").count():
            for s in voters:
                tax = "C" if play else "D"
                option = tax if stage == "tax_vote" else SERVICES[(int(rnd) + s.table) % 3]
                s.post(type="ballot", kind=stage.removesuffix("_vote"), option=option)
            expect(teacher.locator("[data-progress][data-voted]").first).to_be_visible()
        while teacher.locator(".tie-teacher button").count():
            ties = teacher.locator(".tie")
            before = ties.all_inner_texts()
            teacher.locator(".tie-teacher button").first.click()
            for _ in range(100):  # the tie is settled, or the next one of a three-way tie
                if ties.all_inner_texts() != before:
                    break
                teacher.wait_for_timeout(50)
        if stage in ("tax_vote", "budget_vote") and teacher.locator("[data-voted]").count():
            teacher.keyboard.press("Space")  # tokens are missing: the console asks first
            expect(teacher.locator("[data-confirm-box]")).to_contain_text(
                WORDS[language]["asking"])
            wrong += fits(teacher, f"{label} round {rnd} {stage} (asking)")
        ui.press_next(teacher)
    wrong += fits(teacher, f"{label} final count")
    return wrong


def final_in_view(teacher: Page, label: str) -> list[str]:
    """Two tables' final count: each row keeps its ranking (names, roles, points) and the
    coins left in its funds; one table's view draws its charts projector-sized."""
    wrong = []
    for width, height in SIZES:
        teacher.set_viewport_size({"width": width, "height": height})
        for table in (1, 2):
            board = teacher.locator(f"#table-{table}")
            if not board.locator(".ranking small").first.is_visible():
                wrong.append(f"{label} final at {width}: table {table}'s roles are hidden")
            if not board.locator(".fund").first.is_visible():
                wrong.append(f"{label} final at {width}: table {table}'s funds are hidden")
    teacher.locator('#table-1 a[data-focus="1"]').click()
    wrong += fits(teacher, f"{label} final count (table 1 only)")  # walks both sizes
    for width, height in SIZES:
        teacher.set_viewport_size({"width": width, "height": height})
        chart = teacher.locator("#table-1 .charts svg").first.bounding_box()
        if chart is None or chart["height"] < height / 4:
            wrong.append(f"{label} final at {width}: the charts are {chart} px")
    ui.shot(teacher, "fit-final-2-tables-es-table-1")
    return wrong


@pytest.mark.e2e
@pytest.mark.slow
def test_every_stage_fits_one_projector_screen(teacher: Page, browser: Browser,
                                               server: str) -> None:
    wrong: list[str] = []
    # English at every size; Spanish, whose words run longer, at one table, two and five.
    for students, language in ((8, "en"), (32, "en"), (40, "en"), (8, "es"), (16, "es"),
                               (40, "es")):
        class_ = start(teacher, students, browser, server, language)
        label = f"{students // 8} table(s) {language}"
        wrong += walk(teacher, class_, label, play=students not in (16, 40), language=language)
        ui.shot(teacher, f"fit-final-{students // 8}-tables-{language}")
        if students == 16:
            wrong += final_in_view(teacher, label)
        handouts = teacher.locator(".topbar a", has_text=WORDS[language]["handouts"]).count()
        wrong += [] if handouts else [f"{label}: no handouts link in the header"]
        teacher.goto("/teacher/")
    print("\n".join(wrong))
    assert not wrong, "\n".join(wrong)
