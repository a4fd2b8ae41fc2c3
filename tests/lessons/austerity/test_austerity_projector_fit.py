"""Every stage of an Austerity lesson fits one projector screen, without scrolling, at
1920×1080 and at 1280×720, in Spanish (the longer texts): one table (the whole board) played
to the end, with the policy cards and the extra institutions (every stage of a year), and a
class of 32 at four tables and one of 40 at five (the most; a compact card each) through
their first year.

Students are light, as in tests/e2e/fit.py: each is its own cookie jar posting the
phone's plain forms. Everyone votes to raise taxes once and to change nothing else; each
table's Finance Minister answers every decision with its first option. The two tables of
the whole-lesson test (test_austerity_lesson_e2e.py) are checked there.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e import ui
from tests.e2e.fit import Student, fits, join_class
from tests.e2e.live import PROJECTOR
from tests.lessons.austerity.test_austerity_lesson_e2e import open_lesson, shot

DECISION = re.compile(r'name="type" value="decide"><input type="hidden" name="decision" '
                      r'value="([^"]+)">.*?name="choice" value="([^"]+)"', re.S)
BALLOT = re.compile(r'name="type" value="ballot"><input type="hidden" name="decision" '
                    r'value="([^"]+)">')


def vote(students: list[Student], stage: str) -> None:
    for s in students:
        found = BALLOT.search(s.page())
        if found:
            s.post(type="ballot", decision=found.group(1),
                   option="1" if stage == "budget_taxes" else "0")


def decide_once(students: list[Student]) -> bool:
    """Each minister answers the decision in front of them; False: nobody had one."""
    acted = False
    for s in students:
        found = DECISION.search(s.page())
        if found:
            s.post(type="decide", decision=found.group(1), choice=found.group(2))
            acted = True
    return acted


def walk(teacher: Page, students: list[Student], label: str, *, until: str,
         audit: ui.Audit) -> list[str]:
    """Press on to the stage ``until`` (or the final result), checking the fit at every
    stage and in the middle of the year (an event on the board), and axe once a stage."""
    wrong: list[str] = []
    audited: set[str] = set()
    next_button = teacher.locator("#live button[data-key=next]")
    for _step in range(40):
        stage, now = ui.stage(teacher), ui.topbar(teacher).get_attribute("data-phase")
        wrong += fits(teacher, f"{label} {now}")
        teacher.set_viewport_size(PROJECTOR["viewport"])
        if stage not in audited:
            audited.add(stage)
            audit.check(teacher, f"{label} {stage}")
        if stage in ("final", until):
            return wrong
        if stage.startswith("budget_"):
            vote(students, stage)
            expect(teacher.locator(".aus-now [data-progress][data-voted]")).to_have_count(0)
        elif stage == "year":
            for tap in range(400):
                if next_button.is_enabled():
                    break
                if not decide_once(students):
                    teacher.wait_for_timeout(100)
                if tap in (2, 9, 20):
                    teacher.reload()  # the console as it is now, then its fit
                    wrong += fits(teacher, f"{label} {now} (mid-year)")
                    teacher.set_viewport_size(PROJECTOR["viewport"])
                    shot(teacher, f"fit-{label}-mid-year-{tap}")
                    audit.check(teacher, f"{label} mid-year {tap}")
            expect(next_button).to_be_enabled()
        ui.press_next(teacher)
    raise AssertionError("the lesson did not reach the end")


@pytest.mark.e2e
@pytest.mark.slow
def test_every_austerity_stage_fits_one_projector_screen(browser: Browser,
                                                         austerity_server: str) -> None:
    context: BrowserContext = browser.new_context(base_url=austerity_server, **PROJECTOR)
    try:
        teacher = context.new_page()
        ui.log_in(teacher)
        wrong: list[str] = []
        audit = ui.Audit("austerity-fit")
        for students, until, label in ((5, "final", "1-table"),
                                       (32, "budget_taxes", "4-tables"),
                                       (40, "budget_taxes", "5-tables")):
            address = open_lesson(teacher, students=students, title=f"Encaje {students}",
                                  extras=students == 5)
            class_ = join_class(browser, austerity_server, address, students)
            expect(teacher.locator(".lobby .count")).to_contain_text(str(students))
            ui.press_next(teacher, "click")
            expect(teacher.locator(".aus-board, .aus-card").first).to_be_visible()
            if students >= 32:  # 40 students, 8 a table: the most tables a class can have
                expect(teacher.locator(".aus-card")).to_have_count(students // 8)
            shot(teacher, f"fit-{label}-first")
            # Year 1's budget session, the year, Year End; then year 2's (or the end).
            wrong += walk(teacher, class_, label, until="__never__" if until == "final"
                          else "year_end", audit=audit)
            if until != "final":
                ui.press_next(teacher)
                wrong += fits(teacher, f"{label} year 2's budget")
                teacher.set_viewport_size(PROJECTOR["viewport"])
            shot(teacher, f"fit-{label}-last")
            teacher.goto("/teacher/")
        audit.assert_clean()
        assert not wrong, "\n".join(wrong)
    finally:
        context.close()
