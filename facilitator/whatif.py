"""A lesson module's side of "What if we had…?" (docs/what-if.md): the engine's what-if core
it hands the platform, and the words that are its own (a module reaches it as
``kit.whatif``).

The platform's debrief pages (``facilitator.reports.whatif``) read a finished table's record,
ask the core for its changeable decisions, one what-if or its turning points, and draw and
word them through the module's :class:`WhatIf` (``Lesson.whatif()``). The core is the
engines' ``games.whatif`` (a module passes it in: the platform imports no game); a module
overrides only the words its game has (the names of a decision's options, of its tracks, the
discussion question of a turning point). Every method returns text in the active language.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import gettext, pgettext

from games.core import Word

if TYPE_CHECKING:
    from facilitator.models import Table


class Core(Protocol):
    """What the platform asks of the engines' what-if core (``games.whatif``);
    ``NotReplayable``: what ``read`` raises for a record that does not replay through its
    game's prepared path (the page then says the table has no what-if)."""

    NotReplayable: type[Exception]

    def read(self, record: Mapping[str, Any]) -> Any: ...

    def what_if(self, record: Mapping[str, Any], index: int, alternative: str
                ) -> dict[str, Any]: ...

    def turning_points(self, record: Mapping[str, Any], count: int = 3
                       ) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class Chart:
    """One chart of the what-if page: a track drawn as played and as it would have gone, on
    one scale (``lo``/``hi``: the track's whole range where the game has one; None: the
    values' own)."""

    track: str
    title: str
    lo: int | None = None
    hi: int | None = None


def words(msgid: str, params: Mapping[str, Any]) -> str:
    """An engine text (a msgid marked in ``games/``, with ``{name}`` placeholders) in the
    active language; a value given as a ``Word`` is translated too, any other shown as given."""
    values = {k: gettext(v) if isinstance(v, Word) else v for k, v in params.items()}
    try:
        return gettext(msgid).format(**values)
    except (KeyError, IndexError, ValueError):
        return gettext(msgid)


class WhatIf:
    """The defaults say what the engine says; a module overrides what its game names."""

    MAX_CHARTS = 8  # what fits the projector (two rows of four)
    NAMED = ("team", "player")  # params that hold an engine player's name

    def __init__(self, core: Core) -> None:
        self.core = core
        self.shown: dict[str, str] = {}

    def at(self, table: Table) -> WhatIf:
        """This side for one table: its players named as the lesson names them."""
        bound = copy.copy(self)
        bound.shown = self.names(table)
        return bound

    def names(self, table: Table) -> dict[str, str]:
        """How the lesson names each engine player of ``table`` where that is not the
        engine's own name (e.g. a team's label); the default: as the engine names them."""
        return {}

    def name(self, player: str) -> str:
        return self.shown.get(player, player)

    def _named(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {k: self.name(v) if k in self.NAMED and isinstance(v, str) else v
                for k, v in params.items()}

    # ------------------------------------------------------------------ the engine

    def choices(self, record: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The record's public decisions that had an alternative, as dicts (``index``,
        ``label``, ``params``, ``played``, ``played_params``, ``alternatives``)."""
        return [c.to_dict() for c in self.core.read(record).choices if c.alternatives]

    def what_if(self, record: Mapping[str, Any], index: int, key: str) -> dict[str, Any]:
        return self.core.what_if(record, index, key)

    def turning_points(self, record: Mapping[str, Any]) -> list[dict[str, Any]]:
        return self.core.turning_points(record)

    # ------------------------------------------------------------------ words

    def decision(self, choice: Mapping[str, Any]) -> str:
        """The decision in a few words (the engine's label, in the active language)."""
        return words(choice["label"], self._named(choice["params"]))

    def option(self, choice: Mapping[str, Any], key: str) -> str:
        """What ``key`` (what was played, or an alternative) means at this decision."""
        for alt in choice["alternatives"]:
            if alt["key"] == key:
                return words(alt["label"], alt["params"])
        return key

    def step(self, choice: Mapping[str, Any]) -> int | None:
        """The round or year the decision was taken in (None: before the first)."""
        params = choice["params"]
        found = params.get("round", params.get("year"))
        return found if isinstance(found, int) else None

    def step_name(self) -> str:
        """The charts' axis: what one step of the game is."""
        return gettext("Round")

    def at_step(self, step: int) -> str:
        """"round 3": a step on its own (a list, a legend)."""
        return gettext("round %(n)d") % {"n": step}

    def in_sentence(self, step: int) -> str:
        """"round 3" inside a sentence ("from round 3 on"; a language may need an article)."""
        return pgettext("a step inside a sentence", "round %(n)d") % {"n": step}

    def track(self, key: str) -> str:
        """A track's name, as the game calls it (the default: the engine's key)."""
        return key

    def charts(self, keys: Sequence[str]) -> list[Chart]:
        """The charts to draw, from the lines' track keys in the engine's order."""
        return [Chart(k, self.track(k)) for k in keys[:self.MAX_CHARTS]]

    def sentence(self, difference: Mapping[str, Any]) -> str:
        """One difference that matters, in words (a ``track`` param is the track's key)."""
        params = self._named(difference["params"])
        if "track" in params:
            params["track"] = self.track(str(params["track"]))
        if "step" in params and isinstance(params["step"], int):
            params["step"] = self.in_sentence(params["step"])
        text = words(difference["msgid"], params)
        return text[:1].upper() + text[1:]

    def bot_decision(self, taken: Mapping[str, Any]) -> str:
        """A decision the bot took in the changed game, in a few words ("" unnamed)."""
        return ""

    def measure(self) -> str:
        """How a turning point's size is measured, in one sentence."""
        return ""

    def question(self, point: Mapping[str, Any]) -> str:
        """The discussion question of a turning point (``point``: the core's, with
        ``choice``, ``alternative``, ``measure`` and ``real_measure``)."""
        return gettext("Why did your table decide as it did then, and what would have "
                       "had to change for it to decide otherwise?")
