"""The options of every decision, listed explicitly so a table can vote over them.

Each function returns ``{option: Choice}``; an answer is valid exactly when its ``choice`` is
one of these keys. Option names (see ``docs/engines/austerity.md``):

- an option that Spends takes the Income from the Treasury first; its ``…:current`` twin
  (listed only when it makes a difference) takes it from Current first;
- an option that Removes takes the cube from Current first, then from Used; its
  ``…:treasury`` twin (listed only when it makes a difference) takes Income from the
  Treasury before Used.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.austerity import data, effects
from games.austerity.state import CUTS, DRAW, EVENT, INCOME, GameState


@dataclass(frozen=True)
class Choice:
    kind: str  # what the option does: an event option id, "fund", "cuts", "pay-loan", ...
    arg: str | None = None  # an institution or a policy card
    ops: tuple[data.Op, ...] = ()
    variant: str | None = None  # "current" (Spend from Current first) / "treasury" (Remove)


def _variants(state: GameState, name: str, choice: Choice, strict: bool) -> dict[str, Choice]:
    """``name`` and, where it differs, its ``:current`` / ``:treasury`` twin; {} if unpayable."""
    if not effects.can_pay(state, choice.ops, strict):
        return {}
    out = {name: choice}
    spend_n, removes = effects.needs(choice.ops)
    if spend_n and data.INCOME in state.current and state.treasury:
        out[f"{name}:current"] = Choice(choice.kind, choice.arg, choice.ops, "current")
    wanted = removes.get(data.INCOME, 0) - state.current.count(data.INCOME)
    if wanted > 0 and state.used[data.INCOME] and state.treasury:
        out[f"{name}:treasury"] = Choice(choice.kind, choice.arg, choice.ops, "treasury")
    return out


def event_options(state: GameState) -> dict[str, Choice]:
    """The drawn pair's either/or (a Remove with nothing to remove is still allowed)."""
    key = data.pair_key(state.pair)
    _always, options = effects.event_effects(state, key)
    out: dict[str, Choice] = {}
    for option in options:
        out.update(_variants(state, option.id, Choice(option.id, None, option.ops), False))
    if data.EVENTS[key].fund_again and state.current.count(data.INCOME) >= 2:
        again = {f"fund-again:{inst}": Choice("fund-again", inst)
                 for inst, marker in state.institutions.items() if marker.funded}
        if again:
            out.update(again)
            out["decline"] = Choice("decline")
    return out


def cuts_due(state: GameState) -> bool:
    """A single Debt cube remains in Current after the event (a lone last cube only if the
    teacher's ``lone_debt_cuts`` option is on)."""
    if state.current.count(data.DEBT) != 1:
        return False
    return state.lone_debt_cuts if state.lone else True


def cuts_options(state: GameState) -> dict[str, Choice]:
    if not cuts_due(state):
        return {}
    partner = [c for c in state.pair if c != data.DEBT]
    return {inst: Choice("cuts", inst) for inst in state.institutions
            if state.lone or (partner and partner[0] in data.INSTITUTIONS[inst].cut_by)}


def income_options(state: GameState) -> dict[str, Choice]:
    if state.lone or data.INCOME not in state.current:
        return {}
    out = {f"fund:{inst}": Choice("fund", inst) for inst, marker in state.institutions.items()
           if marker.funded < effects.fund_limit(inst)}
    out["treasury"] = Choice("treasury")
    out["used"] = Choice("used")
    if state.scenario == data.OLYMPICS:
        out["olympics"] = Choice("olympics")
    return out


def actions_open(state: GameState) -> bool:
    """Actions: at any decision point of the year while the bag is not empty."""
    return state.stage in (DRAW, EVENT, CUTS, INCOME) and sum(state.bag.values()) > 0


def action_options(state: GameState) -> dict[str, Choice]:
    if not actions_open(state):
        return {}
    out: dict[str, Choice] = {}
    for name in (data.BORROW, data.RAISE_TAXES, data.PAY_LOAN):
        out.update(_variants(state, name, Choice(name, None, effects.action_effects(state, name)),
                             True))
    if state.scenario == data.WAR_FOOTING and not state.war_fed:
        feed = Choice(data.FEED_WAR, None, effects.action_effects(state, data.FEED_WAR))
        out.update(_variants(state, data.FEED_WAR, feed, True))
    if state.scenario == data.OLYMPICS:
        box = Choice(data.FINANCE_OLYMPICS, None, data.ACTIONS[data.FINANCE_OLYMPICS])
        out.update(_variants(state, data.FINANCE_OLYMPICS, box, True))
    if state.extra_institutions:
        cost = (("spend", data.EXTRA_INSTITUTION_COST),)
        for inst in data.EXTRA_INSTITUTIONS:
            if inst not in state.institutions:
                out.update(_variants(state, f"{data.OPEN}:{inst}",
                                     Choice(data.OPEN, inst, cost), True))
    return out


def policy_options(state: GameState) -> dict[str, Choice]:
    turnable = [card for card in state.policies if card not in state.fixed_policies]
    if not turnable:
        return {}
    return {"keep": Choice("keep"), **{f"turn:{card}": Choice("turn", card) for card in turnable}}


def stage_options(state: GameState) -> dict[str, Choice]:
    """The options of the decision the stage is waiting for."""
    if state.stage == DRAW:
        return {"draw": Choice("draw")}
    if state.stage == EVENT:
        return event_options(state)
    if state.stage == CUTS:
        return cuts_options(state)
    if state.stage == INCOME:
        return income_options(state)
    return policy_options(state) if state.stage == "policy" else {}
