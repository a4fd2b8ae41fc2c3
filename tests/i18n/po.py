"""A small reader for gettext catalogues (.po), enough for the translation tests.

Each entry: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` (a list: one string, or one
per plural form), its flags (``fuzzy``, ``python-format``...) and whether it is obsolete (#~).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)


def _string(literal: str) -> str:
    return ast.literal_eval(literal)


def parse(text: str) -> list[Entry]:
    """Every entry of a .po file's text, the header (msgid "") included."""
    entries: list[Entry] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        entry = Entry()
        current: tuple[str, int] | None = None
        seen = False
        for raw in block.splitlines():
            line = raw.strip()
            if line.startswith("#~"):
                entry.obsolete = True
                line = line[2:].strip()
            elif line.startswith("#,"):
                entry.flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
                continue
            elif line.startswith("#"):
                continue
            if not line:
                continue
            match = FIELD.match(line)
            if match:
                name, index, literal = match.groups()
                seen = True
                value = _string(literal)
                if name == "msgctxt":
                    entry.msgctxt, current = value, ("msgctxt", 0)
                elif name == "msgid":
                    entry.msgid, current = value, ("msgid", 0)
                elif name == "msgid_plural":
                    entry.msgid_plural, current = value, ("msgid_plural", 0)
                else:
                    i = int(index) if index is not None else 0
                    while len(entry.msgstr) <= i:
                        entry.msgstr.append("")
                    entry.msgstr[i] = value
                    current = ("msgstr", i)
            elif line.startswith('"') and current:
                value = _string(line)
                name, i = current
                if name == "msgstr":
                    entry.msgstr[i] += value
                else:
                    setattr(entry, name, (getattr(entry, name) or "") + value)
        if seen:
            entries.append(entry)
    return entries


def read(path: Path) -> list[Entry]:
    return parse(path.read_text(encoding="utf-8"))
