"""The round's frame: phases 1–3 (Event, Loan Interest, Planning's turn order), 5
(Evaluation), the End of the Round and the end of the game."""

from __future__ import annotations

from games.core import PUBLIC, Event
from games.crisis import cards, data, effects, ops
from games.crisis.state import OVER, PLANNING, GameState


def begin_round(state: GameState, events: list[Event], *, event: bool = True) -> None:
    """Phases 1–3: the Event, Loan Interest, then Planning waits for the first Manager."""
    state.history.append({"round": state.round, "level": state.levels[state.round - 1],
                          "goal": state.goals[state.round - 1], "status_start": state.status})
    events.append({"type": "round", "audience": PUBLIC, "round": state.round})
    for p in state.players:
        p.black_market = {}
    if event:
        deck = state.event_decks[data.zone(state.status)]
        state.event = deck.pop(0) if deck else None  # a pinned null: no Event this round
        state.current["event"] = state.event
        if state.event:
            effects.resolve_event(state, events, state.event)
        else:
            effects.set_mods(state, None)
        for name in state.order:
            p = state.player(name)
            if p.loans:
                ops.pay(state, events, p, ops.interest(state) * p.loans, "interest")
    state.current["goal"] = ops.goal(state)
    start_planning(state)


def start_planning(state: GameState) -> None:
    state.phase = PLANNING
    state.placements = {}
    state.exports = []
    state.placed = 0


def managers_placed(state: GameState, name: str) -> int:
    return sum(names.count(name) for names in state.placements.values())


def next_placer(state: GameState) -> str | None:
    """Round-robin in turn order: the player with Managers left who has placed the fewest."""
    best: tuple[int, int] | None = None
    who = None
    for i, name in enumerate(state.order):
        placed = managers_placed(state, name)
        if placed < state.player(name).managers and (best is None or (placed, i) < best):
            best, who = (placed, i), name
    return who


def evaluate(state: GameState, events: list[Event]) -> None:
    """Phase 5 (after the Event's black-market line), then the end of the game or the End of
    the Round and the next round."""
    effects.settle_black_market(state, events)
    goal = ops.goal(state)
    diffs = {p.name: p.vp - goal for p in state.players}
    delta = sum(diffs.values())
    state.goal_met = {name: d >= 0 for name, d in diffs.items()}
    state.current["evaluation"] = {"goal": goal, "vp": {p.name: p.vp for p in state.players},
                                   "differences": diffs, "delta": delta}
    effects.move_status(state, events, delta, "evaluation")
    state.current["status"] = state.status
    if state.round in cards.EVALUATION_INFLUENCE_ROUNDS:
        for name in state.order:
            if state.goal_met[name]:
                ops.draw_influence(state, events, state.player(name), "goal")
    if state.status < 0 or state.round == cards.ROUNDS:
        game_over(state, events)
        return
    end_of_round(state, events)
    state.round += 1
    deal_companies(state)
    begin_round(state, events)


def game_over(state: GameState, events: list[Event]) -> None:
    """The end: Axia is bankrupt if the track is below 0, else it survived (after round 7)."""
    state.bankrupt = state.status < 0
    state.phase = OVER
    events.append({"type": "game_over", "audience": PUBLIC, "round": state.round,
                   "bankrupt": state.bankrupt})


def stated_end(state: GameState, events: list[Event]) -> None:
    """A stated situation at the end of the game (``start.phase`` ``"over"``): the round's
    Evaluation is taken as done with the stated track, so the goal decides who may win after
    a bankruptcy exactly as at a played Evaluation (VP at least this round's goal). Its
    history entry has the VP and differences but no ``delta`` (``None``: the step the track
    made is not stated) and ``"stated": True``."""
    goal = ops.goal(state)
    diffs = {p.name: p.vp - goal for p in state.players}
    state.goal_met = {name: d >= 0 for name, d in diffs.items()}
    state.current["evaluation"] = {"goal": goal, "vp": {p.name: p.vp for p in state.players},
                                   "differences": diffs, "delta": None, "stated": True}
    state.current["status"] = state.status
    game_over(state, events)


def end_of_round(state: GameState, events: list[Event]) -> None:
    if state.temp_holder:
        state.player(state.temp_holder).employees.remove(cards.TEMP)
        state.temp_holder = None
    state.board_employees = [state.bag.pop(0) if state.bag else None
                             for _i in range(cards.BOARD_EMPLOYEES)]
    rows = cards.CONTRACT_ROWS
    state.market = [*state.market[rows:], *(draw_contract(state) for _i in range(rows))]
    events.append({"type": "end_of_round", "audience": PUBLIC, "round": state.round})


def draw_contract(state: GameState) -> str | None:
    """"The next available" contract: the Level I stack, then Level II, then Level III."""
    for level in cards.LEVELS:
        if state.contract_stacks[level]:
            return state.contract_stacks[level].pop(0)
    return None


def deal_companies(state: GameState) -> None:
    deck = state.company_decks[state.levels[state.round - 1]]
    state.board_companies = [deck.pop(0) if deck else None for _i in range(cards.BOARD_COMPANIES)]
