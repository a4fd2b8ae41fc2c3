"""The story of a lesson, read from its log: one entry per table, round by round.

Selectors style: pure reads. Every table is rebuilt by replaying its log
(``facilitator.log.replay_table``), so a report always matches the log as it is now (after an
undo too). The engine's public ``history`` gives the rounds; each player's private
``statement`` gives the student handouts; ``rules.scores`` gives the final count.

Texts are built here with Django's gettext, so call these functions inside
``translation.override(session.language)``. Engine strings (role, card, event names) are
English msgids from ``games/state_in_class/data.py`` and are passed through ``gettext`` too.

Secrecy: nothing here reads a ballot receipt or a vote counter. Tallies come from the
history (per round, already public); a tie-break's decider and choice are never shown, because
"the decider picked C" would tell how they voted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from facilitator.kit import replay_table
from facilitator.kit.reports import lesson_date, people
from facilitator.lessons.state_in_class import charts, script
from facilitator.lessons.state_in_class.words import (
    card_outcome,
    class_change_line,
    class_name,
    coins,
    event_effect_told,
    event_name,
    exclusion_line,
    goal_name,
    measured,
    role_name,
    service_name,
    signed,
    tax_label,
    tax_name,
    tension_cause,
    tension_line,
)
from facilitator.models import ClassSession, Seat, Table
from games.state_in_class import data
from games.state_in_class.audiences import role_card
from games.state_in_class.rules import scores
from games.state_in_class.state import GameState, Player

# --------------------------------------------------------------------------- data classes


@dataclass
class PlayerInfo:
    name: str  # the engine's name (the nickname, or "A & B" for a shared seat)
    seat_id: int | None
    is_bot: bool
    partners: list[str]
    start_role: str | None
    role: str | None

    @property
    def label(self) -> str:
        return _("%(name)s (bot)") % {"name": self.name} if self.is_bot else self.name

    @property
    def start_role_name(self) -> str:
        return role_name(self.start_role)

    @property
    def start_class_name(self) -> str:
        return class_name(data.ROLES[self.start_role].klass) if self.start_role else ""

    @property
    def role_name(self) -> str:
        return role_name(self.role)

    @property
    def class_name(self) -> str:
        return class_name(data.ROLES[self.role].klass) if self.role else ""


@dataclass
class RoundStory:
    number: int
    event: str
    event_name: str
    event_rule: str
    effect: str
    midlife_round: bool
    tension_before: int | None
    tension_after: int | None
    tax: dict[str, Any] | None = None
    revenue: int | None = None
    revenue_notes: list[str] = field(default_factory=list)
    budget: dict[str, Any] | None = None
    after: list[dict[str, Any]] = field(default_factory=list)
    tension: list[dict[str, Any]] = field(default_factory=list)
    exclusions: list[str] = field(default_factory=list)
    obsolescence: bool = False
    midlife: list[dict[str, Any]] = field(default_factory=list)
    class_changes: list[str] = field(default_factory=list)
    failed_here: bool = False


@dataclass
class TableStory:
    number: int
    table_id: int
    state: GameState
    players: list[PlayerInfo]
    final: dict[str, Any]
    start_tension: int | None
    rounds: list[RoundStory]
    final_rows: list[dict[str, Any]]
    charts: dict[str, str]

    @property
    def history(self) -> list[dict[str, Any]]:
        return self.state.history

    @property
    def failed(self) -> bool:
        return bool(self.state.failed)

    @property
    def failed_round(self) -> int | None:
        return self.state.round if self.state.failed else None

    @property
    def legacy(self) -> bool:
        return bool(self.final["legacy"])

    @property
    def levels_sum(self) -> int:
        return int(self.final["levels_sum"])

    @property
    def tension(self) -> int | None:
        return self.state.tension

    @property
    def winners(self) -> list[str]:
        return list(self.final["winners"])

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def player(self, name: str) -> PlayerInfo:
        return next(p for p in self.players if p.name == name)

    def result_lines(self) -> dict[str, str]:
        return table_result(self)

    def tax_winners(self) -> list[tuple[int, str]]:
        return [(e["round"], e["tax"]["winner"]) for e in self.history
                if (e.get("tax") or {}).get("winner")]

    def main_tax(self) -> str | None:
        """The tax that won most rounds (ties: the latest of them)."""
        counts: dict[str, int] = defaultdict(int)
        last: dict[str, int] = {}
        for rnd, option in self.tax_winners():
            counts[option] += 1
            last[option] = rnd
        if not counts:
            return None
        return max(counts, key=lambda o: (counts[o], last[o]))

    def exclusions(self) -> list[tuple[int, dict[str, Any]]]:
        return [(e["round"], x) for e in self.history for x in e.get("exclusions") or []]


@dataclass
class LessonStory:
    session: ClassSession
    title: str
    date: str
    teacher: str
    game: str
    students: int
    tables: list[TableStory]


# --------------------------------------------------------------------------- tables


def _players(table: Table, state: GameState) -> list[PlayerInfo]:
    seats = {s.player_name: s for s in table.seats.filter(shares__isnull=True)}
    partners: dict[int, list[str]] = defaultdict(list)
    for s in table.seats.filter(shares__isnull=False).order_by("nickname"):
        partners[s.shares_id].append(s.nickname)
    start_roles = {c["player"]: c["from_role"] for e in state.history
                   for c in e.get("class_changes") or [] if c.get("result") == "changed"}
    out = []
    for p in state.players:
        seat = seats.get(p.name)
        out.append(PlayerInfo(
            name=p.name, seat_id=seat.pk if seat else None,
            is_bot=bool(seat and seat.is_bot),
            partners=partners.get(seat.pk, []) if seat else [],
            start_role=start_roles.get(p.name, p.role), role=p.role))
    return out


def start_tension(history: Sequence[Mapping[str, Any]]) -> int | None:
    series = charts.tension_series(history)
    return series[0][1] if series else None


def _tax(entry: Mapping[str, Any], players: int, set_aside: int = 0
         ) -> dict[str, Any] | None:
    tax = entry.get("tax")
    if not tax or "tally" not in tax:
        return None
    winner, how = tax.get("winner"), tax.get("decided_by")
    # A count of fewer than 3 ballots keeps only its outcome (the ranking), never a tally.
    secret = tax["tally"] is None
    tally = tax["tally"] or {}
    if secret:
        ranking = tax.get("ranking") or []
        tied = list(ranking[0]) if ranking and len(ranking[0]) > 1 else []
    else:
        top = max(tally.values()) if tally else 0
        tied = [o for o in data.TAX_OPTIONS if tally.get(o, 0) == top and top > 0]
    options = ", ".join(tied[:-1]) + " " + _("and") + " " + tied[-1] if len(tied) > 1 else ""
    how_text = {
        "plurality": _("most votes"),
        "tie_break": _("a tie between %(options)s, settled by the tie-break rule: the lowest "
                       "Income among the voters decides") % {"options": options},
        "drawn": _("a tie between %(options)s; nobody asked claimed a tied option, so one "
                   "was drawn from the bag") % {"options": options},
        "carried_over": _("nobody voted, so the previous tax stayed"),
    }.get(how or "", "")
    return {
        "tally": None if secret else [{"option": o, "name": tax_name(o),
                                       "votes": tally.get(o, 0), "won": o == winner}
                                      for o in data.TAX_OPTIONS],
        "voters": tax.get("voters", 0), "players": players, "set_aside": set_aside,
        "winner": winner, "winner_label": tax_label(winner) if winner else "",
        "how": how, "how_text": how_text, "tie": how in ("tie_break", "drawn"),
    }


def _budget(entry: Mapping[str, Any], players: int, set_aside: int = 0
            ) -> dict[str, Any] | None:
    budget, split = entry.get("budget"), entry.get("split")
    if not budget and not split:
        return None
    secret = bool(budget) and budget.get("tally") is None and "ranking" in budget
    tally = (budget or {}).get("tally") or {}
    out: dict[str, Any] = {
        "tally": None if secret else [{"service": s, "name": service_name(s),
                                       "votes": tally.get(s, 0)} for s in data.SERVICES],
        "voters": (budget or {}).get("voters", 0), "players": players,
        "set_aside": set_aside,
        "tie": any(t.get("kind") == "budget" for t in entry.get("tie_breaks") or []),
    }
    if split:
        places = [_("1st"), _("2nd"), _("3rd")]
        out["ranking"] = [{"place": places[i], "name": service_name(s)}
                          for i, s in enumerate(split["ranking"])]
        out["shares"] = [{"name": service_name(s), "coins": split["shares"].get(s, 0)}
                         for s in split["ranking"]]
        redirected: dict[tuple[str, str], int] = defaultdict(int)
        for step in split.get("steps") or []:
            if step["to"] != step["service"]:
                redirected[(step["service"], step["to"])] += step["coins"]
        out["redirects"] = [
            ngettext("%(service)s was already at level 5, so %(n)d coin of its share went to "
                     "%(to)s.",
                     "%(service)s was already at level 5, so %(n)d coins of its share went to "
                     "%(to)s.", n) % {"service": service_name(s), "n": n, "to": service_name(t)}
            for (s, t), n in redirected.items()]
        ups: dict[str, list[int]] = defaultdict(list)
        for up in split.get("level_ups") or []:
            ups[up["service"]].append(up["level"])
        out["level_ups"] = [
            (_("%(service)s rose to level %(level)d.") if len(levels) == 1 else
             _("%(service)s rose %(n)d levels, to level %(level)d.")) % {
                "service": service_name(s), "level": max(levels), "n": len(levels)}
            for s, levels in ups.items()]
    return out


def _rounds(state: GameState, start: int | None,
            set_aside: Mapping[str, int] | None = None) -> list[RoundStory]:
    """The rounds' stories; ``set_aside``: the tokens of each bag closed unopened (fewer
    than 3: our privacy rule), by decision id, which the record cannot tell."""
    set_aside = set_aside or {}
    stories: list[RoundStory] = []
    before = start
    inheritance = 0
    last = state.history[-1]["round"] if state.history else 0
    for entry in state.history:
        event = entry["event"]
        changes = entry.get("tension") or []
        after = entry.get("tension_after")
        if after is None and changes:
            after = changes[-1]["value"]
        elif after is None:
            after = before
        story = RoundStory(
            number=entry["round"], event=event, event_name=event_name(event),
            event_rule=_(data.EVENT_TEXTS[event]),
            effect=event_effect_told(event, entry.get("event_effect") or {}),
            midlife_round=entry["round"] == data.MIDLIFE_ROUND,
            tension_before=before, tension_after=after,
            tax=_tax(entry, len(state.players),
                     set_aside.get(script.decision_id(entry["round"], "tax"), 0)),
            revenue=entry.get("revenue"),
            budget=_budget(entry, len(state.players),
                           set_aside.get(script.decision_id(entry["round"], "budget"), 0)),
            tension=[{"delta": c["delta"], "signed": signed(c["delta"]),
                      "cause": tension_cause(c), "line": tension_line(c)} for c in changes],
            exclusions=[exclusion_line(x) for x in entry.get("exclusions") or []],
            obsolescence=bool(entry.get("obsolescence")),
            failed_here=bool(state.failed and entry["round"] == last),
        )
        if story.revenue is not None:
            effect = entry.get("event_effect") or {}
            if effect.get("effect") == "peace":
                story.revenue_notes.append(_("including %(coins)s from Social peace") % {
                    "coins": coins(effect.get("coins", 0))})
            if inheritance:
                story.revenue_notes.append(_("including %(coins)s from the inheritance") % {
                    "coins": coins(inheritance)})
            inheritance = 0
        if entry.get("levels"):
            story.after = [{"name": service_name(s), "level": entry["levels"][s],
                            "fund": entry.get("funds", {}).get(s, 0), "price": state.price}
                           for s in data.SERVICES]
        for draw in entry.get("midlife") or []:
            inheritance += draw.get("budget") or 0
            story.midlife.append({
                "player": draw["player"], "role": role_name(draw.get("role")),
                "card": _(data.MIDLIFE_CARDS[draw["card"]].name), "measured": measured(draw),
                "outcome": card_outcome(draw), "token": bool(draw.get("token"))})
        story.class_changes = [class_change_line(c) for c in entry.get("class_changes") or []]
        stories.append(story)
        before = after
    return stories


def _final_rows(state: GameState, final: Mapping[str, Any],
                players: Sequence[PlayerInfo]) -> list[dict[str, Any]]:
    info = {p.name: p for p in players}
    rows = []
    for name, row in final["players"].items():
        b = row["breakdown"]
        rows.append({
            "name": name, "label": info[name].label if name in info else name,
            "role": role_name(row["role"]), "class": class_name(row["class"]),
            "coins": row["coins"], "pact": row["pact"], "goal": goal_name(row["goal"]),
            "exclusions": row["exclusions"],
            "dividend": signed(b["dividend"]), "legacy": signed(b["legacy"]),
            "life_goal": signed(b["life_goal"]), "exclusion_points": signed(b["exclusions"]),
            "tension": signed(b["tension"]), "score": row["score"],
            "winner": name in final["winners"],
        })
    seat = {p.name: p.seat for p in state.players}
    rows.sort(key=lambda r: (-r["score"], seat.get(r["name"], 0)))
    return rows


def table_story(table: Table, *, chart_size: tuple[int, int] = (360, 200),
                with_charts: bool = True) -> TableStory:
    """Everything the debrief says about one table, from a full replay of its log."""
    state = replay_table(table)
    players = _players(table, state)
    start = start_tension(state.history)
    final = scores(state)
    width, height = chart_size
    return TableStory(
        number=table.number, table_id=table.pk, state=state, players=players, final=final,
        start_tension=start,
        rounds=_rounds(state, start, dict(table.bags.filter(set_aside__gt=0)
                                          .values_list("decision", "set_aside"))),
        final_rows=_final_rows(state, final, players),
        charts={
            "tension": charts.tension_chart(state.history, width=width, height=height),
            "levels": charts.levels_chart(state.history, width=width, height=height),
            "tax": charts.tax_chart(state.history, width=width, height=height),
        } if with_charts else {},
    )


def table_result(story: TableStory) -> dict[str, str]:
    """The country's result in short phrases (cover page, student pages)."""
    legacy = (_("Legacy reached (%(n)d of %(of)d levels)") if story.legacy else
              _("No Legacy (%(n)d of %(of)d levels)")) % {
        "n": story.levels_sum, "of": data.LEGACY_LEVELS}
    if story.failed:
        state = _("The State failed in round %(round)d") % {"round": story.failed_round}
    elif story.over:
        state = _("The State survived")
    else:
        state = _("The game stopped in round %(round)d") % {"round": story.state.round}
    winners = ", ".join(story.winners) if story.winners else (
        _("nobody (the State failed)") if story.failed else "—")
    return {"legacy": legacy, "state": state, "tension": str(story.tension or "—"),
            "winners": winners}


def pact_line(story: TableStory) -> str:
    n = len(story.players)
    t1, t2, t3 = data.SETUPS[n].tension_thresholds if n in data.SETUPS else (0, 0, 0)
    total = story.final.get("pact_total")
    if total is None or story.start_tension is None:
        return _("The opening pact was not finished.")
    return _("The opening pact collected %(coins)s from %(n)d players, so Tension started "
             "at %(t)d. (With %(n)d players: %(t1)d or more coins → 1; %(t2)d or more → 2; "
             "%(t3)d or more → 3; fewer → 4.)") % {
        "coins": coins(total), "n": n, "t": story.start_tension, "t1": t1, "t2": t2, "t3": t3}


# --------------------------------------------------------------------------- the lesson


def teacher_name(user: AbstractBaseUser) -> str:
    """The teacher's full name, or "" when the account has none: a login name is not a
    person's name to print on a class handout."""
    return str(getattr(user, "get_full_name", lambda: "")() or "").strip()



def lesson_story(session: ClassSession, *, chart_size: tuple[int, int] = (360, 200),
                 with_charts: bool = True) -> LessonStory:
    tables = [table_story(t, chart_size=chart_size, with_charts=with_charts)
              for t in session.tables.select_related("session").order_by("number")]
    students = session.seats.filter(is_bot=False, table__isnull=False).count()
    return LessonStory(
        session=session, title=str(session), date=lesson_date(session),
        teacher=teacher_name(session.owner), game=session.game_name,
        students=students, tables=tables)


# --------------------------------------------------------------------------- students


STATEMENT_OTHER = {
    "start": lambda: _("start"), "pact": lambda: _("pact"), "boom": lambda: _("economic boom"),
    "storm": lambda: _("Great storm"), "class_change": lambda: _("class change"),
}


def _other_label(reason: str) -> str:
    if reason.startswith("midlife:"):
        card = data.MIDLIFE_CARDS.get(reason.split(":", 1)[1])
        return _(card.name) if card else reason
    maker = STATEMENT_OTHER.get(reason)
    return maker() if maker else reason


def statement_rows(player: Player, exclusion_rounds: Sequence[int]) -> list[dict[str, Any]]:
    """The player's ledger statement, one row per round (round 0: start and pact)."""
    rows: dict[int, dict[str, Any]] = {}
    for line in player.statement:
        rnd = line["round"]
        row = rows.setdefault(rnd, {"round": rnd, "income": 0, "tax": 0, "cost": 0,
                                    "other": [], "balance": 0, "tax_option": ""})
        reason, amount = line["reason"], line["amount"]
        if reason == "income":
            row["income"] += amount
        elif reason == "tax":
            row["tax"] += amount
            row["tax_option"] = line.get("option", "")
        elif reason == "cost_of_living":
            row["cost"] += amount
        else:
            row["other"].append(f"{_other_label(reason)} {signed(amount)}")
        row["balance"] = line["balance"]
    out = []
    for rnd in sorted(rows):
        row = rows[rnd]
        if rnd in exclusion_rounds:
            row["other"].append(_("Exclusion token"))
        out.append({
            "round": pgettext("the beginning of the game", "Start") if rnd == 0 else str(rnd),
            "income": signed(row["income"]) if row["income"] else "",
            "tax": (signed(row["tax"]) + (f" ({row['tax_option']})" if row["tax_option"] else "")
                    ) if row["tax"] else "",
            "cost": signed(row["cost"]) if row["cost"] else "",
            "other": ", ".join(row["other"]),
            "balance": row["balance"],
        })
    return out


@dataclass
class StudentStory:
    seat: Seat
    nickname: str
    table: TableStory
    player: Player
    info: PlayerInfo
    shared_with: list[str]
    start_card: dict[str, Any]
    final_card: dict[str, Any] | None
    chart: str
    statement: list[dict[str, Any]]
    final: dict[str, Any] | None
    breakdown: list[dict[str, str]]
    exclusion_rounds: list[int]
    midlife: dict[str, Any] | None
    class_change: dict[str, Any] | None
    tax_paid: int
    prompts: list[str] = field(default_factory=list)

    @property
    def goal_name(self) -> str:
        return goal_name(self.final["goal"]) if self.final else ""

    @property
    def is_winner(self) -> bool:
        return self.player.name in self.table.winners


def _card(role_id: str) -> dict[str, Any]:
    card = role_card(role_id)
    return {"name": role_name(role_id), "class": class_name(card["class"]),
            "income": card["income"], "cost": card["cost_of_living"],
            "description": _(card["description"]),
            "goals": [{"name": goal_name(k), "coins": v} for k, v in card["goals"].items()],
            "helped_by": ", ".join(service_name(s) for s in card["helped_by"])}


def student_story(seat: Seat, story: TableStory) -> StudentStory:
    playing_name = seat.shares.player_name if seat.shares_id and seat.shares else \
        seat.player_name
    player = story.state.player(playing_name)
    info = story.player(playing_name)
    if seat.shares_id and seat.shares:
        shared = [seat.shares.nickname, *[n for n in info.partners if n != seat.nickname]]
    else:
        shared = list(info.partners)
    exclusion_rounds = sorted({rnd for rnd, x in story.exclusions() if x["player"] == player.name})
    final_role = player.role
    start_role = info.start_role
    goals = {}
    if final_role:
        role = data.ROLES[final_role]
        goals = {"get-by": role.get_by, "live-well": role.live_well, "thrive": role.thrive}
    final = story.final["players"].get(player.name)
    labels = {"dividend": _("Public dividend (2 per service level)"),
              "legacy": _("Legacy (+5 for everyone)"),
              "life_goal": _("Your life goal"),
              "exclusions": _("Exclusion tokens: %(n)d (−5 each)") % {"n": player.exclusions},
              "tension": _("Final Tension")}
    breakdown = [{"label": labels[k], "points": signed(v)}
                 for k, v in (final or {}).get("breakdown", {}).items()]
    midlife = next(({"card": _(data.MIDLIFE_CARDS[d["card"]].name), "measured": measured(d),
                     "outcome": card_outcome(d), "token": d.get("token"), "raw": d}
                    for e in story.history for d in e.get("midlife") or []
                    if d["player"] == player.name), None)
    change = next(({"line": class_change_line(c), "raw": c}
                   for e in story.history for c in e.get("class_changes") or []
                   if c["player"] == player.name), None)
    tax_paid = -sum(line["amount"] for line in player.statement if line["reason"] == "tax")
    return StudentStory(
        seat=seat, nickname=seat.nickname, table=story, player=player, info=info,
        shared_with=shared,
        start_card=_card(start_role) if start_role else {},
        final_card=_card(final_role) if final_role and final_role != start_role else None,
        chart=charts.coins_chart(player.statement, goals=goals,
                                 exclusion_rounds=exclusion_rounds, labels=False,
                                 width=600, height=130),
        statement=statement_rows(player, exclusion_rounds),
        final=final, breakdown=breakdown, exclusion_rounds=exclusion_rounds,
        midlife=midlife, class_change=change, tax_paid=tax_paid,
    )


def lesson_students(session: ClassSession, stories: Sequence[TableStory] | None = None,
                    *, seats: Sequence[Seat] | None = None) -> list[StudentStory]:
    """One story per student of ``seats`` (default: every student who sat at a table, bots
    and removed students excepted: ``kit.reports.people``), table by table."""
    by_id = {s.table_id: s for s in stories} if stories is not None else {}
    out = []
    for seat in people(session) if seats is None else seats:
        table = seat.table
        assert table is not None
        if table.pk not in by_id:
            table.session = session
            by_id[table.pk] = table_story(table)
        out.append(student_story(seat, by_id[table.pk]))
    return out
