"""Austerity's data export as CSV.

- ``rounds_csv``: one row per table and year: the tracks and the Debt at its start, the budget
  session (each item's options, what was chosen, how many voted: never a tally, the lesson
  keeps none), the minister, the draws' events and choices, the Cuts, the actions, the tracks
  and the Debt at its end, and the result in the year the game ended.
- ``results_csv``: one row per seat: the portfolio and how it ended, the years as Finance
  Minister, and the country's result.

``anonymous=True`` replaces every nickname with "Player N" (N: the seat's place at its table).
The CSVs use the engine's stable ids (``raise-taxes``, ``public-safety``), not translated
texts, so files from different classes and languages can be put together.
"""

from __future__ import annotations

from typing import Any

from facilitator.kit.reports import csv_text
from facilitator.lessons.austerity import portfolios, script
from facilitator.lessons.austerity.debrief.story import (
    SeatInfo,
    TableStory,
    ballot_year,
    table_story,
)
from facilitator.models import ClassSession
from games.austerity import data

ITEM_COLUMNS = tuple(f"{item}_{what}" for item in script.BUDGET_ITEMS
                     for what in ("options", "chosen", "voters"))
ROUND_COLUMNS: tuple[str, ...] = (
    "session", "table", "year", "seats", "ministers",
    *(f"start_{t}" for t in data.TRACKS), "start_debt_in_bag",
    *ITEM_COLUMNS, "draws", "events", "event_choices", "cuts", "income", "actions",
    *(f"end_{t}" for t in data.TRACKS), "end_debt_owed", "result", "reason",
)
RESULT_COLUMNS: tuple[str, ...] = (
    "session", "table", "player", "seat", "position", "portfolio", "portfolio_start",
    "portfolio_end", "portfolio_change", "minister_years",
    "table_result", "table_reason", "table_years", "table_tracks", "table_debt",
    "table_unfinished_score", *(f"table_{t}" for t in data.TRACKS),
)


def _stories(session: ClassSession) -> list[TableStory]:
    on = bool((session.options or {}).get("portfolios"))
    return [table_story(t, with_charts=False, with_portfolios=on)
            for t in session.tables.select_related("session").order_by("number")]


def _name(info: SeatInfo, anonymous: bool) -> str:
    return f"Player {info.position + 1}" if anonymous else info.name


def ministers(story: TableStory, year: int, anonymous: bool) -> str:
    """Who took the engine's decisions in ``year``: seats by name (or "Player N"), and
    ``teacher`` if the teacher stood in (ids, not translated texts)."""
    seats = [s for s in story.seats if year in s.minister_years]
    told = next((y for y in story.years if y.year == year), None)
    names = [_name(s, anonymous) for s in seats]
    return ";".join(names + (["teacher"] if told is not None and told.teacher_stood_in
                             else []))


def round_rows(session: ClassSession, story: TableStory, *, anonymous: bool = False
               ) -> list[dict[str, Any]]:
    state = story.state
    rows = []
    history = state.history
    played = {y.year for y in story.years}
    last = max(played, default=0)
    for n, entry in enumerate(history):
        year = entry["year"]
        if year not in played:
            continue
        log = entry["log"]
        following = history[n + 1] if n + 1 < len(history) else None
        end_tracks = following["tracks"] if following else state.tracks
        key = None
        choices, cuts = [], []
        for line in log:
            if line["kind"] == "draw":
                key = line.get("event")
            elif line["kind"] == "event":
                choices.append(f"{key}:{line['choice']}")
            elif line["kind"] == "cuts":
                cuts.append(f"{line['institution']}:{line['step']}"
                            + (":final" if line["final"] else ""))
        row: dict[str, Any] = {
            "session": session.pk, "table": story.number, "year": year,
            "seats": len(story.seats),
            "ministers": ministers(story, year, anonymous),
            **{f"start_{t}": entry["tracks"][t] for t in data.TRACKS},
            "start_debt_in_bag": entry["bag"][data.DEBT],
            "draws": sum(1 for line in log if line["kind"] == "draw"),
            "events": ";".join(str(line.get("event") or "lone")
                               for line in log if line["kind"] == "draw"),
            "event_choices": ";".join(choices), "cuts": ";".join(cuts),
            "income": ";".join(line["choice"] for line in log if line["kind"] == "income"),
            "actions": ";".join(line["choice"] for line in log if line["kind"] == "action"),
            **{f"end_{t}": end_tracks[t] for t in data.TRACKS},
            "end_debt_owed": following["bag"][data.DEBT] if following
            else portfolios.debt(state),
            "result": story.result.kind if year == last else "",
            "reason": (story.result.reason or "") if year == last else "",
        }
        for ballot in story.ballots:
            if ballot_year(ballot) == year:
                row[f"{ballot.item}_options"] = ";".join(ballot.options)
                row[f"{ballot.item}_chosen"] = ballot.chosen
                row[f"{ballot.item}_voters"] = ballot.voters
        rows.append(row)
    return rows


def rounds_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    """Every year of every table (the ministers' nicknames, or "Player N")."""
    rows = [row for story in _stories(session)
            for row in round_rows(session, story, anonymous=anonymous)]
    return csv_text(ROUND_COLUMNS, rows)


def result_rows(session: ClassSession, story: TableStory, *, anonymous: bool = False
                ) -> list[dict[str, Any]]:
    result = story.result
    rows = []
    for info in story.seats:
        standing = portfolios.standing(info.portfolio, story.state, story.start) \
            if info.portfolio else None
        rows.append({
            "session": session.pk, "table": story.number, "player": _name(info, anonymous),
            "seat": "bot" if info.is_bot else "shared" if info.partners else "student",
            "position": info.position + 1, "portfolio": info.portfolio,
            "portfolio_start": standing.start if standing else None,
            "portfolio_end": standing.value if standing else None,
            "portfolio_change": standing.change if standing else None,
            "minister_years": ";".join(str(y) for y in info.minister_years),
            "table_result": result.kind, "table_reason": result.reason,
            "table_years": story.played, "table_tracks": result.tracks,
            "table_debt": result.debt, "table_unfinished_score": result.score,
            **{f"table_{t}": story.state.tracks[t] for t in data.TRACKS},
        })
    return rows


def results_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    rows = [row for story in _stories(session)
            for row in result_rows(session, story, anonymous=anonymous)]
    return csv_text(RESULT_COLUMNS, rows)
