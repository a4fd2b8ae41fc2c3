"""Who answers each kind of the engine's decisions at a table: the Finance Minister (by
default), a secret table ballot, or the teacher's console.

Four kinds can be taken from the minister: ``event`` (the drawn pair's either/or), ``cuts``,
``income`` and ``actions`` (Raise Taxes, Borrow Money, Pay Loan, ... before each draw). The
teacher switches a kind at a table until switching it back; a carried motion switches it to a
ballot for the rest of its year. The draw itself stays the minister's: it only says "draw".

Also here, since every part of the year asks it: the engine's pending decision
(``main_decision``), who answers it (``answered_by``), and what a table ballot settles by its
decision id (``ballot_kind``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from facilitator import kit
from facilitator.lessons.austerity.models import TablePlay
from facilitator.models import Table
from games import austerity as engine
from games.austerity.state import GameState
from games.core import Decision

EVENT, CUTS, INCOME, ACTIONS = "event", "cuts", "income", "actions"
KINDS = (EVENT, CUTS, INCOME, ACTIONS)
MINISTER, BALLOT, TEACHER = "minister", "ballot", "teacher"
MODES = (MINISTER, BALLOT, TEACHER)
MODE_NAMES = {MINISTER: gettext_lazy("Minister"), BALLOT: gettext_lazy("Table vote"),
              TEACHER: gettext_lazy("Teacher")}
KIND_NAMES = {EVENT: gettext_lazy("Events"), CUTS: gettext_lazy("Cuts"),
              INCOME: gettext_lazy("Income"), ACTIONS: gettext_lazy("Actions")}
# The engine's decision kinds (``games.austerity.views.KINDS``) by the kind that answers them.
ENGINE_KIND = {"event": EVENT, "cuts": CUTS, "income": INCOME, "action": ACTIONS}
# What a table ballot settles (``ballot_kind``).
BUDGET, MOTION, ACTIONS_BALLOT, DECISION = "budget", "motion", "actions", "decision"


def play_of(table: Table) -> TablePlay:
    """The table's lesson-side play (made on first use)."""
    play, _made = TablePlay.objects.get_or_create(table=table)
    return play


def read_play(table: Table) -> TablePlay | None:
    """For the screens: the table's play if it has one (reading never writes; read once per
    screen being rendered)."""
    return kit.remembered(("austerity.play", table.pk),
                                  lambda: TablePlay.objects.filter(table=table).first())


def mode_in(modes: dict[str, Any], kind: str, year: int) -> str:
    """Who answers ``kind`` in ``year`` at a table whose play holds ``modes``."""
    entry = modes.get(kind)
    if not entry or (entry.get("year") is not None and entry["year"] != year):
        return MINISTER
    return str(entry["mode"])


def modes_in(modes: dict[str, Any], year: int) -> dict[str, str]:
    """Every kind's mode in ``year`` (what the screens show)."""
    return {kind: mode_in(modes, kind, year) for kind in KINDS}


def set_mode(play: TablePlay, kind: str, mode: str, year: int | None) -> None:
    """``kind`` is answered by ``mode`` (for ``year`` only, or until switched back: None)."""
    modes = dict(play.modes)
    if mode == MINISTER:
        modes.pop(kind, None)
    else:
        modes[kind] = {"mode": mode, "year": year}
    play.modes = modes
    play.save(update_fields=["modes"])


def kind_of(engine_kind: str) -> str | None:
    """The switchable kind an engine decision belongs to (None: the draw and the year's
    policy turn, which stay the minister's and the budget session's)."""
    return ENGINE_KIND.get(engine_kind)


def record_count(play: TablePlay, decision: str, choice: str, tie: bool | None,
                 tally: dict[str, int] | None = None) -> None:
    """A table ballot's outcome, kept for the screens and the debrief: the winner, whether
    the tie rule decided it (None where that may not be said), and the tally where the
    platform published one (a bag of 3 ballots or more: ``services.ballots``), else none. A
    count undone and counted again is kept again: the last entry of a decision is its count."""
    entry: dict[str, Any] = {"decision": decision, "choice": choice, "tie": tie}
    if tally is not None:
        entry["tally"] = dict(tally)
    play.counts = [*play.counts, entry]
    play.save(update_fields=["counts"])


def ballot_kind(decision: str) -> str:
    """What a bag's decision id settles: a budget item, a motion, the Actions before a draw,
    or one of the engine's decisions."""
    parts = decision.split(".")
    if len(parts) > 1 and parts[1] == "budget":
        return BUDGET
    if len(parts) > 1 and parts[1].startswith("motion"):
        return MOTION
    return ACTIONS_BALLOT if parts[-1] == "actions" else DECISION


def main_decision(state: GameState) -> Decision | None:
    """The engine's pending decision (not the optional Actions), if any."""
    pending = engine.decisions(state)
    return pending[0] if pending else None


def answered_by(play_modes: dict[str, Any], year: int, decision: Decision) -> str:
    """Who answers ``decision``: the minister, a table ballot or the teacher."""
    kind = kind_of(decision.kind)
    return MINISTER if kind is None else mode_in(play_modes, kind, year)


def actions_mode(play_modes: dict[str, Any], year: int) -> str:
    return mode_in(play_modes, ACTIONS, year)
