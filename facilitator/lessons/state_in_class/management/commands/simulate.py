"""``manage.py simulate``: bot self-play statistics (balance checks) for any game.

State in Class (the default ``--game``) has its own tables; every other game's simulator
(``games/<game>/simulate.py``: ``simulate``, ``balance_targets``, ``format_report``, and its
bots' ``POLICIES``) is run by the same few options: ``--games``, ``--seed``, ``--policy``,
``--targets``, ``--json``.

Examples::

    python manage.py simulate --game austerity --games 500 --seed 1 --targets
    python manage.py simulate --game austerity --levels ours --min-years 3 --policy sensible
    python manage.py simulate --game crisis --policy sensible --json

    python manage.py simulate --games 2000 --players 8 --seed 1
    python manage.py simulate --policy always-A --policy always-C --roles
    python manage.py simulate --policy always-C --pact-dilemma
    python manage.py simulate --games 2000 --seed 1 --targets
    python manage.py simulate --policy civic --json

All the simulation lives in ``games.state_in_class.simulate`` (pure Python); this command only
parses the arguments and prints the results.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core import InvalidConfig
from games.registry import get_engine
from games.state_in_class import data
from games.state_in_class.bots import POLICIES
from games.state_in_class.simulate import balance_targets, pact_dilemma, simulate

ALL = "all"
CLASS_HEAD = "U/M/W"  # upper / middle / working
GOAL_HEAD = ("falls-short", "get-by", "live-well", "thrive")


def _by_class(values: dict[str, float]) -> str:
    return " / ".join(f"{values[k]:.1f}" if k in values else "-" for k in data.CLASSES)


class Command(BaseCommand):
    help = ("Play many seeded games of State in Class with bot players and print the balance "
            "statistics per policy (see docs/balance.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="state-in-class",
                            help="the game's id, as in a game record (default state-in-class)")
        parser.add_argument("--games", type=int, default=1000,
                            help="games per policy (default 1000)")
        parser.add_argument("--policy", action="append", metavar="P",
                            help=f"a bot policy ({', '.join(POLICIES)}) or '{ALL}'; repeat it "
                                 f"for several (default {ALL})")
        parser.add_argument("--players", type=int, default=8, help="6, 7 or 8 (default 8)")
        parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
        parser.add_argument("--pact", type=int, metavar="COINS",
                            help="make every seat give this pact (0-3) in the policy table "
                                 "instead of the policy's own")
        parser.add_argument("--pact-dilemma", action="store_true",
                            help="also run the pact-dilemma experiment (target 5) with each "
                                 "policy's votes")
        parser.add_argument("--roles", action="store_true",
                            help="also print a per-role table for each policy")
        parser.add_argument("--targets", action="store_true",
                            help="also check the five balance targets")
        parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
        parser.add_argument("--levels", choices=("ours", "classic"),
                            help="Austerity: the difficulty levels (the config's 'levels')")
        parser.add_argument("--min-years", type=int, metavar="N",
                            help="Austerity: the lesson length rule, no win before year N "
                                 "(the config's 'min_years')")

    def handle(self, *args: Any, **options: Any) -> None:
        games, players, seed, pact = (options["games"], options["players"], options["seed"],
                                      options["pact"])
        if games < 1:
            raise CommandError(f"--games must be 1 or more (got {games}).")
        if options["game"] != "state-in-class":
            self._other_game(options)
            return
        if players not in data.SETUPS:
            raise CommandError(f"--players must be 6, 7 or 8 (got {players}).")
        if pact is not None and not 0 <= pact <= data.MAX_PACT:
            raise CommandError(f"--pact must be between 0 and {data.MAX_PACT} coins (got {pact}).")
        policies = self._policies(options["policy"])

        rows = {p: simulate(p, games=games, players=players, seed=seed, pact=pact)
                for p in policies}
        dilemmas = ({p: pact_dilemma(p, games=games, players=players, seed=seed)
                     for p in policies} if options["pact_dilemma"] else {})
        targets = None
        if options["targets"]:
            reuse = rows if pact is None else {}
            targets = balance_targets(games=games, players=players, seed=seed, rows=reuse,
                                      dilemma=dilemmas.get("always-C"))

        if options["json"]:
            out: dict[str, Any] = {"players": players, "games": games, "seed": seed,
                                   "pact": pact, "policies": list(rows.values())}
            if dilemmas:
                out["pact_dilemma"] = list(dilemmas.values())
            if targets is not None:
                out["targets"] = targets
            self.stdout.write(json.dumps(out, indent=2))
            return
        self._print_table(rows, games, players, seed, pact)
        if options["roles"]:
            for row in rows.values():
                self._print_roles(row)
        for dilemma in dilemmas.values():
            self._print_dilemma(dilemma)
        if targets is not None:
            self._print_targets(targets)

    def _policies(self, given: list[str] | None, known: Any = POLICIES) -> list[str]:
        chosen: list[str] = []
        for name in given or [ALL]:
            names = list(known) if name == ALL else [name]
            for n in names:
                if n not in known:
                    raise CommandError(f"Unknown policy {n!r}; choose from "
                                       f"{', '.join(known)} or '{ALL}'.")
                if n not in chosen:
                    chosen.append(n)
        return chosen

    def _other_game(self, options: dict[str, Any]) -> None:
        """Any game but State in Class: its own simulator, through the common options."""
        sim = _simulator(options["game"])
        bots = importlib.import_module(sim.__name__.rsplit(".", 1)[0] + ".bots")
        policies = self._policies(options["policy"], getattr(bots, "POLICIES", {}))
        games, seed = options["games"], options["seed"]
        config = {key: options[opt] for key, opt in (("levels", "levels"),
                                                      ("min_years", "min_years"))
                  if options.get(opt) is not None}
        if config and options["game"] != "austerity":
            raise CommandError("--levels and --min-years are Austerity's options.")
        report: dict[str, Any] = {
            "game": options["game"], "games": games, "seed": seed,
            "policies": [sim.simulate(games=games, seed=seed, policy=p, **config)
                         for p in policies]}
        if options["targets"]:
            report["targets"] = sim.balance_targets(games=games, seed=seed, **config)
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        for row in report["policies"]:
            self.stdout.write(sim.format_report(row))
        if "targets" in report:
            self.stdout.write(sim.format_report(report["targets"]))

    def _print_table(self, rows: dict[str, dict[str, Any]], games: int, players: int,
                     seed: int, pact: int | None) -> None:
        pacts = "each policy's own pact" if pact is None else f"every seat gives {pact} coins"
        self.stdout.write(f"State in Class · {players} players · {games} games per policy · "
                          f"seed {seed} · {pacts}")
        head = (f"{'policy':<14} {'State fails':>11} {'Legacy':>7} {'Excl./game':>10} "
                f"{'Any excl.':>9} {'Up/mid excl.':>12} {'Tension':>7}  "
                f"{'Coins ' + CLASS_HEAD:<20} {'Score ' + CLASS_HEAD}")
        self.stdout.write(head)
        self.stdout.write("-" * len(head))
        for name, r in rows.items():
            self.stdout.write(
                f"{name:<14} {r['state_failure_pct']:>10.1f}% {r['legacy_pct']:>6.1f}% "
                f"{r['mean_exclusions']:>10.2f} {r['any_exclusion_pct']:>8.1f}% "
                f"{r['upper_or_middle_exclusion_pct']:>11.1f}% {r['mean_final_tension']:>7.2f}  "
                f"{_by_class(r['mean_coins']):<20} {_by_class(r['mean_score'])}")
        self.stdout.write("Coins and score: mean per player of each class at the final count "
                          "(upper / middle / working). Tension: mean final Tension.")

    def _print_roles(self, row: dict[str, Any]) -> None:
        self.stdout.write("")
        self.stdout.write(f"Roles under {row['policy']} ({row['players']} players, "
                          f"{row['games']} games)")
        head = (f"{'role':<22} {'class':<8} {'games':>6} {'excluded':>8} {'coins':>6}  "
                f"{'falls short':>11} {'gets by':>8} {'lives well':>10} {'thrives':>8}")
        self.stdout.write(head)
        for role, r in row["roles"].items():
            g = r["goals_pct"]
            self.stdout.write(
                f"{role:<22} {r['class']:<8} {r['games_held']:>6} {r['excluded_pct']:>7.1f}% "
                f"{r['mean_coins']:>6.1f}  " + " ".join(
                    f"{g[k]:>{w - 1}.1f}%" for k, w in zip(GOAL_HEAD, (11, 8, 10, 8),
                                                           strict=True)))

    def _print_dilemma(self, d: dict[str, Any]) -> None:
        self.stdout.write("")
        self.stdout.write(f"Pact dilemma with {d['policy']} votes ({d['players']} players, "
                          f"{d['games']} paired games, mixed pacts): one player gives 3 coins "
                          "or 0, all else equal")
        head = (f"{'gives':<6} {'start Tension':>13} {'excluded r1-3':>13} "
                f"{'coins after r3':>14} {'own score':>9} {'others score':>12} "
                f"{'State fails':>11}")
        self.stdout.write(head)
        for coins in (0, data.MAX_PACT):
            r = d[f"gave_{coins}"]
            self.stdout.write(
                f"{coins:<6} {r['start_tension']:>13.2f} {r['excluded_r1_3_pct']:>12.1f}% "
                f"{r['coins_after_r3']:>14.2f} {r['own_score']:>9.2f} "
                f"{r['others_score']:>12.2f} {r['table_failure_pct']:>10.1f}%")
        by_class = ", ".join(f"{k} {v['gave_0']:.1f}% -> {v[f'gave_{data.MAX_PACT}']:.1f}%"
                             for k, v in d["excluded_r1_3_pct_by_class"].items())
        self.stdout.write(f"Excluded in rounds 1-3 by dealt class (gives 0 -> 3): {by_class}")
        self.stdout.write(
            f"Giving 3 lowers the starting Tension by {d['tension_drop']:.2f}, raises the "
            f"giver's rounds 1-3 exclusion rate by {d['exposure_pp']:.1f} points, costs the "
            f"giver {d['own_cost']:.2f} points and changes the table's failure rate by "
            f"{d['table_failure_change_pp']:+.1f} points.")

    def _print_targets(self, targets: list[dict[str, Any]]) -> None:
        self.stdout.write("")
        self.stdout.write("Balance targets")
        for t in targets:
            mark = "holds " if t["holds"] else "MISSED"
            figures = ", ".join(f"{k} {v}" for k, v in t["figures"].items())
            self.stdout.write(f"  {t['target']}. [{mark}] {t['text']}")
            self.stdout.write(f"     {figures}")


def _simulator(game: str) -> ModuleType:
    try:
        engine = get_engine(game)
    except InvalidConfig as exc:
        raise CommandError(str(exc)) from None
    package = getattr(engine, "__name__", "")
    try:
        return importlib.import_module(package + ".simulate")
    except ImportError:
        raise CommandError(f"{game} has no simulator.") from None
