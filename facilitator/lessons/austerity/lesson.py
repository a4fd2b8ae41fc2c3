"""Austerity as a lesson module: each table governs one country (the engine's one player,
``"government"``). A Finance Minister, rotating each year, takes the engine's decisions on
their phone; the whole table votes in secret on each year's budget session.

The module is offered as "in preparation" (``playable = False``) until its screens and
debrief land in this folder; its script, seating, ballots, bots and the minister's action work
(``tests/facilitator/test_austerity_lesson.py``).

Seats keep their own names (every seat is a voter of its own: one token per student in the
budget session's bag); the engine config names no players, since the whole table is the
engine's one player.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from facilitator import seating as platform_seating
from facilitator.lessons.austerity import bots, messages, options, script
from facilitator.lessons.austerity.forms import OptionsForm
from facilitator.lessons.base import Ballot, Lesson, StepPlan
from facilitator.models import CLASS_SIZE_MAX, Bag, ClassSession, Seat, Table, TeacherStep
from facilitator.seating import SeatingPlan
from games.austerity.state import OVER

SMALLEST, LARGEST = 4, 8


class AusterityLesson(Lesson):
    game = "austerity"
    playable = False
    name = gettext_lazy("Austerity: Governing a Country in Debt")
    summary = gettext_lazy("Each table governs a country in debt: draw the budget bag, make cuts,"
                           " raise taxes or borrow, and try to clear the debt before a track hits"
                           " zero.")
    duration = gettext_lazy("About 5 to 7 political years in a lesson")
    group_sizes = gettext_lazy("Tables of 4 to 8 students, or the whole class as one country")
    students_do = gettext_lazy("A rotating Finance Minister takes the quick decisions on their "
                               "phone; the whole table votes in secret on each year's budget "
                               "session.")
    default_options = options.DEFAULTS
    # The screens (presenters.py, templates/austerity/); "console_css"/"phone_css": the
    # module's stylesheets, which the platform's page shells link after their own.
    templates = {
        "phone": "austerity/phone/_screen.html",
        "console": "austerity/console/_board.html",
        "progress": "austerity/console/_progress.html",
        "console_css": "austerity/projector.css",
        "phone_css": "austerity/phone.css",
    }
    options_form = OptionsForm
    seat_messages = messages.SEAT
    teacher_messages = messages.TEACHER
    first_stage = script.FIRST_STAGE
    stage_names = script.STAGE_NAMES

    def check_options(self, options_: dict[str, Any]) -> None:
        super().check_options(options_)
        options.check(options_)

    def seating(self, students: int, fill: str | None,
                options_: dict[str, Any]) -> SeatingPlan | None:
        """One table holding the whole class (up to the class cap), or tables of 4 to 8."""
        if options_.get("seating") == options.CLASS:
            return SeatingPlan([students]) if 1 <= students <= CLASS_SIZE_MAX else None
        return platform_seating.plan(students, fill, SMALLEST, LARGEST)

    def seating_error(self, students: int, fill: str | None, options_: dict[str, Any]) -> str:
        if options_.get("seating") != options.CLASS and fill is None:
            return ngettext(
                "%(n)d student cannot be split into tables of 4 to 8. Fill the gaps with "
                "bots, or let some students share a seat.",
                "%(n)d students cannot be split into tables of 4 to 8. Fill the gaps with "
                "bots, or let some students share a seat.", students) % {"n": students}
        return ngettext("%(n)d student cannot be seated that way.",
                        "%(n)d students cannot be seated that way.", students) % {"n": students}

    def table_config(self, names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return options.table_config(options_)

    def bot_policy(self, options_: dict[str, Any]) -> str:
        return str(options_.get("bot_policy") or bots.DEFAULT_POLICY)

    def on_start(self, table: Table, state: Any, step: TeacherStep) -> Any:
        ballot = script.ballot(table.session, state)
        if ballot is not None:
            from facilitator import services

            services.vote_open(table, ballot, step)
        return state

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        return script.plan_step(session, tables, states)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        state = script.on_step(table, state, before=before, plan=plan, step=step)
        if plan.stage == script.YEAR:
            state = bots.play_year(table, table.session, state, step)
        return state

    def live(self, state: Any) -> bool:
        return state.stage != OVER

    def ballot_for(self, session: ClassSession, state: Any) -> Ballot | None:
        return script.ballot(session, state)

    def ballot_decision(self, session: ClassSession, kind: str) -> str:
        """A phone may name the open budget item by its short name (e.g. "taxes")."""
        from facilitator.errors import ServiceError

        if kind not in script.BUDGET_ITEMS:
            raise ServiceError("bad_kind", _("Unknown vote."))
        if script.STAGE_ITEMS.get(session.stage) != kind:
            raise ServiceError("vote_closed", _("This vote is not open."), status=409)
        return script.decision_id(script.year_of(session), kind)

    def ballot_action(self, decision: str, player: str) -> dict[str, Any] | None:
        return None  # the engine keeps no receipts: the count's actions are its record

    def count_action(self, decision: str, result: dict[str, Any]) -> list[dict[str, Any]]:
        return script.count_actions(decision, result)

    def ballot_outcome(self, state: Any, decision: str, tally: dict[str, int]) -> Any:
        return script.ranking(tally)

    def bot_action(self, table: Table, session: ClassSession, state: Any,
                   seat: Seat) -> dict[str, Any] | None:
        return bots.bot_action(table, session, state, seat)

    def bot_vote(self, state: Any, seat: Seat, bag: Bag, rng: Any) -> str:
        return bots.bot_vote(state, seat, bag, rng)

    def session_info(self, session: ClassSession) -> dict[str, Any]:
        from facilitator.lessons.austerity import facts

        info: dict[str, Any] = {"year": script.year_of(session),
                                "tie_rule": str(script.TIE_RULE)}
        # The screens' part (presenters.py): each table's minister, the budget items counted
        # this year, the open ballot's progress, and the options the screens name.
        info.update({"austerity": facts.session_facts(session),
                     "options": dict(session.options),
                     "policies": bool(session.options.get("policies")),
                     "extra_institutions": bool(session.options.get("extra_institutions")),
                     "portfolios": bool(session.options.get("portfolios"))})
        return info

    def seat_info(self, session: ClassSession, seat: Seat, table: Table,
                  legal: list[dict[str, Any]]) -> dict[str, Any]:
        from facilitator.lessons.austerity import facts

        return facts.seat_facts(session, seat, table)

    def projector_context(self, view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
        from facilitator.lessons.austerity import presenters

        return presenters.projector_context(view, join_url=join_url)

    def phone_context(self, view: dict[str, Any]) -> dict[str, Any]:
        from facilitator.lessons.austerity import presenters

        return presenters.phone_context(view)

    def undone_notice(self, session: dict[str, Any]) -> str:
        from facilitator.lessons.austerity import presenters

        return presenters.undone_notice(session)

    def seat_act(self, seat_id: int, message: Any, token_hash: str | None) -> Any:
        return messages.seat_act(seat_id, message, token_hash)


LESSON = AusterityLesson()
