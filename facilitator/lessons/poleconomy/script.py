"""Poleconomy's lesson script: the stages the teacher (the game master) steps through.

- ``parties`` (round 0): players form parties (phones ask, the game master confirms); "next"
  declares every table's parties (none asked: all Independents) and rolls the election.
- ``government`` (after an election): the game master confirms each table's Government and
  Prime Minister. "Next" confirms a majority party with its top voter unless the game master
  did otherwise; it is refused while a table has no majority and no confirmed coalition.
- ``proposal`` (round r): the Prime Minister writes the proposal to Parliament (salaries, tax
  rule, Treasury payments with a press release); phones may start their orders.
- ``orders`` (round r): the proposal is public, Parliament's consent ballot is open (one
  secret weighted ballot on the whole proposal), phones send and edit sealed orders. "Next"
  is the close: every player's latest orders (none: NMR) become the round's engine actions,
  the ballot is counted, and the engine adjudicates the round.
- ``replay`` (round r): the projector shows the round one beat at a time (the auctions, each
  turn, the end of the round and any election); each "next" is a ``beat`` step of the script
  alone, until every beat is shown; then "next" goes on.
- ``final``: every table's game is over.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from facilitator.errors import ServiceError
from facilitator.kit import Ballot, StepPlan
from facilitator.models import LOBBY, ClassSession, Table, TableAction
from games.poleconomy.elections import majority_bloc
from games.poleconomy.state import GOVERNMENT as GOVERNMENT_PHASE
from games.poleconomy.state import OVER

Actor = TableAction.Actor

PARTIES, GOVERNMENT, PROPOSAL, ORDERS, REPLAY, FINAL = (
    "parties", "government", "proposal", "orders", "replay", "final")
FIRST_STAGE = PARTIES
BEAT = "beat"  # a step of the replay alone: one more beat of the round shown
STAGE_NAMES: dict[str, Any] = {
    LOBBY: gettext_lazy("Lobby"), PARTIES: gettext_lazy("Parties"),
    GOVERNMENT: gettext_lazy("Government"), PROPOSAL: gettext_lazy("Proposal"),
    ORDERS: gettext_lazy("Orders"), REPLAY: gettext_lazy("Replay"),
    FINAL: gettext_lazy("The end"),
}
CONSENT_OPTIONS = ["yes", "no"]
CONSENT_KINDS = ("salaries", "tax", "payments")


def beats_shown(session: ClassSession) -> int:
    """How many beats of the replay the teacher has shown beyond the first: the ``beat``
    steps since the step that opened the replay (undo takes one back)."""
    count = 0
    for step in session.steps.order_by("-seq").only("kind"):
        if step.kind != BEAT:
            break
        count += 1
    return count


def stage_id(session: ClassSession) -> str:
    base = f"{session.round}:{session.stage}"
    return f"{base}:{beats_shown(session)}" if session.stage == REPLAY else base


def beats(state: Any, round_: int) -> list[list[dict[str, Any]]]:
    """The round's public events in beats: what happens before the first turn (round start,
    auctions, the PM's powers come with the PM's turn), one beat per turn, then the end of the
    round (with any election and Government)."""
    events = next((r["events"] for r in state.history if r["round"] == round_), [])
    start = next((i for i, e in enumerate(events) if e["type"] == "round_start"), None)
    if start is None:
        return []
    out: list[list[dict[str, Any]]] = [[]]
    for event in events[start:]:
        if event["type"] in ("turn", "round_end"):
            out.append([])
        out[-1].append(event)
    return out


def decision_id(round_: int, kinds: list[str]) -> str:
    """The consent bag's name: the round and the proposal's items (one ballot on them all)."""
    return f"r{round_}.consent.{'+'.join(kinds)}"


def kinds_of(decision: str) -> list[str]:
    return decision.rsplit(".", 1)[-1].split("+")


def round_of(decision: str) -> int:
    return int(decision.split(".", 1)[0][1:])


def consent_ballot(round_: int, items: dict[str, Any], state: Any) -> Ballot | None:
    kinds = [k for k in CONSENT_KINDS if k in items]
    if not kinds:
        return None
    return Ballot(decision_id(round_, kinds), list(CONSENT_OPTIONS),
                  {p.name: p.votes for p in state.players})


def carried(state: Any, tally: dict[str, int]) -> str:
    """The rulebook's Parliamentary Consent: carried iff the ``yes`` ballots hold more than
    half of all electoral votes (a player who does not vote does not consent)."""
    total = sum(p.votes for p in state.players)
    return "carried" if 2 * int(tally.get("yes", 0)) > total else "not-carried"


def count_actions(decision: str, result: dict[str, Any]) -> list[dict[str, Any]]:
    """One ballot on the whole proposal: each of its items is counted with its outcome."""
    prefix = decision.rsplit(".", 1)[0]
    return [{"type": "count", "decision": f"{prefix}.{kind}", "outcome": result["outcome"]}
            for kind in kinds_of(decision)]


def plan_step(session: ClassSession, tables: list[Table], states: dict[int, Any]
              ) -> StepPlan:
    live = [(t, states[t.pk]) for t in tables if states[t.pk].phase != OVER]
    stage, round_ = session.stage, session.round
    if stage == REPLAY:  # the last round is shown to its end, even once every game is over
        most = max((len(beats(states[t.pk], round_)) for t in tables), default=0)
        if beats_shown(session) + 1 < most:
            return StepPlan(REPLAY, round_, kind=BEAT)
    if not live:
        return StepPlan(FINAL, round_, finished=True)
    if stage == PARTIES:
        return StepPlan(GOVERNMENT, round_)
    if stage == GOVERNMENT:
        stuck = [t.number for t, s in live
                 if s.phase == GOVERNMENT_PHASE and majority_bloc(s) is None]
        if stuck:
            raise ServiceError("no_government", _(
                "Table %(tables)s has no majority: confirm a coalition Government or call a "
                "new election first.") % {"tables": ", ".join(map(str, stuck))})
        return StepPlan(PROPOSAL, round_ + 1)
    if stage == PROPOSAL:
        return StepPlan(ORDERS, round_)
    if stage == ORDERS:
        return StepPlan(REPLAY, round_)
    if stage == REPLAY:
        if any(s.phase == GOVERNMENT_PHASE for _t, s in live):
            return StepPlan(GOVERNMENT, round_)
        return StepPlan(PROPOSAL, round_ + 1)
    raise ServiceError("finished", _("The game is over."))

