"""State in Class on the lesson-module protocol (``games.core``): its decisions, its views per
audience and its ledger balances.

- The opening pact: one open choice per player (0–3 coins, at most what they hold); unanswered
  at the close, it counts as 0 (the rulebook lets a player give nothing).
- A tax or budget vote: a secret ballot of every player over the options (``kind`` "tax" or
  "budget", id ``"<round>:<kind>"``, the id the facilitator's bag carries). Its ``ballot`` and
  ``count`` actions name the vote by ``"decision": "<round>:<kind>"`` (or, as older records
  do, by ``"kind"``). A count gives the ``tally`` or only the ``outcome``: what the rules need
  from the tally and nothing more, the ranking as a list of groups of options, most votes
  first, options with no votes left out (``games.core.plurality``). A tax outcome is only its
  top group (``[["C"]]``, or the options tied for most votes, which the voters then break as
  after a tally); a budget outcome every voted group (the engine ranks the unvoted services
  after them by level); ``[]`` when nobody voted (the tax carries over). ``ballot_outcome``
  computes it from a tally; a count by outcome leads to the same game as the count by that
  tally, and the state keeps ``"tally": None`` and the ``"ranking"`` instead.
- A tie-break: the decider's open choice among the tied options (a tax tie may be passed:
  the option ``"pass"``, the action's ``choice: null``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import BALLOT, CHOICE, MASTER_AUDIENCE, PUBLIC, SEAT, VOTERS, Decision
from games.i18n import _
from games.state_in_class import data
from games.state_in_class.audiences import player_view, public_view
from games.state_in_class.rules import check_decision, check_tally, vote_outcome
from games.state_in_class.state import BUDGET_VOTE, PACT, TAX_VOTE, TIE_BREAK, GameState

VOTES = {TAX_VOTE: "tax", BUDGET_VOTE: "budget"}
PASS = "pass"


def decisions(state: GameState) -> list[Decision]:
    if state.phase == PACT:
        return [Decision(id=f"pact.{p.name}", kind="pact", who=SEAT, mode=CHOICE,
                         action="pact", deciders=(p.name,),
                         options=tuple(str(c) for c in range(min(data.MAX_PACT, p.coins) + 1)),
                         default={"type": "pact", "player": p.name, "coins": 0},
                         prompt=_("How many of your coins go into the pact?"))
                for p in state.players if p.pact is None]
    if state.phase in VOTES:
        kind = VOTES[state.phase]
        options = data.TAX_OPTIONS if kind == "tax" else data.SERVICES
        voted = set(state.receipts)
        return [Decision(id=f"{state.round}:{kind}", kind=kind, who=VOTERS, mode=BALLOT,
                         action="ballot",
                         deciders=tuple(n for n in state.names if n not in voted),
                         options=tuple(options),
                         prompt=_("Choose the tax for this round.") if kind == "tax"
                         else _("Which service should get the most money?"))]
    if state.phase == TIE_BREAK and state.tie:
        tie = state.tie
        options = tuple(tie.options) + ((PASS,) if tie.kind == "tax" else ())
        return [Decision(id=f"{state.round}:{tie.kind}:tie:{len(tie.ranked)}:{tie.deciders[0]}",
                         kind="tie_break", who=SEAT, mode=CHOICE, action="tie_break",
                         deciders=(tie.deciders[0],), options=options)]
    return []


def ballot_outcome(state: GameState, decision_id: str, tally: Mapping[str, int]
                   ) -> list[list[str]]:
    """The outcome of the open vote ``decision_id`` (``"<round>:<kind>"``) that ``tally``
    gives, for ``count {decision, outcome}``: the ranking groups (a tax vote: only the top
    group; ``[]``: nobody voted). The tally must add up to the ballots in the bag."""
    kind = check_decision(state, decision_id)
    return vote_outcome(kind, check_tally(state, kind, tally))


def view(state: GameState, audience: str) -> dict[str, Any]:
    """The projector's (and the game master's: State in Class keeps nothing from the teacher
    that it keeps from the class) or one player's view."""
    if audience in (PUBLIC, MASTER_AUDIENCE):
        return public_view(state)
    return player_view(state, audience)


def balances(state: GameState) -> dict[str, int]:
    """Every account's balance as the engine sees it (the bank is minus the rest)."""
    out = {f"player:{p.name}": p.coins for p in state.players}
    out["table"] = state.pot
    out.update({f"fund:{s}": v.fund for s, v in state.services.items()})
    out["pact"] = sum(p.pact or 0 for p in state.players) - (state.pact_total or 0)
    out["bank"] = -sum(out.values())
    return out
