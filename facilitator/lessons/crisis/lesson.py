"""Crisis as a lesson module: tables of 2 to 5 teams, each team one of the engine's players.
A rotating captain makes the team's moves on their phone; teammates suggest; the teacher
moves every table through the round's beats (``script``). A whole lesson is played in the
browser by tests/lessons/crisis/test_crisis_lesson_e2e.py.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.kit import Lesson, StepPlan, table_seats
from facilitator.kit.seating import SeatingPlan
from facilitator.lessons.crisis import (
    bots,
    debrief,
    messages,
    options,
    presenters,
    reads,
    script,
    turns,
)
from facilitator.lessons.crisis.forms import OptionsForm
from facilitator.lessons.crisis.seating import seating_error, seating_plan
from facilitator.lessons.crisis.whatif import WHATIF
from facilitator.models import ClassSession, Seat, Table, TeacherStep
from games.crisis.state import OVER


class CrisisLesson(Lesson):
    game = "crisis"
    playable = True
    name = gettext_lazy("Crisis: Entrepreneurs Keeping a Country Afloat")
    summary = gettext_lazy("Teams run companies in a country on the edge of bankruptcy: every "
                           "round they choose between private profit and keeping the country "
                           "afloat.")
    duration = gettext_lazy("7 rounds in about 75 minutes with 30-second turns, or a shorter "
                            "game of 5 rounds")
    group_sizes = gettext_lazy("Tables of 2 to 5 teams of 2 to 4 students")
    students_do = gettext_lazy("A rotating captain places managers, plans production and exports;"
                               " teammates suggest moves from their phones.")
    default_options = options.DEFAULTS
    options_form = OptionsForm
    seat_messages = messages.SEAT
    teacher_messages = messages.TEACHER
    first_stage = script.FIRST_STAGE
    stage_names = script.STAGE_NAMES
    templates = {"phone": "crisis/phone/screen.html", "console": "crisis/projector/board.html",
                 "progress": "crisis/projector/progress.html",
                 "result": "crisis/reports/_result.html"}

    def check_options(self, options_: dict[str, Any]) -> None:
        super().check_options(options_)
        options.check(options_)

    def seating(self, students: int, fill: str | None,
                options_: dict[str, Any]) -> SeatingPlan | None:
        return seating_plan(students, fill, int(options_.get("team_size") or 3),
                            options.bot_teams(options_))

    def seating_error(self, students: int, fill: str | None, options_: dict[str, Any]) -> str:
        return seating_error(students, fill, int(options_.get("team_size") or 3))

    def party_name(self, index: int) -> str:
        return _("Team %(letter)s") % {"letter": "ABCDE"[index]}

    def table_config(self, names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return options.table_config(names, options_)

    def bot_policy(self, options_: dict[str, Any]) -> str:
        return str(options_.get("bot_policy") or "sensible")

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        return script.plan_step(session, tables, states)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        return script.on_step(table, state, before=before, plan=plan, step=step)

    def step_label(self, session: ClassSession, plan: StepPlan, *, votes: int | None,
                   states: dict[int, Any]) -> Any:
        return script.step_label(plan) or super().step_label(session, plan, votes=votes,
                                                             states=states)

    def live(self, state: Any) -> bool:
        return state.phase != OVER

    def bot_action(self, table: Table, session: ClassSession, state: Any,
                   seat: Seat) -> dict[str, Any] | None:
        return bots.bot_action(table, session, state, seat)

    def automatic_action(self, seats: list[Seat], state: Any) -> dict[str, Any] | None:
        return bots.automatic_action(seats, state)

    def held_back(self, table: Table, state: Any) -> Any:
        # The round's last move waits for the teacher's Evaluation (``turns``): the engine
        # has not played it, so the screens show the game as it is.
        session = table.session
        if session.stage not in turns.STAGE_PHASES or state.phase == OVER:
            return None
        waiting = turns.waits_for_teacher(table, session, state, table_seats(table))
        return state if waiting else None

    def session_info(self, session: ClassSession) -> dict[str, Any]:
        return {"crisis_round": script.turns.round_of(session),
                "rounds": script.rounds_of(session),
                "crisis_tables": reads.tables_info(session),
                "team_size": int(session.options.get("team_size") or 3),
                "bot_teams": options.bot_teams(session.options),
                "bots_allowed": bool(session.options.get("bots_allowed", True))}

    def seat_info(self, session: ClassSession, seat: Seat, table: Table,
                  legal: list[dict[str, Any]]) -> dict[str, Any]:
        data = reads.seat_info(session, seat, table)
        return {"can": {"move": data["captain"] and bool(data["choices"] or data["planner"]),
                        "suggest": not data["captain"] and bool(data["decision"])},
                "crisis": data}

    def projector_context(self, view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
        return presenters.projector_context(view, join_url=join_url)

    def phone_context(self, view: dict[str, Any]) -> dict[str, Any]:
        return presenters.phone_context(view)

    def seat_act(self, seat_id: int, message: Any, token_hash: str | None) -> Any:
        return messages.seat_act(seat_id, message, token_hash)

    def teacher_act(self, session: ClassSession, message: Any) -> None:
        messages.teacher_act(session, message)

    def reports(self) -> Any:
        return debrief.DEBRIEF

    def whatif(self) -> Any:
        return WHATIF


LESSON = CrisisLesson()
