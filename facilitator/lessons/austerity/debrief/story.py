"""The story of an Austerity lesson, read from its log: each table's country year by year.

Selectors style: pure reads. Every table is rebuilt by replaying its record
(``facilitator.log.record_actions``) one decision at a time, so a report always matches the
log as it is now (after an undo too):

- the engine's public ``history`` (one entry per year: the tracks and the bag at its start,
  then a log line per draw, choice, Cuts step and action) gives the draws and what was
  chosen;
- the engine's events of each decision give the track moves, each in the part of the year it
  happened in (a draw, or Year End);
- the state after each decision gives the charts' points (the tracks and the Debt cubes);
- the table's counted bags give the budget session: which item was on the ballot, its
  options, how many voted (the receipts) and what it chose (the count's engine actions,
  logged in the teacher's name at the step that counted the bag).

Secrecy: the lesson counts a budget item into engine actions; it keeps the tally only where
the platform published one (a bag of 3 ballots or more, ``TablePlay.counts``), as State in
Class's log does. A bag of fewer prints what it chose and how many voted, nothing else (not
even a tie). Nothing here reads a sealed ballot.

Texts are built with Django's gettext: call these inside ``translation.override``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator.kit import engine_of, record_actions
from facilitator.kit.reports import lesson_date, people
from facilitator.lessons.austerity import explaining, portfolios, script
from facilitator.lessons.austerity import motions as lesson_motions
from facilitator.lessons.austerity.debrief import charts, words
from facilitator.lessons.austerity.debrief.charts import Sample
from facilitator.lessons.austerity.models import TablePlay
from facilitator.lessons.austerity.scoring import UNFINISHED_RULE, CountryResult, country_result
from facilitator.models import Bag, ClassSession, Seat, Table, TableAction
from games.austerity import data
from games.austerity.state import GameState

Actor = TableAction.Actor
How = TableAction.How
SESSION, YEAR_END = "session", "year-end"  # the parts of a year that are not a draw


# --------------------------------------------------------------------------- data classes


@dataclass
class BallotStory:
    decision: str
    item: str
    name: str
    options: list[str]
    chosen: str
    chosen_label: str
    voters: int  # ballots in the bag (receipts): who voted is public, what never
    seats: int
    # The tally where the count published one (3 ballots or more), else None: a bag of fewer
    # keeps only what it chose. ``tie``: the tie rule decided it (never said below 3 ballots).
    tally: dict[str, int] | None = None
    tie: bool = False
    # Tokens set aside unopened (fewer than 3, and not every voter's: our privacy rule); the
    # item then changed nothing, as if nobody had voted.
    set_aside: int = 0

    @property
    def options_label(self) -> str:
        return " / ".join(words.item_choice(self.item, o) for o in self.options)

    @property
    def tally_label(self) -> str:
        """"no 1 · 1 time 3 · 2 times 1", in the options' order ("" without a tally)."""
        if self.tally is None:
            return ""
        return " · ".join(f"{words.item_choice(self.item, o)} {self.tally.get(o, 0)}"
                          for o in self.options)


@dataclass
class DrawStory:
    number: int  # the draw's number in its year
    cubes: str
    event: str | None
    event_name: str
    event_text: str
    decisions: list[str] = field(default_factory=list)
    event_changed: str = ""  # "changed by the policy card Police State" ("" as printed)
    changes: list[str] = field(default_factory=list)
    lost: str = ""


@dataclass
class MotionStory:
    """A motion the class put to a secret vote: what it asked, what the count decided, how
    many voted and, from 3 ballots, the yes and no votes (never who voted what)."""

    number: int
    label: str  # "Raise Taxes now."
    status: str  # carried, rejected, dropped (carried, but the game could no longer do it)
    voters: int
    seats: int
    tally: dict[str, int] | None = None
    tie: bool = False
    target: str = ""  # what it asked, as the engine names it ("raise-taxes", "turn:tax")

    @property
    def line(self) -> str:
        asked = {"carried": _("The class's motion %(n)d (%(motion)s) was carried"),
                 "rejected": _("The class's motion %(n)d (%(motion)s) was not carried"),
                 }.get(self.status, _("The class's motion %(n)d (%(motion)s) was carried, "
                                      "but the game could no longer do it"))
        said = asked % {"n": self.number, "motion": self.label.rstrip(".")}
        votes = _("%(v)d of %(n)d voted") % {"v": self.voters, "n": self.seats}
        if self.tally is not None:
            votes += ": " + _("%(y)d yes, %(no)d no") % {
                "y": self.tally.get(script.YES, 0), "no": self.tally.get(script.NO, 0)}
        return f"{said} ({votes})."


@dataclass
class YearStory:
    year: int
    ministers: list[str]
    tracks_start: dict[str, int]
    debt_start: int
    ballots: list[BallotStory] = field(default_factory=list)
    opening: list[str] = field(default_factory=list)  # the minister's actions before drawing
    session: list[str] = field(default_factory=list)  # what changed before the first draw
    draws: list[DrawStory] = field(default_factory=list)
    year_end: list[str] = field(default_factory=list)
    motions: list[MotionStory] = field(default_factory=list)  # put to the vote this year
    ended: str = ""
    # Who else answered for the minister, and how: "Farid stood in for Ana (2 decisions)."
    minister_notes: list[str] = field(default_factory=list)
    teacher_stood_in: bool = False

    items: tuple[str, ...] = script.BUDGET_ITEMS  # the items this country's sessions have

    @property
    def ballot_cells(self) -> list[BallotStory | None]:
        """The year's ballots in the session's order, None for an item not asked."""
        by_item = {b.item: b for b in self.ballots}
        return [by_item.get(item) for item in self.items]

    @property
    def tracks_list(self) -> list[tuple[str, int]]:
        return [(words.track(t), self.tracks_start[t]) for t in data.TRACKS]


@dataclass
class SeatInfo:
    seat_id: int
    name: str
    position: int
    is_bot: bool
    partners: list[str]
    portfolio: str | None
    minister_years: list[int]
    stood_in_years: list[int] = field(default_factory=list)  # answered for another minister

    @property
    def label(self) -> str:
        return _("%(name)s (bot)") % {"name": self.name} if self.is_bot else self.name

    @property
    def portfolio_name(self) -> str:
        return str(portfolios.NAMES[self.portfolio]) if self.portfolio else ""


@dataclass
class CutsStory:
    institution: str
    name: str
    steps: int  # Cuts steps suffered in the whole game
    penalties: int  # final steps: the penalty was paid
    penalty_text: str


@dataclass
class TableStory:
    number: int
    table_id: int
    state: GameState
    start: GameState
    result: CountryResult
    seats: list[SeatInfo]
    years: list[YearStory]
    samples: list[Sample]
    cuts: list[CutsStory]
    ballots: list[BallotStory]
    counts: dict[str, int]  # every action taken in the game, by kind (raise-taxes, ...)
    items: tuple[str, ...] = script.BUDGET_ITEMS
    charts: dict[str, str] = field(default_factory=dict)

    @property
    def item_names(self) -> list[str]:
        return [words.item_name(item) for item in self.items]

    @property
    def played(self) -> int:
        """The last year the country played (0: none)."""
        return self.years[-1].year if self.years else 0

    @property
    def result_line(self) -> str:
        return words.result_line(self.result, self.played)

    @property
    def result_kind(self) -> str:
        return words.result_kind(self.result)

    @property
    def unfinished_rule(self) -> str:
        return str(UNFINISHED_RULE) if self.result.kind == "unfinished" else ""

    @property
    def scenario(self) -> str:
        return _(data.SCENARIOS[self.state.scenario].name)

    @property
    def tracks_sum(self) -> int:
        return self.result.tracks

    def result_lines(self) -> dict[str, str]:
        return {"lines": [self.result_kind, self.result_line]}


@dataclass
class LessonStory:
    session: ClassSession
    title: str
    date: str
    teacher: str
    game: str
    students: int
    portfolios: bool
    tables: list[TableStory]


# --------------------------------------------------------------------------- replay


def _bucket_of(event: dict[str, Any], bucket: tuple[int, Any]) -> tuple[int, Any]:
    """The part of the game an event opens: a draw, Year End, the next year's session."""
    kind = event["type"]
    if kind == "drawn":
        return (event["year"], event["draw"])
    if kind == "year_end":
        return (event["year"], YEAR_END)
    if kind == "year_start":
        return (event["year"], SESSION)
    return bucket


@dataclass
class _Step:
    """One logged decision as the replay met it: the part of the game it was taken in, the
    action, and who took it (``actor``, ``seat_id``), how (``how``: ``TableAction.How``, ""
    in a log written before it was kept) and whose decision it was (``on_behalf_id``); all
    None if the log and the record differ."""

    part: tuple[int, Any]
    action: dict[str, Any]
    actor: str | None
    seat_id: int | None
    how: str | None = None
    on_behalf_id: int | None = None


@dataclass
class _Replay:
    state: GameState
    start: GameState
    samples: list[Sample]
    events: dict[tuple[int, Any], list[dict[str, Any]]]  # track, cuts, game over, by part
    steps: list[_Step]
    # each draw's event as the cards in force made it (``explaining.event_in_force``)
    in_force: dict[tuple[int, Any], dict[str, str]] = field(default_factory=dict)
    # the engine log lines (by ``id``) of the actions and policy turns a table vote decided
    # during the year or at Year End (a motion, the Actions ballot), not a budget count
    voted: set[int] = field(default_factory=set)


def _sample(state: GameState) -> Sample:
    return Sample(state.draws_done, state.year, dict(state.tracks), state.bag[data.DEBT],
                  portfolios.debt(state))


KEPT_EVENTS = ("track", "cuts", "game_over")
SUPPLY = "supply"  # the engine's place for cubes outside the game


def _kept(event: dict[str, Any]) -> bool:
    """Track moves, Cuts, the end, and Debt cubes coming into the game or leaving it."""
    if event["type"] == "cubes":
        return event["colour"] == data.DEBT and SUPPLY in (event["from"], event["to"])
    return event["type"] in KEPT_EVENTS


def _replay(table: Table) -> _Replay:
    """The record replayed one decision at a time. A sample is kept per draw (the country
    once the draw is resolved) and per year start (after Year End and the budget session)."""
    engine = engine_of(table)
    start = engine.new_game(table.config, table.seed)
    state = engine.new_game(table.config, table.seed)
    actions = record_actions(table)
    rows = list(table.actions.order_by("seq").values_list("actor", "seat_id", "how",
                                                          "on_behalf_id"))
    who: list[tuple[str | None, int | None, str | None, int | None]] = \
        rows if len(rows) == len(actions) else [(None, None, None, None)] * len(actions)
    samples = [_sample(state)]
    events: dict[tuple[int, Any], list[dict[str, Any]]] = defaultdict(list)
    steps: list[_Step] = []
    in_force: dict[tuple[int, Any], dict[str, str]] = {}
    part: tuple[int, Any] = (state.year, state.draw or SESSION)
    voted: set[int] = set()
    for action, (actor, seat_id, how, whose) in zip(actions, who, strict=True):
        steps.append(_Step(part, action, actor, seat_id, how, whose))
        year, before = state.year, len(state.this_year["log"])
        state, happened = engine.replay_actions(state, [action])
        if how == How.VOTE and part[1] != SESSION:
            log = next(e["log"] for e in state.history if e["year"] == year)
            voted.update(id(line) for line in log[before:]
                         if line["kind"] in ("action", "policy"))
        for event in happened:
            part = _bucket_of(event, part)
            if _kept(event):
                events[part].append(event)
            if event["type"] == "drawn" and len(event["cubes"]) == 2:
                # the policy cards turn only between years: those after the draw were in force
                in_force[part] = explaining.event_in_force(state, data.pair_key(event["cubes"]))
        point = _sample(state)
        if (point.draw, point.year) == (samples[-1].draw, samples[-1].year):
            samples[-1] = point
        else:
            samples.append(point)
    return _Replay(state, start, samples, events, steps, in_force, voted)


# --------------------------------------------------------------------------- the budget session


# A budget session's bag (``script.decision_id``); other table ballots are not the session's.
BUDGET_BAG = re.compile(r"y(\d+)\.budget\.(" + "|".join(script.BUDGET_ITEMS) + ")")


def _counted_actions(table: Table) -> dict[int, list[dict[str, Any]]]:
    """The teacher's logged actions by the step that applied them (a count's actions)."""
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for step_id, payload in (table.actions.filter(actor=Actor.TEACHER, step__isnull=False)
                             .order_by("seq").values_list("step_id", "payload")):
        out[step_id].append(payload)
    return out


def _item_matches(item: str, payload: dict[str, Any]) -> bool:
    """Whether ``payload`` is one of the actions a count of ``item`` stands for."""
    if item == script.POLICY_ITEM:
        return payload.get("type") == "policy"
    if payload.get("type") != "action":
        return False
    choice = str(payload.get("choice", ""))
    return {script.TAXES: choice == data.RAISE_TAXES, script.BORROW: choice == data.BORROW,
            script.LOAN: choice == data.PAY_LOAN,
            script.INSTITUTION: choice.startswith(data.OPEN + ":")}.get(item, False)


def _chosen(item: str, options: Sequence[str], actions: list[dict[str, Any]]) -> str:
    """The option whose engine actions are ``actions`` (``script.item_actions``)."""
    for option in options:
        if script.item_actions(item, option) == actions:
            return option
    return script.NO_CHANGE[item]


def _ballots(table: Table, seats: int) -> list[BallotStory]:
    counted = _counted_actions(table)
    order = {item: i for i, item in enumerate(script.BUDGET_ITEMS)}
    bags = [bag for bag in table.bags.filter(status=Bag.Status.COUNTED)
            if BUDGET_BAG.fullmatch(bag.decision)]
    voters = {bag.pk: bag.receipts.count() for bag in bags}

    def key(bag: Bag) -> tuple[int, int]:
        return ballot_year_of(bag.decision), order[script.item_of(bag.decision)]

    play = TablePlay.objects.filter(table=table).first()
    published = {c["decision"]: c for c in (play.counts if play is not None else [])}
    out = []
    for bag in sorted(bags, key=key):
        item = script.item_of(bag.decision)
        count = published.get(bag.decision, {})
        mine = [a for a in counted.get(bag.counted_by_id or -1, []) if _item_matches(item, a)]
        chosen = _chosen(item, bag.options, mine)
        out.append(BallotStory(
            decision=bag.decision, item=item, name=words.item_name(item),
            options=list(bag.options), chosen=chosen,
            chosen_label=words.item_choice(item, chosen), voters=voters[bag.pk], seats=seats,
            tally=count.get("tally"), tie=bool(count.get("tie")), set_aside=bag.set_aside))
    return out


def ballot_year_of(decision: str) -> int:
    match = BUDGET_BAG.fullmatch(decision)
    assert match is not None
    return int(match.group(1))


def ballot_year(ballot: BallotStory) -> int:
    return ballot_year_of(ballot.decision)


# --------------------------------------------------------------------------- the years


def _track_changes(events: list[dict[str, Any]]) -> list[str]:
    """Each track's move in a part of the year, first value to last (0 marked as lost)."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for e in events:
        if e["type"] == "track":
            first.setdefault(e["track"], e["from"])
            last[e["track"]] = e["to"]
    out = []
    for t in data.TRACKS:
        if t in first and first[t] != last[t]:
            out.append(_("%(track)s %(a)d → %(b)d") % {"track": words.track(t), "a": first[t],
                                                         "b": last[t]})
    return out


def _cuts_lines(events: list[dict[str, Any]]) -> list[str]:
    """The Cuts steps of a part of the year, in one line."""
    steps = []
    for e in events:
        if e["type"] != "cuts":
            continue
        name = words.institution(e["institution"])
        if e["final"]:
            steps.append(_("%(institution)s (last step: %(penalty)s)") % {
                "institution": name,
                "penalty": _(data.INSTITUTIONS[e["institution"]].cuts_text).rstrip(".")})
        else:
            steps.append(_("%(institution)s (step %(step)d of %(steps)d)") % {
                "institution": name, "step": e["step"], "steps": data.CUTS_STEPS})
    return [_("Cuts: %(steps)s") % {"steps": ", ".join(steps)}] if steps else []


def _debt_lines(events: list[dict[str, Any]]) -> list[str]:
    """Debt cubes that came into the game or left it in a part of the year."""
    added = sum(e["count"] for e in events if e["type"] == "cubes" and e["from"] == SUPPLY)
    removed = sum(e["count"] for e in events if e["type"] == "cubes" and e["to"] == SUPPLY)
    out = []
    if added:
        out.append(ngettext("%(n)d new Debt cube", "%(n)d new Debt cubes", added)
                   % {"n": added})
    if removed:
        out.append(ngettext("%(n)d Debt cube paid off", "%(n)d Debt cubes paid off", removed)
                   % {"n": removed})
    return out


def _draw_lines(log: list[dict[str, Any]], voted: set[int] | None = None,
                carried: dict[str, list[int]] | None = None) -> list[str]:
    """The decisions of one draw, from its log lines. An action a table vote decided
    (``voted``: the lines' ids) is told as the class's motion (``carried``: the year's
    carried motions' numbers by what they asked, taken in order) or as the table's vote."""
    voted, carried = voted or set(), carried if carried is not None else {}
    decisions = []
    key = None
    for line in log:
        kind = line["kind"]
        if kind == "draw":
            key = line.get("event")
        elif kind == "event" and key:
            text = words.event_choice(key, line["choice"])
            decisions.append(_("Only one option was possible: %(choice)s") % {"choice": text}
                             if line.get("forced") else text)
        elif kind == "cuts-choice":
            decisions.append(_("Cuts went to %(institution)s.") % {
                "institution": words.institution(line["institution"])})
        elif kind == "income":
            decisions.append(words.income(line["choice"]) + ".")
        elif kind == "action" and id(line) in voted:
            action = words.action(line["choice"])
            numbers = carried.get(str(line["choice"])) or []
            decisions.append(_("The class's motion %(n)d, carried in a secret vote: "
                               "%(action)s.") % {"n": numbers.pop(0), "action": action}
                             if numbers else
                             _("The table's secret vote: %(action)s.") % {"action": action})
        elif kind == "action":
            decisions.append(_("Action: %(action)s.") % {"action": words.action(line["choice"])})
    return decisions


YEAR_END_LINES = ("year-end", "policy", "won", "lost")


def _split_log(log: list[dict[str, Any]]) -> tuple[list[list[dict[str, Any]]],
                                                   list[dict[str, Any]]]:
    """A year's log: each draw's lines (from the draw to the next), and Year End's lines."""
    draws: list[list[dict[str, Any]]] = []
    end: list[dict[str, Any]] = []
    for line in log:
        if line["kind"] == "draw":
            draws.append([line])
        elif line["kind"] in YEAR_END_LINES:
            end.append(line)
        elif draws:
            draws[-1].append(line)
    return draws, end


def _year_end_lines(lines: list[dict[str, Any]], moves: list[dict[str, Any]]) -> list[str]:
    out = []
    for line in lines:
        if line["kind"] == "year-end" and line.get("income"):
            out.append(ngettext(
                "Employment paid %(n)d Income cube into the Treasury.",
                "Employment paid %(n)d Income cubes into the Treasury.", line["income"])
                % {"n": line["income"]})
    changes = _track_changes([e for e in moves if not _is_policy(e)])
    if changes:
        out.append(_("The tracks moved towards each other: %(changes)s.") % {
            "changes": ", ".join(changes)})
    return out


def _is_policy(event: dict[str, Any]) -> bool:
    """A policy card's turn (Year End's last step, voted in the next year's session)."""
    return str(event.get("reason", "")).startswith("policy:")


def _session_changes(replayed: _Replay, year: int) -> list[str]:
    """What the budget session and the minister's first actions changed before the first
    draw (with the turn of a policy card, taken at the end of the year before)."""
    events = [e for e in replayed.events.get((year - 1, YEAR_END), []) if _is_policy(e)]
    events += replayed.events.get((year, SESSION), [])
    return _track_changes(events) + _debt_lines(events)


@dataclass
class _YearCredit:
    """Who held the Finance Minister's year: the ministers (seats), and who else answered."""

    ministers: list[str] = field(default_factory=list)
    seat_ids: list[int] = field(default_factory=list)
    notes: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (how, by, whose)
    stood_in: list[int] = field(default_factory=list)
    teacher: bool = False

    def credit(self, name: str, seat_id: int | None) -> None:
        if name not in self.ministers:
            self.ministers.append(name)
        if seat_id is not None and seat_id not in self.seat_ids:
            self.seat_ids.append(seat_id)

    def note(self, how: str, by: str, whose: str) -> None:
        self.notes[(how, by, whose)] = self.notes.get((how, by, whose), 0) + 1

    def lines(self) -> list[str]:
        out = []
        for (how, by, whose), n in self.notes.items():
            if how == How.TIMER:
                out.append(ngettext(
                    "%(minister)s's timer ran out once: the sensible choice was taken.",
                    "%(minister)s's timer ran out %(n)d times: the sensible choice was taken.",
                    n) % {"minister": whose, "n": n})
            elif how == How.TEACHER and whose:
                out.append(ngettext("The teacher stood in for %(minister)s (%(n)d decision).",
                                    "The teacher stood in for %(minister)s (%(n)d decisions).",
                                    n) % {"minister": whose, "n": n})
            elif how == How.TEACHER:
                out.append(ngettext("The teacher decided for the table (%(n)d decision).",
                                    "The teacher decided for the table (%(n)d decisions).", n)
                           % {"n": n})
            else:
                out.append(ngettext("%(name)s stood in for %(minister)s (%(n)d decision).",
                                    "%(name)s stood in for %(minister)s (%(n)d decisions).", n)
                           % {"name": by, "minister": whose, "n": n})
        return out


def _label(seats: dict[int, SeatInfo], seat_id: int | None) -> str:
    info = seats.get(seat_id if seat_id is not None else -1)
    return info.label if info else _("a seat that left")


def _ministers(steps: list[_Step], seats: dict[int, SeatInfo]) -> dict[int, _YearCredit]:
    """Who held the Finance Minister's year, from the log's "who acted, and how": the
    decision was the minister's (``on_behalf``) whoever took it, so a default taken when the
    minister's timer ran out, a team-mate or a bot standing in, or the teacher standing in
    still credit the minister, and each of those is told beside the name. The table's votes
    (a budget item's count, a ballot of the year, a motion) are nobody's year. A log written
    before it was kept says only who acted: the minister, or "the teacher" standing in."""
    by_year: dict[int, _YearCredit] = defaultdict(_YearCredit)
    for step in steps:
        year, part = step.part
        if step.actor is None or step.how == How.VOTE:
            continue
        credit = by_year[year]
        if not step.how:  # an older log: who acted, not for whom
            if part in (SESSION, YEAR_END) and step.actor == Actor.TEACHER:
                continue  # the budget session's counts
            if step.actor == Actor.TEACHER:
                credit.credit(_("the teacher"), None)
                credit.teacher = True
            else:
                credit.credit(_label(seats, step.seat_id), step.seat_id)
            continue
        if step.on_behalf_id is None:
            if step.how == How.TEACHER:
                credit.teacher = True
                credit.note(How.TEACHER, "", "")
            elif step.seat_id is not None:
                credit.credit(_label(seats, step.seat_id), step.seat_id)
            continue
        whose = _label(seats, step.on_behalf_id)
        credit.credit(whose, step.on_behalf_id)
        if step.how == How.STAND_IN:
            credit.note(How.STAND_IN, _label(seats, step.seat_id), whose)
            if step.seat_id is not None and step.seat_id not in credit.stood_in:
                credit.stood_in.append(step.seat_id)
        elif step.how == How.TEACHER:
            credit.teacher = True
            credit.note(How.TEACHER, "", whose)
        elif step.how == How.TIMER:
            credit.note(How.TIMER, "", whose)
    return by_year


def _opening(steps: list[_Step], year: int) -> list[str]:
    """The minister's actions of ``year`` before its first draw (the budget's are counts)."""
    return [_("Action: %(action)s.") % {"action": words.action(str(s.action.get("choice")))}
            for s in steps if s.part == (year, SESSION) and s.actor not in (Actor.TEACHER, None)
            and s.action.get("type") == "action"]


MOTION_BAG = re.compile(r"y(\d+)\.motion(\d+)")


def _motions(table: Table, seats: int) -> dict[int, list[MotionStory]]:
    """The motions put to a vote, by year, in order: what each asked and what its count
    decided (the tally only where the count published one)."""
    bags = {}
    for bag in table.bags.filter(status=Bag.Status.COUNTED, decision__contains=".motion"):
        match = MOTION_BAG.fullmatch(bag.decision)
        if match:
            bags[(int(match.group(1)), int(match.group(2)))] = bag
    if not bags:
        return {}
    play = TablePlay.objects.filter(table=table).first()
    published = {c["decision"]: c for c in (play.counts if play is not None else [])}
    out: dict[int, list[MotionStory]] = defaultdict(list)
    for motion in table.motions.order_by("year", "number"):
        bag = bags.get((motion.year, motion.number))
        if bag is None or motion.status not in ("carried", "rejected", "dropped"):
            continue
        count = published.get(bag.decision, {})
        out[motion.year].append(MotionStory(
            number=motion.number, label=lesson_motions.label(motion.kind, motion.target),
            status=motion.status, voters=bag.receipts.count(), seats=seats,
            tally=count.get("tally"), tie=bool(count.get("tie")), target=motion.target))
    return out


def _years(replayed: _Replay, ballots: list[BallotStory],
           ministers: dict[int, _YearCredit],
           motions: dict[int, list[MotionStory]] | None = None) -> list[YearStory]:
    motions = motions or {}
    state = replayed.state
    by_year: dict[int, list[BallotStory]] = defaultdict(list)
    for b in ballots:
        by_year[ballot_year(b)].append(b)
    over = next(((part, e) for part, events in replayed.events.items() for e in events
                 if e["type"] == "game_over"), None)
    years = []
    for entry in state.history:
        year = entry["year"]
        if not entry["log"] and not by_year[year] and not state.result:
            continue  # a year the lesson ended before it began
        draws, end = _split_log(entry["log"])
        credit = ministers.get(year, _YearCredit())
        story = YearStory(year=year, ministers=list(credit.ministers),
                          minister_notes=credit.lines(), teacher_stood_in=credit.teacher,
                          tracks_start=dict(entry["tracks"]),
                          debt_start=entry["bag"][data.DEBT], ballots=by_year[year],
                          opening=_opening(replayed.steps, year),
                          session=_session_changes(replayed, year),
                          motions=motions.get(year, []))
        carried: dict[str, list[int]] = defaultdict(list)
        for motion in story.motions:
            if motion.status == "carried":
                carried[motion.target].append(motion.number)
        for lines in draws:
            head = lines[0]
            key = head.get("event")
            moves = replayed.events.get((year, head["draw"]), [])
            shown = replayed.in_force.get((year, head["draw"]), {})
            draw = DrawStory(number=head["draw"], cubes=words.cubes(head["cubes"]), event=key,
                             event_name=words.event_name(key) if key else _(
                                 "A single last cube: it goes to Used, ignored this year."),
                             event_text=shown.get("text") or words.event_text(key),
                             event_changed=shown.get("changed", ""),
                             decisions=_draw_lines(lines, replayed.voted, carried),
                             changes=_track_changes(moves) + _debt_lines(moves)
                             + _cuts_lines(moves))
            if over and over[0] == (year, head["draw"]):
                draw.lost = words.reason(str(over[1]["result"]), over[1]["reason"])
            story.draws.append(draw)
        story.year_end = _year_end_lines(end, replayed.events.get((year, YEAR_END), []))
        if state.result and year == state.year:
            story.ended = words.result_line(country_result(state), year)
        years.append(story)
    return years


def _cuts(state: GameState, moves: dict[tuple[int, Any], list[dict[str, Any]]]
          ) -> list[CutsStory]:
    steps: dict[str, int] = defaultdict(int)
    penalties: dict[str, int] = defaultdict(int)
    for events in moves.values():
        for e in events:
            if e["type"] == "cuts":
                steps[e["institution"]] += 1
                penalties[e["institution"]] += 1 if e["final"] else 0
    return [CutsStory(inst, words.institution(inst), steps[inst], penalties[inst],
                      _(data.INSTITUTIONS[inst].cuts_text))
            for inst in data.INSTITUTIONS if inst in state.institutions or steps[inst]]


def _seats(table: Table, with_portfolios: bool) -> dict[int, SeatInfo]:
    partners: dict[int, list[str]] = defaultdict(list)
    for s in table.seats.filter(shares__isnull=False).order_by("nickname"):
        partners[s.shares_id].append(s.nickname)
    out = {}
    for seat in table.seats.filter(shares__isnull=True, removed=False).order_by("position"):
        out[seat.pk] = SeatInfo(
            seat_id=seat.pk, name=seat.nickname, position=seat.position, is_bot=seat.is_bot,
            partners=partners.get(seat.pk, []),
            portfolio=portfolios.portfolio_of(seat.position) if with_portfolios else None,
            minister_years=[])
    return out


def _counts(state: GameState) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for entry in state.history:
        for line in entry["log"]:
            if line["kind"] == "action":
                name = str(line["choice"]).split(":")[0]
                counts[name] += 1
    return dict(counts)


def session_items(state: GameState) -> tuple[str, ...]:
    """The budget items this country's sessions could ask: the policy card only with policy
    cards in play, a new institution only with the extra institutions."""
    return tuple(item for item in script.BUDGET_ITEMS
                 if (item != script.POLICY_ITEM or state.policies)
                 and (item != script.INSTITUTION or state.extra_institutions))


def table_story(table: Table, *, with_charts: bool = True,
                with_portfolios: bool = False) -> TableStory:
    """Everything the debrief says about one table, from a full replay of its log."""
    replayed = _replay(table)
    seats = _seats(table, with_portfolios)
    ballots = _ballots(table, len(seats))
    ministers = _ministers(replayed.steps, seats)
    for year, credit in sorted(ministers.items()):
        for seat_id in credit.seat_ids:
            if seat_id in seats:
                seats[seat_id].minister_years.append(year)
        for seat_id in credit.stood_in:
            if seat_id in seats and seat_id not in credit.seat_ids:
                seats[seat_id].stood_in_years.append(year)
    state = replayed.state
    items = session_items(state)
    years = _years(replayed, ballots, ministers, _motions(table, len(seats)))
    for year in years:
        year.items = items
    story = TableStory(
        number=table.number, table_id=table.pk, state=state, start=replayed.start,
        result=country_result(state), seats=list(seats.values()),
        years=years, samples=replayed.samples, cuts=_cuts(state, replayed.events),
        ballots=ballots, counts=_counts(state), items=items)
    if with_charts:
        story.charts = {"tracks": charts.tracks_chart(story.samples),
                        "debt": charts.debt_chart(story.samples)}
    return story


def teacher_name(user: AbstractBaseUser) -> str:
    full = getattr(user, "get_full_name", lambda: "")()
    return full or user.get_username()



def lesson_story(session: ClassSession, *, with_charts: bool = True) -> LessonStory:
    on = bool((session.options or {}).get("portfolios"))
    tables = [table_story(t, with_charts=with_charts, with_portfolios=on)
              for t in session.tables.select_related("session").order_by("number")]
    students = session.seats.filter(is_bot=False, table__isnull=False).count()
    return LessonStory(session=session, title=str(session), date=lesson_date(session),
                       teacher=teacher_name(session.owner), game=session.game_name,
                       students=students, portfolios=on, tables=tables)


# --------------------------------------------------------------------------- students


@dataclass
class StudentStory:
    seat: Seat
    nickname: str
    table: TableStory
    info: SeatInfo
    shared_with: list[str]
    standing: portfolios.Standing | None
    prompts: list[str] = field(default_factory=list)

    @property
    def portfolio_name(self) -> str:
        return self.info.portfolio_name

    @property
    def defends(self) -> str:
        return str(portfolios.DEFENDS[self.info.portfolio]) if self.info.portfolio else ""

    @property
    def minister_years(self) -> list[YearStory]:
        return [y for y in self.table.years if y.year in self.info.minister_years]

    @property
    def verdict(self) -> str:
        if self.standing is None:
            return ""
        change = self.standing.change
        return _("better than at the start") if change > 0 else (
            _("worse than at the start") if change < 0 else _("the same as at the start"))


def student_story(seat: Seat, story: TableStory) -> StudentStory:
    owner_id = seat.shares_id or seat.pk
    info = next(s for s in story.seats if s.seat_id == owner_id)
    if seat.shares_id and seat.shares:
        shared = [seat.shares.nickname, *[n for n in info.partners if n != seat.nickname]]
    else:
        shared = list(info.partners)
    standing = portfolios.standing(info.portfolio, story.state, story.start) \
        if info.portfolio else None
    return StudentStory(seat=seat, nickname=seat.nickname, table=story, info=info,
                        shared_with=shared, standing=standing)


def lesson_students(session: ClassSession, *, seats: Sequence[Seat] | None = None
                    ) -> list[StudentStory]:
    """One story per student of ``seats`` (default: every student who sat at a table, bots
    and removed students excepted: ``kit.reports.people``), table by table."""
    on = bool((session.options or {}).get("portfolios"))
    stories: dict[int, TableStory] = {}
    out = []
    for seat in people(session) if seats is None else seats:
        table = seat.table
        assert table is not None
        if table.pk not in stories:
            table.session = session
            stories[table.pk] = table_story(table, with_portfolios=on)
        out.append(student_story(seat, stories[table.pk]))
    return out
