"""The fake game's lesson side: one table of 3 to 8, two secret votes, then the end.

Stages: lobby → vote (round 1) → vote (round 2, weighted) → final. Everything a module may
leave to the platform's defaults is left to them, and like every lesson module it uses only
the lesson kit (``facilitator.kit``), ``facilitator.models`` and ``facilitator.errors``: it is
the smallest module to copy (docs/modules.md, "Coin Jar, step by step").
"""

from __future__ import annotations

from typing import Any

from facilitator import kit
from facilitator.kit import Ballot, Lesson, StepPlan, bags
from facilitator.kit.seating import SeatingPlan, plan
from facilitator.models import ClassSession, Table, TableAction, TeacherStep
from tests.fakegame import engine
from tests.fakegame.debrief import DEBRIEF

VOTE, FINAL = "vote", "final"


class CoinJarLesson(Lesson):
    game = engine.GAME_ID
    name = "Coin Jar"
    summary = "A fake game for the platform's tests."
    duration = "2 rounds"
    group_sizes = "One table of 3 to 8"
    students_do = "Vote in secret on filling a jar."
    default_options = {"bots_allowed": True, "team_size": 1, "parties": []}
    templates = {"phone": "coin_jar/phone.html", "console": "coin_jar/console.html",
                 "progress": "coin_jar/progress.html"}
    first_stage = VOTE
    stage_names = {"lobby": "Lobby", VOTE: "Vote", FINAL: "The end"}

    def seating(self, students: int, fill: str | None,
                options: dict[str, Any]) -> SeatingPlan | None:
        """One table of 3 to 8 seats; with the option ``team_size``, teams of that many; with
        ``parties`` (seats per player, e.g. ``[2, 1, 1]``), those players, bots filling the
        last places."""
        if sizes := tuple(options.get("parties") or ()):
            bots = sum(sizes) - students
            if bots < 0 or (bots and any(n != 1 for n in sizes[len(sizes) - bots:])):
                return None
            return SeatingPlan([sum(sizes)], bots=bots, parties=(sizes,), table_bots=(bots,))
        size = int(options.get("team_size", 1))
        seated = plan(students, fill if size == 1 else "bots", 3, 8)
        if seated is None or size == 1:
            return seated
        seats = seated.seats + (-seated.seats) % size  # bots complete the last team
        return SeatingPlan([seats], bots=seats - students, party_size=size)

    def seating_error(self, students: int, fill: str | None, options: dict[str, Any]) -> str:
        return f"{students} students cannot sit at one table of 3 to 8."

    def on_start(self, table: Table, state: Any, step: TeacherStep) -> Any:
        kit.vote_open(table, self._ballot(state), step)
        return state

    def _ballot(self, state: Any) -> Ballot:
        (decision,) = engine.decisions(state)
        return Ballot(decision.id, list(decision.options), dict(decision.weights or {}))

    def plan_step(self, session: ClassSession, tables: list[Table],
                  states: dict[int, Any]) -> StepPlan:
        if session.stage == VOTE and session.round < engine.ROUNDS:
            return StepPlan(VOTE, session.round + 1)
        return StepPlan(FINAL, session.round, finished=True)

    def on_step(self, table: Table, state: Any, *, before: str, plan: StepPlan,
                step: TeacherStep) -> Any:
        bag = bags.open_bag(table)
        if before == VOTE and bag is not None:  # not counted by itself: count it now
            state = kit.vote_close(table, state, bag.decision, step,
                                        TableAction.Actor.TEACHER, confirmed=plan.confirmed)
        if plan.stage == VOTE and state.phase == "vote":
            kit.vote_open(table, self._ballot(state), step)
        return state

    def live(self, state: Any) -> bool:
        return not engine.is_over(state)

    def ballot_for(self, session: ClassSession, state: Any) -> Ballot | None:
        if session.stage != VOTE or state.phase != "vote":
            return None
        return self._ballot(state)

    def stage_id(self, session: ClassSession) -> str:
        return f"{session.round}:{session.stage}"

    def projector_context(self, view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
        return {"session": view["session"], "tables": view["tables"],
                "lobby": view.get("lobby"), "join_url": join_url,
                "join_code": view["session"].get("join_code") or "", "next_label": "Next"}

    def phone_context(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"session": view["session"], "seat": view["seat"], "game": view.get("game"),
                "table": view.get("table")}

    def reports(self) -> Any:
        return DEBRIEF


LESSON = CoinJarLesson()
