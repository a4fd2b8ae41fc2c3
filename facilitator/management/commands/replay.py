"""``manage.py replay RECORD.json`` (or ``-`` for stdin): rebuild a game from its record.

Prints the final public state plus every player's private state as one JSON object
(the engine's ``summary``; docs/engine.md, "Commands"). An invalid record exits non-zero,
naming the index and reason of the first illegal action.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core import ReplayError
from games.registry import replay


class Command(BaseCommand):
    help = "Replay a game record (JSON) and print the resulting state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="path to a game record (JSON), or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["record"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            # A binary file (or another encoding) gets a plain message, not a traceback.
            raise CommandError(f"{path} is not UTF-8 text (byte {exc.start}: {exc.reason}); "
                               "a game record is a JSON file") from None
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(
                f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            ) from None
        except RecursionError:
            # JSON nested thousands deep ("[[[[...") exhausts the parser's recursion.
            raise CommandError(f"{path} is nested too deeply to be a game record") from None
        except ValueError as exc:
            # A number of more than 4,300 digits raises ValueError (Python's limit on
            # converting long digit strings).
            raise CommandError(f"{path} is not a valid game record: {exc}") from None
        try:
            result = replay(record)
        except ReplayError as exc:
            raise CommandError(f"invalid game record: {exc}") from None
        self.stdout.write(json.dumps(result.engine.summary(result.state), indent=2,
                                     ensure_ascii=False))
