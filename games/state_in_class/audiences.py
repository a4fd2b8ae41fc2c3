"""What each audience may see. Secrecy is enforced here, once.

- ``public_view``: the projector and every student. Never a player's coins or pact
  contribution before the game is over, never who has voted (only how many), never a vote.
- ``player_view``: the public view plus that player's own wallet, statement, pact and
  "you have voted" (never "you voted C": the engine does not know).
- ``legal_actions``: the decisions a seat (or the teacher, ``seat=None``) can make now.
"""

from __future__ import annotations

import copy
from typing import Any

from games.core import Action, InvalidAction
from games.i18n import _
from games.state_in_class import data
from games.state_in_class.rules import (
    GAME_ID,
    cost_of_living,
    income,
    scores,
    tax_due,
)
from games.state_in_class.state import (
    BUDGET_VOTE,
    OVER,
    PACT,
    TAX_VOTE,
    TIE_BREAK,
    GameState,
    Player,
)


def _vote_kind(state: GameState) -> str | None:
    return {TAX_VOTE: "tax", BUDGET_VOTE: "budget"}.get(state.phase)


def role_card(role_id: str) -> dict[str, Any]:
    role = data.ROLES[role_id]
    helps = [data.HEALTH]
    if role.klass in (data.MIDDLE, data.WORKING):
        helps.append(data.EDUCATION)
    if role.klass == data.WORKING:
        helps.append(data.SHIELD)
    return {"id": role.id, "name": role.name, "class": role.klass, "income": role.income,
            "cost_of_living": role.cost_of_living, "description": role.description,
            "goals": {"get-by": role.get_by, "live-well": role.live_well,
                      "thrive": role.thrive},
            "helped_by": helps, "source": role.source}


def public_view(state: GameState) -> dict[str, Any]:
    kind = _vote_kind(state)
    view: dict[str, Any] = {
        "game": GAME_ID,
        "round": state.round,
        "rounds": data.ROUNDS,
        "phase": state.phase,
        "event": data.EVENTS[state.round - 1] if state.round else None,
        "tension": state.tension,
        "failed": state.failed,
        "over": state.phase == OVER,
        "price": state.price,
        "services": {s: {"level": v.level, "fund": v.fund,
                         "to_next_level": max(0, state.price - v.fund)
                         if v.level < data.MAX_LEVEL else None}
                     for s, v in state.services.items()},
        "tax": state.tax,
        "table_coins": state.pot,
        "pact": {"done": sum(p.pact is not None for p in state.players),
                 "of": len(state.players), "total": state.pact_total},
        "vote": {"kind": kind, "voted": len(state.receipts), "of": len(state.players)}
        if kind else None,
        "tie_break": {"kind": state.tie.kind, "options": list(state.tie.options),
                      "decider": state.tie.deciders[0],
                      # budget: the place in the ranking the tied services are decided for
                      "place": len(state.tie.ranked) + 1}
        if state.phase == TIE_BREAK and state.tie else None,
        "players": [{"name": p.name, "seat": p.seat, "role": p.role, "class": p.klass,
                     "exclusions": p.exclusions} for p in state.players],
        "tax_collects": {o: sum(tax_due(o, p.klass) for p in state.players)
                         for o in data.TAX_OPTIONS} if state.round else None,
        # A copy, not the state's own list
        # (tests/games/state_in_class/test_state_in_class_views_secrecy.py): a caller editing a
        # view (e.g. to translate it) cannot change the game.
        "history": copy.deepcopy(state.history),
        "final": scores(state) if state.phase == OVER else None,
    }
    return view


def _me(state: GameState, p: Player) -> dict[str, Any]:
    me: dict[str, Any] = {
        "name": p.name, "seat": p.seat, "coins": p.coins, "pact": p.pact,
        "exclusions": p.exclusions, "statement": copy.deepcopy(p.statement),  # fix: a copy
        "role": role_card(p.role) if p.role else None,
        "has_voted": p.name in state.receipts,
        "decides_tie": bool(state.phase == TIE_BREAK and state.tie
                            and state.tie.deciders[0] == p.name),
    }
    if p.role and state.phase != OVER:
        me["income"] = income(state, p)
        me["cost_of_living"] = cost_of_living(state, p)
        me["tax_preview"] = {o: tax_due(o, p.klass) for o in data.TAX_OPTIONS}
    return me


def player_view(state: GameState, seat: str) -> dict[str, Any]:
    p = _player(state, seat)
    view = public_view(state)
    view["me"] = _me(state, p)
    view["legal_actions"] = legal_actions(state, seat)
    return view


def _player(state: GameState, seat: str) -> Player:
    for p in state.players:
        if p.name == seat:
            return p
    raise InvalidAction(_("There is no player {name!r} at this table."), name=seat)


def legal_actions(state: GameState, seat: str | None) -> list[Action]:
    """Every decision ``seat`` can make now; ``seat=None`` for the teacher (empty the bag)."""
    if state.phase == OVER:
        return []
    kind = _vote_kind(state)
    if seat is None:
        return [{"type": "count", "kind": kind}] if kind else []
    p = _player(state, seat)
    if state.phase == PACT:
        if p.pact is not None:
            return []
        return [{"type": "pact", "player": p.name, "coins": c}
                for c in range(min(data.MAX_PACT, p.coins) + 1)]
    if kind:
        if p.name in state.receipts:
            return []
        return [{"type": "ballot", "kind": kind, "player": p.name}]
    if state.phase == TIE_BREAK and state.tie and state.tie.deciders[0] == p.name:
        choices: list[str | None] = list(state.tie.options)
        if state.tie.kind == "tax":
            choices.append(None)
        return [{"type": "tie_break", "player": p.name, "choice": c} for c in choices]
    return []


def summary(state: GameState) -> dict[str, Any]:
    """The whole state as ``manage.py replay`` prints it (docs/engine.md, "Commands")."""
    final = scores(state)
    return {
        "game": GAME_ID,
        "round": state.round,
        "phase": state.phase,
        "tension": state.tension,
        "failed": state.failed,
        "tax": state.tax,
        "table_coins": state.pot,
        "pact_total": state.pact_total,
        "services": {s: {"level": v.level, "fund": v.fund} for s, v in state.services.items()},
        "players": {
            p.name: {
                "role": p.role, "class": p.klass, "coins": p.coins,
                "exclusions": p.exclusions, "pact": p.pact,
                "score": final["players"].get(p.name, {}).get("score"),
                "score_breakdown": final["players"].get(p.name, {}).get("breakdown"),
            }
            for p in state.players
        },
        "winners": final["winners"] if state.phase == OVER else [],
        "legacy": final["legacy"],
    }
