"""What each audience sees, the pending decisions, the legal actions and the replay summary.

Austerity has no hidden information: the bag's contents are public by the rules, so
``"public"``, ``"master"`` and the one player, ``"government"``, see the same board. The only
secrets are the seed and the pinned draws (they decide the next draws): no view shows them.
"""

from __future__ import annotations

from typing import Any

from games.austerity import data
from games.austerity.choices import action_options, actions_open, stage_options
from games.austerity.rules import GAME_ID, scores
from games.austerity.state import DRAW, EVENT, OVER, POLICY, GameState, cube_counts
from games.core import MASTER_AUDIENCE, PUBLIC, SEAT, Action, Decision, InvalidAction
from games.i18n import _

PLAYER = "government"
AUDIENCES = (PUBLIC, MASTER_AUDIENCE, PLAYER)
KINDS = {DRAW: "draw", EVENT: "event", "cuts": "cuts", "income": "income", POLICY: "year-end"}
PROMPTS = {
    DRAW: _("Take any actions you want, then draw the next two cubes."),
    EVENT: _("{event}: choose one option."),
    "cuts": _("A Debt cube remains: choose an institution to suffer Cuts."),
    "income": _("Income: fund an institution, bank it in the Treasury, or put it in Used."),
    POLICY: _("Budget session: keep your policies, or turn one card (costs 1 Popularity)."),
}
ACTION_PROMPT = _("Actions: Raise Taxes, Borrow Money or Pay Loan, as often as you like.")


def _decision_id(state: GameState) -> str:
    if state.stage == POLICY:
        return f"y{state.year}.policy"
    number = state.draw + 1 if state.stage == DRAW else state.draw
    suffix = f"income{state.income_asked + 1}" if state.stage == "income" else state.stage
    return f"y{state.year}.d{number}.{suffix}"


def decisions(state: GameState) -> list[Decision]:
    """The pending decision (and, while the bag is not empty, the optional actions)."""
    if state.stage == OVER:
        return []
    options = tuple(stage_options(state))
    if not options:
        return []  # nothing waits (``rules.before_year_end``'s board: Year End is next)
    params: dict[str, Any] = {}
    if state.stage == EVENT:
        params["event"] = data.EVENTS[data.pair_key(state.pair)].name
    pending = [Decision(id=_decision_id(state), kind=KINDS[state.stage], who=SEAT,
                        mode="choice", action=state.stage, deciders=(PLAYER,),
                        options=options, prompt=PROMPTS[state.stage],
                        params=params)]
    actions = action_options(state)
    if actions:
        pending.append(Decision(id=f"y{state.year}.action{state.actions_taken + 1}",
                                kind="action", who=SEAT, mode="choice", action="action",
                                deciders=(PLAYER,), options=tuple(actions),
                                prompt=ACTION_PROMPT))
    return pending


def legal_actions(state: GameState, seat: str | None) -> list[Action]:
    """Every decision the government can make now (``seat=None``: the teacher has none)."""
    if seat is None or state.stage == OVER:
        return []
    _check_seat(seat)
    out: list[Action] = [{"type": state.stage, "choice": name} for name in stage_options(state)]
    out += [{"type": "action", "choice": name} for name in action_options(state)]
    return out


def _check_seat(seat: str) -> None:
    if seat != PLAYER:
        raise InvalidAction(_("Austerity has one player, 'government', not {name!r}."),
                            name=seat)


def board(state: GameState) -> dict[str, Any]:
    """Everything on the table (the bag's contents are public by the rules)."""
    scenario = data.SCENARIOS[state.scenario]
    level = scenario.levels[data.DIFFICULTIES.index(
        "easy" if state.difficulty == data.EASIER else state.difficulty)]
    return {
        "game": GAME_ID, "player": PLAYER, "year": state.year, "draw": state.draw,
        "stage": state.stage,
        "over": state.stage == OVER, "result": state.result, "reason": state.reason,
        "scenario": state.scenario, "difficulty": state.difficulty, "country": state.country,
        "goal": {"text": scenario.goal, "params": {"level": level}},
        "tracks": dict(state.tracks), "bag": dict(state.bag), "current": list(state.current),
        "pair": list(state.pair), "event": data.pair_key(state.pair)
        if len(state.pair) == 2 else None,
        "used": dict(state.used), "treasury": state.treasury,
        "institutions": {k: {"cuts": v.cuts, "funded": v.funded}
                         for k, v in state.institutions.items()},
        "policies": dict(state.policies), "fixed_policies": list(state.fixed_policies),
        "olympics": state.olympics if state.scenario == data.OLYMPICS else None,
        "war": state.war, "war_fed": state.war_fed if state.war is not None else None,
        "actions_open": actions_open(state),
        "options": {"extra_institutions": state.extra_institutions,
                    "lone_debt_cuts": state.lone_debt_cuts, "year_limit": state.year_limit,
                    "levels": state.levels, "min_years": state.min_years},
        "cubes": cube_counts(state),
        "history": [{**entry, "log": [dict(line) for line in entry["log"]],
                     "tracks": dict(entry["tracks"]), "bag": dict(entry["bag"])}
                    for entry in state.history],
    }


def public_view(state: GameState) -> dict[str, Any]:
    view = board(state)
    view["decisions"] = [d.to_dict() for d in decisions(state)]
    return view


def player_view(state: GameState, seat: str) -> dict[str, Any]:
    _check_seat(seat)
    view = public_view(state)
    view["legal_actions"] = legal_actions(state, seat)
    return view


def view(state: GameState, audience: str) -> dict[str, Any]:
    """``"public"``, ``"master"`` or ``"government"``: the same board (nothing is hidden)."""
    if audience == PLAYER:
        return player_view(state, audience)
    if audience not in AUDIENCES:
        raise InvalidAction(_("Unknown audience {name!r}: use public, master or government."),
                            name=audience)
    return public_view(state)


def balances(state: GameState) -> dict[str, int]:
    """Austerity moves no money, so it keeps no ledger accounts (cubes are in ``cubes``)."""
    return {}


def summary(state: GameState) -> dict[str, Any]:
    """The whole state as ``manage.py replay`` prints it (never the seed or the pins)."""
    out = board(state)
    out["scores"] = scores(state)
    out["decisions"] = [d.to_dict() for d in decisions(state)]
    return out
