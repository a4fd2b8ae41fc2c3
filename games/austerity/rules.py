"""The rules of *Austerity* as a pure state machine.

A record holds decisions only, each ``{"type": T, "choice": OPTION}``: ``draw`` (draw the next
pair; the action window before it), ``event`` (the pair's either/or), ``cuts`` (which
institution), ``income`` (fund, bank or use one Income cube), ``policy`` (Year End: keep the
policy cards or turn one) and ``action`` (Raise Taxes, Borrow Money, Pay Loan, …: at any
decision point while the bag is not empty). The engine does everything else by itself: the
draw's event, a choice with a single possible option, moving Current to Used, Year End.

Rule decisions where the rulebook is silent or contradicts itself are listed, with reasons,
in ``docs/engines/austerity.md``; the main ones are in the code where they apply.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from games.austerity import data, effects
from games.austerity.choices import Choice, action_options, cuts_due, stage_options
from games.austerity.effects import Lost, note
from games.austerity.state import (
    CUTS,
    DRAW,
    EVENT,
    INCOME,
    OVER,
    POLICY,
    GameState,
    Institution,
    in_order,
)
from games.core import PUBLIC, Action, Event, InvalidAction
from games.i18n import _

GAME_ID = "austerity"
TYPES = (DRAW, EVENT, CUTS, INCOME, POLICY, "action")


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The new state and its events; ``state`` is untouched (also when the action is invalid)."""
    new = state.clone()
    return new, step(new, action)


def replay_actions(state: GameState, actions: Iterable[Action]) -> tuple[GameState, list[Event]]:
    """Apply decisions in place (fast path for replays). Stops at the first invalid one."""
    events: list[Event] = []
    for action in actions:
        events.extend(step(state, action))
    return state, events


def step(state: GameState, action: Action) -> list[Event]:
    """Validate ``action`` completely, then apply it to ``state`` in place."""
    kind, choice = _check(state, action)
    events: list[Event] = []
    try:
        if kind == "action":
            _act(state, events, action["choice"], choice)
        else:
            _answer(state, events, kind, action.get("choice", "draw"), choice)
        advance(state, events)
    except Lost as lost:
        finish(state, events, "lost", lost.reason)
    return events


class _YearEndDue(Exception):
    """``advance`` reached Year End with ``hold_year_end`` (see :func:`before_year_end`)."""


def before_year_end(state: GameState, action: Action) -> GameState | None:
    """The board ``action`` leads to, stopped where Year End would begin: the year's last
    draw settled, Current moved to Used, the bag empty, Year End's steps not yet taken (a
    lesson shows this until its teacher's Year End). None if ``action`` does not reach Year
    End (or ends the game before it); ``state`` is untouched; invalid actions raise."""
    new = state.clone()
    kind, choice = _check(new, action)
    events: list[Event] = []
    try:
        if kind == "action":
            _act(new, events, action["choice"], choice)
        else:
            _answer(new, events, kind, action.get("choice", "draw"), choice)
        advance(new, events, hold_year_end=True)
    except _YearEndDue:
        return new
    except Lost:
        return None
    return None


def _check(state: GameState, action: Action) -> tuple[str, Choice]:
    if not isinstance(action, Mapping):
        raise InvalidAction(_("An action must be an object with a 'type'."))
    kind = action.get("type")
    if kind not in TYPES:
        raise InvalidAction(_("Unknown action type {type!r}."), type=kind)
    extra = sorted(set(action) - {"type", "choice"})
    if extra:
        raise InvalidAction(_("Unknown action keys: {keys}."), keys=", ".join(extra))
    if state.stage == OVER:
        raise InvalidAction(_("The game is over."))
    name = action.get("choice", "draw" if kind == DRAW else None)
    if not isinstance(name, str):
        raise InvalidAction(_("The action needs a 'choice' (one of the listed options)."))
    if kind == "action":
        options = action_options(state)
        if not options:
            raise InvalidAction(_("No actions now: the bag is empty until next year."))
    elif kind != state.stage:
        raise InvalidAction(
            _("The game is waiting for a decision of type {stage!r}, not {type!r}."),
            stage=state.stage, type=kind)
    else:
        options = stage_options(state)
    if name not in options:
        raise InvalidAction(_("{choice!r} is not an option now; the options are: {options}."),
                            choice=name, options=", ".join(options))
    if kind == DRAW:
        check_pin(state)
    return kind, options[name]


# --------------------------------------------------------------------------- drawing


def check_pin(state: GameState) -> None:
    """A pinned draw must name cubes that are in the bag, as many as will be drawn."""
    if state.draws_done >= len(state.pins):
        return
    pin = state.pins[state.draws_done]
    left = sum(state.bag.values())
    if len(pin) != min(2, left):
        raise InvalidAction(
            _("Pinned draw {n} names {count} cubes, but it must name {need}: the bag holds "
              "{left}."), n=state.draws_done + 1, count=len(pin), need=min(2, left), left=left)
    for colour in dict.fromkeys(pin):  # in the pin's order, so the reason is always the same
        if pin.count(colour) > state.bag[colour]:
            raise InvalidAction(
                _("Pinned draw {n} names {count} cubes of {colour!r}, but the bag holds {have}."),
                n=state.draws_done + 1, count=pin.count(colour), colour=colour,
                have=state.bag[colour])


def _draw_cubes(state: GameState) -> list[str]:
    if state.draws_done < len(state.pins):
        return list(state.pins[state.draws_done])
    cubes = [c for c in data.COLOURS for _n in range(state.bag[c])]
    rng = random.Random(f"{state.seed}:draw:{state.draws_done}")
    return rng.sample(cubes, min(2, len(cubes)))


def draw(state: GameState, events: list[Event]) -> None:
    """Draw a pair into Current and resolve its event; a single last cube goes to Used."""
    cubes = _draw_cubes(state)
    state.draws_done += 1
    state.draw += 1
    state.income_asked = 0
    for cube in cubes:
        state.bag[cube] -= 1
    state.pair = list(cubes)
    state.lone = len(cubes) == 1
    events.append({"type": "drawn", "audience": PUBLIC, "year": state.year, "draw": state.draw,
                   "cubes": list(cubes)})
    if state.lone and not (state.lone_debt_cuts and cubes == [data.DEBT]):
        # The rules, twice: a single last cube goes straight to Used and is ignored.
        state.used[cubes[0]] += 1
        events.append({"type": "cubes", "audience": PUBLIC, "colour": cubes[0], "count": 1,
                       "from": "bag", "to": "used", "reason": "lone-cube"})
        note(state, {"kind": "draw", "draw": state.draw, "cubes": cubes, "event": None})
        state.stage = INCOME  # nothing to decide: advance() moves on
        return
    state.current = list(cubes)
    for cube in cubes:
        events.append({"type": "cubes", "audience": PUBLIC, "colour": cube, "count": 1,
                       "from": "bag", "to": "current", "reason": "draw"})
    if state.lone:  # lone_debt_cuts: the lone Debt cube makes every institution eligible
        note(state, {"kind": "draw", "draw": state.draw, "cubes": cubes, "event": None})
        state.stage = CUTS
        return
    _event(state, events, cubes)


def draw_staged(state: GameState) -> None:
    """``start.current``: that pair has just been drawn (not from the bag); its event now."""
    state.pair, state.lone = list(state.current), False
    try:
        _event(state, [], state.pair)
        advance(state, [])
    except Lost as lost:
        finish(state, [], "lost", lost.reason)


def _event(state: GameState, events: list[Event], cubes: list[str]) -> None:
    key = data.pair_key(cubes)
    note(state, {"kind": "draw", "draw": state.draw, "cubes": cubes, "event": key})
    events.append({"type": "event", "audience": PUBLIC, "event": key})
    state.stage = EVENT
    always, _options = effects.event_effects(state, key)
    effects.perform(state, events, always, f"event:{key}")


# --------------------------------------------------------------------------- decisions


def _answer(state: GameState, events: list[Event], kind: str, name: str,
            choice: Choice) -> None:
    if kind == DRAW:
        draw(state, events)
    elif kind == EVENT:
        resolve_event(state, events, name, choice)
    elif kind == CUTS:
        note(state, {"kind": "cuts-choice", "institution": choice.arg})
        effects.cut(state, events, str(choice.arg), f"cuts:{data.pair_key(state.pair)}")
        state.stage = INCOME
    elif kind == INCOME:
        _income(state, events, name, choice)
    else:
        _policy(state, events, choice)
        new_year(state, events)


def resolve_event(state: GameState, events: list[Event], name: str, choice: Choice,
                  forced: bool = False) -> None:
    key = data.pair_key(state.pair)
    note(state, {"kind": "event", "event": key, "choice": name, "forced": forced})
    if choice.kind == "fund-again":
        # Budget Surplus: both Income cubes are spent and the institution's reward is claimed
        # again (an institution funded once already; the one-cube rule is what it breaks).
        effects.spend(state, events, 2, f"event:{key}", current_first=True)
        effects.reward(state, events, str(choice.arg))
    else:
        effects.perform(state, events, choice.ops, f"event:{key}", choice.variant)
    state.stage = CUTS


def _income(state: GameState, events: list[Event], name: str, choice: Choice) -> None:
    state.income_asked += 1
    note(state, {"kind": "income", "choice": name})
    if choice.kind == "fund":
        effects.fund(state, events, str(choice.arg))
    elif choice.kind == "treasury":
        effects.from_current(state, events, data.INCOME, "treasury", "bank")
        state.treasury += 1
    elif choice.kind == "olympics":
        effects.from_current(state, events, data.INCOME, "olympics", "olympics")
        state.olympics += 1
    else:
        effects.from_current(state, events, data.INCOME, "used", "used")
        state.used[data.INCOME] += 1


def _act(state: GameState, events: list[Event], name: str, choice: Choice) -> None:
    state.actions_taken += 1
    note(state, {"kind": "action", "choice": name, "stage": state.stage})
    events.append({"type": "action", "audience": PUBLIC, "action": name})
    if choice.kind == data.OPEN:
        effects.perform(state, events, choice.ops, f"open:{choice.arg}", choice.variant)
        state.institutions[str(choice.arg)] = Institution()
        state.institutions = in_order(state.institutions, data.INSTITUTIONS)
        events.append({"type": "institution_opened", "audience": PUBLIC,
                       "institution": choice.arg})
        return
    if choice.kind == data.FEED_WAR:
        state.war_fed = True
    if choice.kind == data.FINANCE_OLYMPICS:
        # An extra action (our edition notes): any Income cube the government holds, from
        # the Treasury or Current like a Spend, goes into the Olympics box for good.
        effects.spend(state, events, 1, "olympics", choice.variant == "current", "olympics")
        state.olympics += 1
        return
    effects.perform(state, events, choice.ops, f"action:{choice.kind}", choice.variant)


def _policy(state: GameState, events: list[Event], choice: Choice) -> None:
    note(state, {"kind": "policy", "choice": choice.kind, "card": choice.arg})
    if choice.kind != "turn":
        return
    card = data.POLICY_CARDS[str(choice.arg)]
    face = card.faces[1] if state.policies[card.id] == card.faces[0].id else card.faces[0]
    state.policies[card.id] = face.id
    events.append({"type": "policy_turned", "audience": PUBLIC, "card": card.id,
                   "face": face.id})
    effects.perform(state, events, data.POLICY_TURN_COST, f"policy:{card.id}")


# --------------------------------------------------------------------------- moving on


def advance(state: GameState, events: list[Event], hold_year_end: bool = False) -> None:
    """Resolve everything that needs no decision, up to the next decision (or the end;
    ``hold_year_end``: stop where Year End would begin, raising ``_YearEndDue``)."""
    while state.stage != OVER:
        if state.stage == EVENT:
            options = stage_options(state)
            if len(options) >= 2:
                return
            if options:
                name, choice = next(iter(options.items()))
                resolve_event(state, events, name, choice, forced=True)
            state.stage = CUTS
        elif state.stage == CUTS:
            if cuts_due(state) and stage_options(state):
                return
            state.stage = INCOME
        elif state.stage == INCOME:
            if stage_options(state):
                return
            _clear_current(state, events)
            if sum(state.bag.values()):
                state.stage = DRAW
            elif hold_year_end:
                raise _YearEndDue
            else:
                year_end(state, events)
        else:
            return


def _clear_current(state: GameState, events: list[Event]) -> None:
    for cube in list(state.current):
        effects.from_current(state, events, cube, "used", "end-of-draw")
        state.used[cube] += 1
    state.pair, state.lone = [], False


def finish(state: GameState, events: list[Event], result: str, reason: str) -> None:
    state.result, state.reason, state.stage = result, reason, OVER
    note(state, {"kind": result, "reason": reason})
    events.append({"type": "game_over", "audience": PUBLIC, "result": result,
                   "reason": reason, "year": state.year})


def _won_this_year(state: GameState, events: list[Event]) -> bool:
    """Year End's first step: the scenario's win (and War Footing's and Olympics' losses)."""
    scenario = data.SCENARIOS[state.scenario]
    level = scenario.levels[data.DIFFICULTIES.index(_level(state))]
    if state.scenario == data.ECONOMIC_CRASH:
        return state.used[data.DEBT] - _ignored(state, data.DEBT) == 0
    if state.scenario == data.ORGANISED_CRIME:
        return state.used[data.CRIME] - _ignored(state, data.CRIME) == 0
    if state.scenario == data.OLYMPICS:
        if state.year < data.OLYMPICS_YEARS:
            return False
        if state.tracks[data.SAFETY] >= data.OLYMPICS_SAFETY and state.olympics >= level:
            return True
        raise Lost("olympics")  # the Games are over and the country did not shine
    # War Footing: the marker moves first, then the check (so this year's feeding counts).
    assert state.war is not None
    before = state.war
    state.war += 1 if state.war_fed else -1
    events.append({"type": "war", "audience": PUBLIC, "from": before, "to": state.war})
    if state.war <= 0:
        raise Lost("war")
    return state.war >= level


def held_back(state: GameState) -> bool:
    """The lesson length rule forbids a win at this year's Year End (``min_years`` not yet
    reached); None: the rulebook's game, a win is never held back."""
    return state.min_years is not None and state.year < state.min_years


def _ignored(state: GameState, colour: str) -> int:
    """1 if this year's last draw was a single cube of ``colour`` that went to Used ignored.

    The rulebook: "place it directly into the Used area and ignore it for this Year". The win
    check is part of this year, so an ignored cube does not count in it (rule decision 2). A
    lone Debt cube that the teacher's ``lone_debt_cuts`` option turns into Cuts is not ignored.
    """
    draws = [line for line in state.this_year["log"] if line["kind"] == "draw"]
    if not draws or draws[-1]["cubes"] != [colour]:
        return 0
    return 0 if colour == data.DEBT and state.lone_debt_cuts else 1


def _level(state: GameState) -> str:
    return "easy" if state.difficulty == data.EASIER else state.difficulty


WIN_REASONS = {data.ECONOMIC_CRASH: "debt-free", data.ORGANISED_CRIME: "crime-free",
               data.OLYMPICS: "olympics", data.WAR_FOOTING: "war"}


def year_end(state: GameState, events: list[Event]) -> None:
    """Year End, in the rulebook's order."""
    events.append({"type": "year_end", "audience": PUBLIC, "year": state.year})
    won = _won_this_year(state, events)  # its losses (war, Olympics) stand whatever the year
    if won and held_back(state):
        # The lesson length rule (ours): no win before the Year End of ``min_years``; the
        # year goes on as if the check had failed.
        note(state, {"kind": "win-held", "min_years": state.min_years})
        events.append({"type": "win_held", "audience": PUBLIC, "year": state.year,
                       "min_years": state.min_years})
        won = False
    if won:
        finish(state, events, "won", WIN_REASONS[state.scenario])
        return
    icons = data.income_icons(state.tracks[data.EMPLOYMENT])
    if icons:
        state.treasury += icons
        events.append({"type": "cubes", "audience": PUBLIC, "colour": data.INCOME,
                       "count": icons, "from": effects.SUPPLY, "to": "treasury",
                       "reason": "year-end"})
    for track, target in ((data.WEALTH, data.EMPLOYMENT), (data.HEALTH, data.SAFETY),
                          (data.POPULARITY, data.WEALTH), (data.POPULARITY, data.HEALTH)):
        gap = state.tracks[target] - state.tracks[track]
        if gap:
            effects.move_track(state, events, track, 1 if gap > 0 else -1, "year-end")
    note(state, {"kind": "year-end", "income": icons, "tracks": dict(state.tracks)})
    if state.year_limit is not None and state.year >= state.year_limit:
        raise Lost("year-limit")
    _refill(state, events)
    state.stage = POLICY
    if not stage_options(state):
        new_year(state, events)


def _refill(state: GameState, events: list[Event]) -> None:
    """Used and the cubes on the institutions go back into the bag."""
    for colour in data.COLOURS:
        if state.used[colour]:
            events.append({"type": "cubes", "audience": PUBLIC, "colour": colour,
                           "count": state.used[colour], "from": "used", "to": "bag",
                           "reason": "year-end"})
            state.bag[colour] += state.used[colour]
            state.used[colour] = 0
    for inst, marker in state.institutions.items():
        if marker.funded:
            events.append({"type": "cubes", "audience": PUBLIC, "colour": data.INCOME,
                           "count": marker.funded, "from": f"institution:{inst}", "to": "bag",
                           "reason": "year-end"})
            state.bag[data.INCOME] += marker.funded
            marker.funded = 0
    state.war_fed = False


def new_year(state: GameState, events: list[Event]) -> None:
    state.year += 1
    state.draw = 0
    state.stage = DRAW
    state.history.append(year_entry(state))
    events.append({"type": "year_start", "audience": PUBLIC, "year": state.year})
    if not sum(state.bag.values()):
        # Every cube is out of the bag (removed, banked or in the Olympics box): a year with
        # nothing to draw ends at once, with no actions (the bag is empty).
        year_end(state, events)


def year_entry(state: GameState) -> dict[str, Any]:
    return {"year": state.year, "tracks": dict(state.tracks), "bag": dict(state.bag),
            "log": []}


def is_over(state: GameState) -> bool:
    return state.stage == OVER


def scores(state: GameState) -> dict[str, Any]:
    """The government's result: ``won``/``lost``/None, why, and the year it ended."""
    return {"result": state.result, "reason": state.reason, "year": state.year,
            "tracks": dict(state.tracks)}
