""""What if we had…?": a table's game replayed with one public decision changed, and its
turning points (docs/what-if.md).

Pure: a what-if is computed from a record (docs/record.md) and never stored. Each game
supplies a ``Module`` (``games/<game>/whatif.py``): which recorded decisions are public and may
be changed, their legal alternatives, its default lesson bot, its main tracks and its measure.

How a changed game is replayed (the same path for the as-played line and the what-if line):

1. The module ``prepare``s the record's actions: secret parts are replaced by a canonical
   form computed from public facts only (e.g. State in Class's pact split from its total), so
   two records that differ only in secrets give the same lines.
2. The actions before the changed decision are replayed unchanged; the decision's span is
   replaced by the alternative's actions.
3. Every later recorded action is applied in turn and *kept* if the rules still allow it
   then. If not, it is matched to the decision it answered in the real game (its decision
   id): if that decision is open now, the bot answers it and the recorded action is
   *dropped*; if the changed game asks first for a decision the real game reached earlier
   or never asked (a tie-break it never had), the bot answers that and the recorded action
   waits; otherwise the changed game will never ask for it and it is *dropped*.
4. Once the record runs out, the bot plays on until the game is over (or ``MAX_STEPS``).

Chance is the engine's: every engine draws from random streams seeded by the record's seed
(and pinned chance in its config), so the changed game meets the same draws in the same order
as long as it makes them, and a draw the real game never made is the next one of the same
seeded stream. The bot's own choices use ``random.Random(f"{seed}:whatif")``.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.core import Action, Decision, Engine, InvalidAction
from games.i18n import _
from games.registry import get_engine

MAX_STEPS = 20_000  # bot actions after which a what-if line is cut off (never reached in play)

KEPT, BOT, CHANGED, DROPPED = "kept", "bot", "changed", "dropped"


@dataclass(frozen=True)
class Alternative:
    """One thing the rules allowed instead: its label (a msgid with params) and the actions
    that replace the decision's span of the record."""

    key: str
    label: str
    params: Mapping[str, Any]
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Choice:
    """A public decision of the record that may be changed: actions ``start`` to ``end``
    (exclusive) of the prepared record, what was decided (``played``) and the alternatives."""

    index: int
    start: int
    end: int
    label: str
    params: Mapping[str, Any]
    played: str
    alternatives: tuple[Alternative, ...]
    played_params: Mapping[str, Any] = field(default_factory=dict)  # what was played, named

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "label": self.label, "params": dict(self.params),
                "played": self.played, "played_params": dict(self.played_params),
                "alternatives": [{"key": a.key, "label": a.label, "params": dict(a.params)}
                                 for a in self.alternatives]}


class Module(Protocol):
    """What a game tells the what-if core (``games/<game>/whatif.py``)."""

    GAME_ID: str
    TRACKS: tuple[str, ...]

    def prepare(self, record: Mapping[str, Any]) -> list[Action]: ...

    def choices(self, engine: Engine, state: Any, actions: Sequence[Action], index: int
                ) -> list[Choice]: ...

    def bot(self, state: Any, decision: Decision, rng: random.Random) -> list[Action]: ...

    def step(self, state: Any) -> Any: ...

    def point(self, state: Any) -> dict[str, int]: ...

    def measure(self, state: Any) -> dict[str, Any]: ...

    def impact(self, real: Mapping[str, Any], alt: Mapping[str, Any]) -> tuple[float, ...]: ...

    def outcome_differences(self, real: Mapping[str, Any], alt: Mapping[str, Any]
                            ) -> list[dict[str, Any]]: ...


def get_module(game_id: str) -> Module:
    """The what-if module of ``game_id``."""
    modules: dict[str, Module] = {}
    for package in ("state_in_class", "austerity", "crisis", "poleconomy"):
        try:
            module = importlib.import_module(f"games.{package}.whatif")
        except ImportError:
            continue
        modules[module.GAME_ID] = module  # type: ignore[assignment]
    try:
        return modules[game_id]
    except KeyError:
        raise InvalidAction(_("There is no what-if for the game {game}."), game=game_id) from None


# --------------------------------------------------------------------------- the real game


@dataclass
class Table:
    """A record read once: its engine, module, prepared actions, the decision id each action
    answered, and the public decisions that may be changed."""

    record: Mapping[str, Any]
    engine: Engine
    module: Module
    actions: list[Action]
    answered: list[str]
    order: dict[str, int]
    choices: list[Choice] = field(default_factory=list)
    snapshots: dict[int, Any] = field(default_factory=dict)  # state before each choice

    def choice(self, index: int) -> Choice:
        for c in self.choices:
            if c.index == index:
                return c
        raise InvalidAction(_("Decision {index} of this game cannot be changed."), index=index)


def _answered(decisions: list[Decision], action: Action) -> str:
    for d in decisions:
        if d.action == action.get("type"):
            return d.id
    return decisions[0].id if decisions else ""


class NotReplayable(InvalidAction):
    """The record does not replay through its game's prepared path: what the path leaves out
    (a secret it rebuilds from public figures, such as a pact's split from its total) changed
    the game's course, so there is no what-if for it."""


def read(record: Mapping[str, Any], *, snapshots: bool = False) -> Table:
    """The record replayed once through the prepared path, with every changeable decision;
    ``NotReplayable`` if the prepared path refuses one of the record's actions."""
    engine = get_engine(record["game"])
    module = get_module(record["game"])
    actions = module.prepare(record)
    state = engine.new_game(record["config"], record["seed"])
    answered: list[str] = []
    order: dict[str, int] = {}
    table = Table(record, engine, module, actions, answered, order)
    i = 0
    while i < len(actions):
        decisions = engine.decisions(state)
        found = module.choices(engine, state, actions, i)
        for c in found:
            table.choices.append(c)
            if snapshots:
                table.snapshots[c.start] = copy.deepcopy(state)
        rid = _answered(decisions, actions[i])
        answered.append(rid)
        order.setdefault(rid, i)
        try:
            state, _events = engine.replay_actions(state, [actions[i]])
        except InvalidAction as refused:
            raise NotReplayable(_("This table's game cannot be replayed from its public "
                                  "decisions alone, so it has no what-if.")) from refused
        i += 1
    return table


# --------------------------------------------------------------------------- a line


@dataclass
class Line:
    """One line of the game: per-step points of the main tracks, the final measure and how
    each decision after the change was taken."""

    steps: list[Any]
    points: list[dict[str, int]]
    measure: dict[str, Any]
    taken: list[dict[str, Any]]
    state: Any = None  # the final state (never in ``to_dict``)

    def to_dict(self) -> dict[str, Any]:
        return {"steps": list(self.steps), "series": list(self.points),
                "measure": dict(self.measure), "taken": list(self.taken)}


class _Recorder:
    def __init__(self, module: Module, track: bool) -> None:
        self.module = module
        self.track = track and getattr(module, "series", None) is None
        self.steps: list[Any] = []
        self.points: list[dict[str, int]] = []

    def see(self, state: Any) -> None:
        if not self.track:
            return
        step = self.module.step(state)
        point = self.module.point(state)
        if self.steps and self.steps[-1] == step:
            self.points[-1] = point
        else:
            self.steps.append(step)
            self.points.append(point)


def _line(table: Table, start: int, end: int, replacement: Sequence[Action], *,
          track: bool = True) -> Line:
    engine, module, actions = table.engine, table.module, table.actions
    rec = _Recorder(module, track)
    if not track and start in table.snapshots:
        state = copy.deepcopy(table.snapshots[start])
    else:
        state = engine.new_game(table.record["config"], table.record["seed"])
        rec.see(state)
        for action in actions[:start]:
            state, _e = engine.replay_actions(state, [action])
            rec.see(state)
    taken: list[dict[str, Any]] = []
    for action in replacement:
        state, _e = engine.replay_actions(state, [action])
        rec.see(state)
        taken.append({"index": start, "how": CHANGED, "type": action.get("type")})
    rng = random.Random(f"{table.record['seed']}:whatif")

    def bot(decision: Decision) -> None:
        nonlocal state
        for act in module.bot(state, decision, rng):
            at = module.step(state)  # the round or year the bot decided in
            state, _e = engine.replay_actions(state, [act])
            rec.see(state)
            taken.append({"index": None, "how": BOT, "decision": decision.id,
                          "type": act.get("type"), "step": at})

    j = end
    steps = 0
    while not engine.is_over(state) and steps < MAX_STEPS:
        steps += 1
        if j < len(actions):
            try:  # still legal at its turn: the class's decision is kept
                state, _e = engine.replay_actions(state, [actions[j]])
            except InvalidAction:
                pass
            else:
                rec.see(state)
                taken.append({"index": j, "how": KEPT, "type": actions[j].get("type")})
                j += 1
                continue
        decisions = engine.decisions(state)
        if not decisions:
            break
        if j >= len(actions):
            bot(decisions[0])
            continue
        rid = table.answered[j]
        open_ids = {d.id: d for d in decisions}
        if rid in open_ids:  # its decision is open but the answer is no longer allowed
            taken.append({"index": j, "how": DROPPED, "type": actions[j].get("type")})
            bot(open_ids[rid])
            j += 1
            continue
        mine = table.order.get(rid, j)
        earlier = [d for d in decisions if table.order.get(d.id, -1) < mine]
        if earlier:  # the changed game asks first for a decision the record lacks here
            bot(earlier[0])
            continue
        taken.append({"index": j, "how": DROPPED, "type": actions[j].get("type")})
        j += 1
    steps_, points = rec.steps, rec.points
    series = getattr(module, "series", None)
    if track and series is not None:  # the module reads its own per-step record of the game
        steps_, points = series(state)
    return Line(steps_, points, module.measure(state), taken, state)


# --------------------------------------------------------------------------- what-if


def _differences(module: Module, real: Line, alt: Line) -> list[dict[str, Any]]:
    diffs = module.outcome_differences(real.measure, alt.measure)
    for track in module.TRACKS:
        first = None
        for n, (a, b) in enumerate(zip(real.points, alt.points, strict=False)):
            if a.get(track) != b.get(track):
                first = n
                break
        end_real = real.points[-1].get(track) if real.points else None
        end_alt = alt.points[-1].get(track) if alt.points else None
        if end_real != end_alt:
            diffs.append({"msgid": _("{track} would have ended at {alt} instead of {real}."),
                          "params": {"track": track, "alt": end_alt, "real": end_real}})
        elif first is not None:
            diffs.append({"msgid": _("{track} would have gone another way from {step} on, "
                                     "and ended the same."),
                          "params": {"track": track, "step": alt.steps[first]}})
    return diffs


def what_if(record: Mapping[str, Any], index: int, alternative: str) -> dict[str, Any]:
    """The game as played and as it would have gone with decision ``index`` (a ``Choice``'s
    index) answered by ``alternative`` (one of its alternatives' keys).

    Returns ``{"choice", "alternative", "as_played", "what_if", "bot", "differences"}``:
    both lines as per-step series of the game's main tracks, the decisions the bot took in the
    what-if line, and the differences that matter as ``{msgid, params}``."""
    table = read(record)
    choice = table.choice(index)
    real = _line(table, choice.start, choice.end, _played(table, choice).actions)
    changed = replay_changed(record, index, alternative, table=table)
    alt = _alternative(table, choice, alternative)
    return {"choice": choice.to_dict(), "alternative": alt.key,
            "tracks": list(table.module.TRACKS),
            "as_played": real.to_dict(), "what_if": changed.to_dict(),
            "bot": [t for t in changed.taken if t["how"] == BOT],
            "differences": _differences(table.module, real, changed)}


def _played(table: Table, choice: Choice) -> Alternative:
    return Alternative(choice.played, "", {}, tuple(table.actions[choice.start:choice.end]))


def _alternative(table: Table, choice: Choice, key: str) -> Alternative:
    if key == choice.played:
        return _played(table, choice)
    alt = next((a for a in choice.alternatives if a.key == key), None)
    if alt is None:
        raise InvalidAction(_("{alternative} was not allowed at that moment."), alternative=key)
    return alt


def replay_changed(record: Mapping[str, Any], index: int, key: str, *,
                   table: Table | None = None) -> Line:
    """The line with decision ``index`` answered by ``key`` (an alternative's key, or what
    was played: the same path, which then reproduces the game)."""
    table = table or read(record)
    choice = table.choice(index)
    return _line(table, choice.start, choice.end, _alternative(table, choice, key).actions)


def as_played(record: Mapping[str, Any]) -> Line:
    """The as-played line through the what-if path (no decision changed)."""
    table = read(record)
    return _line(table, len(table.actions), len(table.actions), ())


def turning_points(record: Mapping[str, Any], count: int = 3) -> list[dict[str, Any]]:
    """The ``count`` decisions whose best alternative changes the module's measure most:
    every legal alternative at every changeable decision is tried."""
    table = read(record, snapshots=True)
    real = _line(table, len(table.actions), len(table.actions), (), track=False)
    found: list[tuple[tuple[float, ...], int, dict[str, Any]]] = []
    for choice in table.choices:
        best: tuple[tuple[float, ...], Alternative, Line] | None = None
        for alt in choice.alternatives:
            try:
                line = _line(table, choice.start, choice.end, alt.actions, track=False)
            except InvalidAction:
                continue
            impact = table.module.impact(real.measure, line.measure)
            if best is None or impact > best[0]:
                best = (impact, alt, line)
        if best is None or not any(best[0]):
            continue
        impact, alt, line = best
        found.append((impact, -choice.index, {
            "choice": choice.to_dict(), "alternative": alt.key,
            "alternative_label": alt.label, "alternative_params": dict(alt.params),
            "impact": list(impact), "measure": line.measure, "real_measure": real.measure,
            "differences": table.module.outcome_differences(real.measure, line.measure)}))
    found.sort(key=lambda f: (f[0], f[1]), reverse=True)
    return [f[2] for f in found[:count]]

