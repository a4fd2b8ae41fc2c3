"""What every game engine shares: actions, events, errors, the engine protocol and `replay`.

An engine is a module (or object) with these functions; its state is a function of
``(config, seed, actions)`` and nothing else (no clock, no I/O, no module-level random):

- ``new_game(config, seed) -> state``
- ``apply(state, action) -> (state, events)``: a *new* state; the old one is untouched
- ``legal_actions(state, seat) -> list[action]`` (``seat=None``: the teacher's actions)
- ``player_view(state, seat) -> dict`` / ``public_view(state) -> dict``: JSON-ready views
- ``is_over(state) -> bool`` and ``scores(state) -> dict``
- ``summary(state) -> dict``: the full state as printed by ``manage.py replay``
- ``to_dict(state)`` / ``from_dict(raw)``: a JSON snapshot of the state and back

Actions and events are plain JSON-ready dicts with a ``"type"``. Every event carries an
``"audience"``: ``"public"`` (projector, everyone) or the name of the one player who may see it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.i18n import _

Action = dict[str, Any]
Event = dict[str, Any]
PUBLIC = "public"


class InvalidAction(Exception):
    """An action the rules do not allow. ``reason`` is a readable English sentence."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason.format(**params) if params else reason)
        self.reason = reason
        self.params = params


class InvalidConfig(InvalidAction):
    """A game configuration the engine cannot set up."""


class Engine(Protocol):
    GAME_ID: str

    def new_game(self, config: Mapping[str, Any], seed: int) -> Any: ...

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...

    def legal_actions(self, state: Any, seat: str | None) -> list[Action]: ...

    def player_view(self, state: Any, seat: str) -> dict[str, Any]: ...

    def public_view(self, state: Any) -> dict[str, Any]: ...

    def is_over(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> dict[str, Any]: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    def replay_actions(self, state: Any, actions: Iterable[Action]) -> tuple[Any, list[Event]]: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, raw: dict[str, Any]) -> Any: ...


def get_engine(game_id: str) -> Engine:
    """The engine registered for ``game_id`` (e.g. ``"state-in-class"``)."""
    from games.registry import ENGINES

    try:
        return ENGINES[game_id]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise InvalidConfig(
            _("Unknown game {game!r}; known games: {known}."), game=game_id, known=known
        ) from None


class ReplayError(Exception):
    """A game record that cannot be replayed; ``index`` is the first bad action (or None)."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        where = f"action {index}: " if index is not None else ""
        super().__init__(where + reason)
        self.reason = reason
        self.index = index


@dataclass
class Replayed:
    engine: Engine
    state: Any
    events: list[Event] = field(default_factory=list)


RECORD_KEYS = {"game", "version", "seed", "config", "actions"}


def replay(record: Mapping[str, Any]) -> Replayed:
    """Rebuild a game from its record (DESIGN §3): config + seed + ordered decisions."""
    if not isinstance(record, Mapping):
        raise ReplayError("a game record must be a JSON object")
    missing = sorted({"game", "seed", "config", "actions"} - set(record))
    if missing:
        raise ReplayError("the record has no " + ", ".join(repr(k) for k in missing))
    extra = sorted(set(record) - RECORD_KEYS)
    if extra:
        raise ReplayError("unknown record keys: " + ", ".join(repr(k) for k in extra))
    if record.get("version", 1) != 1:
        raise ReplayError(f"unsupported record version {record.get('version')!r} (expected 1)")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError("'seed' must be a whole number")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise ReplayError("'actions' must be a list")
    try:
        engine = get_engine(record["game"]) if isinstance(record["game"], str) else None
        if engine is None:
            raise ReplayError("'game' must be a string such as \"state-in-class\"")
        state = engine.new_game(record["config"], seed)
    except InvalidAction as exc:
        raise ReplayError(str(exc)) from None
    events: list[Event] = []
    for index, action in enumerate(actions):
        try:
            state, new_events = engine.replay_actions(state, [action])
        except InvalidAction as exc:
            raise ReplayError(str(exc), index) from None
        events.extend(new_events)
    return Replayed(engine, state, events)
