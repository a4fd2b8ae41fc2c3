"""The rulebook's keywords as operations on a state: track moves, Add, Add to Bag, Remove,
Spend, Cuts and Fund, plus the rule changes of the scenario and the policy cards in force.

Every cube that moves is reported as a ``cubes`` event ``{colour, count, from, to, reason}``
between places (``bag``, ``current``, ``used``, ``treasury``, ``institution:<id>``,
``olympics`` and ``supply``, the unlimited stock outside the game), so the cube counts of any
moment can be rebuilt from the events alone.
"""

from __future__ import annotations

from typing import Any

from games.austerity import data
from games.austerity.state import GameState
from games.core import PUBLIC, Event

SUPPLY = "supply"


class Lost(Exception):
    """A track reached 0 (or the scenario's losing condition came true): the game ends now."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------- rule changes


Source = tuple[str, ...]  # what changed a rule: ("policy", card, face) or ("scenario", id)


def event_rule(state: GameState, key: str) -> tuple[tuple[data.Op, ...],
                                                    tuple[data.Option, ...],
                                                    Source | None,
                                                    dict[str, Source]]:
    """The event of ``key`` as the scenario and the policy cards in force make it: (always,
    options, what replaced the whole event or None, {option id: what changed that option})."""
    event = data.EVENTS[key]
    always, options = event.always, event.options
    replaced = data.SCENARIOS[state.scenario].events.get(key)
    source: Source | None = ("scenario", state.scenario) if replaced is not None else None
    for card, face in _in_force(state):
        if face.target == ("event", key):
            replaced, source = face.ops, ("policy", card, face.id)
    if replaced is not None:
        return replaced, (), source, {}
    patched, changed = [], {}
    for option in options:
        ops = option.ops
        for card, face in _in_force(state):
            if face.target == ("option", f"{key}:{option.id}"):
                ops, changed[option.id] = face.ops, ("policy", card, face.id)
        patched.append(data.Option(option.id, option.text, ops))
    return always, tuple(patched), None, changed


def event_effects(state: GameState, key: str) -> tuple[tuple[data.Op, ...],
                                                       tuple[data.Option, ...]]:
    """The event of ``key`` as it stands in this game: (always, options)."""
    always, options, _source, _changed = event_rule(state, key)
    return always, options


def fund_effects(state: GameState, inst: str) -> tuple[data.Op, ...]:
    return rule(state, "fund", inst, data.INSTITUTIONS[inst].fund)[0]


def cuts_effects(state: GameState, inst: str) -> tuple[data.Op, ...]:
    return rule(state, "cuts", inst, data.INSTITUTIONS[inst].cuts)[0]


def action_effects(state: GameState, action: str) -> tuple[data.Op, ...]:
    return rule(state, "action", action, data.ACTIONS[action])[0]


def _in_force(state: GameState) -> list[tuple[str, data.Face]]:
    """(card, face) of every policy card in play, face up."""
    return [data.FACES[face] for face in state.policies.values()]


def rule(state: GameState, kind: str, name: str,
         ops: tuple[data.Op, ...]) -> tuple[tuple[data.Op, ...], Source | None]:
    """A reward, penalty or action (``ops`` as printed) as the policy cards in force make it,
    and the face that changed it (None: as printed)."""
    for card, face in _in_force(state):
        if face.target == (kind, name):
            return face.ops, ("policy", card, face.id)
    return ops, None


# --------------------------------------------------------------------------- cubes


def _cubes(events: list[Event], colour: str, count: int, src: str, dst: str,
           reason: str) -> None:
    if count:
        events.append({"type": "cubes", "audience": PUBLIC, "colour": colour, "count": count,
                       "from": src, "to": dst, "reason": reason})


def add(state: GameState, events: list[Event], colour: str, count: int, reason: str) -> None:
    """Add: new cubes from the supply to Used."""
    state.used[colour] += count
    _cubes(events, colour, count, SUPPLY, "used", reason)


def add_to_bag(state: GameState, events: list[Event], colour: str, count: int,
               reason: str) -> None:
    state.bag[colour] += count
    _cubes(events, colour, count, SUPPLY, "bag", reason)


def from_current(state: GameState, events: list[Event], colour: str, dst: str,
                 reason: str) -> None:
    """Move one cube of ``colour`` out of Current (the first one of that colour)."""
    state.current.remove(colour)
    _cubes(events, colour, 1, "current", dst, reason)


def removable(state: GameState, colour: str) -> int:
    """How many ``colour`` cubes a Remove can reach: Current, Used and the Treasury."""
    return (state.current.count(colour) + state.used[colour]
            + (state.treasury if colour == data.INCOME else 0))


def remove(state: GameState, events: list[Event], colour: str, count: int, reason: str,
           treasury_first: bool = False) -> int:
    """Remove: from Current first; then from Used (or first the Treasury). Returns how many."""
    done = 0
    while done < count and colour in state.current:
        from_current(state, events, colour, SUPPLY, reason)
        done += 1
    places = ["treasury", "used"] if treasury_first else ["used", "treasury"]
    for place in places:
        have = state.used[colour] if place == "used" else (
            state.treasury if colour == data.INCOME else 0)
        take = min(have, count - done)
        if place == "used":
            state.used[colour] -= take
        else:
            state.treasury -= take
        _cubes(events, colour, take, place, SUPPLY, reason)
        done += take
    return done


def spendable(state: GameState) -> int:
    return state.treasury + state.current.count(data.INCOME)


def spend(state: GameState, events: list[Event], count: int, reason: str,
          current_first: bool = False, dst: str = SUPPLY) -> None:
    """Spend: Income from the Treasury (or first from Current) out of the game (``dst``)."""
    for _step in range(count):
        use_current = data.INCOME in state.current and (current_first or not state.treasury)
        if use_current:
            from_current(state, events, data.INCOME, dst, reason)
        else:
            state.treasury -= 1
            _cubes(events, data.INCOME, 1, "treasury", dst, reason)


# --------------------------------------------------------------------------- tracks


def move_track(state: GameState, events: list[Event], track: str, delta: int,
               reason: str) -> None:
    """Move a track; beyond 10 it does not change; at 0 the game is lost at once."""
    before = state.tracks[track]
    after = max(data.TRACK_MIN, min(data.TRACK_MAX, before + delta))
    if after != before:
        state.tracks[track] = after
        events.append({"type": "track", "audience": PUBLIC, "track": track, "from": before,
                       "to": after, "reason": reason})
    if after <= data.TRACK_MIN:
        raise Lost(track)


# --------------------------------------------------------------------------- operations


def needs(ops: tuple[data.Op, ...]) -> tuple[int, dict[str, int]]:
    """(Income to Spend, cubes to Remove by colour) of a list of operations."""
    spend_n, removes = 0, {}
    for op in ops:
        if op[0] == "spend":
            spend_n += op[1]
        elif op[0] == "remove":
            removes[op[1]] = removes.get(op[1], 0) + op[2]
    return spend_n, removes


def can_pay(state: GameState, ops: tuple[data.Op, ...], strict_remove: bool) -> bool:
    """Whether the Spends (and, if ``strict_remove``, the Removes) can all be done."""
    spend_n, removes = needs(ops)
    if spend_n > spendable(state):
        return False
    if strict_remove:
        return all(removable(state, c) >= n + (spend_n if c == data.INCOME else 0)
                   for c, n in removes.items())
    return True


def perform(state: GameState, events: list[Event], ops: tuple[data.Op, ...], reason: str,
            variant: str | None = None) -> None:
    """Carry out ``ops`` in order. ``variant``: ``"current"`` spends from Current first,
    ``"treasury"`` makes a Remove not met in Current take from the Treasury before Used."""
    for op in ops:
        kind = op[0]
        if kind == "track":
            move_track(state, events, op[1], op[2], reason)
        elif kind == "add":
            add(state, events, op[1], op[2], reason)
        elif kind == "add_bag":
            add_to_bag(state, events, op[1], op[2], reason)
        elif kind == "remove":
            remove(state, events, op[1], op[2], reason, treasury_first=variant == "treasury")
        elif kind == "spend":
            spend(state, events, op[1], reason, current_first=variant == "current")
        elif kind == "cuts_all":
            for inst in list(state.institutions):
                cut(state, events, inst, reason)
        else:  # pragma: no cover - data.py only uses the kinds above
            raise ValueError(kind)


def cut(state: GameState, events: list[Event], inst: str, reason: str) -> None:
    """Advance ``inst``'s Cuts marker; on the final step: its penalty, then back to the start."""
    marker = state.institutions[inst]
    marker.cuts += 1
    final = marker.cuts >= data.CUTS_STEPS
    events.append({"type": "cuts", "audience": PUBLIC, "institution": inst,
                   "step": marker.cuts, "final": final, "reason": reason})
    note(state, {"kind": "cuts", "institution": inst, "step": marker.cuts, "final": final})
    if final:
        marker.cuts = 0
        perform(state, events, cuts_effects(state, inst), f"cuts:{inst}")


def fund_limit(inst: str) -> int:
    return data.INSTITUTIONS[inst].cubes_per_year


def fund(state: GameState, events: list[Event], inst: str) -> None:
    """Place an Income cube from Current on ``inst`` and claim its reward."""
    from_current(state, events, data.INCOME, f"institution:{inst}", f"fund:{inst}")
    state.institutions[inst].funded += 1
    events.append({"type": "funded", "audience": PUBLIC, "institution": inst,
                   "cubes": state.institutions[inst].funded})
    if state.institutions[inst].funded >= fund_limit(inst):
        reward(state, events, inst)


def reward(state: GameState, events: list[Event], inst: str) -> None:
    perform(state, events, fund_effects(state, inst), f"fund:{inst}")


def note(state: GameState, entry: dict[str, Any]) -> None:
    """Add one line to this year's public history."""
    state.this_year["log"].append(entry)
