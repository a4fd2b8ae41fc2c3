"""Austerity as a lesson module: each table governs one country (the engine's one player,
``"government"``, whose view every seat's phone shows). A Finance Minister, rotating each
year, takes the engine's decisions on their phone; the whole table votes in secret on each
year's budget session; students raise motions that the table votes on; the teacher may take
a kind of decision to a table ballot or over to the console (``turns``, ``modes``,
``motions``, ``pacing``).

Its screens are ``presenters``/``facts`` with the templates under ``templates/austerity/``,
its debrief ``debrief/`` (``tests/lessons/austerity/``, browser tests included).

Seats keep their own names (every seat is a voter of its own: one token per student in
every bag); the engine config names no players, since the whole table is the engine's one
player.

What the screens get (``reads``; docs/modules.md, "What the screens get", says each in full):

- ``session``: ``year``, ``tie_rule``, ``ballot_tie_rule``, ``portfolios``, ``same_start``,
  ``timers``, ``kinds``, ``modes``, ``timer_kinds``, ``can_end_now``;
- each projector table: ``minister``, ``modes``, ``decides``, ``motions``,
  ``support_needed``, ``timer``, ``voting``, ``last_count``, ``teacher_decisions``,
  ``portfolios``;
- a phone's ``seat``: ``minister``, ``minister_name``, ``portfolio``, ``modes``, ``motions``,
  ``support_needed``, ``timer``, ``voting``, ``last_count``; its ``can``: ``decide``,
  ``raise``, ``support``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.kit import Ballot, Lesson, StepPlan
from facilitator.kit.seating import SeatingPlan
from facilitator.lessons.austerity import (
    bots,
    debrief,
    facts,
    messages,
    options,
    presenters,
    reads,
    script,
    turns,
)
from facilitator.lessons.austerity.forms import OptionsForm
from facilitator.lessons.austerity.seating import seating_error, seating_plan
from facilitator.lessons.austerity.whatif import WHATIF
from facilitator.models import Bag, ClassSession, Seat, Table, TeacherStep
from games.austerity.state import OVER
from games.austerity.views import PLAYER

IN_YEAR = Ballot("", [])  # ``ballot_for`` in the year: a table ballot may be open


class AusterityLesson(Lesson):
    game = "austerity"
    playable = True
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
        "result": "austerity/reports/_result.html",
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
        return seating_plan(students, fill, options_)

    def seating_error(self, students: int, fill: str | None, options_: dict[str, Any]) -> str:
        return seating_error(students, fill, options_)

    def table_config(self, names: list[str], options_: dict[str, Any]) -> dict[str, Any]:
        return options.table_config(options_)

    def table_seeds(self, options_: dict[str, Any], seeds: list[int]) -> list[int]:
        return options.table_seeds(options_, seeds)

    def engine_audience(self, seat: Seat) -> str:
        return PLAYER  # the whole table is the engine's one player

    def bot_policy(self, options_: dict[str, Any]) -> str:
        return str(options_.get("bot_policy") or bots.DEFAULT_POLICY)

    def on_start(self, table: Table, state: Any, step: TeacherStep) -> Any:
        """Open year 1's first budget item, with the ballot timer every budget item has."""
        session = table.session
        if session.timer is None:
            seconds = options.timers(session.options)["ballot"]
            session.timer = {"ends_at": kit.now().timestamp() + seconds, "left": None}
            session.save(update_fields=["timer"])
        ballot = script.ballot(session, state)
        if ballot is not None:
            kit.vote_open(table, ballot, step)
        return state

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        return script.plan_step(session, tables, states)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        state = script.on_step(table, state, before=before, plan=plan, step=step)
        return turns.follow(table, table.session, state, step)

    def step_label(self, session: ClassSession, plan: StepPlan, *, votes: int | None,
                   states: dict[int, Any]) -> Any:
        return presenters.step_label(session, plan, votes) or super().step_label(
            session, plan, votes=votes, states=states)

    def live(self, state: Any) -> bool:
        return state.stage != OVER

    def ballot_for(self, session: ClassSession, state: Any) -> Ballot | None:
        """The budget item's ballot; during the year and at Year End a table may hold a
        ballot at any moment (a motion, a decision the table votes on): ``IN_YEAR`` says
        one may be open, the table's open bag says which."""
        if session.stage in (script.YEAR, script.YEAR_END):
            return IN_YEAR
        return script.ballot(session, state)

    def ballot_decision(self, session: ClassSession, kind: str) -> str:
        """A phone may name the open budget item by its short name (e.g. "taxes")."""
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

    def on_count(self, table: Table, state: Any, decision: str, result: dict[str, Any],
                 step: TeacherStep | None) -> Any:
        return turns.on_count(table, state, decision, result, step)

    def count_only_marks_the_bag(self, session: ClassSession, decision: str) -> bool:
        # A budget item counted at its own stage is held back until the teacher moves on
        # (``facts``: the screens show the board as it was before the count). Its count
        # changes only the table's vote block on the console ("Everyone has voted."), the
        # "Count this table's vote now" button, and each phone's heading, all marked in the
        # templates (tests/lessons/austerity/test_austerity_held_count.py compares the screens
        # around each count). A motion's or a decision's ballot is played out at once.
        item = script.STAGE_ITEMS.get(session.stage)
        return item is not None and decision == script.decision_id(script.year_of(session), item)

    def bot_action(self, table: Table, session: ClassSession, state: Any,
                   seat: Seat) -> dict[str, Any] | None:
        return None  # the bot minister plays in turns.follow (it opens ballots too)

    def bot_vote(self, state: Any, seat: Seat, bag: Bag, rng: Any) -> str:
        return bots.bot_vote(state, seat, bag, rng)

    def held_back(self, table: Table, state: Any) -> Any:
        return facts.held_back(table, state)

    def session_info(self, session: ClassSession) -> dict[str, Any]:
        # The screens' part (presenters.py): the options they name.
        return {**reads.session_info(session), **facts.session_options(session)}

    def table_info(self, table: Table, state: Any) -> dict[str, Any]:
        # The screens' part: the budget items counted this year, a count held back.
        return {**reads.table_info(table, state), "screens": facts.table_facts(table)}

    def seat_info(self, session: ClassSession, seat: Seat, table: Table,
                  legal: list[dict[str, Any]]) -> dict[str, Any]:
        core = reads.seat_info(session, seat, table)
        mine = facts.seat_facts(session, seat, table)
        return {**core, "screens": mine["screens"], "can": {**core["can"], **mine["can"]}}

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
        return debrief.DEBRIEF

    def whatif(self) -> Any:
        return WHATIF


LESSON = AusterityLesson()
