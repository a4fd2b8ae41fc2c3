"""Bot players: policies that make a seat's decisions (pact, votes, tie-breaks).

A policy answers three questions, each time it is asked:

- ``pact(state, me, rng) -> int``: how many of its 3 coins it puts in the pact bag (0–3).
  The pact is made before the roles are dealt, so no policy can look at its role here.
- ``vote(state, me, kind, rng) -> str``: the token it puts in the bag (``kind`` is ``"tax"`` or
  ``"budget"``).
- ``tie_break(state, me, kind, options, rng) -> str | None``: its choice when it must settle a
  tie; ``None`` passes (only allowed in a tax tie).

Honesty rules every policy keeps (tested in
``tests/games/state_in_class/test_state_in_class_bots_and_simulator.py``):

- A bot reads only what its seat may know: the public state and its own player. No policy
  looks at another player's coins (or at its own: the bots are simple voters, not savers).
- A vote is decided when asked and never stored: a policy object holds no state, so nothing
  links a seat to the token it put in the bag (the engine only ever receives the tally).
- Tax tie-break: a bot takes part only for an option it prefers (its own vote, or one that
  is exactly as good for it); if none of the tied options is one, it passes.
- Budget tie-break (the lowest Income must decide): the tied service it ranks highest.

Each call gets a ``random.Random`` from the caller, so bots are as reproducible as the engine.

Pact behaviour, policy by policy (it sets the starting Tension, see the rulebook's table):

=================  ====================  =================================================
policy             pact coins            tax / budget
=================  ====================  =================================================
``random``         0–3, uniformly        any option / any service, uniformly
``always-A`` … D   1 (as in the roles    always that option / the weakest service
                   proposal's hand sim)
``class-selfish``  0                     cheapest for its class / its class's service
``civic``          2 or 3 (generous)     C (progressive) / the weakest service
=================  ====================  =================================================

The tax policies all give one coin so that they differ only in the tax: every table of them
starts at Tension 4 (fewer than 13/11/10 coins at 8/7/6 players). The pact itself is studied
by the pact-dilemma experiment (``simulate.pact_dilemma``), which mixes contributions, and
``FixedPact`` wraps any policy with another contribution.

"The weakest service" is the lowest level, then the emptiest fund; seats rotate between
equally weak services, so a table of these bots spreads its budget votes.
"""

from __future__ import annotations

import random
from typing import ClassVar

from games.state_in_class import data
from games.state_in_class.rules import tax_due
from games.state_in_class.state import GameState, Player


class Policy:
    """Base policy: a cautious pact (1–2 coins) and budget votes spread over the services.

    Subclasses say how they vote on tax (``tax``) and may rank the services differently
    (``budget_ranking``); ``vote`` and ``tie_break`` follow from those two.
    """

    name: ClassVar[str] = "base"
    label: ClassVar[str] = ""

    def pact(self, state: GameState, me: Player, rng: random.Random) -> int:
        return 1 + rng.randrange(2)

    def tax(self, state: GameState, me: Player, rng: random.Random) -> str:
        raise NotImplementedError

    def tax_acceptable(self, state: GameState, me: Player, rng: random.Random) -> list[str]:
        """The options this bot likes as much as its own vote (its vote first)."""
        return [self.tax(state, me, rng)]

    def budget_ranking(self, state: GameState, me: Player, rng: random.Random) -> list[str]:
        """The three services, the one this bot wants funded first at the front."""
        return spread_ranking(state, me)

    def budget(self, state: GameState, me: Player, rng: random.Random) -> str:
        return self.budget_ranking(state, me, rng)[0]

    def vote(self, state: GameState, me: Player, kind: str, rng: random.Random) -> str:
        return self.tax(state, me, rng) if kind == "tax" else self.budget(state, me, rng)

    def tie_break(self, state: GameState, me: Player, kind: str, options: list[str],
                  rng: random.Random) -> str | None:
        if kind == "tax":
            return next((o for o in self.tax_acceptable(state, me, rng) if o in options), None)
        ranking = self.budget_ranking(state, me, rng)
        return min(options, key=ranking.index)


def spread_ranking(state: GameState, me: Player) -> list[str]:
    """Weakest service first (lowest level, then least in its fund); seats rotate on ties."""
    return sorted(
        data.SERVICES,
        key=lambda s: (state.services[s].level, state.services[s].fund,
                       (data.SERVICES.index(s) - me.seat - state.round) % 3),
    )


def spread_budget(state: GameState, me: Player) -> str:
    """The weakest service (see ``spread_ranking``)."""
    return spread_ranking(state, me)[0]


class RandomPolicy(Policy):
    """Noise: every decision uniformly at random (a preference drawn afresh each time)."""

    name = "random"

    def pact(self, state: GameState, me: Player, rng: random.Random) -> int:
        return rng.randrange(data.MAX_PACT + 1)

    def tax(self, state: GameState, me: Player, rng: random.Random) -> str:
        return rng.choice(data.TAX_OPTIONS)

    def budget_ranking(self, state: GameState, me: Player, rng: random.Random) -> list[str]:
        return rng.sample(data.SERVICES, len(data.SERVICES))


class AlwaysPolicy(Policy):
    """Always the same tax option; budget votes spread over the weakest service; pact 1 coin."""

    option: ClassVar[str] = "A"

    def pact(self, state: GameState, me: Player, rng: random.Random) -> int:
        return 1

    def tax(self, state: GameState, me: Player, rng: random.Random) -> str:
        return self.option


class ClassSelfishPolicy(Policy):
    """Keeps its pact coins, pays as little tax as possible and funds its own class's service.

    Tax: the option that costs its class least (equally cheap options are equally good, so in
    a tie-break it takes any of them; it votes for the first in A–D order). Budget: Health for
    the upper class (cheaper living), Education for the middle class (more income), the Social
    Shield for the working class (no cost of living); then the weakest of the other two.
    """

    name = "class-selfish"
    OWN_SERVICE: ClassVar[dict[str, str]] = {
        data.UPPER: data.HEALTH, data.MIDDLE: data.EDUCATION, data.WORKING: data.SHIELD,
    }

    def pact(self, state: GameState, me: Player, rng: random.Random) -> int:
        return 0

    def tax_acceptable(self, state: GameState, me: Player, rng: random.Random) -> list[str]:
        klass = me.klass or data.MIDDLE
        cheapest = min(tax_due(o, klass) for o in data.TAX_OPTIONS)
        return [o for o in data.TAX_OPTIONS if tax_due(o, klass) == cheapest]

    def tax(self, state: GameState, me: Player, rng: random.Random) -> str:
        return self.tax_acceptable(state, me, rng)[0]

    def budget_ranking(self, state: GameState, me: Player, rng: random.Random) -> list[str]:
        own = self.OWN_SERVICE[me.klass or data.MIDDLE]
        return [own, *(s for s in spread_ranking(state, me) if s != own)]


class CivicPolicy(Policy):
    """Gives generously to the pact (2–3 coins), votes progressive tax, spreads the budget."""

    name = "civic"

    def pact(self, state: GameState, me: Player, rng: random.Random) -> int:
        return 2 + rng.randrange(2)

    def tax(self, state: GameState, me: Player, rng: random.Random) -> str:
        return "C"


class FixedPact(Policy):
    """Another policy with a fixed pact contribution (the pact-dilemma experiment).

    Not a policy of its own (not in ``POLICIES``): it wraps one and only changes the pact.
    """

    def __init__(self, inner: Policy, coins: int) -> None:
        if not 0 <= coins <= data.MAX_PACT:
            raise ValueError(f"a pact contribution is 0 to {data.MAX_PACT} coins, not {coins}")
        self.inner = inner
        self.coins = coins

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"{self.inner.name} (pact {self.coins})"

    def pact(self, state: GameState, me: Player, rng: random.Random) -> int:
        return self.coins

    def vote(self, state: GameState, me: Player, kind: str, rng: random.Random) -> str:
        return self.inner.vote(state, me, kind, rng)

    def tie_break(self, state: GameState, me: Player, kind: str, options: list[str],
                  rng: random.Random) -> str | None:
        return self.inner.tie_break(state, me, kind, options, rng)


def _always(option: str) -> type[AlwaysPolicy]:
    return type(f"Always{option}Policy", (AlwaysPolicy,),
                {"name": f"always-{option}", "option": option,
                 "__doc__": f"Always votes tax {option}; budget votes spread over the weakest "
                            "service; pact 1 coin."})


POLICIES: dict[str, type[Policy]] = {
    p.name: p
    for p in (RandomPolicy, *(_always(o) for o in data.TAX_OPTIONS), ClassSelfishPolicy,
              CivicPolicy)
}


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(
            f"unknown bot policy {name!r}; choose from {', '.join(POLICIES)}") from None
