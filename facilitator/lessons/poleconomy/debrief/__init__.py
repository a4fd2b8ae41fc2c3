"""Poleconomy's debrief: each table's rounds and results (CSV), the class handout and one page
per student (PDF, on the platform's shell ``facilitator.reports.pdf``).

Everything comes from the tables' records, replayed: the rounds as the class saw them, never
a vote (Parliament's consent is kept as its outcome only). The CSVs use stable machine ids
(``carried``, ``treasury``), not translated texts; ``anonymous=True`` replaces every player
name with "Player N" (seat order at the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from facilitator.kit import game_record, load_state
from facilitator.kit.reports import Debrief, csv_text, people, pseudonyms
from facilitator.lessons.poleconomy import presenters
from facilitator.lessons.poleconomy.debrief import story as pol_story
from facilitator.lessons.poleconomy.models import Proposal
from facilitator.models import ClassSession, Seat, Table
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
    wealth: dict[str, int] = field(default_factory=dict)  # each score at the round's end
    cash: dict[str, int] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)  # the role each held in the round
    played_pm: str = ""  # the Prime Minister the round was played under

    @property
    def pm(self) -> str:
        return self.played_pm or self.public.get("pm") or ""

    @property
    def multiplier(self) -> int:
        return int(self.public["multiplier"])


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
        previous = state  # the Government the round is played under (apply copies)
        state, new = engine.apply(state, action)
        for event in new:
            if event["type"] == "round_end" or (event["type"] == "game_over"
                                                and not any(r.round == event["round"]
                                                            for r in story.rounds)):
                public = engine.view(state, "public")
                round_events = next((r["events"] for r in public["history"]
                                     if r["round"] == event["round"]), [])
                public.pop("history", None)
                scores = engine.scores(state)["players"]
                before = engine.view(previous, "public")
                story.rounds.append(RoundRow(
                    event["round"], public, round_events,
                    wealth={n: v["score"] for n, v in scores.items()},
                    cash={p["name"]: p["cash"] for p in public["players"]},
                    roles={p["name"]: role_words(p["role"], p.get("party"))
                           for p in before["players"]}, played_pm=before.get("pm") or ""))
    story.public = engine.view(state, "public")
    story.public.pop("history", None)
    story.final = engine.scores(state) if engine.is_over(state) else {}
    return story


def role_words(role: str | None, party: str | None) -> str:
    """A player's role in a round, for the handouts: "Prime Minister (Green Future)"."""
    text = {"pm": _("Prime Minister"), "minister": _("Cabinet Minister"),
            "government": _("Government member")}.get(role or "", _("Opposition"))
    return _("%(role)s (%(party)s)") % {"role": text, "party": party} if party else text


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
    gettext_noop("Prices rose round by round. Who gained from inflation and who lost: players "
                 "holding cash, or players holding firms? Look at the wealth table."),
    gettext_noop("When Parliament refused consent, what did the Prime Minister want, and what "
                 "did the Opposition fear? When did it consent?"),
    gettext_noop("A Treasury payment to one player is paid by everyone's taxes. Were payments "
                 "used to keep a coalition together?"),
    gettext_noop("When the Treasury was short, what happened: Bonds (public debt), more tax, or "
                 "no payment? Who pays for public debt later?"),
    gettext_noop("Parties and coalitions: what did each side give up to govern together? "
                 "Which coalition would you form next time, and why?"),
    gettext_noop("Did the Prime Minister's salary and the tax rule serve the whole table, or "
                 "the Government's members? How could Parliament check that?"),
)
STUDENT_QUESTIONS = (
    gettext_noop("Look at your wealth and the prices round by round: did inflation help you or "
                 "hurt you? Why?"),
    gettext_noop("Which of your decisions made you richer, and which cost you? Would you "
                 "change one?"),
    gettext_noop("Were you in the Government or in the Opposition? What could you do there "
                 "that the other side could not?"),
    gettext_noop("Would you have voted differently in Parliament, knowing how the round went? "
                 "(Your vote stays secret: nobody knows it.)"),
)
PM_QUESTION = gettext_noop("You were Prime Minister: whom did your proposals help, and did "
                           "Parliament agree? What would you propose now?")



def _ranking(final: dict[str, Any]) -> list[dict[str, Any]]:
    rows = sorted(({"name": name, "score": v["score"], **v["breakdown"],
                    "winner": name in final["winners"]}
                   for name, v in final["players"].items()), key=lambda r: -r["score"])
    scores = [r["score"] for r in rows]
    for r in rows:  # tied players share a place
        r["place"] = scores.index(r["score"]) + 1
        r["place_name"] = presenters.place_name(r["place"])
    return rows


def _table_context(session: ClassSession, story: TableStory) -> dict[str, Any]:
    final = story.final or get_engine(session.game).scores(_state(story.table))
    ranking = _ranking(final)
    proposals = {p.round: p for p in Proposal.objects.filter(table=story.table)}
    rounds = []
    for r in story.rounds:
        told = pol_story.round_story(r.events)
        start = next((e["multiplier"] for e in r.events if e["type"] == "round_start"),
                     r.multiplier)
        rounds.append({"round": r.round, "start": start, "multiplier": r.multiplier,
                       "treasury": r.public["treasury"], "pm": r.pm or "—", **told})
    players = [p["name"] for p in story.public.get("players", [])]
    wealth = [{"round": r.round, "multiplier": r.multiplier,
               "values": [r.wealth.get(n, 0) for n in players]} for r in story.rounds]
    governments = pol_story.governments(story.rounds, proposals, presenters.proposal_lines)
    failed = [{"round": g["round"], **p} for g in governments for p in g["payments"]
              if not p["made"]]
    consents = [c for g in governments for c in g["consent"]]
    auctions = sum(len([e for e in r.events if e["type"] == "auction"]) for r in story.rounds)
    disasters = sum(len([e for e in r.events if e["type"] == "business_disaster"])
                    for r in story.rounds)
    return {"number": story.number, "ranking": ranking, "final": final,
            "over_text": presenters.over_text({"over_reason": final.get("over_reason")}),
            "rounds": rounds, "lines": story.lines(), "players": players, "wealth": wealth,
            "parliament": pol_story.parliament(story.rounds), "governments": governments,
            "failed": failed, "carried": sum(1 for c in consents if c["carried"]),
            "asked": len(consents), "auctions": auctions, "disasters": disasters,
            "prices": (rounds[0]["start"] if rounds else 1, story.public.get("multiplier", 1)),
            "treasury": story.public.get("treasury", 0),
            "pms": list(dict.fromkeys(r.pm for r in story.rounds if r.pm)),
            "story": story}


def _tables(session: ClassSession) -> list[dict[str, Any]]:
    return [_table_context(session, story) for story in lesson_stories(session)]


class PoleconomyDebrief(Debrief):
    """``Lesson.reports()``: each table's rounds and Governments, and a page per player."""

    class_template = "poleconomy/reports/class.html"
    students_template = "poleconomy/reports/students.html"

    def class_parts(self, session: ClassSession) -> dict[str, Any]:
        tables = _tables(session)
        return {"tables": tables, "students": len(people(session)),
                "rounds_played": max((len(t["rounds"]) for t in tables), default=0),
                "questions": [_(q) for q in QUESTIONS]}

    def student_pages(self, session: ClassSession, seats: Sequence[Seat]
                      ) -> list[dict[str, Any]]:
        by_table = {t["number"]: t for t in _tables(session)}
        pages = []
        for seat in seats:
            assert seat.table is not None
            player = seat.player_name or (seat.shares.player_name if seat.shares else "")
            table = by_table[seat.table.number]
            mine = next((r for r in table["ranking"] if r["name"] == player), None)
            pm_rounds = [r["round"] for r in table["rounds"] if r["pm"] == player]
            questions = ([_(PM_QUESTION)] if pm_rounds else []) + [
                _(q) for q in STUDENT_QUESTIONS]
            pages.append({"nickname": seat.nickname, "player": player, "table": table,
                          "mine": mine, "place": mine["place_name"] if mine else "",
                          "did": pol_story.player_story(table["story"].rounds, player),
                          "pm_rounds": pm_rounds, "questions": questions,
                          "proposals": [g for g in table["governments"]
                                        if g["pm"] == player and (g["lines"] or g["consent"])]})
        return pages

    results = staticmethod(results)
    rounds_csv = staticmethod(rounds_csv)
    results_csv = staticmethod(results_csv)


DEBRIEF = PoleconomyDebrief()
