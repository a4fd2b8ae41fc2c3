"""A tiny fake game for the platform's own tests: "Coin Jar".

Every player starts with 2 coins from the bank. Each round, the table votes in secret on
whether to fill the jar ("fill") or not ("skip"); if "fill" has the most votes (or the outcome
says so), each player pays 1 coin into the jar. Round 2 is a weighted vote (the first player's
ballot counts 3), so its count keeps only the outcome. The game ends after 2 rounds. Pure: its
state is a function of (config, seed, actions).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from games.core import (
    BALLOT,
    PUBLIC,
    VOTERS,
    Action,
    Decision,
    Event,
    InvalidAction,
    check_config,
    check_tally,
    player_names,
    plurality,
)

GAME_ID = "coin-jar"
OPTIONS = ("fill", "skip")
ROUNDS = 2
WEIGHTED_ROUND = 2


@dataclass
class State:
    players: list[str]
    coins: dict[str, int]
    round: int = 1
    jar: int = 0
    receipts: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    phase: str = "vote"


def weights(state: State) -> dict[str, int]:
    if state.round != WEIGHTED_ROUND:
        return {}
    return {name: 3 if i == 0 else 1 for i, name in enumerate(state.players)}


def new_game(config: Mapping[str, Any], seed: int) -> State:
    check_config(config, seed, {"players"})
    names = player_names(config)
    return State(players=list(names), coins=dict.fromkeys(names, 2))


def decision_id(state: State) -> str:
    return f"{state.round}:jar"


def decisions(state: State) -> list[Decision]:
    if state.phase != "vote":
        return []
    w = weights(state)
    return [Decision(id=decision_id(state), kind="jar", who=VOTERS, mode=BALLOT,
                     action="ballot", options=OPTIONS,
                     deciders=tuple(n for n in state.players if n not in state.receipts),
                     weights=w or None, prompt="Fill the jar?")]


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    state = copy.deepcopy(state)
    events: list[Event] = []
    kind = action.get("type")
    if state.phase != "vote":
        raise InvalidAction("The game is over.")
    if action.get("decision") != decision_id(state):
        raise InvalidAction("There is no open vote {d!r}.", d=action.get("decision"))
    if kind == "ballot":
        name = action.get("player")
        if name not in state.players or name in state.receipts:
            raise InvalidAction("{name} cannot vote now.", name=name)
        state.receipts = sorted([*state.receipts, name])
    elif kind == "count":
        if "tally" in action:
            tally = check_tally(action["tally"], OPTIONS)
            if weights(state):
                raise InvalidAction("A weighted vote is counted by its outcome.")
            if sum(tally.values()) != len(state.receipts):
                raise InvalidAction("The tally does not match the ballots.")
            ranking = plurality(tally, OPTIONS)
        else:
            ranking = action.get("outcome")
            if not isinstance(ranking, list):
                raise InvalidAction("An outcome is a ranking.")
            tally = None
        fill = bool(ranking) and ranking[0] == ["fill"]
        if fill:
            for name in state.players:
                if state.coins[name]:
                    state.coins[name] -= 1
                    state.jar += 1
                    events.append({"type": "transfer", "audience": PUBLIC,
                                   "from": f"player:{name}", "to": "jar", "amount": 1,
                                   "reason": "jar"})
        state.history.append({"round": state.round, "tally": tally, "ranking": ranking,
                              "voters": len(state.receipts), "filled": fill})
        state.receipts = []
        state.round += 1
        if state.round > ROUNDS:
            state.phase = "over"
        events.append({"type": "count", "audience": PUBLIC, "filled": fill})
    else:
        raise InvalidAction("Unknown action {kind!r}.", kind=kind)
    return state, events


def ballot_outcome(state: State, decision: str, tally: Mapping[str, int]) -> Any:
    if decision != decision_id(state):
        raise InvalidAction("There is no open vote {d!r}.", d=decision)
    return plurality(check_tally(tally, OPTIONS), OPTIONS)


def replay_actions(state: State, actions: Iterable[Action]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, more = apply(state, action)
        events += more
    return state, events


def legal_actions(state: State, seat: str | None) -> list[Action]:
    if state.phase != "vote" or seat is None or seat in state.receipts:
        return []
    return [{"type": "ballot", "decision": decision_id(state), "player": seat}]


def public_view(state: State) -> dict[str, Any]:
    return {"round": state.round, "jar": state.jar, "phase": state.phase,
            "history": copy.deepcopy(state.history),
            "vote": {"voted": len(state.receipts), "of": len(state.players)}}


def player_view(state: State, seat: str) -> dict[str, Any]:
    return {**public_view(state), "me": {"name": seat, "coins": state.coins[seat]},
            "legal_actions": legal_actions(state, seat)}


def view(state: State, audience: str) -> dict[str, Any]:
    return public_view(state) if audience in (PUBLIC, "master") else player_view(state, audience)


def balances(state: State) -> dict[str, int]:
    out = {f"player:{n}": c for n, c in state.coins.items()}
    out["jar"] = state.jar
    out["bank"] = -sum(out.values())
    return out


def is_over(state: State) -> bool:
    return state.phase == "over"


def scores(state: State) -> dict[str, Any]:
    return dict(state.coins)


def summary(state: State) -> dict[str, Any]:
    return to_dict(state)


def to_dict(state: State) -> dict[str, Any]:
    return asdict(state)


def from_dict(raw: dict[str, Any]) -> State:
    return State(**raw)
