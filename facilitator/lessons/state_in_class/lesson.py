"""State in Class as a lesson module: tables of 6–8 students, 8 rounds, secret tax and budget
votes, the teacher reading the Midlife cards aloud. The hooks the platform calls
(``facilitator.lessons.base``) point at the modules of this folder."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from facilitator.errors import ServiceError
from facilitator.kit import Ballot, Lesson, StepPlan, number_field
from facilitator.kit.seating import SeatingPlan
from facilitator.lessons.state_in_class import (
    bots,
    debrief,
    messages,
    pacing,
    presenters,
    reads,
    script,
    seating,
    undo,
)
from facilitator.lessons.state_in_class.forms import OptionsForm
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.lessons.state_in_class.whatif import WHATIF
from facilitator.models import Bag, ClassSession, Seat, Table, TeacherStep
from games.state_in_class import bots as policies


class StateInClassLesson(Lesson):
    game = "state-in-class"
    name = gettext_lazy("A State in Class · Who Pays for Us All?")
    summary = gettext_lazy("Each table is a country: students vote in secret on taxes and "
                           "on which public service gets the money, and live with the result.")
    duration = gettext_lazy("8 rounds, about 60 to 90 minutes")
    group_sizes = gettext_lazy("Tables of 6 to 8 students; a big class plays at several "
                               "tables at once")
    students_do = gettext_lazy("Each student has a secret role and coins; they debate, vote "
                               "on their phones and see what their choices cost each class.")
    default_options = {"bots_allowed": True, "debate_seconds": script.DEFAULT_DEBATE_SECONDS,
                       "bot_policy": bots.DEFAULT_POLICY}
    options_form = OptionsForm
    templates = {
        "phone": "state_in_class/phone/_screen.html",
        "console": "state_in_class/projector/_board.html",
        "progress": "state_in_class/projector/_progress.html",
        "result": "state_in_class/reports/_result.html",
        "phone_css": "state_in_class/phone.css",
    }
    seat_messages = messages.SEAT
    teacher_messages = messages.TEACHER
    first_stage = Stage.PACT
    stage_names = dict(Stage.choices)

    def check_options(self, options: dict[str, Any]) -> None:
        super().check_options(options)
        if not isinstance(options["bots_allowed"], bool):
            raise ServiceError("bad_options", _("'Bots allowed' must be yes or no."))
        seconds = options["debate_seconds"]
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 30 <= seconds <= 900:
            raise ServiceError("bad_options",
                               _("The debate timer must be between 30 and 900 seconds."))
        if options["bot_policy"] not in policies.POLICIES:
            raise ServiceError("bad_options", _("Unknown bot behaviour."))

    def seating(self, students: int, fill: str | None,
                options: dict[str, Any]) -> SeatingPlan | None:
        return seating.plan(students, fill)

    def seating_error(self, students: int, fill: str | None, options: dict[str, Any]) -> str:
        if fill is None:
            return ngettext(
                "%(n)d student cannot be split into tables of 6 to 8. Fill the gaps with "
                "bots, or let some students share a seat.",
                "%(n)d students cannot be split into tables of 6 to 8. Fill the gaps with "
                "bots, or let some students share a seat.", students) % {"n": students}
        return ngettext("%(n)d student cannot be seated that way.",
                        "%(n)d students cannot be seated that way.", students) % {"n": students}

    def bot_policy(self, options: dict[str, Any]) -> str:
        return str(options.get("bot_policy", bots.DEFAULT_POLICY))

    def stage_id(self, session: ClassSession) -> str:
        return script.stage_id(session)

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        return script.plan_step(session, tables, states)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        return script.on_step(table, state, before=before, plan=plan, step=step)

    def step_label(self, session: ClassSession, plan: StepPlan, *, votes: int | None,
                   states: dict[int, Any]) -> Any:
        return presenters.step_label(session, plan, votes) or super().step_label(
            session, plan, votes=votes, states=states)

    def live(self, state: Any) -> bool:
        return state.phase != "over"

    def ballot_for(self, session: ClassSession, state: Any) -> Ballot | None:
        return script.ballot_for(session, state)

    def ballot_decision(self, session: ClassSession, kind: str) -> str:
        return script.ballot_decision(session, kind)

    def ballot_action(self, decision: str, player: str) -> dict[str, Any]:
        # State in Class's records name a vote by its kind (as they did before the platform).
        return {"type": "ballot", "kind": decision.split(":", 1)[1], "player": player}

    def count_action(self, decision: str, result: dict[str, Any]) -> dict[str, Any]:
        return {"type": "count", "kind": decision.split(":", 1)[1], **result}

    def form_message(self, raw: dict[str, Any]) -> dict[str, Any]:
        # A pact's coins are a number; a tie-break's "pass" (my vote was not one of these)
        # is the message's null choice.
        number_field(raw, "coins")
        if raw.get("choice") == "pass":
            raw["choice"] = None
        return raw

    def counted_decision(self, round_: int, action: dict[str, Any]) -> str | None:
        return action.get("decision") or f"{round_}:{action['kind']}"

    def bot_action(self, table: Table, session: ClassSession, state: Any,
                   seat: Seat) -> dict[str, Any] | None:
        return bots.bot_action(table, session, state, seat)

    def bot_vote(self, state: Any, seat: Seat, bag: Bag, rng: Any) -> str:
        return bots.bot_vote(state, seat, bag, rng)

    def automatic_action(self, seats: list[Seat], state: Any) -> dict[str, Any] | None:
        return bots.automatic_action(seats, state)

    def after_count(self, state: Any, seats: list[Seat]) -> list[int]:
        return bots.after_count(state, seats)

    def count_only_marks_the_bag(self, session: ClassSession, decision: str) -> bool:
        # In a voting stage the count is held back: the projector shows the result, the
        # payments and any tie when the teacher moves on (``pacing.tie_shown``), so until then
        # a count only turns its table's line to "The bag has been counted."
        # (tests/lessons/state_in_class/test_state_in_class_pacing_at_count.py compares the
        # projector around each count).
        return session.stage in pacing.VOTE_STAGES

    def held_back(self, table: Table, state: Any) -> Any:
        return script.held_back(table)

    def session_info(self, session: ClassSession) -> dict[str, Any]:
        return reads.session_info(session)

    def seat_info(self, session: ClassSession, seat: Seat, table: Table,
                  legal: list[dict[str, Any]]) -> dict[str, Any]:
        return reads.seat_info(session, seat, table, legal)

    def projector_context(self, view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
        return presenters.projector_context(view, join_url=join_url)

    def phone_context(self, view: dict[str, Any]) -> dict[str, Any]:
        return presenters.phone_context(view)

    def undone_notice(self, session: dict[str, Any]) -> str:
        return undo.undone_notice(session)

    def seat_act(self, seat_id: int, message: Any, token_hash: str | None) -> Any:
        return messages.seat_act(seat_id, message, token_hash)

    def teacher_act(self, session: ClassSession, message: Any) -> None:
        messages.teacher_act(session, message)

    def reports(self) -> Any:
        return debrief.DEBRIEF

    def whatif(self) -> Any:
        return WHATIF


LESSON = StateInClassLesson()
