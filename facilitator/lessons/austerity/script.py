"""Austerity's lesson script: the year's budget session (secret ballots, one item at a time),
the year the Finance Minister plays at each table's own pace, and Year End, where every table
waits for the teacher to start the next year.

A year Y (``ClassSession.round``; the first budget session is shown at round 0 and belongs to
year 1): its budget items (``BUDGET_ITEMS``, each a stage) → ``year`` → ``year_end`` → year
Y+1's budget session, or ``final`` once every table's game is over. Stage values are stored in
sessions and teacher steps: they never change.

The platform holds one open bag per table, so the budget session is a sequence of ballots,
one item per stage: each item stays a plain yes/no or a small number that a student can vote
on at a glance (a ballot over whole budgets would list every combination of them). An item
that cannot apply at a table (Pay Loan with no Debt cube to pay, no institution affordable, no
policy card to turn) opens no bag there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.kit import Ballot, StepPlan, bags, parties
from facilitator.lessons.austerity.options import timers
from facilitator.models import LOBBY, ClassSession, Seat, Table, TableAction, TeacherStep
from games import austerity as engine
from games.austerity import data
from games.austerity.choices import action_options
from games.austerity.state import OVER, POLICY, GameState
from games.core import plurality

Actor = TableAction.Actor

POLICY_ITEM, TAXES, BORROW, LOAN, INSTITUTION = "policy", "taxes", "borrow", "loan", "institution"
BUDGET_ITEMS = (POLICY_ITEM, TAXES, BORROW, LOAN, INSTITUTION)  # the session's order
YEAR, YEAR_END, FINAL = "year", "year_end", "final"
# The most times a session may raise taxes or borrow (the "0–2 times").
MOST_TIMES = 2
NO, YES, KEEP, NONE = "no", "yes", "keep", "none"


def budget_stage(item: str) -> str:
    return f"budget_{item}"


STAGE_ITEMS = {budget_stage(item): item for item in BUDGET_ITEMS}
STAGE_NAMES = {
    LOBBY: gettext_lazy("Lobby"),
    budget_stage(POLICY_ITEM): gettext_lazy("Budget session: policy card"),
    budget_stage(TAXES): gettext_lazy("Budget session: raise taxes"),
    budget_stage(BORROW): gettext_lazy("Budget session: borrow"),
    budget_stage(LOAN): gettext_lazy("Budget session: pay a loan"),
    budget_stage(INSTITUTION): gettext_lazy("Budget session: a new institution"),
    YEAR: gettext_lazy("The year"),
    YEAR_END: gettext_lazy("Year End"),
    FINAL: gettext_lazy("Final result"),
}
FIRST_STAGE = budget_stage(TAXES)  # year 1 has no policy turn: the engine asks it at Year End
TIE_RULE = gettext_lazy("A tie goes to the smaller change: the option listed first among the "
                        "tied ones.")


def year_of(session: ClassSession) -> int:
    """The year the lesson is at (round 0 is year 1's first budget session)."""
    return max(session.round, 1)


# ------------------------------------------------------------------ the Finance Minister


def minister(seats: list[Seat], year: int) -> Seat | None:
    """The table's Finance Minister in ``year``: the seats take turns in position order
    (year 1: the first seat); a minister whose phone is not connected is replaced for the
    year by the next seat that is, or by a bot (``facilitator.parties.captain``)."""
    return parties.captain(parties.voters(seats), year)


def minister_acting(seats: list[Seat], year: int) -> Seat | None:
    """Who answers for the Finance Minister now: the minister, or while the minister's phone
    is asleep, the next seat whose phone is connected (a bot's always is), standing in
    (``facilitator.parties.acting``)."""
    return parties.acting(parties.voters(seats), year)


def year_done(state: GameState, year: int) -> bool:
    """The table has finished ``year`` (or its game): it waits at Year End."""
    return state.stage == OVER or state.year > year or state.stage == POLICY


def minister_may_act(session: ClassSession, state: GameState) -> bool:
    """The minister answers the engine's decisions only while the lesson is in the year and
    the table has not finished it."""
    return session.stage == YEAR and not year_done(state, year_of(session))


def engine_action(decision: Any, choice: str) -> dict[str, Any]:
    """The engine action answering one of its decisions with one of its options."""
    if decision.action == "draw":
        return {"type": "draw"}
    return {"type": decision.action, "choice": choice}


# ------------------------------------------------------------------ the budget session


NO_CHANGE = {POLICY_ITEM: KEEP, TAXES: "0", BORROW: "0", LOAN: NO, INSTITUTION: NONE}


def change_key(option: str) -> tuple[int, str]:
    """Orders an item's options from the smallest change up: no change, then 1, 2 times,
    then the named choices (policy turns, institutions) alphabetically."""
    if option in (NO, KEEP, NONE):
        return (0, "")
    if option.isdigit():
        return (int(option), "")
    return (MOST_TIMES + 1, option)


def item_options(item: str, state: GameState) -> list[str]:
    """The ballot's options for ``item`` at this table now, the smallest change first; fewer
    than two: the item does not apply (no bag is opened)."""
    if state.stage == OVER:
        return []
    if item == POLICY_ITEM:
        if state.stage != POLICY:
            return []
        return sorted(engine.decisions(state)[0].options, key=change_key)
    if state.stage == POLICY:
        return []
    actions = action_options(state)
    if item in (TAXES, BORROW):
        name = data.RAISE_TAXES if item == TAXES else data.BORROW
        return [str(n) for n in range(MOST_TIMES + 1)] if name in actions else []
    if item == LOAN:
        return [NO, YES] if data.PAY_LOAN in actions else []
    opens = [a for a in actions if a.startswith("open:") and not a.endswith(":current")]
    return sorted([NONE, *opens], key=change_key) if opens else []


def decision_id(year: int, item: str) -> str:
    """The bag of year 3's tax item is ``"y3.budget.taxes"``."""
    return f"y{year}.budget.{item}"


def item_of(decision: str) -> str:
    return decision.rsplit(".", 1)[1]


def ballot(session: ClassSession, state: GameState) -> Ballot | None:
    item = STAGE_ITEMS.get(session.stage)
    if item is None:
        return None
    options = item_options(item, state)
    if len(options) < 2:
        return None
    return Ballot(decision_id(year_of(session), item), options)


def winner(item: str, ranked: list[list[str]]) -> tuple[str, bool]:
    """The option a ranking (``games.core.plurality``) carries and whether the tie rule
    (``TIE_RULE``) decided it: the smallest change of the top group; nobody voted: no
    change."""
    if not ranked:
        return NO_CHANGE[item], False
    top = ranked[0]
    return min(top, key=change_key), len(top) > 1


def ranking(tally: Mapping[str, int]) -> list[list[str]]:
    """The tally's ranking (only this is kept where the tally could reveal votes)."""
    return plurality(tally, sorted(tally, key=change_key))


def item_actions(item: str, choice: str) -> list[dict[str, Any]]:
    """The engine actions a budget item's winning option stands for."""
    if item == POLICY_ITEM:
        return [{"type": "policy", "choice": choice}]
    if item in (TAXES, BORROW):
        name = data.RAISE_TAXES if item == TAXES else data.BORROW
        return [{"type": "action", "choice": name}] * int(choice)
    if item == LOAN:
        return [{"type": "action", "choice": data.PAY_LOAN}] if choice == YES else []
    return [] if choice == NONE else [{"type": "action", "choice": choice}]


def is_budget(decision: str) -> bool:
    return decision.split(".")[1:2] == ["budget"]


def count_actions(decision: str, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine actions of a counted budget item: what its winning option stands for
    (a ballot of the year is answered by the lesson's ``on_count``: ``turns``)."""
    if not is_budget(decision):
        return []
    ranked = result["outcome"] if "outcome" in result else ranking(result["tally"])
    item = item_of(decision)
    return item_actions(item, winner(item, ranked)[0])


# ------------------------------------------------------------------ the teacher's steps


def next_stage(session: ClassSession, states: list[GameState]) -> tuple[str, int]:
    """The stage after this one: the next budget item (policy only from year 2), the year,
    Year End, then the next year's session or the final result."""
    stage, year = session.stage, year_of(session)
    if stage in STAGE_ITEMS:
        later = BUDGET_ITEMS[BUDGET_ITEMS.index(STAGE_ITEMS[stage]) + 1:]
        for item in later:
            if item != INSTITUTION or session.options.get("extra_institutions"):
                return budget_stage(item), year
        return YEAR, year
    if stage == YEAR:
        return YEAR_END, year
    if all(s.stage == OVER for s in states):
        return FINAL, year
    if session.options.get("policies"):
        return budget_stage(POLICY_ITEM), year + 1
    return budget_stage(TAXES), year + 1


def plan_step(session: ClassSession, tables: list[Table],
              states: Mapping[int, GameState]) -> StepPlan:
    if session.stage == FINAL:
        raise ServiceError("read_only", _("The lesson is over."))
    year = year_of(session)
    if session.stage == YEAR:
        playing = [t.number for t in tables if not year_done(states[t.pk], year)]
        if playing:
            raise ServiceError("tables_playing", ngettext(
                "Table %(tables)s is still playing its year.",
                "Tables %(tables)s are still playing their year.", len(playing)) % {
                    "tables": ", ".join(map(str, playing))}, status=409)
    if session.stage in (YEAR, YEAR_END):
        voting = [t.number for t in tables if bags.open_bag(t) is not None]
        if voting:
            raise ServiceError("tables_voting", ngettext(
                "Table %(tables)s is still voting: count its vote first.",
                "Tables %(tables)s are still voting: count their votes first.",
                len(voting)) % {"tables": ", ".join(map(str, voting))}, status=409)
    stage, round_ = next_stage(session, [states[t.pk] for t in tables])
    timer = None
    if stage in STAGE_ITEMS:
        timer = timers(session.options)["ballot"]
    return StepPlan(stage, round_, timer=timer, finished=stage == FINAL)


def on_step(table: Table, state: GameState, *, before: str, plan: StepPlan,
            step: TeacherStep) -> GameState:
    """Count the item the stage held (absentees abstain) and open the next item's bag."""
    bag = bags.open_bag(table)
    if before in STAGE_ITEMS and bag is not None:
        state = kit.vote_close(table, state, bag.decision, step, Actor.TEACHER,
                                    confirmed=plan.confirmed)
    item = STAGE_ITEMS.get(plan.stage)
    if item is not None:
        options = item_options(item, state)
        if len(options) >= 2:
            kit.vote_open(table, Ballot(decision_id(plan.round, item), options), step)
    return state
