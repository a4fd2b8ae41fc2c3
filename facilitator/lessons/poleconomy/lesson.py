"""Poleconomy as a lesson module: the teacher is the game master, every player (a student or
a team of 2 to 4 with a rotating captain) sends sealed orders from their phone each round,
and Parliament consents in a secret ballot weighted by electoral votes.

Offered on the new-lesson page (``playable = True``): a whole Spanish lesson with a mixed table
is played through the pages in ``tests/lessons/poleconomy/test_poleconomy_lesson_class_e2e.py``;
the rest of ``tests/lessons/poleconomy/`` tests its parts. Design:
``docs/modules.md``, Poleconomy.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.errors import ServiceError
from facilitator.kit import Ballot, Lesson, StepPlan, last_step
from facilitator.kit.seating import SeatingPlan
from facilitator.lessons.poleconomy import messages, options, presenters, reads, script, turns
from facilitator.lessons.poleconomy.debrief import DEBRIEF
from facilitator.lessons.poleconomy.forms import OptionsForm
from facilitator.lessons.poleconomy.whatif import WHATIF
from facilitator.models import ClassSession, Seat, Table, TeacherStep
from games.poleconomy.state import OVER


class PoleconomyLesson(Lesson):
    game = "poleconomy"
    playable = True
    name = gettext_lazy("Poleconomy: Elections, Parliament and Inflation")
    summary = gettext_lazy("Players are politicians and business owners: they win elections, pass"
                           " taxes in Parliament and buy companies while inflation climbs.")
    duration = gettext_lazy("Several rounds of orders, one or two lessons")
    group_sizes = gettext_lazy("Tables of 3 to 6 players (students or teams); the teacher is the "
                               "game master")
    students_do = gettext_lazy("Students send sealed orders from their phones each round; "
                               "Parliament votes in secret, weighted by electoral votes.")
    default_options = options.DEFAULTS
    options_form = OptionsForm
    teacher_urls = "facilitator.lessons.poleconomy.urls"
    templates = {"phone": "poleconomy/phone.html", "console": "poleconomy/console.html",
                 "progress": "poleconomy/progress.html",
                 "result": "poleconomy/reports/_result.html"}
    seat_messages = messages.SEAT
    teacher_messages = messages.TEACHER
    first_stage = script.FIRST_STAGE
    stage_names = script.STAGE_NAMES

    def check_options(self, options_: dict[str, Any]) -> None:
        super().check_options(options_)
        options.check({**options.DEFAULTS, **options_})

    def seating(self, students: int, fill: str | None,
                options_: dict[str, Any]) -> SeatingPlan | None:
        return options.class_seating(students, fill, options_)

    def seating_error(self, students: int, fill: str | None, options_: dict[str, Any]) -> str:
        return options.class_seating_error(students, fill, options_)

    def table_config(self, names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return options.table_config(names, {**options.DEFAULTS, **options_})

    def bot_policy(self, options_: dict[str, Any]) -> str:
        return str(options_.get("bot_policy") or options.DEFAULTS["bot_policy"])

    def stage_id(self, session: ClassSession) -> str:
        return script.stage_id(session)

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        return script.plan_step(session, tables, states)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        return turns.on_step(table, state, before=before, plan=plan, step=step)

    def step_label(self, session: ClassSession, plan: StepPlan, *, votes: int | None,
                   states: dict[int, Any]) -> Any:
        return presenters.step_label(session, plan, states) or super().step_label(
            session, plan, votes=votes, states=states)

    def live(self, state: Any) -> bool:
        return state.phase != OVER

    def ballot_for(self, session: ClassSession, state: Any) -> Ballot | None:
        """None: the consent bag is the lesson's to count (at the close, after the orders),
        never the platform's when it fills, and the lesson casts its bots' tokens itself."""
        return None

    def ballot_decision(self, session: ClassSession, kind: str) -> str:
        raise ServiceError("bad_kind", _("Unknown vote."))

    def ballot_action(self, decision: str, player: str) -> dict[str, Any] | None:
        return None  # the engine's receipts would be per item: the bag's are the platform's

    def count_action(self, decision: str, result: dict[str, Any]) -> list[dict[str, Any]]:
        return script.count_actions(decision, result)

    def ballot_outcome(self, state: Any, decision: str, tally: dict[str, int]) -> Any:
        return script.carried(state, tally)

    def bot_action(self, table: Table, session: ClassSession, state: Any,
                   seat: Seat) -> dict[str, Any] | None:
        """None: a bot's orders wait with everyone's for the close (``turns.bot_turn``
        writes them, and casts its token in Parliament's bag)."""
        turns.bot_turn(table, session.round, session.stage, state, seat, last_step(session))
        return None

    def held_back(self, table: Table, state: Any) -> Any:
        # The close adjudicates the whole round; the replay shows it beat by beat, and until
        # its last beat every screen shows the game as far as the replay has gone.
        session = table.session
        if session.stage != script.REPLAY:
            return None
        shown = script.beats_shown(session)
        if shown + 1 >= len(script.beats(state, session.round)):
            return None
        return reads.so_far(table, state, session.round, shown)

    def session_info(self, session: ClassSession) -> dict[str, Any]:
        return reads.session_info(session)

    def table_info(self, table: Table, state: Any) -> dict[str, Any]:
        return reads.table_info(table, state)

    def seat_info(self, session: ClassSession, seat: Seat, table: Table,
                  legal: list[dict[str, Any]]) -> dict[str, Any]:
        return reads.seat_info(session, seat, table)

    def projector_context(self, view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
        return presenters.projector_context(view, join_url=join_url)

    def phone_context(self, view: dict[str, Any]) -> dict[str, Any]:
        return presenters.phone_context(view)

    def undone_notice(self, session: dict[str, Any]) -> str:
        return presenters.undone_notice(session)

    def seat_act(self, seat_id: int, message: Any, token_hash: str | None) -> Any:
        return messages.seat_act(seat_id, message, token_hash)

    def teacher_act(self, session: ClassSession, message: Any) -> None:
        messages.teacher_act(session, message)

    def reports(self) -> Any:
        return DEBRIEF

    def whatif(self) -> Any:
        return WHATIF


LESSON = PoleconomyLesson()
