"""Poleconomy's debrief: each table's rounds and results (CSV), the class handout and one page
per student (PDF, on the platform's shell ``facilitator.reports.pdf``).

Everything comes from the tables' records, replayed: the rounds as the class saw them, never
a vote (Parliament's consent is kept as its outcome only). The CSVs use stable machine ids
(``carried``, ``treasury``), not translated texts; ``anonymous=True`` replaces every player
name with "Player N" (seat order at the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from facilitator.kit import game_record, load_state
from facilitator.kit.reports import DEFAULT_PAPER, base_context, csv_text, pseudonyms, write_pdf
from facilitator.lessons.poleconomy import events
from facilitator.models import ClassSession, Table
from games.registry import get_engine

ROUND_COLUMNS = ("session", "table", "round", "multiplier", "index_space", "index_direction",
                 "pm", "government", "cabinet", "pm_salary", "treasury", "bank",
                 "bonds_issued", "consent_items", "consent", "nmr", "auctions", "bought",
                 "election_votes", "over_reason")
RESULT_COLUMNS = ("session", "table", "player", "students", "score", "cash", "companies",
                  "advertisers", "life_insurance", "bonds", "winner", "all_lose",
                  "over_reason", "rounds_as_pm")


@dataclass
class RoundRow:
    round: int
    public: dict[str, Any]  # the public view at the end of the round
    events: list[dict[str, Any]]


@dataclass
class TableStory:
    table: Table
    rounds: list[RoundRow] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    public: dict[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> int:
        return self.table.number

    def lines(self) -> list[str]:
        """The table's result in a few words, for the reports page."""
        if self.final.get("all_lose"):
            return [_("The Treasury could not pay: everyone lost.")]
        winners = ", ".join(self.final.get("winners", [])) or "—"
        return [_("Winner: %(names)s") % {"names": winners},
                ngettext("%(n)d round played", "%(n)d rounds played",
                         len(self.rounds)) % {"n": len(self.rounds)}]


def table_story(table: Table) -> TableStory:
    """The table's game replayed from its record, with the public board at each round's end."""
    engine = get_engine(table.session.game)
    record = game_record(table)
    state = engine.new_game(record["config"], record["seed"])
    story = TableStory(table)
    for action in record["actions"]:
        state, new = engine.apply(state, action)
        for event in new:
            if event["type"] == "round_end" or (event["type"] == "game_over"
                                                and not any(r.round == event["round"]
                                                            for r in story.rounds)):
                public = engine.view(state, "public")
                round_events = next((r["events"] for r in public["history"]
                                     if r["round"] == event["round"]), [])
                public.pop("history", None)
                story.rounds.append(RoundRow(event["round"], public, round_events))
    story.public = engine.view(state, "public")
    story.public.pop("history", None)
    story.final = engine.scores(state) if engine.is_over(state) else {}
    return story


def lesson_stories(session: ClassSession) -> list[TableStory]:
    return [table_story(t) for t in session.tables.select_related("session").order_by("number")]


def results(session: ClassSession) -> list[tuple[Any, Any]]:
    return [(s.table, {"lines": s.lines()}) for s in lesson_stories(session)]


def _round_row(session: ClassSession, story: TableStory, row: RoundRow,
               names: dict[str, str]) -> dict[str, Any]:
    def n(name: Any) -> Any:
        return names.get(name, name) if isinstance(name, str) else name

    public, evs = row.public, row.events
    asked = [e for e in evs if e["type"] == "consent_asked"]
    counted = [e for e in evs if e["type"] == "count"]
    election = next((e for e in evs if e["type"] == "election"), None)
    return {
        "session": session.pk, "table": story.number, "round": row.round,
        "multiplier": public["multiplier"], "index_space": public["index"]["space"],
        "index_direction": public["index"]["direction"], "pm": n(public["pm"]),
        "government": ";".join(n(m) for m in public["government"]),
        "cabinet": ";".join(n(m) for m in public["cabinet"]),
        "pm_salary": public["salaries"]["pm"], "treasury": public["treasury"],
        "bank": public["bank"], "bonds_issued": public["bonds"]["issued"],
        "consent_items": ";".join(e["decision"].rsplit(".", 1)[-1] for e in asked),
        "consent": counted[0]["outcome"] if counted else "",
        "nmr": ";".join(n(e["player"]) for e in evs if e["type"] == "turn" and e["nmr"]),
        "auctions": ";".join(f"{e['firm']}:{n(e['winner']) or ''}:{e['price']}"
                             for e in evs if e["type"] == "auction"),
        "bought": ";".join(f"{n(e['player'])}:{e['firm']}" for e in evs
                           if e["type"] == "bought"),
        "election_votes": ";".join(f"{n(k)}:{v}" for k, v in election["votes"].items())
        if election else "",
        "over_reason": public["over_reason"] or "",
    }


def rounds_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    rows = []
    for story in lesson_stories(session):
        names = pseudonyms(story.table.config["players"]) if anonymous else {}
        rows += [_round_row(session, story, r, names) for r in story.rounds]
    return csv_text(ROUND_COLUMNS, rows)


def _students(table: Table) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for seat in table.seats.filter(is_bot=False).order_by("position"):
        player = seat.player_name or (seat.shares.player_name if seat.shares else "")
        out.setdefault(player, []).append(seat.nickname)
    return out


def result_rows(session: ClassSession, story: TableStory, *, anonymous: bool
                ) -> list[dict[str, Any]]:
    names = pseudonyms(story.table.config["players"]) if anonymous else {}
    final = story.final or get_engine(session.game).scores(_state(story.table))
    students = _students(story.table)
    pm_rounds = {}
    for r in story.rounds:
        pm_rounds[r.public["pm"]] = pm_rounds.get(r.public["pm"], 0) + 1
    rows = []
    for player, v in final["players"].items():
        rows.append({"session": session.pk, "table": story.number,
                     "player": names.get(player, player),
                     "students": "" if anonymous else ";".join(students.get(player, [])),
                     "score": v["score"], **v["breakdown"],
                     "winner": player in final["winners"], "all_lose": final["all_lose"],
                     "over_reason": final["over_reason"] or "",
                     "rounds_as_pm": pm_rounds.get(player, 0)})
    return rows


def _state(table: Table) -> Any:
    return load_state(table)


def results_csv(session: ClassSession, *, anonymous: bool = False) -> str:
    rows = []
    for story in lesson_stories(session):
        rows += result_rows(session, story, anonymous=anonymous)
    return csv_text(RESULT_COLUMNS, rows)


# --------------------------------------------------------------------------- handouts

QUESTIONS = (
    gettext_noop("Who gained from inflation, and who lost? Look at cash and at firms."),
    gettext_noop("Did Parliament consent to what the Prime Minister asked? What did each "
                 "side want?"),
    gettext_noop("When the Treasury was short, what happened: Bonds, tax or cuts?"),
    gettext_noop("Which coalition would you form next time, and why?"),
)


def _round_lines(row: RoundRow) -> list[str]:
    keep = ("auction", "consent", "salaries_changed", "tax_changed", "treasury_payment",
            "election", "government", "business_disaster", "takeover", "treasury_default")
    out = [line["text"] for e in row.events if e["type"] in keep
           for line in [events.line(e, press_approved=True)] if line]
    return out[:6]


def _lesson_context(session: ClassSession, paper: str) -> dict[str, Any]:
    stories = lesson_stories(session)
    context = base_context(session, paper, f"{session}")
    tables = []
    for story in stories:
        final = story.final or get_engine(session.game).scores(_state(story.table))
        ranking = sorted(({"name": name, "score": v["score"], **v["breakdown"],
                           "winner": name in final["winners"]}
                          for name, v in final["players"].items()), key=lambda r: -r["score"])
        tables.append({"number": story.number, "ranking": ranking, "final": final,
                       "rounds": [{"round": r.round, "multiplier": r.public["multiplier"],
                                   "treasury": r.public["treasury"], "pm": r.public["pm"],
                                   "lines": _round_lines(r)} for r in story.rounds],
                       "lines": story.lines()})
    context.update({"session": session, "tables": tables,
                    "questions": [_(q) for q in QUESTIONS]})
    return context


def class_html(session: ClassSession, *, paper: str, language: str | None = None) -> str:
    with translation.override(language or session.language):
        return render_to_string("poleconomy/reports/class.html",
                                _lesson_context(session, paper))


def class_handout(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                  language: str | None = None) -> bytes:
    html = class_html(session, paper=paper, language=language)
    with translation.override(language or session.language):
        return write_pdf(html)


def students_html(session: ClassSession, *, paper: str, seat_id: int | None = None,
                  language: str | None = None) -> str:
    with translation.override(language or session.language):
        context = _lesson_context(session, paper)
        by_table = {t["number"]: t for t in context["tables"]}
        seats = (session.seats.filter(is_bot=False, table__isnull=False, removed=False)
                 .select_related("table", "shares").order_by("table__number", "position"))
        if seat_id is not None:
            seats = seats.filter(pk=seat_id)
        pages = []
        for seat in seats:
            player = seat.player_name or (seat.shares.player_name if seat.shares else "")
            table = by_table[seat.table.number]
            mine = next((r for r in table["ranking"] if r["name"] == player), None)
            place = next((i for i, r in enumerate(table["ranking"], 1)
                          if r["name"] == player), None)
            pages.append({"nickname": seat.nickname, "player": player, "table": table,
                          "mine": mine, "place": place,
                          "pm_rounds": [r["round"] for r in table["rounds"]
                                        if r["pm"] == player]})
        context["pages"] = pages
        return render_to_string("poleconomy/reports/students.html", context)


def student_handouts(session: ClassSession, *, paper: str = DEFAULT_PAPER,
                     seat_id: int | None = None, language: str | None = None) -> bytes:
    html = students_html(session, paper=paper, seat_id=seat_id, language=language)
    with translation.override(language or session.language):
        return write_pdf(html)


class Debrief:
    """What ``Lesson.reports()`` gives the platform."""

    results = staticmethod(results)
    rounds_csv = staticmethod(rounds_csv)
    results_csv = staticmethod(results_csv)
    class_handout = staticmethod(class_handout)
    student_handouts = staticmethod(student_handouts)


DEBRIEF = Debrief()
