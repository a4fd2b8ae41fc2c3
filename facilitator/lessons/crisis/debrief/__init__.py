"""Crisis's debrief: the story of each table from its public history (``story``), the class
handout and one page per student about their team (PDF, on the platform's shell
``facilitator.reports.pdf``), and the CSV exports (stable machine ids, never translated texts,
so files from different classes and languages can be put together).

Everything is read from the tables' records and the lesson's final scores (``scoring``): the
rounds' Events, goals and the Crisis track, each team's VP against the goal, what each team
did round by round (``chronicle``: Companies, Employees, production, exports, black-market
sales, loans), where Axia was saved or lost (``turning_points``), the track's chart
(``charts``) and the final ranking. Handouts count students only; a team with no student is
named as a bot team.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.kit import load_state
from facilitator.kit.reports import Debrief, chart_img, csv_text
from facilitator.lessons.crisis import scoring, script, words
from facilitator.lessons.crisis.debrief import charts, chronicle
from facilitator.models import ClassSession, Seat, Table
from games.crisis import data

ROUND_COLUMNS = ("table", "round", "level", "event", "zone_start", "status_start", "goal",
                 "delta", "status", "black_market_sellers", "black_market_premium",
                 "crackdown", "bankrupt")
RESULT_COLUMNS = ("table", "team", "members", "place", "winner", "eligible", "score", "vp",
                  "from_credits", "loans", "penalty", "credits", "companies", "goals_met",
                  "exported_tokens", "black_market_tokens")


@dataclass
class TeamStory:
    name: str  # the engine's name (records, CSV)
    letter: str
    members: list[str]  # the students' nicknames (never a bot's)
    bot: bool  # played by bots only: a bot team, no student in it
    score: dict[str, Any]
    rounds: list[chronicle.TeamRound] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)
    credits: int = 0
    helped: bool = False  # a bot sat in the team beside its students

    @property
    def label(self) -> str:
        """"Team A", or "Team C (bot team)"."""
        if self.bot:
            return _("Team %(letter)s (bot team)") % {"letter": self.letter}
        return _("Team %(letter)s") % {"letter": self.letter}

    @property
    def who(self) -> str:
        """The team's people: "Ana, Luis", "Ana and a bot", "bots only"."""
        if self.bot:
            return _("bots only")
        if self.helped:
            return _("%(names)s and a bot") % {"names": ", ".join(self.members)}
        return ", ".join(self.members)

    @property
    def vp_by_round(self) -> list[int]:
        return [t.vp or 0 for t in self.rounds]

    @property
    def goals_met(self) -> int:
        return sum(t.met for t in self.rounds)

    @property
    def exported(self) -> int:
        return sum(sum(t.exported.values()) for t in self.rounds)

    @property
    def smuggled(self) -> int:
        return sum(sum(t.smuggled.values()) for t in self.rounds)

    @property
    def track_share(self) -> int:
        """The steps its VP against the goals moved the track, all rounds together."""
        return sum(t.difference or 0 for t in self.rounds)

    @property
    def track_lost(self) -> int:
        return -self.track_share

    def totals(self) -> list[tuple[str, str]]:
        """The whole game in a few lines: (what, how much), only what the team did."""
        out = []
        bought = [c for t in self.rounds for c, _paid in t.bought]
        if bought:
            out.append((_("Companies bought"), ", ".join(words.company_name(c) for c in bought)))
        hired = [tile for t in self.rounds for tile in t.hired]
        if hired:
            out.append((_("Employees hired"), ", ".join(words.employee(tile) for tile in hired)))
        produced: Counter[str] = sum((t.produced for t in self.rounds), Counter())
        if +produced:
            out.append((_("Produced"), chronicle.goods(produced)))
        exported: Counter[str] = sum((t.exported for t in self.rounds), Counter())
        if +exported:
            out.append((_("Exported"), _("%(goods)s: %(vp)s and %(credits)s") % {
                "goods": chronicle.goods(exported),
                "vp": words.amount_of(sum(t.export_vp for t in self.rounds), "vp"),
                "credits": words.amount_of(sum(t.export_credits for t in self.rounds),
                                           "credits")}))
        smuggled: Counter[str] = sum((t.smuggled for t in self.rounds), Counter())
        if +smuggled:
            takings = sum(t.smuggle_credits + t.premium for t in self.rounds)
            rounds = [str(t.round) for t in self.rounds if +t.smuggled]
            out.append((_("Black market"), ngettext(
                "%(goods)s for %(credits)s (round %(rounds)s)",
                "%(goods)s for %(credits)s (rounds %(rounds)s)", len(rounds)) % {
                "goods": chronicle.goods(smuggled),
                "credits": words.amount_of(takings, "credits"), "rounds": ", ".join(rounds)}))
        loans, repaid = sum(t.loans for t in self.rounds), sum(t.repaid for t in self.rounds)
        if loans or repaid:
            out.append((_("Loans"), _("taken: %(taken)d, repaid: %(repaid)d") % {
                "taken": loans, "repaid": repaid}))
        return out


@dataclass
class TableStory:
    table: Table
    number: int
    rounds: list[dict[str, Any]]
    teams: list[TeamStory]
    bankrupt: bool
    status: int
    played: int
    start: int = 0
    last_goal: int | None = None
    chart: str = ""
    turning_points: list[str] = field(default_factory=list)

    def result(self) -> dict[str, Any]:
        """The table's result for the reports page (``crisis/reports/_result.html``): the
        winners, how Axia ended and where the Crisis track stopped."""
        winners = [t.label for t in self.teams if t.score.get("winner")]
        return {"winners": _("Winners: %(names)s") % {"names": ", ".join(winners) or "—"},
                "axia": _("Axia went bankrupt") if self.bankrupt else _("Axia survived"),
                "status": self.status}

    @property
    def winners(self) -> list[str]:
        return [t.label for t in self.teams if t.score.get("winner")]



def letters_said(letters: list[str]) -> str:
    """"Teams A and C" / "Team B"."""
    if len(letters) == 1:
        return _("Team %(letter)s") % {"letter": letters[0]}
    return _("Teams %(letters)s and %(last)s") % {"letters": ", ".join(letters[:-1]),
                                                  "last": letters[-1]}


def black_market_said(r: dict[str, Any]) -> str:
    """The round's black-market line in words ("" when nobody sold)."""
    if not r["sellers"]:
        return ""
    who = letters_said(r["sellers"])
    if r["crackdown"]:
        return _("%(who)s sold on the black market: a crackdown, the track %(n)d steps down.") \
            % {"who": who, "n": r["crackdown"]}
    if r["premium"]:
        return _("%(who)s alone sold on the black market and got %(credits)s more.") % {
            "who": who, "credits": words.amount_of(r["premium"], "credits")}
    return _("%(who)s sold on the black market.") % {"who": who}


def step_said(r: dict[str, Any]) -> str:
    """Why the track moved at Evaluation: how many teams met the goal, and the step."""
    met = sum(v["met"] for v in r["vp"])
    delta = r["delta"] or 0
    return ngettext(
        "%(met)d of %(teams)d team met the goal of %(goal)d VP: the track %(delta)+d.",
        "%(met)d of %(teams)d teams met the goal of %(goal)d VP: the track %(delta)+d.",
        len(r["vp"])) % {"met": met, "teams": len(r["vp"]), "goal": r["goal"], "delta": delta}


def turning_points(rounds: list[dict[str, Any]], bankrupt: bool, played: int,
                   planned: int) -> list[str]:
    """Where Axia was saved or lost: its worst and best rounds and how it ended."""
    if not rounds:
        return [_("No round was played.")]
    out = []
    changes = [(r["status"] - r["status_start"], r) for r in rounds]
    worst = min(changes, key=lambda c: (c[0], c[1]["round"]))
    best = max(changes, key=lambda c: (c[0], -c[1]["round"]))
    if best[0] > 0 and best[1] is not worst[1]:
        r = best[1]
        out.append(_("Best round: round %(round)d (%(event)s), the track %(from)d → %(to)d. "
                     "%(why)s") % {"round": r["round"], "event": r["event"],
                                   "from": r["status_start"], "to": r["status"],
                                   "why": step_said(r)})
    if worst[0] < 0:
        r = worst[1]
        why = " ".join(x for x in (step_said(r), black_market_said(r)) if x)
        out.append(_("Worst round: round %(round)d (%(event)s), the track %(from)d → %(to)d. "
                     "%(why)s") % {"round": r["round"], "event": r["event"],
                                   "from": r["status_start"], "to": r["status"], "why": why})
    crackdowns = [r for r in rounds if r["crackdown"]]
    if crackdowns:
        out.append(ngettext(
            "The black market cost Axia %(steps)d steps in %(n)d crackdown.",
            "The black market cost Axia %(steps)d steps in %(n)d crackdowns.",
            len(crackdowns)) % {"steps": sum(r["crackdown"] for r in crackdowns),
                                "n": len(crackdowns)})
    last = rounds[-1]
    if bankrupt:
        out.append(_("Axia went bankrupt in round %(round)d: the track fell below 0 (%(status)d)."
                     " Only the teams that met that round's goal could win.") % {
            "round": last["round"], "status": last["status"]})
    elif played < planned:
        out.append(_("The lesson stopped after round %(round)d; Axia was still standing at "
                     "%(status)d.") % {"round": last["round"], "status": last["status"]})
    else:
        out.append(_("Axia survived all %(n)d rounds: the track ended at %(status)d.") % {
            "n": played, "status": last["status"]})
    return out


def table_story(table: Table, rounds_played: int) -> TableStory:
    state = load_state(table)
    scores = scoring.final_scores(table, state, rounds_played)
    history = [h for h in state.history if "evaluation" in h][:rounds_played]
    seats = list(table.seats.filter(shares__isnull=True, removed=False).order_by("position"))
    told = chronicle.team_rounds(table, state.names, history)
    teams = []
    for name in state.names:
        mine = [s for s in seats if s.player_name == name]
        people = [s.nickname for s in mine if not s.is_bot]
        p = state.player(name)
        teams.append(TeamStory(
            name=name, letter=words.team_letter(state.names, name), members=people,
            bot=not people, helped=bool(people) and any(s.is_bot for s in mine),
            score=scores[name], rounds=told[name], companies=list(p.companies),
            credits=p.credits))
    rounds = []
    for h in history:
        line = h.get("black_market_line") or {}
        event = words.event(h.get("event"))
        r = {"round": h["round"], "level": h["level"], "event_id": h.get("event"),
             "event": event["name"] if event else "—",
             "status_start": h["status_start"], "goal": h["evaluation"]["goal"],
             "delta": h["evaluation"]["delta"], "status": h["status"],
             "sellers": [words.team_letter(state.names, n) for n in line.get("sellers", [])],
             "sellers_ids": list(line.get("sellers", [])),
             "premium": line.get("premium", 0), "crackdown": line.get("crackdown", 0),
             "vp": [{"letter": t.letter, "vp": h["evaluation"]["vp"][t.name],
                     "met": h["evaluation"]["differences"][t.name] >= 0} for t in teams]}
        r["black_market"] = black_market_said(r)
        rounds.append(r)
    teams.sort(key=lambda t: (t.score.get("place") is None, t.score.get("place") or 0,
                              -t.score["score"], t.letter))
    final = history[-1]["status"] if history else state.status
    start = history[0]["status_start"] if history else state.status
    bankrupt = final < 0
    return TableStory(
        table=table, number=table.number, rounds=rounds, teams=teams, bankrupt=bankrupt,
        status=final, played=len(history), start=start,
        last_goal=history[-1]["evaluation"]["goal"] if history else None,
        chart=chart_img(charts.track_chart(start, [r["status"] for r in rounds],
                                           rounds=rounds_played)),
        turning_points=turning_points(rounds, bankrupt, len(history), rounds_played))


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


def team_questions(team: TeamStory, story: TableStory) -> list[str]:
    """Two questions on the game's dilemma (Axia or our own Company), asked about what this
    team did: its black-market sales (or that it never sold) and its missed goals (or what
    meeting them all cost)."""
    sold = [t for t in team.rounds if +t.smuggled]
    if sold:
        crackdowns = [r["round"] for r in story.rounds
                      if r["crackdown"] and team.name in r["sellers_ids"]]
        first = _("Your team sold %(n)d tokens on the black market for %(credits)s.") % {
            "n": team.smuggled,
            "credits": words.amount_of(sum(t.smuggle_credits + t.premium for t in sold),
                                       "credits")}
        if crackdowns:
            first += " " + ngettext(
                "In round %(rounds)s that sale helped cause a crackdown on Axia.",
                "In rounds %(rounds)s those sales helped cause crackdowns on Axia.",
                len(crackdowns)) % {"rounds": ", ".join(map(str, crackdowns))}
        first += " " + _("Was it worth it? Would you sell again?")
    else:
        first = _("Your team never sold on the black market. Did that cost you places in the "
                  "ranking? Was it the right choice?")
    missed = [t for t in team.rounds if t.difference is not None and not t.met]
    if missed:
        worst = min(missed, key=lambda t: (t.difference or 0, t.round))
        second = _("In round %(round)d your team was %(n)d VP short of Axia's goal. What did "
                   "it do with its credits instead, and who paid for it?") % {
            "round": worst.round, "n": -(worst.difference or 0)}
    else:
        second = _("Your team met every goal. What did keeping Axia afloat cost your own "
                   "score, and would you do it again?")
    return [first, second]


class CrisisDebrief(Debrief):
    """``Lesson.reports()``: each table's rounds and teams, and a page per student's team."""

    class_template = "crisis/reports/class.html"
    students_template = "crisis/reports/teams.html"

    def class_parts(self, session: ClassSession) -> dict[str, Any]:
        tables = lesson_story(session)
        return {"tables": tables, "questions": questions(),
                "students": sum(len(team.members) for t in tables for team in t.teams),
                "student_teams": sum(not team.bot for t in tables for team in t.teams),
                "bot_teams": sum(team.bot for t in tables for team in t.teams),
                "rounds_planned": script.rounds_of(session)}

    def student_pages(self, session: ClassSession, seats: Sequence[Seat]
                      ) -> list[dict[str, Any]]:
        """One page per student about the student's team."""
        tables = {t.number: t for t in lesson_story(session)}
        pages = []
        for seat in seats:
            assert seat.table is not None
            story = tables[seat.table.number]
            name = (seat.shares or seat).player_name
            team = next((t for t in story.teams if t.name == name), None)
            if team is not None:
                pages.append({"seat": seat, "team": team, "table": story,
                              "questions": team_questions(team, story),
                              "rounds": [{"round": r, "said": chronicle.sentences(t),
                                          "evaluation": chronicle.evaluation(t)}
                                         for r, t in zip(story.rounds, team.rounds,
                                                         strict=True)]})
        return pages

    results = staticmethod(results)
    rounds_csv = staticmethod(rounds_csv)
    results_csv = staticmethod(results_csv)


DEBRIEF = CrisisDebrief()
