"""What the screens get of an Austerity lesson beyond the engine's board (the keys are
listed in ``lesson.py``'s docstring and in docs/modules.md). Reading only: nothing here
writes, and nothing here is secret (motions and their support are public; a ballot's
outcome only, never a tally)."""

from __future__ import annotations

from typing import Any

from facilitator import kit
from facilitator.kit import bags, load_state, table_seats
from facilitator.lessons.austerity import modes, motions, pacing, portfolios, script, turns
from facilitator.lessons.austerity import options as lesson_options
from facilitator.models import ClassSession, Seat, Table
from games import austerity as engine


def session_info(session: ClassSession) -> dict[str, Any]:
    running = session.status == ClassSession.Status.RUNNING
    return {
        "year": script.year_of(session),
        "tie_rule": str(script.TIE_RULE),
        "ballot_tie_rule": str(turns.TIE_RULE),
        "portfolios": bool(session.options.get("portfolios")),
        "same_start": bool(session.options.get("same_start")),
        "timers": lesson_options.timers(session.options),
        "kinds": [{"kind": k, "name": str(modes.KIND_NAMES[k])} for k in modes.KINDS],
        "modes": [{"mode": m, "name": str(modes.MODE_NAMES[m])} for m in modes.MODES],
        "timer_kinds": [{"kind": k, "name": str(lesson_options.TIMER_NAMES[k]),
                         "seconds": seconds}
                        for k, seconds in lesson_options.timers(session.options).items()],
        "can_end_now": running and session.stage == script.YEAR_END,
    }


def _person(seat: Seat | None) -> dict[str, Any] | None:
    if seat is None:
        return None
    return {"seat": seat.pk, "nickname": seat.nickname, "bot": seat.is_bot}


def _portfolio(seat: Seat, state: Any, start: Any) -> dict[str, Any]:
    name = portfolios.portfolio_of(seat.position or 0)
    standing = portfolios.standing(name, state, start)
    return {"seat": seat.pk, "nickname": seat.nickname, "portfolio": name,
            "name": str(portfolios.NAMES[name]), "defends": str(portfolios.DEFENDS[name]),
            "start": standing.start, "value": standing.value, "change": standing.change}


def _start(table: Table) -> Any:
    return engine.new_game(table.config, table.seed)


def _teacher_decisions(session: ClassSession, state: Any, play_modes: dict[str, Any]
                       ) -> list[dict[str, Any]]:
    """The engine's open decisions the teacher's console answers at this table now."""
    if not script.minister_may_act(session, state):
        return []
    year = script.year_of(session)
    return [{"id": d.id, "kind": d.kind, "options": list(d.options)}
            for d in engine.decisions(state)
            if modes.answered_by(play_modes, year, d) == modes.TEACHER]


def table_info(table: Table, state: Any) -> dict[str, Any]:
    """One table: its minister this year, who decides each kind, its motions, its timer,
    the open vote, the outcome of its last table ballot, the decisions the console answers,
    and each seat's portfolio (with the option)."""
    return _facts(table, state, table_seats(table), None)[0]


def _facts(table: Table, state: Any, seats: list[Seat], seat: Seat | None
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    """``table_info`` (with ``supported`` for ``seat``), and the play's raw modes."""
    session = table.session
    play = modes.read_play(table)
    play_modes = play.modes if play is not None else {}
    year = script.year_of(session)
    bag = bags.open_bag(table)
    wait = pacing.wait_now(table, session, state, play, bag) if play is not None else None
    counts = play.counts if play is not None else []
    now = modes.modes_in(play_modes, year)
    out: dict[str, Any] = {
        "minister": _person(script.minister(seats, year)),
        "acting": _person(acting) if (acting := script.minister_acting(seats, year))
        != script.minister(seats, year) else None,
        "modes": now,
        "decides": [{"kind": k, "name": str(modes.KIND_NAMES[k]), "mode": m}
                    for k, m in now.items()],
        "motions": motions.motions_info(table, session, state, play_modes, seats, seat,
                                        voting={bag.decision} if bag else set()),
        "support_needed": motions.support_needed(seats),
        "timer": pacing.timer_info(session, play, wait),
        "countdown": pacing.countdown(session, play, wait) if wait is not None else None,
        "voting": {"decision": bag.decision, "kind": modes.ballot_kind(bag.decision),
                   "options": list(bag.options)} if bag is not None else None,
        "last_count": counts[-1] if counts else None,
        "teacher_decisions": _teacher_decisions(session, state, play_modes)
        if bag is None else [],
        "portfolios": [],
    }
    if session.options.get("portfolios"):
        start = _start(table)
        out["portfolios"] = [_portfolio(s, state, start) for s in seats
                             if s.shares_id is None and not s.removed]
    return out, play_modes


def seat_info(session: ClassSession, seat: Seat, table: Table) -> dict[str, Any]:
    """One phone: the table's facts (``table_info``) and what this seat may do now."""
    state = kit.remembered(("austerity.state", table.pk), lambda: load_state(table))
    facts, play_modes = _facts(table, state, table_seats(table), seat)
    year = script.year_of(session)
    running = session.status == ClassSession.Status.RUNNING and not session.paused
    is_minister = facts["minister"] is not None and facts["minister"]["seat"] == seat.pk
    stands_in = facts["acting"] is not None and facts["acting"]["seat"] == seat.pk
    decides = stands_in or (is_minister and facts["acting"] is None)
    decide: list[str] = []
    if running and decides and facts["voting"] is None \
            and script.minister_may_act(session, state):
        decide = [d.id for d in engine.decisions(state)
                  if modes.answered_by(play_modes, year, d) == modes.MINISTER]
    raise_: list[dict[str, str]] = []
    support: list[str] = []
    if running and not seat.is_bot:
        mine_open = any(m["status"] == "open" and m["raised_by_seat"] == seat.pk
                        for m in facts["motions"])
        taken = {(m["kind"], m["target"]) for m in facts["motions"] if m["status"] == "open"}
        if not mine_open:  # one open motion per student
            raise_ = [{"kind": k, "target": t, "label": motions.label(k, t)}
                      for k, t in motions.choices_now(session, state, play_modes)
                      if (k, t) not in taken]
        support = [m["decision"] for m in facts["motions"]
                   if m["status"] == "open" and m["possible"] and not m["supported"]]
    mine = next((p for p in facts["portfolios"] if p["seat"] == seat.pk), None)
    return {"can": {"decide": decide, "raise": raise_, "support": support},
            "minister": is_minister, "stands_in": stands_in, "portfolio": mine,
            **{k: facts[k] for k in ("modes", "motions", "support_needed", "timer", "countdown",
                                     "voting", "last_count")},
            "minister_name": facts["minister"]["nickname"] if facts["minister"] else None,
            "acting_name": facts["acting"]["nickname"] if facts["acting"] else None}
