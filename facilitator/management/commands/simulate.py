"""``manage.py simulate``: bot self-play statistics (balance checks) for any game.

Every game takes the same options: ``--game`` (default ``state-in-class``), ``--games``,
``--seed``, ``--policy`` (its bots' ``POLICIES``; repeat it, or ``all``), ``--targets`` and
``--json``. A game may add options of its own in ``games/<game>/simulate_cli.py``
(``games.simulation.SimOption``); an option of another game is refused by name. The
simulation itself is the game's pure ``simulate`` module; this command parses the
arguments and prints what the game reports (docs/modules.md, "Simulating a game").

Examples::

    python manage.py simulate --games 2000 --players 8 --seed 1 --targets --roles
    python manage.py simulate --game <id> --games 500 --seed 1 --targets
    python manage.py simulate --game <id> --policy <policy> --json

Each game's page in docs/engines/ (and docs/balance.md) gives the runs behind its figures.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core import InvalidConfig
from games.registry import ENGINES, get_engine
from games.simulation import SimOption

ALL = "all"
DEFAULT_GAME = "state-in-class"


def _package(game: str) -> str:
    try:
        return getattr(get_engine(game), "__name__", "")
    except InvalidConfig as exc:
        raise CommandError(str(exc)) from None


def _module(package: str, name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{name}":
            raise
        return None


def _own_options(game: str) -> tuple[SimOption, ...]:
    cli = _module(_package(game), "simulate_cli")
    return tuple(getattr(cli, "OPTIONS", ())) if cli else ()


class Command(BaseCommand):
    help = ("Play many seeded games of one game with bot players and print its balance "
            "statistics per policy (docs/balance.md, docs/engines/).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default=DEFAULT_GAME,
                            help=f"the game's id, as in a game record (default {DEFAULT_GAME}; "
                                 f"known: {', '.join(sorted(ENGINES))})")
        parser.add_argument("--games", type=int, default=1000,
                            help="games per policy (default 1000)")
        parser.add_argument("--policy", action="append", metavar="P",
                            help=f"a bot policy of the game, or '{ALL}'; repeat it for several "
                                 f"(default {ALL})")
        parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
        parser.add_argument("--targets", action="store_true",
                            help="also check the game's balance targets")
        parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
        # Every game's own options, each flag once; None means "not given", so the game's
        # own default applies and another game's option can be refused by name.
        seen: set[str] = set()
        for game in sorted(ENGINES):
            for option in _own_options(game):
                if option.flag in seen:
                    continue
                seen.add(option.flag)
                extra: dict[str, Any] = ({"action": "store_const", "const": True}
                                         if option.kind is bool else
                                         {"type": option.kind, "choices": option.choices,
                                          "metavar": option.metavar})
                parser.add_argument(option.flag, dest=f"own_{option.dest}", default=None,
                                    help=f"{game}: {option.help}", **extra)

    def handle(self, *args: Any, **options: Any) -> None:
        game, games = options["game"], options["games"]
        if games < 1:
            raise CommandError(f"--games must be 1 or more (got {games}).")
        package = _package(game)
        sim = _module(package, "simulate")
        if sim is None:
            raise CommandError(f"{game} has no simulator.")
        bots = _module(package, "bots")
        policies = _policies(options["policy"], getattr(bots, "POLICIES", {}))
        own = _chosen(game, options)
        cli = _module(package, "simulate_cli")
        try:
            if cli is not None and hasattr(cli, "run"):
                report = cli.run(games=games, seed=options["seed"], policies=policies,
                                 targets=options["targets"], **own)
                text = cli.format_report
            else:
                report = _run(sim, game, games, options["seed"], policies,
                              options["targets"], own)
                text = _format(sim)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else text(report))


def _chosen(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's own options, each given or at the game's default; another game's option
    given here is an error naming it."""
    own = {o.dest: o for o in _own_options(game)}
    flags = {o.flag for o in own.values()}
    for other in sorted(ENGINES):
        for option in _own_options(other):
            if option.flag not in flags and options.get(f"own_{option.dest}") is not None:
                raise CommandError(f"{option.flag} is an option of {other}, not of {game}.")
    chosen = {}
    for dest, option in own.items():
        given = options.get(f"own_{dest}")
        chosen[dest] = option.default if given is None else given
    return chosen


def _policies(given: Iterable[str] | None, known: Mapping[str, Any]) -> list[str]:
    chosen: list[str] = []
    for name in given or [ALL]:
        for n in (list(known) if name == ALL else [name]):
            if n not in known:
                raise CommandError(f"Unknown policy {n!r}; choose from "
                                   f"{', '.join(known)} or '{ALL}'.")
            if n not in chosen:
                chosen.append(n)
    return chosen


def _run(sim: ModuleType, game: str, games: int, seed: int, policies: list[str],
         targets: bool, config: dict[str, Any]) -> dict[str, Any]:
    """A game without a ``run`` of its own: one ``simulate`` per policy, then its targets;
    its own options are config keys, left out when not set."""
    config = {key: value for key, value in config.items() if value is not None}
    report: dict[str, Any] = {
        "game": game, "games": games, "seed": seed,
        "policies": [sim.simulate(games=games, seed=seed, policy=p, **config)
                     for p in policies]}
    if targets:
        report["targets"] = sim.balance_targets(games=games, seed=seed, **config)
    return report


def _format(sim: ModuleType) -> Any:
    def text(report: dict[str, Any]) -> str:
        parts = [sim.format_report(row) for row in report["policies"]]
        if "targets" in report:
            parts.append(sim.format_report(report["targets"]))
        return "\n".join(parts)
    return text
