"""The engines this project knows, by game id (the ``"game"`` of a game record): ``ENGINES``,
``get_engine`` and ``replay`` (a game rebuilt from its record). ``games.core`` is the protocol
the engines import; this module imports the engines, so it is the one that can name them.

An engine is found, not listed: every package directly under ``games/`` that declares a
``GAME_ID`` is one (``discovered``), so adding a game's engine is adding its folder. Found in
the order of the packages' names, so ``ENGINES`` is the same in every process."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import games
from games.core import Engine, Event, InvalidAction, InvalidConfig, ReplayError
from games.i18n import _


def discovered(package: Any = games) -> dict[str, Engine]:
    """Every engine of ``package``: its subpackages that declare a ``GAME_ID``, by that id.
    Two packages declaring one id is a mistake this refuses to guess about."""
    found: dict[str, Engine] = {}
    for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        engine = importlib.import_module(f"{package.__name__}.{module.name}")
        game_id = getattr(engine, "GAME_ID", None)
        if game_id is None:
            continue
        if game_id in found:
            raise RuntimeError(f"two engines declare the game id {game_id!r}: "
                               f"{getattr(found[game_id], '__name__', '?')} and {engine.__name__}")
        found[game_id] = cast("Engine", engine)
    return found


ENGINES: dict[str, Engine] = discovered()


def get_engine(game_id: str) -> Engine:
    """The engine registered for ``game_id`` (e.g. ``"state-in-class"``)."""
    try:
        return ENGINES[game_id]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise InvalidConfig(
            _("Unknown game {game!r}; known games: {known}."), game=game_id, known=known
        ) from None


@dataclass
class Replayed:
    engine: Engine
    state: Any
    events: list[Event] = field(default_factory=list)


# ``acted``: who acted, and how, beside each action (docs/record.md); replay never reads it,
# so a record with or without it replays the same game.
RECORD_KEYS = {"game", "version", "seed", "config", "actions", "acted"}


def replay(record: Mapping[str, Any]) -> Replayed:
    """Rebuild a game from its record (docs/record.md): config + seed + ordered decisions."""
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
