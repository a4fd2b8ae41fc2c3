"""Austerity's own options of the ``simulate`` command (``games.simulation``): the
difficulty levels and the lesson length rule, passed to ``simulate.simulate`` and
``simulate.balance_targets`` as the config keys of the same names."""

from __future__ import annotations

from games.simulation import SimOption

OPTIONS = (
    SimOption("--levels", "levels", str, None, choices=("ours", "classic"),
              help="the difficulty levels (the config's 'levels'; default: the simulator's)"),
    SimOption("--min-years", "min_years", int, None, metavar="N",
              help="the lesson length rule: no win before year N (the config's 'min_years')"),
)
