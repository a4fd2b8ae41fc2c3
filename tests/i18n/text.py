"""What a page says, for checking its language: visible text plus the labels a screen reader
reads (aria-label, title, alt), leaving out scripts, styles and any element marked with another
``lang`` (the "English · Español" switch names each language in itself)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}
SKIP = {"script", "style"}
LABELS = ("aria-label", "title", "alt", "placeholder")

# Words and phrases that must not be left in English on a Spanish screen.
ENGLISH = (
    "the", "and", "of", "you", "You", "your", "Your", "is", "have", "with",
    "Round", "Tension", "Health", "Education", "Social Shield", "coin", "coins", "points",
    "Tax", "Budget", "Opening pact", "vote", "voted", "Next", "Start", "Final count",
    "final count", "Income", "Cost of living", "Legacy", "Winners", "Table", "Pause", "Undo",
    "Students", "student", "students", "Lesson", "lesson", "Scan", "joined", "Remove",
    "Event", "Fund", "Level", "level", "Upper class", "Middle class", "Working class",
    "Flat tax", "Progressive", "Maximum effort", "My coins", "My role", "Now", "token",
    "bag", "Midlife", "Crossroads", "Debate timer", "Dashboard", "Log out", "Teacher",
)


class _Reader(HTMLParser):
    def __init__(self, lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = lang
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, hidden from this check)

    def _hidden(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        other = values.get("lang") not in (None, "", self.lang)
        hidden = self._hidden() or tag in SKIP or other
        if not hidden:
            self.parts += [str(values[a]) for a in LABELS if values.get(a)]
        if tag not in VOID:
            self.stack.append((tag, hidden))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._hidden():
            values = dict(attrs)
            self.parts += [str(values[a]) for a in LABELS if values.get(a)]

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self._hidden():
            self.parts.append(data)


def page_text(html: str, lang: str = "es") -> str:
    reader = _Reader(lang)
    reader.feed(html)
    reader.close()
    return " ".join(" ".join(reader.parts).split())


def english_left(text: str, words: tuple[str, ...] = ENGLISH) -> list[str]:
    """The English words and phrases found in ``text`` (whole words, case-sensitive)."""
    return [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
