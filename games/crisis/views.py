"""What the game is waiting for (``decisions``), what each audience sees, and the final count.

Only Influence hands are secret: ``view(state, NAME)`` shows that player's hand; ``"public"``
never shows a hand, a deck's order or the bag; ``"master"`` adds the decks' sizes.
"""

from __future__ import annotations

from typing import Any

from games.core import MASTER_AUDIENCE, PUBLIC, TEAM, Action, Decision, InvalidAction
from games.crisis import board, cards, data, effects, ops, production, rounds, rules
from games.crisis.state import EXPORTS, OPERATIONS, OVER, PLANNING, PRODUCTION, GameState, Player
from games.i18n import _

DEFAULT_SPACE = "government-subsidy"


# --------------------------------------------------------------------------- decisions


def decisions(state: GameState) -> list[Decision]:
    if state.phase == PLANNING:
        name = rounds.next_placer(state)
        if name is None:
            return []
        p = state.player(name)
        spaces = rules.legal_spaces(state, p)
        default = DEFAULT_SPACE if DEFAULT_SPACE in spaces else spaces[0]
        return [Decision(
            id=f"r{state.round}.place.{state.placed + 1}", kind="place", who=TEAM,
            mode="choice", action="place", deciders=(name,), options=tuple(spaces),
            default={"type": "place", "player": name, "space": default},
            prompt=_("{name}, choose an action space for your next Manager."),
            params={"name": name})]
    if state.phase == OPERATIONS and state.steps:
        space, name = state.steps[0]
        opts = board.options(state, space, state.player(name))
        return [Decision(
            id=f"r{state.round}.resolve.{space}", kind="resolve", who=TEAM, mode="choice",
            action="resolve", deciders=(name,), options=tuple(opts),
            default={"type": "resolve", "player": name, "space": space, "choice": opts[0]},
            prompt=_("{name}, your Manager on {space}: choose what to do."),
            params={"name": name, "space": space})]
    if state.phase == PRODUCTION:
        return [Decision(
            id=f"r{state.round}.production.{p.name}", kind="produce", who=TEAM, mode="form",
            action="produce", deciders=(p.name,),
            default={"type": "produce", "player": p.name,
                     "plan": production.auto_plan(state, p)},
            prompt=_("{name}, plan your Production: Companies, Employees and bonus Employees."),
            params={"name": p.name})
            for p in state.players if p.name not in state.produced]
    if state.phase == EXPORTS and state.exports:
        name = state.exports[state.turn]
        return [Decision(
            id=f"r{state.round}.exports.{len(state.current.get('export_log', [])) + 1}",
            kind="export", who=TEAM, mode="form", action="export", deciders=(name,),
            options=tuple(c for c in current_contracts(state) if c),
            default={"type": "pass", "player": name},
            prompt=_("{name}, export on a contract, sell on the black market, or pass."),
            params={"name": name})]
    return []


def current_contracts(state: GameState) -> list[str | None]:
    return state.market[:cards.CONTRACT_ROWS * (cards.CONTRACT_COLUMNS - 1)]


def legal_actions(state: GameState, seat: str | None) -> list[Action]:
    """The decisions open to ``seat`` now (the Production form's default plan as its one
    example), plus ``repay`` and each playable Influence card."""
    if seat is None or state.phase == OVER:
        return []
    found: list[Action] = []
    for d in decisions(state):
        if seat not in d.deciders:
            continue
        if d.kind == "place":
            found += [{"type": "place", "player": seat, "space": s} for s in d.options]
        elif d.kind == "resolve":
            found += [{**(d.default or {}), "choice": c} for c in d.options]
        elif d.kind == "produce":
            found.append(dict(d.default or {}))
        else:
            found += export_moves(state, state.player(seat))
    p = state.player(seat)
    if p.loans and p.credits >= cards.LOAN_CREDITS:
        found.append({"type": "repay", "player": seat})
    if p.influence_round != state.round:
        found += influence_plays(state, p)
    return found


def export_moves(state: GameState, p: Player) -> list[Action]:
    moves: list[Action] = [{"type": "pass", "player": p.name}]
    for slot, contract in enumerate(current_contracts(state)):
        if contract:
            resource, most = cards.contract_parts(contract)
            for n in range(1, min(most, p.warehouse[resource]) + 1):
                moves.append({"type": "export", "player": p.name, "contract": slot,
                              "amount": n})
    limit = ops.black_market_limit(state)
    for resource in cards.EXPORT_PRICE:
        left = min(limit - p.black_market.get(resource, 0), p.warehouse[resource])
        for n in range(1, left + 1):
            moves.append({"type": "black_market", "player": p.name, "resource": resource,
                          "amount": n})
    return moves


def influence_plays(state: GameState, p: Player) -> list[Action]:
    plays = []
    for card in sorted(set(p.hand)):
        targets: list[str | None] = [n for n in state.names if n != p.name] \
            if card in data.TARGETED else [None]
        choices: list[str | None] = [None]
        if card == "smuggled-goods":
            choices = list(effects.INFLUENCE_RESOURCES)
        elif card == "headhunter":
            choices = list(cards.EMPLOYEE_TYPES)
        for target in targets:
            for choice in choices:
                action: Action = {"type": "influence", "player": p.name, "card": card}
                if target:
                    action["target"] = target
                if choice:
                    action["choice"] = choice
                try:
                    effects.check_influence(state, p, action)
                except InvalidAction:
                    continue
                plays.append(action)
    return plays


# --------------------------------------------------------------------------- views


def _player_public(state: GameState, p: Player) -> dict[str, Any]:
    return {"name": p.name, "credits": p.credits, "vp": p.vp, "loans": p.loans,
            "penalty": p.penalty, "warehouse": dict(p.warehouse),
            "employees": list(p.employees), "companies": list(p.companies),
            "managers": p.managers, "hand_size": len(p.hand),
            "played_influence": p.influence_round == state.round,
            "black_market": dict(p.black_market),
            "turn_position": state.order.index(p.name) + 1}


def public_view(state: GameState) -> dict[str, Any]:
    return {
        "game": rules.GAME_ID, "round": state.round, "phase": state.phase,
        "level": state.levels[state.round - 1], "status": state.status,
        "zone": data.zone(max(0, state.status)), "goal": ops.goal(state),
        "plan": {"id": state.plan_id, "levels": list(state.levels), "goals": list(state.goals)},
        "order": list(state.order), "event": state.event, "mods": dict(state.mods),
        "board": {"companies": list(state.board_companies),
                  "employees": list(state.board_employees),
                  "temp_employee": state.temp_holder is None,
                  "foreign": {k: len(v) for k, v in state.foreign.items()},
                  "contracts": list(state.market)},
        "placements": {k: list(v) for k, v in state.placements.items()},
        "exports": list(state.exports),
        "exports_turn": state.exports[state.turn] if state.phase == EXPORTS and state.exports
        else None,
        "waiting": [d.to_dict() for d in decisions(state)] if state.phase != OVER else [],
        "players": {p.name: _player_public(state, p) for p in state.players},
        "bankrupt": state.bankrupt, "over": state.phase == OVER,
        "history": state.history,
    }


def player_view(state: GameState, seat: str) -> dict[str, Any]:
    p = state.player(seat)
    return {**public_view(state), "me": seat, "hand": list(p.hand),
            "legal_actions": legal_actions(state, seat)}


def master_view(state: GameState) -> dict[str, Any]:
    return {**public_view(state), "decks": {
        "companies": {k: len(v) for k, v in state.company_decks.items()},
        "events": {k: len(v) for k, v in state.event_decks.items()},
        "influence": len(state.influence_deck),
        "influence_discard": len(state.influence_discard),
        "bag": len(state.bag),
        "contracts": {k: len(v) for k, v in state.contract_stacks.items()}}}


def view(state: GameState, audience: str) -> dict[str, Any]:
    if audience == PUBLIC:
        return public_view(state)
    if audience == MASTER_AUDIENCE:
        return master_view(state)
    if audience in state.names:
        return player_view(state, audience)
    raise InvalidAction(_("Unknown audience {audience!r}."), audience=audience)


def balances(state: GameState) -> dict[str, int]:
    out = {ops.account(p.name): p.credits for p in state.players}
    return {"bank": -sum(out.values()), **out}


# --------------------------------------------------------------------------- the end


def scores(state: GameState) -> dict[str, Any]:
    """Each player's final score, breakdown and place (only once the game is over).

    Surviving: VP + credits // 5 − 2 per unpaid loan − Penalty tiles. Bankruptcy: players
    below the goal lose; the rest score VP − Penalty tiles. Ties: most credits held, then the
    fewest VP lost to Penalty tiles, then the most VP printed on their Companies.
    """
    out: dict[str, Any] = {}
    for p in state.players:
        if state.bankrupt:
            eligible = state.goal_met.get(p.name, False)
            breakdown = {"vp": p.vp, "credits": 0, "loans": 0, "penalty": -p.penalty}
        else:
            eligible = True
            breakdown = {"vp": p.vp, "credits": p.credits // cards.CREDITS_PER_VP,
                         "loans": -cards.UNPAID_LOAN_VP * p.loans, "penalty": -p.penalty}
        out[p.name] = {"score": sum(breakdown.values()), "score_breakdown": breakdown,
                       "eligible": eligible, "credits": p.credits,
                       "company_vp": ops.company_vp(p)}
    if state.phase != OVER:
        return out
    ranked = sorted((n for n in out if out[n]["eligible"]), key=lambda n: tie_key(state, out, n))
    place = 0
    last = None
    for i, name in enumerate(ranked):
        key = tie_key(state, out, name)
        if key != last:
            place, last = i + 1, key
        out[name]["place"] = place
    for name in out:
        out[name].setdefault("place", None)
        out[name]["winner"] = out[name]["place"] == 1
    return out


def tie_key(state: GameState, out: dict[str, Any], name: str) -> tuple[int, int, int, int]:
    p = state.player(name)
    return (-out[name]["score"], -p.credits, p.penalty, -ops.company_vp(p))


def summary(state: GameState) -> dict[str, Any]:
    """The whole state as ``manage.py replay`` prints it (no deck order, no rng)."""
    final = scores(state)
    return {
        **public_view(state),
        "failed": state.bankrupt,
        "players": {p.name: {**_player_public(state, p), "hand": list(p.hand),
                             **{k: final[p.name][k] for k in ("score", "score_breakdown",
                                                              "eligible")},
                             "place": final[p.name].get("place"),
                             "winner": final[p.name].get("winner", False)}
                    for p in state.players},
        "winners": [n for n, s in final.items() if s.get("winner")],
        "balances": balances(state),
    }
