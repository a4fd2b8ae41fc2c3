"""State in Class's data export: its rounds and results as CSV.

- ``rounds_csv``: one row per table and round: the public history (tallies, winners, split,
  Tension changes with their causes, levels and funds).
- ``results_csv``: one row per player: the final count.
``anonymous=True`` replaces every player name with "Player 1…8" (seat order at the table). The
CSVs use stable machine ids (``could_not_pay``, ``shield``), not translated texts, so files from
different classes and languages can be put together.
"""

from __future__ import annotations

from typing import Any

from facilitator.kit.reports import csv_text, pseudonyms
from facilitator.lessons.state_in_class.debrief.story import TableStory, start_tension, table_story
from facilitator.models import ClassSession
from games.state_in_class import data

ROUND_COLUMNS: tuple[str, ...] = (
    "session", "table", "round", "event", "event_effect",
    *(f"tax_votes_{o}" for o in data.TAX_OPTIONS), "tax_voters", "tax_winner",
    "tax_decided_by", "revenue",
    *(f"budget_votes_{s}" for s in data.SERVICES), "budget_voters", "budget_ranking",
    *(f"share_{s}" for s in data.SERVICES), "level_ups",
    "exclusions", "excluded_roles", "tension_changes", "tension_after",
    *(f"level_{s}" for s in data.SERVICES), *(f"fund_{s}" for s in data.SERVICES),
    "obsolescence", "midlife_cards", "class_changes", "state_failed",
)
RESULT_COLUMNS: tuple[str, ...] = (
    "session", "table", "player", "seat", "start_role", "role", "class", "coins", "pact",
    "goal", "exclusions", "points_dividend", "points_legacy", "points_life_goal",
    "points_exclusions", "points_tension", "score", "winner",
    "table_failed", "table_failed_round", "table_legacy", "table_levels_sum",
    "table_final_tension", "table_pact_total", "table_start_tension",
)


def _stories(session: ClassSession) -> list[TableStory]:
    return [table_story(t, with_charts=False)
            for t in session.tables.select_related("session").order_by("number")]


def round_rows(session: ClassSession, story: TableStory) -> list[dict[str, Any]]:
    rows = []
    last = story.history[-1]["round"] if story.history else 0
    for e in story.history:
        tax = e.get("tax") or {}
        budget = e.get("budget") or {}
        split = e.get("split") or {}
        row: dict[str, Any] = {
            "session": session.pk, "table": story.number, "round": e["round"],
            "event": e["event"], "event_effect": (e.get("event_effect") or {}).get("effect", ""),
            "tax_voters": tax.get("voters"), "tax_winner": tax.get("winner"),
            "tax_decided_by": tax.get("decided_by"), "revenue": e.get("revenue"),
            "budget_voters": budget.get("voters"),
            "budget_ranking": ">".join(split.get("ranking") or []),
            "level_ups": ";".join(f"{u['service']}:{u['level']}"
                                  for u in split.get("level_ups") or []),
            "exclusions": len(e.get("exclusions") or []),
            "excluded_roles": ";".join(f"{x['role']}:{x['reason']}"
                                       for x in e.get("exclusions") or []),
            "tension_changes": ";".join(
                f"{c['reason']}:{c['delta']:+d}"
                + (f":{c['service']}" if "service" in c else "")
                + (f":{c['role']}" if c.get("role") else "")
                for c in e.get("tension") or []),
            "tension_after": e.get("tension_after"),
            "obsolescence": bool(e.get("obsolescence")),
            "midlife_cards": ";".join(f"{d['card']}:{d['role']}:{d['level']}"
                                      + (":token" if d.get("token") else "")
                                      for d in e.get("midlife") or []),
            "class_changes": ";".join(
                f"{c['from_role']}>{c.get('to_role') or c['result']}"
                for c in e.get("class_changes") or []),
            "state_failed": bool(story.failed and e["round"] == last),
        }
        for o in data.TAX_OPTIONS:
            row[f"tax_votes_{o}"] = (tax.get("tally") or {}).get(o) if tax else None
        for s in data.SERVICES:
            row[f"budget_votes_{s}"] = (budget.get("tally") or {}).get(s) if budget else None
            row[f"share_{s}"] = (split.get("shares") or {}).get(s) if split else None
            row[f"level_{s}"] = (e.get("levels") or {}).get(s)
            row[f"fund_{s}"] = (e.get("funds") or {}).get(s)
        rows.append(row)
    return rows


def rounds_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    """Every round of every table. It names roles, never players, so it is anonymous anyway."""
    rows = [row for story in _stories(session) for row in round_rows(session, story)]
    return csv_text(ROUND_COLUMNS, rows)


def result_rows(session: ClassSession, story: TableStory, *, anonymous: bool = False
                ) -> list[dict[str, Any]]:
    names = pseudonyms([p.name for p in story.state.players]) if anonymous else {}
    info = {p.name: p for p in story.players}
    rows = []
    for p in story.state.players:
        final = story.final["players"].get(p.name)
        if final is None:
            continue
        b = final["breakdown"]
        player = info[p.name]
        seat = "bot" if player.is_bot else "shared" if player.partners else "student"
        rows.append({
            "session": session.pk, "table": story.number,
            "player": names.get(p.name, p.name), "seat": seat,
            "start_role": player.start_role, "role": final["role"], "class": final["class"],
            "coins": final["coins"], "pact": final["pact"], "goal": final["goal"],
            "exclusions": final["exclusions"], "points_dividend": b["dividend"],
            "points_legacy": b["legacy"], "points_life_goal": b["life_goal"],
            "points_exclusions": b["exclusions"], "points_tension": b["tension"],
            "score": final["score"], "winner": p.name in story.winners,
            "table_failed": story.failed, "table_failed_round": story.failed_round,
            "table_legacy": story.legacy, "table_levels_sum": story.levels_sum,
            "table_final_tension": story.tension,
            "table_pact_total": story.final.get("pact_total"),
            "table_start_tension": start_tension(story.history),
        })
    return rows


def results_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    rows = [row for story in _stories(session)
            for row in result_rows(session, story, anonymous=anonymous)]
    return csv_text(RESULT_COLUMNS, rows)
