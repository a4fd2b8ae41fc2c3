"""The platform speaks of the lesson's own game, or of nothing in particular: its code, its
scripts, its stylesheets and its shared templates name no game's terms. A game's words (its
phases, its votes, its tracks, its roles) live in its engine and its lesson module; the About
page and the home page, which introduce and credit the games, are the two pages meant to name
them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = [*(ROOT / "facilitator").glob("*.py"),
            *(ROOT / "facilitator" / "services").rglob("*.py"),
            *(ROOT / "facilitator" / "kit").rglob("*.py"),
            *(ROOT / "facilitator" / "management").rglob("*.py"),
            *(ROOT / "static" / "js").rglob("*.js"),
            *(ROOT / "static" / "css").rglob("*.css"),
            *(ROOT / "templates").rglob("*.html")]
MEANT_TO_NAME_THE_GAMES = {ROOT / "templates" / "about.html", ROOT / "templates" / "home.html"}
# Each game's own words (whole words; the product's name "State in Class" is not one).
GAME_WORDS = re.compile(
    r"\b(Austerity|Crisis|Poleconomy|pacts?|tie[_-]breaks?|Tension|Midlife|Legacy|budget|"
    r"tax(es)?|ministers?|Axia|Parliament|coalitions?|Finance Minister)\b", re.IGNORECASE)


def game_words(path: Path, root: Path = ROOT) -> list[str]:
    return [f"{path.relative_to(root)}:{n}: {found.group(0)!r}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            for found in GAME_WORDS.finditer(line)]


def test_the_platform_names_no_games_terms() -> None:
    found = [hit for path in PLATFORM if path not in MEANT_TO_NAME_THE_GAMES
             for hit in game_words(path)]
    assert not found, "a game's words in the platform:\n" + "\n".join(found)


def test_the_check_would_catch_a_games_word(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('TITLE = "State in Class"\nMESSAGE = "the Tax vote is open"\n',
                      encoding="utf-8")
    assert game_words(sample, tmp_path) == ["sample.py:2: 'Tax'"]
