"""What Crisis's screens read: the database rows and the engine's answers a team's phone and
the projector need, gathered here and handed to the presenters as plain values (the
``Lesson``'s ``session_info`` and ``seat_info``). The presenters read nothing themselves;
this module writes nothing.

A table's reads are public (a turn's seconds left, whether the round's last move waits for
the teacher, the final ranking at the end); a seat's reads are its own team's.
"""

from __future__ import annotations

from typing import Any

from facilitator.kit import load_state, parties
from facilitator.lessons.crisis import presenters, scoring, script, turns, words
from facilitator.lessons.crisis import services as crisis
from facilitator.models import ClassSession, Seat, Table
from games import crisis as engine


def tables_info(session: ClassSession) -> dict[int, dict[str, Any]]:
    """Per table: the open turn's seconds left, whether the round's last move is held, and
    at the end the lesson's final ranking (``scoring``)."""
    out: dict[int, dict[str, Any]] = {}
    for table in session.tables.all():
        state = load_state(table)
        held = turns.waits_for_teacher(table, session, state, list(table.seats.all()))
        out[table.number] = {"turn_clock": None if held else turns.turn_countdown(
                                 table, session, state),
                             "held": held}
        if session.stage == turns.FINAL:
            scores = scoring.final_scores(table, state, script.rounds_of(session))
            out[table.number]["final"] = presenters.ranking(state.names, scores)
    return out


def seat_info(session: ClassSession, seat: Seat, table: Table) -> dict[str, Any]:
    """What one member's phone needs beyond the engine's view of its team: its team's turn
    and the moves it may make (with the engine's previews), the team-mates' suggestions, the
    production planner with the member's draft, and who the stage waits for."""
    state = load_state(table)
    team = seat.player_name
    game = engine.view(state, "public")
    seats = list(table.seats.all())
    mine = turns.team_decisions(session, state, team)
    legal = engine.legal_actions(state, team) if mine or turns.may_act_any_time(
        session, state, team) else []
    now = mine[0] if mine else None
    answering = [a for a in legal if now is not None
                 and a["type"] in presenters.ANSWERS[now.kind] and now.kind != "produce"]
    choices = [presenters.choice(a, game, state, team) for a in answering]
    any_time = [presenters.choice(a, game) for a in legal if a["type"] in turns.ANY_TIME] \
        if turns.may_act_any_time(session, state, team) else []
    suggestions = [{"nickname": s.seat.nickname, "mine": s.seat_id == seat.pk,
                    **presenters.choice(s.action, game)}
                   for s in crisis.team_suggestions(table, state, team)
                   if now is not None and s.decision == now.id and
                   (s.action["type"] != "produce" or s.seat_id != seat.pk)]
    held = turns.held_move(table, state)
    groups = presenters.grouped(list(zip(answering, choices, strict=True)))
    producing = now is not None and now.kind == "produce"
    return {
        "team": team, "letter": words.team_letter(state.names, team),
        "captain": parties.is_captain(seat, seats, turns.round_of(session)),
        "decision": now.id if now else "", "kind": now.kind if now else "",
        "space": words.space(now.params.get("space", ""), game)
        if now is not None and now.kind == "resolve" else "",
        "choices": choices, "groups": groups,
        "more": sum(len(g["choices"]) for g in groups if g["more"]),
        "any_time": any_time, "suggestions": suggestions,
        "planner": presenters.planner(state, team, crisis.draft_of(table, seat, now.id),
                                      now.id, game) if producing and now is not None else None,
        "held": words.move(held.action, game) if held and held.action.get("player") == team
        else "",
        "turn_clock": turns.turn_countdown(table, session, state) if now is not None else None,
        "waiting_for": [words.team_letter(state.names, d.deciders[0])
                        for d in turns.stage_decisions(session, state)],
    }
