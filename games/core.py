"""What every game engine shares: actions, events, errors and the engine protocol.

The engines import this module and nothing imports the engines here: the engines by game id,
``get_engine`` and ``replay`` (which need them) are ``games.registry``'s.

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

The lesson-module platform (docs/modules.md) also asks every engine for:

- ``decisions(state) -> list[Decision]``: what the game is waiting for right now, each with an
  id, who decides, how (a choice, a secret ballot, a structured form the engine validates), its
  options, optional weights and the default applied if it closes unanswered. A game that is
  waiting for nothing returns ``[]`` (it is over, or it moves on by itself).
- ``view(state, audience) -> dict``: what one audience may see: ``"public"`` (the projector and
  everyone), ``"master"`` (the game master's console: everything the rules let a game master see,
  never a secret ballot), or a player's name (that player: a seat, or a team/party the platform
  seats several students in). Secrecy is enforced here, once.
- ``balances(state) -> dict[str, int]``: every ledger account the engine keeps (``"bank"``,
  ``"player:<name>"``, ...) with its balance; the facilitator's ledger must always agree, and
  every change is a ``transfer`` event ``{from, to, amount, reason}``.

Secret ballots are the same two decisions in every game, as with a closed bag:
``{"type": "ballot", "decision": ID, "player": NAME}`` (a receipt: who put a token in, never
what) and, when the bag is emptied, ``{"type": "count", "decision": ID, "tally": {OPTION: N}}``
(it must sum to the receipts) or, for a ballot whose full tally could reveal who voted what
(fewer than 3 ballots in the bag, or a weighted ballot), ``{"type": "count", "decision": ID,
"outcome": OUTCOME}``: only the outcome is ever stored or published. Every engine computes that
outcome itself:

- ``ballot_outcome(state, decision_id, tally) -> outcome``: the JSON-ready ``outcome`` its
  ``count {decision, outcome}`` accepts for the open ballot ``decision_id``, computed from the
  tally of the sealed ballots (for a weighted ballot each number is already a sum of weights:
  the platform seals every ballot with its voter's weight). It validates the decision and the
  tally like a count would and raises ``InvalidAction`` otherwise (an engine without a secret
  ballot always raises). The platform calls it with the opened ballots, stores the outcome
  and forgets the tally. ``plurality`` is the ranking most engines need.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.i18n import _

Action = dict[str, Any]
Event = dict[str, Any]
PUBLIC = "public"


class Word(str):
    """A value in an ``InvalidAction``'s params that is a text marked for translation
    (``Word(_("tax vote"))``): shown in the reader's language, where a plain string (a
    player's name, a value someone typed) is shown as it is."""

    __slots__ = ()


class InvalidAction(Exception):
    """An action the rules do not allow. ``reason`` is a readable English sentence."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason.format(**params) if params else reason)
        self.reason = reason
        self.params = params


class InvalidConfig(InvalidAction):
    """A game configuration the engine cannot set up."""


# Who decides a decision.
SEAT = "seat"  # one player (a student, or a party of students on one phone)
TEAM = "team"  # one player who is a team: a captain answers, teammates may suggest
VOTERS = "voters"  # every listed voter, by secret ballot
MASTER = "master"  # the teacher / game master

# How a decision is answered.
CHOICE = "choice"  # one of ``options``, in the open
BALLOT = "ballot"  # a secret ballot over ``options`` (receipts + a count, see above)
FORM = "form"  # a structured answer the engine validates (production, orders, bids)

MASTER_AUDIENCE = "master"


@dataclass(frozen=True)
class Decision:
    """One thing the game is waiting for.

    ``id`` is stable while the decision is open and unique within a game (e.g. ``"y3.budget"``);
    ``action`` is the action type that answers it; ``deciders`` the players who must answer (all
    of them for ``VOTERS``; one for ``SEAT``/``TEAM``; empty for ``MASTER``). ``weights`` (per
    decider) make a ballot weighted; ``default`` is the action applied for a decider who has not
    answered when the decision closes (``None``: it cannot close unanswered). ``prompt`` is a
    msgid (``games.i18n._``) with ``params`` for its placeholders.
    """

    id: str
    kind: str
    who: str
    mode: str
    action: str
    deciders: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    weights: Mapping[str, int] | None = None
    default: Action | None = None
    prompt: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "who": self.who, "mode": self.mode,
                "action": self.action, "deciders": list(self.deciders),
                "options": list(self.options),
                "weights": dict(self.weights) if self.weights is not None else None,
                "default": self.default, "prompt": self.prompt, "params": dict(self.params)}


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

    def decisions(self, state: Any) -> list[Decision]: ...

    def view(self, state: Any, audience: str) -> dict[str, Any]: ...

    def balances(self, state: Any) -> dict[str, int]: ...

    def ballot_outcome(self, state: Any, decision_id: str, tally: Mapping[str, int]) -> Any: ...


def check_tally(tally: Any, options: Iterable[str]) -> dict[str, int]:
    """``tally`` as ``{option: votes}`` over every one of ``options`` (in their order; a missing
    option has 0 votes). Raises ``InvalidAction`` unless it is an object whose keys are options
    and whose values are whole numbers of 0 or more."""
    order = list(options)
    if not isinstance(tally, Mapping):
        raise InvalidAction(_("A tally maps each option to its number of votes."))
    for option, votes in tally.items():
        if option not in order:
            raise InvalidAction(_("{option!r} is not an option of this ballot."), option=option)
        if not isinstance(votes, int) or isinstance(votes, bool) or votes < 0:
            raise InvalidAction(_("The votes for {option} must be a whole number of 0 or more."),
                                option=option)
    return {o: int(tally.get(o, 0)) for o in order}


def plurality(tally: Mapping[str, int], options: Iterable[str]) -> list[list[str]]:
    """The ranking of a tally: groups of options with equal votes, most votes first, each
    group in the order of ``options``; options with no votes are left out (``[]``: nobody
    voted). The tally is checked as by ``check_tally``."""
    counted = check_tally(tally, options)
    groups: list[list[str]] = []
    for votes in sorted({v for v in counted.values() if v > 0}, reverse=True):
        groups.append([o for o, v in counted.items() if v == votes])
    return groups


def no_secret_ballot(game: str, decision_id: Any) -> InvalidAction:
    """The error of ``ballot_outcome`` in an engine that has no secret ballot."""
    return InvalidAction(_("{game} has no secret ballot: {decision!r} is not one."),
                         game=game, decision=decision_id)


def check_config(config: Any, seed: Any, known: set[str] | frozenset[str]) -> None:
    """What every engine checks first: the config is an object with only ``known`` keys, and
    the seed a whole number."""
    if not isinstance(config, Mapping):
        raise InvalidConfig(_("The game config must be an object."))
    unknown = sorted(set(config) - set(known))
    if unknown:
        raise InvalidConfig(_("Unknown config keys: {keys}."), keys=", ".join(unknown))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidConfig(_("The seed must be a whole number."))


def player_names(config: Mapping[str, Any]) -> list[str]:
    """``config["players"]``: a list of distinct, non-empty names."""
    names = config.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise InvalidConfig(_("'players' must be a list of non-empty names."))
    if len(set(names)) != len(names):
        raise InvalidConfig(_("Player names must be different."))
    return names


class ReplayError(Exception):
    """A game record that cannot be replayed; ``index`` is the first bad action (or None)."""

    def __init__(self, reason: str, index: int | None = None) -> None:
        where = f"action {index}: " if index is not None else ""
        super().__init__(where + reason)
        self.reason = reason
        self.index = index
