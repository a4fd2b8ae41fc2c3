"""What Crisis's screens show: a team's phone (its own board, the captain's moves, the
teammates' suggestions, the production planner) and the projector (every table's board).

Nothing here reveals an outcome before the teacher reaches it: at Evaluation the engine has
already drawn the next round's Event and charged its interest (``turns``), so both screens show
that round's Evaluation from its history — never the next Event, and phones not the team's
board — until the teacher opens the next round.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from facilitator.kit import parties
from facilitator.lessons.crisis import costs, script, turns, words
from facilitator.lessons.crisis.seating import seating_error, seating_plan
from games import crisis as engine
from games.crisis import board, cards
from games.crisis import data as crisis_data
from games.crisis.state import GameState

CLOSING_HINTS = {
    turns.PLAN: gettext_lazy("Next places every Manager not yet placed on Government Subsidy "
                            "(no Penalty) and takes each open choice's first option."),
    turns.PRODUCE: gettext_lazy("Next gives every team without a confirmed plan the suggested "
                               "plan."),
    turns.EXPORT: gettext_lazy("Next passes for every team still on Exports."),
}
TRACK_TOP = 45
ANSWERS = {"place": ("place",), "resolve": ("resolve",), "produce": ("produce",),
           "export": ("pass", "export", "black_market")}


def as_json(action: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in action.items() if k != "player"}, sort_keys=True)


def choice(action: dict[str, Any], game: dict[str, Any],
           state: GameState | None = None, team: str = "") -> dict[str, Any]:
    """A move's button: its label and, with the state, the engine's preview of what it costs,
    needs and earns (``costs``)."""
    shown = {"label": words.move(action, game), "action": as_json(action),
             "type": action["type"], "detail": "", "reason": "", "likely": True}
    if state is not None:
        found = costs.detail(state, team, action)
        shown.update(detail=found["text"], reason=found["reason"], likely=found["likely"])
    return shown


def group_of(action: dict[str, Any]) -> str:
    """The heading a move's button sits under on the phone: its board location, or for an
    Exports turn the contracts, the black market and passing."""
    if action["type"] == "place":
        location = board.LOCATION_OF[action["space"]]
        spaces = dict(board.LOCATIONS)[location]
        return words.location(location) if len(spaces) > 1 else ""
    if action["type"] == "export":
        return _("Export on a contract (VP and credits)")
    if action["type"] == "black_market":
        return _("Black market (double credits, no VP)")
    return ""


def grouped(choices: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[dict[str, Any]]:
    """The buttons under their headings: the team's likely moves first (``costs.likely``),
    then every other place in ``more`` groups the phone folds away."""
    groups: list[dict[str, Any]] = []
    for more in (False, True):
        for action, shown in choices:
            if shown.get("likely", True) == more:
                continue
            name = group_of(action)
            if not groups or groups[-1]["name"] != name or groups[-1]["more"] != more:
                groups.append({"name": name, "choices": [], "more": more})
            groups[-1]["choices"].append(shown)
    for group in groups:
        group["detailed"] = any(c.get("detail") or c.get("reason") for c in group["choices"])
    return groups


# ------------------------------------------------------------------ a team's phone


def planner(state: GameState, team: str, draft: list[dict[str, Any]], decision: str,
            game: dict[str, Any]) -> dict[str, Any]:
    """The production planner of one member of ``team``: its ``draft``, the engine's preview
    (or its reason in plain words), and the taps that change the draft."""
    p = state.player(team)
    preview = engine.preview_production(state, team, draft)
    seated = {t: (e["company"], slot) for e in draft for slot in ("staff", "bonus")
              for t in e[slot]}
    rows = []
    for company in p.companies:
        entry = next((e for e in draft if e["company"] == company), None)
        rows.append({**words.company(company), "active": entry is not None,
                     "staff_tiles": [{"id": t, "name": words.employee(t)}
                                     for t in (entry or {}).get("staff", [])],
                     "bonus_tiles": [{"id": t, "name": words.employee(t)}
                                     for t in (entry or {}).get("bonus", [])]})
    return {
        "decision": decision, "companies": rows,
        "employees": [{"id": t, "name": words.employee(t), "at": seated.get(t, (None, None))[0],
                       "slot": seated.get(t, (None, None))[1]} for t in p.employees],
        "ok": preview["ok"],
        "error": "" if preview["ok"] else words.plan_error(preview),
        "output": [words.amount_of(n, w) for w, n in preview.get("output", {}).items()],
        "inputs": [words.amount_of(n, w) for w, n in preview.get("inputs", {}).items()],
        "kept": [words.amount_of(n, w) for w, n in preview.get("kept", {}).items()
                 if n != preview.get("output", {}).get(w)],
        "confirm": as_json({"type": "produce", "plan": draft}),
        "empty": not draft,
    }


def team_board(game: dict[str, Any], team: str) -> dict[str, Any]:
    p = game["players"][team]
    return {
        "name": team, "letter": words.team_letter(list(game["players"]), team),
        "credits": p["credits"], "vp": p["vp"], "loans": p["loans"], "penalty": p["penalty"],
        "managers": p["managers"],
        "warehouse": [{"name": words.resource(r), "n": n, "most": cards.WAREHOUSE[r]}
                      for r, n in p["warehouse"].items()],
        "companies": [words.company(c) for c in p["companies"]],
        "employees": [words.employee(t) for t in p["employees"]],
        "hand_size": p["hand_size"], "played_influence": p["played_influence"],
    }


def evaluation_of(game: dict[str, Any], round_: int) -> dict[str, Any] | None:
    """Round ``round_``'s Evaluation from the public history (None before it happened)."""
    entry = next((h for h in game.get("history", []) if h.get("round") == round_), None)
    if not entry or "evaluation" not in entry:
        return None
    ev = entry["evaluation"]
    names = list(game["players"])
    delta = ev.get("delta")
    status, start = entry.get("status"), entry.get("status_start")
    return {"goal": ev["goal"], "delta": delta, "steps": abs(delta or 0),
            # the step went past the top of the track (it stops at MAX_STATUS)
            "capped": bool(delta and delta > 0 and status == cards.MAX_STATUS
                           and start is not None and status - start < delta),
            "top": cards.MAX_STATUS,
            "status": entry.get("status"),
            "status_start": entry.get("status_start"),
            "teams": [{"name": n, "letter": words.team_letter(names, n), "vp": ev["vp"][n],
                       "difference": ev["differences"][n], "met": ev["differences"][n] >= 0}
                      for n in names],
            "bankrupt": (entry.get("status") or 0) < 0}


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    session, seat = view["session"], view["seat"]
    game = view.get("game") or {}
    data = seat.get("crisis") or {}
    stage, round_ = session["stage"], session.get("crisis_round", 1)
    context: dict[str, Any] = {"session": session, "seat": seat, "table": view.get("table"),
                               "can": view.get("can", {}), "stage_name": str(
                                   script.STAGE_NAMES.get(stage, stage)),
                               "rounds": session.get("rounds", cards.ROUNDS), "round": round_}
    if not game or "players" not in game:
        return context
    team = data.get("team") or game.get("me")
    if stage == turns.EVALUATION:
        context["evaluation"] = evaluation_of(game, round_)
    elif stage == turns.FINAL:
        context["final"] = True
        number = seat.get("table")
        ranking = (session.get("crisis_tables") or {}).get(number, {}).get("final") or []
        context["result"] = next((r for r in ranking if r["name"] == team), None)
    if team in game["players"] and stage not in (turns.EVALUATION,):
        context["me"] = team_board(game, team)
        context["hand"] = [words.influence(c) for c in game.get("hand", [])]
    if stage not in (turns.EVALUATION, turns.FINAL):
        context["event"] = words.event(game.get("event"))
        context["goal"] = game.get("goal")
    context["crisis"] = data
    context["over"] = bool(game.get("over"))
    context["letter"] = data.get("letter") or (
        words.team_letter(list(game["players"]), team) if team else "")
    return context


# ------------------------------------------------------------------ the projector


def ranking(names: list[str], scores: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [{"name": n, "letter": words.team_letter(names, n), "score": s["score"],
             "place": s.get("place"), "eligible": s["eligible"], "winner": s.get("winner"),
             **s["score_breakdown"]} for n, s in scores.items()]
    # Placed teams by place; the rest (after a bankruptcy) by score, then letter.
    return sorted(rows, key=lambda r: (r["place"] is None, r["place"] or 0, -r["score"],
                                       r["letter"]))


def captains(roster: list[dict[str, Any]], round_: int) -> dict[str, dict[str, str]]:
    """Each team's captain this round by the platform's rotation, and the team-mate who
    stands in while the captain's phone is asleep ("" when nobody does), from the roster's
    connected flags (``facilitator.parties``)."""
    teams: dict[str, list[Any]] = {}
    for r in roster:
        if not r["removed"]:
            teams.setdefault(r["name"], []).append(SimpleNamespace(
                pk=r["seat"], is_bot=r["bot"], nickname=r["nickname"]))
    online = {r["seat"] for r in roster if r["connected"]}
    out = {}
    for name, members in teams.items():
        chief, now = parties.captain(members, round_), parties.acting(members, round_, online)
        if chief is not None and now is not None:
            out[name] = {"captain": chief.nickname,
                         "acting": now.nickname if now is not chief else ""}
    return out


def placements(game: dict[str, Any]) -> list[dict[str, Any]]:
    """Every board location with the Managers on it (team letters), in the board's order."""
    names = list(game["players"])
    placed = game.get("placements") or {}
    closed = set(game.get("mods", {}).get("closed", []))
    rows = []
    for loc, spaces in board.LOCATIONS:
        letters = [words.team_letter(names, n) for s in spaces for n in placed.get(s, [])]
        rows.append({"id": loc, "name": words.location(loc), "letters": letters,
                     "closed": loc in closed})
    return rows


def projector_table(table: dict[str, Any], session: dict[str, Any],
                    extras: dict[str, Any]) -> dict[str, Any]:
    game = table["game"]
    stage, round_ = session["stage"], session.get("crisis_round", 1)
    names = list(game["players"])
    heads = captains(table["seats"], round_)
    turn = next((d["deciders"][0] for d in game.get("waiting", [])
                 if d.get("kind") in turns.TURN_KINDS), None) \
        if stage in (turns.PLAN, turns.EXPORT) and game.get("round") == round_ \
        and not extras.get("held") else None
    evaluation = evaluation_of(game, round_) if stage == turns.EVALUATION else None
    final = extras.get("final") if stage == turns.FINAL else None
    last = next((h for h in reversed(game.get("history", [])) if "evaluation" in h), None)
    teams = []
    for n in names:
        p = game["players"][n]
        teams.append({"name": n, "letter": words.team_letter(names, n),
                      "captain": heads.get(n, {}).get("captain", ""),
                      "acting": heads.get(n, {}).get("acting", ""),
                      "credits": p["credits"], "vp": p["vp"],
                      "loans": p["loans"], "companies": len(p["companies"]),
                      "employees": len(p["employees"]), "hand_size": p["hand_size"],
                      "turn": n == turn and stage in turns.STAGE_PHASES,
                      "order": game["order"].index(n) + 1})
    teams.sort(key=lambda t: t["order"])
    show_now = stage not in (turns.EVALUATION, turns.FINAL)
    return {
        "number": table["number"], "teams": teams, "turn": words.team_letter(names, turn)
        if turn else "", "turn_clock": extras.get("turn_clock"), "held": extras.get("held"),
        "event": words.event(game.get("event")) if show_now else None,
        "goal": game.get("goal") if show_now else (evaluation or {}).get("goal"),
        "status": game["status"] if show_now else (evaluation or {}).get("status",
                                                                         game["status"]),
        "zone": words.zone(game["zone"]), "zone_id": game["zone"],
        "level": game.get("level"), "places": placements(game) if show_now else [],
        "closed": [words.location(c) for c in game.get("mods", {}).get("closed", [])]
        if show_now else [],
        "companies": [words.company(c) if c else None for c in game["board"]["companies"]],
        "employees": [words.employee(t) if t else "—" for t in game["board"]["employees"]],
        "contracts": [words.contract(c) for c in game["board"]["contracts"][:8]],
        "future": [words.contract(c) for c in game["board"]["contracts"][8:]],
        "exports": [words.team_letter(names, n) for n in game.get("exports", [])],
        "producing": [words.team_letter(names, d["deciders"][0]) for d in game.get("waiting", [])
                      if d.get("kind") == "produce"]
        if stage == turns.PRODUCE and not extras.get("held") else [],
        "evaluation": evaluation, "final": final, "bankrupt": game.get("bankrupt"),
        "last_goal": last["evaluation"]["goal"] if final and last else None,
        "over": game.get("over"),
    }


def track(status: int | None) -> list[dict[str, Any]]:
    """The Crisis track 0–45 in its zones, the current step marked; below 0 (a bankrupt
    Axia) the marker stays on the track's first step, marked as below it."""
    at = None if status is None else max(0, min(TRACK_TOP, status))
    return [{"n": n, "zone": crisis_data.zone(n), "on": n == at,
             "below": n == at and status is not None and status < 0}
            for n in range(0, TRACK_TOP + 1)]


def lobby_seating(students: int, session: dict[str, Any]) -> dict[str, Any] | None:
    """What Start will do with this many students in the lesson's teams, and the bots' offer
    when whole teams at tables of 2 to 5 teams need them (the lobby's ``seating``)."""
    if not students:
        return None
    size = int(session.get("team_size") or 3)
    rivals = int(session.get("bot_teams") or 0)
    if rivals:
        plan = seating_plan(students, None, size, rivals)
        if plan is None:
            return {"needs_fill": True, "text": seating_error(students, None, size)}
        bots = ngettext("%(n)d bot team", "%(n)d bot teams", rivals) % {"n": rivals}
        return {"needs_fill": False, "text": ngettext(
            "Start makes %(t)d table: the students' teams (%(teams)s) and %(bots)s.",
            "Start makes %(t)d tables: the students' teams (%(teams)s) and %(bots)s at each.",
            len(plan.tables))
            % {"t": len(plan.tables), "bots": bots,
               "teams": " · ".join(" + ".join(map(str, p[:len(p) - rivals]))
                                   for p in plan.parties)}}
    even = seating_plan(students, None, size)
    if even is not None:
        teams = [n // size for n in even.tables]
        return {"needs_fill": False, "text": ngettext(
            "Start makes %(t)d table: %(teams)s teams of %(size)d.",
            "Start makes %(t)d tables: %(teams)s teams of %(size)d.", len(teams))
            % {"t": len(teams), "teams": " + ".join(map(str, teams)), "size": size}}
    bots = seating_plan(students, "bots", size) if session.get("bots_allowed", True) else None
    if bots is None:
        return {"needs_fill": True, "text": seating_error(students, None, size)}
    teams = [n // size for n in bots.tables]
    return {"needs_fill": True, "text": ngettext(
        "%(n)d student cannot be split into whole teams of %(size)d. Choose:",
        "%(n)d students cannot be split into whole teams of %(size)d. Choose:", students)
        % {"n": students, "size": size},
        "bots": ngettext("Add %(b)d bot and start (%(teams)s teams)",
                         "Add %(b)d bots and start (%(teams)s teams)", bots.bots)
        % {"b": bots.bots, "teams": " + ".join(map(str, teams))}}


def lobby_context(view: dict[str, Any]) -> dict[str, Any]:
    """The platform's lobby: the spaced join code, the seating Start makes, and why Start
    cannot act yet (it is then disabled with the reason beside it)."""
    session = view["session"]
    code = session.get("join_code") or ""
    seating = lobby_seating(len(view.get("lobby") or []), session) \
        if session["stage"] == "lobby" else None
    blocked = ""
    if session["stage"] == "lobby":
        if seating is None:
            blocked = _("Wait for the students to join.")
        elif seating.get("bots"):
            blocked = _("Choose below how to fill the gaps.")
        elif seating["needs_fill"]:
            blocked = _("These students cannot be seated in whole teams.")
    return {"seating": seating, "next_blocked": blocked,
            "join_code_spaced": f"{code[:3]} {code[3:]}"}


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    session = view["session"]
    extras = session.get("crisis_tables", {})
    tables = [projector_table(t, session, extras.get(t["number"], {}))
              for t in view["tables"] if "players" in t["game"]]
    for t in tables:
        t["track"] = track(t["status"])
    stage = session["stage"]
    waiting = any(t["turn"] or t.get("producing") for t in tables)
    return {**lobby_context(view), "session": session, "tables": tables,
            "closing_hint": str(CLOSING_HINTS.get(stage, "")) if waiting else "",
            "lobby": view.get("lobby"),
            "join_url": join_url, "join_code": session.get("join_code") or "",
            "next_label": _("Next"),  # the platform's label, while the step can be made
            "stage_name": str(script.STAGE_NAMES.get(stage, stage)),
            "stages": [{"id": s, "name": str(script.STAGE_NAMES[s]), "current": s == stage}
                       for s in script.ORDER],
            "rounds": range(1, int(session.get("rounds", cards.ROUNDS)) + 1),
            "round": session.get("crisis_round", 1), "grid": len(tables) > 1,
            "timed": any(t["turn_clock"] is not None for t in tables)}
