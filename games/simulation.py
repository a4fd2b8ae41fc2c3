"""What a game's simulator offers the ``simulate`` command, as plain data.

A game whose package has a ``simulate_cli`` module declares there, in ``OPTIONS``, the
options of its own (``SimOption``), and may supply ``run`` and ``format_report`` when its
report is more than one table per policy. A game without one is run through its
``simulate`` module's ``simulate``, ``balance_targets`` and ``format_report``
(docs/modules.md, "Simulating a game"). Nothing here parses arguments: the command does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SimOption:
    """One command-line option of a game's simulator.

    ``flag`` is the option as typed (``--min-years``); its value reaches the game under
    ``dest`` (``min_years``). ``kind`` is ``int``, ``str`` or ``bool`` (a switch).
    ``default`` is the game's own: the command passes it when the option is not given.
    """

    flag: str
    dest: str
    kind: type = int
    default: Any = None
    help: str = ""
    choices: tuple[Any, ...] | None = None
    metavar: str | None = None
