"""``manage.py check`` holds every lesson module to the parts a lesson needs."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command

from facilitator import lessons
from facilitator.lesson_checks import lesson_modules_are_complete, lesson_problems
from facilitator.lessons.base import Lesson, StepPlan


def test_every_installed_lesson_module_passes_the_check():
    assert [lesson.game for lesson in lessons.all_lessons()]
    assert lesson_modules_are_complete() == []
    call_command("check", fail_level="ERROR")


class Complete(Lesson):
    game = "state-in-class"
    name = summary = duration = group_sizes = students_do = "x"
    first_stage = "pact"
    stage_names = {"pact": "Pact"}
    templates = {"phone": "play/_error.html", "console": "play/_error.html",
                 "progress": "play/_error.html"}

    def seating(self, students: int, fill: str | None, options: dict[str, Any]) -> Any:
        return None

    def seating_error(self, students: int, fill: str | None, options: dict[str, Any]) -> str:
        return ""

    def plan_step(self, session: Any, tables: Any, states: Any) -> StepPlan:
        return StepPlan("pact", 1)

    def on_step(self, table: Any, state: Any, *, before: str, plan: StepPlan,
                step: Any) -> Any:
        return state

    def projector_context(self, view: Any, *, join_url: str = "") -> Any:
        return {}

    def phone_context(self, view: Any) -> Any:
        return {}


def test_a_complete_module_has_no_problem():
    assert lesson_problems(Complete()) == []


def test_a_module_missing_a_hook_says_which():
    class NoStep(Complete):
        plan_step = Lesson.plan_step

    assert lesson_problems(NoStep()) == ["it does not define plan_step()"]


def test_a_misspelt_hook_is_named():
    class Typo(Complete):
        def on_stpe(self) -> None:
            pass

    (problem,) = lesson_problems(Typo())
    assert problem.startswith("it defines on_stpe(), which the platform never calls")


def test_a_missing_template_an_unknown_game_and_a_stage_not_named_are_caught():
    class Broken(Complete):
        game = "no-such-game"
        first_stage = "lobby-typo"
        templates = {**Complete.templates, "phone": "nowhere/phone.html"}
        seat_messages = (object,)

    problems = lesson_problems(Broken())
    assert ("no engine declares its game 'no-such-game' (a package under games/ whose "
            "GAME_ID it is)") in problems
    assert "its first stage 'lobby-typo' is not among its 'stage_names'" in problems
    assert "its template 'phone' (nowhere/phone.html) does not exist" in problems
    assert "it declares 'seat_messages' but does not define seat_act()" in problems


def test_a_debrief_that_is_not_the_platforms_or_names_no_template_is_caught():
    from tests.fakegame.debrief import CoinJarDebrief

    class OwnDebrief(Complete):
        def reports(self) -> Any:
            return object()

    class Untemplated(CoinJarDebrief):
        class_template = "play/_error.html"
        students_template = "coin_jar/reports/nowhere.html"

    class UntemplatedDebrief(Complete):
        def reports(self) -> Any:
            return Untemplated()

    assert lesson_problems(OwnDebrief()) == ["its reports() is not a kit.reports.Debrief"]
    assert lesson_problems(UntemplatedDebrief()) == [
        "its debrief's students_template (coin_jar/reports/nowhere.html) does not exist"]
