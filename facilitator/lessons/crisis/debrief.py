"""Crisis's debrief: the story of each table from its public history (``story``), the class
handout and one page per student about their team (PDF, on the platform's shell
``facilitator.reports.pdf``), and the CSV exports (stable machine ids, never translated texts,
so files from different classes and languages can be put together).

Everything is read from the tables' records and the lesson's final scores (``scoring``): the
rounds' Events, goals and the Crisis track, each team's VP against the goal, its exports and
black-market sales, and the final ranking.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from facilitator.kit import load_state
from facilitator.kit.reports import DEFAULT_PAPER, base_context, csv_text, write_pdf
from facilitator.lessons.crisis import scoring, script, words
from facilitator.models import ClassSession, Table
from games.crisis import data

ROUND_COLUMNS = ("table", "round", "level", "event", "zone_start", "status_start", "goal",
                 "delta", "status", "black_market_sellers", "black_market_premium",
                 "crackdown", "bankrupt")
RESULT_COLUMNS = ("table", "team", "members", "place", "winner", "eligible", "score", "vp",
                  "from_credits", "loans", "penalty", "credits", "companies", "goals_met",
                  "exported_tokens", "black_market_tokens")


@dataclass
class TeamStory:
    name: str
    letter: str
    members: list[str]
    score: dict[str, Any]
    vp_by_round: list[int] = field(default_factory=list)
    goals_met: int = 0
    exported: int = 0
    smuggled: int = 0
    companies: list[str] = field(default_factory=list)
    credits: int = 0


@dataclass
class TableStory:
    table: Table
    number: int
    rounds: list[dict[str, Any]]
    teams: list[TeamStory]
    bankrupt: bool
    status: int
    played: int

    def result(self) -> dict[str, Any]:
        """The table's result for the reports page (``crisis/reports/_result.html``): the
        winners, how Axia ended and where the Crisis track stopped."""
        winners = [t.name for t in self.teams if t.score.get("winner")]
        return {"winners": _("Winners: %(names)s") % {"names": ", ".join(winners) or "—"},
                "axia": _("Axia went bankrupt") if self.bankrupt else _("Axia survived"),
                "status": self.status}


def lesson_date(session: ClassSession) -> str:
    when = session.started_at or session.created_at
    return formats.date_format(timezone.localtime(when), "DATE_FORMAT") if when else ""


def table_story(table: Table, rounds_played: int) -> TableStory:
    state = load_state(table)
    scores = scoring.final_scores(table, state, rounds_played)
    history = [h for h in state.history if "evaluation" in h][:rounds_played]
    seats = list(table.seats.filter(shares__isnull=True).order_by("position"))
    teams = []
    for name in state.names:
        export_moves = [e for h in history for e in h.get("export_log", [])
                        if e["player"] == name]
        p = state.player(name)
        teams.append(TeamStory(
            name=name, letter=words.team_letter(state.names, name),
            members=[s.nickname for s in seats if s.player_name == name],
            score=scores[name], vp_by_round=[h["evaluation"]["vp"][name] for h in history],
            goals_met=sum(h["evaluation"]["differences"][name] >= 0 for h in history),
            exported=sum(e["amount"] for e in export_moves if e["move"] == "export"),
            smuggled=sum(e["amount"] for e in export_moves if e["move"] == "black_market"),
            companies=list(p.companies), credits=p.credits))
    rounds = []
    for h in history:
        line = h.get("black_market_line") or {}
        event = words.event(h.get("event"))
        rounds.append({"round": h["round"], "level": h["level"], "event_id": h.get("event"),
                       "event": event["name"] if event else "—",
                       "status_start": h["status_start"], "goal": h["evaluation"]["goal"],
                       "delta": h["evaluation"]["delta"], "status": h["status"],
                       "sellers": [words.team_letter(state.names, n)
                                   for n in line.get("sellers", [])],
                       "sellers_ids": list(line.get("sellers", [])),
                       "premium": line.get("premium", 0), "crackdown": line.get("crackdown", 0),
                       "vp": [{"letter": t.letter, "vp": h["evaluation"]["vp"][t.name],
                               "met": h["evaluation"]["differences"][t.name] >= 0}
                              for t in teams]})
    teams.sort(key=lambda t: (t.score.get("place") is None, t.score.get("place") or 0, t.name))
    final = history[-1]["status"] if history else state.status
    return TableStory(table=table, number=table.number, rounds=rounds, teams=teams,
                      bankrupt=final < 0, status=final, played=len(history))


def lesson_story(session: ClassSession) -> list[TableStory]:
    rounds = script.rounds_of(session)
    return [table_story(t, rounds) for t in session.tables.order_by("number")]


def results(session: ClassSession) -> list[tuple[Table, dict[str, Any]]]:
    return [(t.table, t.result()) for t in lesson_story(session)]


# ------------------------------------------------------------------ CSV


def rounds_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    """One row per table and round (teams by their engine names: no student is named)."""
    rows = []
    for t in lesson_story(session):
        for r in t.rounds:
            rows.append({"table": t.number, "round": r["round"], "level": r["level"],
                         "event": r["event_id"] or "",
                         "zone_start": data.zone(max(0, r["status_start"])),
                         "status_start": r["status_start"], "goal": r["goal"],
                         "delta": r["delta"], "status": r["status"],
                         "black_market_sellers": " ".join(r["sellers_ids"]),
                         "black_market_premium": r["premium"], "crackdown": r["crackdown"],
                         "bankrupt": r["status"] < 0})
    return csv_text(ROUND_COLUMNS, rows)


def results_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    """One row per team; ``anonymous`` leaves out the members' nicknames."""
    rows = []
    for t in lesson_story(session):
        for team in t.teams:
            s = team.score
            rows.append({"table": t.number, "team": team.name,
                         "members": "" if anonymous else " ".join(team.members),
                         "place": s.get("place"), "winner": bool(s.get("winner")),
                         "eligible": s["eligible"], "score": s["score"],
                         "vp": s["score_breakdown"]["vp"],
                         "from_credits": s["score_breakdown"]["credits"],
                         "loans": s["score_breakdown"]["loans"],
                         "penalty": s["score_breakdown"]["penalty"], "credits": team.credits,
                         "companies": len(team.companies), "goals_met": team.goals_met,
                         "exported_tokens": team.exported,
                         "black_market_tokens": team.smuggled})
    return csv_text(RESULT_COLUMNS, rows)


# ------------------------------------------------------------------ PDF


def questions() -> list[str]:
    return [
        _("Which round hurt Axia most, and what did the teams do that round?"),
        _("Did a team sell on the black market? What did it gain, and what did Axia lose?"),
        _("When was it worth keeping VP for Axia instead of credits for your own team?"),
        _("Did the teams that kept Axia afloat also win? Why, or why not?"),
    ]


def class_html(session: ClassSession, *, paper: str, language: str | None = None) -> str:
    with translation.override(language or session.language):
        tables = lesson_story(session)
        date = lesson_date(session)
        context = base_context(session, paper, f"{session} · {date}")
        context.update({"session": session, "date": date, "tables": tables,
                        "game": session.game_name, "questions": questions(),
                        "students": sum(len(team.members) for t in tables for team in t.teams)})
        return render_to_string("crisis/reports/class.html", context)


def class_handout(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                  language: str | None = None) -> bytes:
    html = class_html(session, paper=paper, language=language)
    with translation.override(language or session.language):
        return write_pdf(html)


def students_html(session: ClassSession, *, paper: str, seat_id: int | None = None,
                  language: str | None = None) -> str:
    """One page per student (or ``seat_id``'s), each about the student's team."""
    with translation.override(language or session.language):
        tables = {t.number: t for t in lesson_story(session)}
        seats = session.seats.filter(is_bot=False, table__isnull=False, removed=False) \
            .select_related("table", "shares").order_by("table__number", "position")
        if seat_id is not None:
            seats = seats.filter(pk=seat_id)
        pages = []
        for seat in seats:
            story = tables[seat.table.number]
            name = (seat.shares or seat).player_name
            team = next((t for t in story.teams if t.name == name), None)
            if team is not None:
                pages.append({"seat": seat, "team": team, "table": story})
        date = lesson_date(session)
        context = base_context(session, paper, f"{session} · {date}")
        context.update({"session": session, "date": date, "pages": pages,
                        "game": session.game_name})
        return render_to_string("crisis/reports/teams.html", context)


def student_handouts(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                     seat_id: int | None = None, language: str | None = None) -> bytes:
    html = students_html(session, paper=paper, seat_id=seat_id, language=language)
    with translation.override(language or session.language):
        return write_pdf(html)
