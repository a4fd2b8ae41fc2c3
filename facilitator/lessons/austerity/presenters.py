"""Turn the selectors' views into what Austerity's templates show, in the active language.

The projector (the teacher's console on the classroom screen) shows every table's board: the
five tracks, the bag (public by the rules), Current and the event, Used, the Treasury, the
institutions, the policy faces, the goal, the year and the Finance Minister; the budget
session's items as they are counted (what each decided and how many voted), and the tie rule.
A phone shows what is in front of its student: the minister's decision as big buttons, the
secret ballot of the open item, or who is deciding; the board in brief; its portfolio.

What a table shows is the game as of the teacher's stage: an item counted by its last token
is shown on "next" (``facts``, "Pacing"). Nothing here reads a vote.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import kit
from facilitator.lessons.austerity import explaining, portfolios, script, words
from facilitator.lessons.austerity.scoring import DEBT_WEIGHT, LOST, UNFINISHED, WON
from facilitator.lessons.austerity.seating import seating_error, seating_plan
from facilitator.models import ClassSession
from games.austerity import data

TRACK_CELLS = range(data.TRACK_MIN, data.TRACK_MAX + 1)


# --------------------------------------------------------------------------- the board


def year_of(round_: int) -> int:
    """The year a round shows (round 0 is year 1's first budget session: ``script.year_of``)."""
    return max(round_, 1)


def year_done(game: dict[str, Any], year: int) -> bool:
    """The table has finished ``year`` or its game (``script.year_done`` on a view)."""
    return bool(game["over"]) or game["year"] > year or game["stage"] == "policy"


def cubes_block(counts: dict[str, int]) -> list[dict[str, Any]]:
    return [{**words.cube(c), "n": counts.get(c, 0)} for c in data.COLOURS]


def tracks_block(tracks: dict[str, int]) -> list[dict[str, Any]]:
    return [{"key": t, "name": words.track_name(t), "value": tracks[t],
             "danger": tracks[t] <= 2} for t in data.TRACKS]


def institutions_block(game: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, marker in game["institutions"].items():
        inst = data.INSTITUTIONS[key]
        out.append({"key": key, "name": words.institution_name(key), "cuts": marker["cuts"],
                    "steps": range(data.CUTS_STEPS), "funded": marker["funded"],
                    "limit": inst.cubes_per_year, "extra": inst.extra,
                    "reward": _(inst.fund_text), "penalty": _(inst.cuts_text)})
    return out


def policies_block(game: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for card, face_id in game["policies"].items():
        _card, face = data.FACES[face_id]
        out.append({"card": _(data.POLICY_CARDS[card].name), "face": _(face.name),
                    "text": _(face.text), "fixed": card in game["fixed_policies"]})
    return out


def goal_text(game: dict[str, Any]) -> str:
    return _(game["goal"]["text"]).format(**game["goal"]["params"])


def debt_of(game: dict[str, Any]) -> int:
    """The country's Debt cubes, wherever they lie (``portfolios.debt`` on a view)."""
    return (game["bag"][data.DEBT] + game["used"][data.DEBT]
            + game["current"].count(data.DEBT))


def portfolio_as_shown(entry: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """A seat's portfolio (``reads``' entry, from the state now) as of the board a screen
    shows, ``game``: while a budget item's count is held back the screens show the board
    before it (``facts``), and the portfolio must not give the count away."""
    track = portfolios.TRACK_OF[entry["portfolio"]]
    value = debt_of(game) if track is None else game["tracks"][track]
    shown = portfolios.Standing(entry["portfolio"], entry["start"], value)
    return {**entry, "value": shown.value, "change": shown.change}


def decision_block(decision: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """One of the engine's decisions with its options said as what they do."""
    kind = decision["action"]
    params = {k: _(v) for k, v in decision.get("params", {}).items()}
    state = explaining.board_state(game)
    return {"id": decision["id"], "kind": kind,
            "prompt": _(decision["prompt"]).format(**params),
            "options": [{"value": o,
                         "label": words.option_label(kind, o, game.get("event"),
                                                     game["policies"]),
                         "short": words.option_short(kind, o, game.get("event")),
                         "effect": explaining.effect_text(state, kind, o)}
                        for o in decision["options"]]}


def event_block(game: dict[str, Any]) -> dict[str, Any] | None:
    """The event drawn, as the policy cards in force (or the scenario) make it, and which
    one changed it (``changed``: "" as printed)."""
    if not game.get("event"):
        return None
    return {**explaining.event_in_force(explaining.board_state(game), game["event"]),
            "cubes": [words.cube(c) for c in game["pair"]]}


def result_block(game: dict[str, Any], *, final: bool = False,
                 lesson_year: int | None = None) -> dict[str, Any] | None:
    """How the country ended (``scoring.country_result`` on a view); a game still going is
    unfinished only at the final result, its year the last the lesson played
    (``lesson_year``: the engine may already count the next one)."""
    tracks = sum(game["tracks"].values())
    owed = debt_of(game)
    if game["result"] in (WON, LOST):
        return {"kind": game["result"], "reason": words.reason_text(game["reason"]),
                "year": game["year"]}
    if not final:
        return None
    played = min(game["year"], lesson_year) if lesson_year else game["year"]
    return {"kind": UNFINISHED, "year": played, "tracks": tracks, "debt": owed,
            "score": tracks - DEBT_WEIGHT * owed}


def item_block(item: str, choice: str, voted: int, of: int, tie: bool = False,
               tally: dict[str, int] | None = None) -> dict[str, Any]:
    # A tally whose votes all went one way says it in a word, not "once · once 5".
    cast = {option: votes for option, votes in (tally or {}).items() if votes}
    unanimous = len(cast) == 1 and choice in cast
    return {"item": item, "name": str(words.ITEM_NAMES[item]), "tie": tie,
            "unanimous": unanimous,
            "tally": [] if unanimous else
            [{"label": words.item_outcome(item, option), "votes": votes}
             for option, votes in sorted((tally or {}).items(),
                                         key=lambda kv: script.change_key(kv[0]))],
            "label": words.item_outcome(item, choice),
            "change": choice != script.NO_CHANGE[item],
            "voted": voted, "of": of,
            "outcome_only": voted < 3}


def seats_block(table: dict[str, Any], portfolio_on: bool) -> list[dict[str, Any]]:
    chair = (table.get("minister") or {}).get("seat")
    out = []
    for position, seat in enumerate(table["seats"]):
        entry = {**seat, "minister": seat["seat"] == chair}
        if portfolio_on:
            key = portfolios.portfolio_of(position)
            entry["portfolio"] = str(portfolios.NAMES[key])
        out.append(entry)
    return out


def table_context(table: dict[str, Any], session: dict[str, Any]) -> dict[str, Any]:
    """One table as the screens show it, as of the teacher's stage."""
    facts = table.get("screens") or {}
    game = facts.get("before") or table["game"]
    stage = session["stage"]
    pending = facts.get("pending")
    item = script.STAGE_ITEMS.get(stage)
    year = year_of(session["round"])
    minister = table.get("minister")
    ctx: dict[str, Any] = {
        # The lesson's table facts (``info.table_info``: motions, modes, timer...) as they are,
        # for the console's controls.
        **{k: v for k, v in table.items() if k not in ("game", "seats", "screens")},
        "number": table["number"], "game": game,
        "reopened": kit.reopened_notice(table.get("reopened", ""), phone=False),
        "bag_generation": table.get("bag", ""),
        "seats": seats_block(table, bool(session.get("portfolios"))),
        "minister": minister,
        "tracks": tracks_block(game["tracks"]),
        "bag": cubes_block(game["bag"]), "bag_total": sum(game["bag"].values()),
        "current": [words.cube(c) for c in game["current"]],
        "used": cubes_block(game["used"]), "used_total": sum(game["used"].values()),
        "treasury": game["treasury"], "income_letter": words.cube(data.INCOME)["letter"],
        "institutions": institutions_block(game),
        "policies": policies_block(game),
        "goal": goal_text(game), "scenario": _(data.SCENARIOS[game["scenario"]].name),
        "country": _(data.COUNTRIES[game["country"]].name) if game.get("country") else "",
        "olympics": game.get("olympics"), "war": game.get("war"),
        "event": event_block(game) if stage == script.YEAR else None,
        "over": game["over"],
        "result": result_block(game, final=stage == script.FINAL, lesson_year=year),
        # done with the year as the game stands, whatever board the screens show
        "year_done": year_done(table["game"], year),
        "year_end_held": bool(facts.get("year_end_held")),
        "items": [item_block(c["item"], c["choice"], c["voted"], c["of"], c.get("tie", False),
                             c.get("tally"))
                  for c in facts.get("items", [])],
        "vote": None, "pending": None, "no_vote": False, "decision": None,
        "motion_result": motion_result(facts.get("motion"), table.get("motions") or []),
    }
    if item is not None:
        vote = facts.get("vote")
        if vote is not None:
            ctx["vote"] = {"item": item, "name": str(words.ITEM_NAMES[item]),
                           "question": str(words.ITEM_QUESTIONS[item]),
                           "decision": vote["decision"], "voted": vote["voted"],
                           "of": vote["of"],
                           "options": [{"index": i, "value": o,
                                        "label": words.item_option_label(item, o,
                                                                         game["policies"]),
                                        "short": words.item_option_label(item, o),
                                        "effect": explaining.item_effect(
                                            explaining.board_state(game), item, o)}
                                       for i, o in enumerate(vote["options"])]}
        elif pending is not None:
            ctx["pending"] = {"name": str(words.ITEM_NAMES[item]), "voted": pending["voted"],
                              "of": pending["of"]}
        elif not game["over"]:
            ctx["no_vote"] = str(words.ITEM_NAMES[item])  # the item cannot apply here
    if stage == script.YEAR and not game["over"] and game.get("decisions"):
        ctx["decision"] = decision_block(game["decisions"][0], game)
    voting, progress = table.get("voting"), facts.get("open")
    if voting and progress and voting["kind"] != "budget":
        ctx["ballot"] = {**ballot_block(voting, game, table.get("motions") or []),
                         "voted": progress["voted"], "of": progress["of"]}
    return ctx


def motion_result(counted: dict[str, Any] | None, motions: list[dict[str, Any]]
                  ) -> dict[str, Any] | None:
    """The year's last motion counted at the table, as the count decided it: its number, what
    it asked, carried or not (or dropped: the game could no longer do it), how many voted and,
    from 3 ballots, the yes and no votes. Shown from its count on, like the phones' status."""
    if counted is None:
        return None
    motion = next((m for m in motions if m.get("decision") == counted["decision"]), None)
    if motion is None or motion["status"] not in ("carried", "rejected", "dropped"):
        return None
    tally = counted.get("tally")
    return {"number": motion["number"], "label": motion["label"], "status": motion["status"],
            "voted": counted["voted"], "of": counted["of"], "tie": counted["tie"],
            "yes": tally.get(script.YES, 0) if tally else None,
            "no": tally.get(script.NO, 0) if tally else None}


def ballot_block(voting: dict[str, Any], game: dict[str, Any],
                 motions: list[dict[str, Any]]) -> dict[str, Any]:
    """A table ballot in the year (a motion, the Actions before a draw, or one of the
    engine's decisions the teacher took to the table): its question and its options."""
    decision = voting["decision"]
    options = voting["options"]
    state = explaining.board_state(game)
    if voting["kind"] == "motion":
        motion = next((m for m in motions if m.get("decision") == decision), None)
        question = _("Motion: %(motion)s") % {"motion": motion["label"]} if motion else _(
            "Motion")
        labels = [_("Yes") if o == script.YES else _("No") for o in options]
        kind = {"action": "action", "institution": "action", "policy": "policy"}.get(
            (motion or {}).get("kind", ""))
        carried = explaining.effect_text(state, kind, motion["target"]) \
            if kind and motion else ""
        effects = [carried if o == script.YES else "" for o in options]
    elif voting["kind"] == "actions":
        question = _("Take an Action before the next draw?")
        labels = [_("No Action now") if o == script.NONE else words.action_label(o)
                  for o in options]
        effects = ["" if o == script.NONE else explaining.effect_text(state, "action", o)
                   for o in options]
    else:
        found = next((d for d in game.get("decisions") or [] if d["id"] == decision), None)
        block = decision_block(found, game) if found else None
        question = block["prompt"] if block else ""
        labels = [o["label"] for o in block["options"]] if block else list(options)
        effects = [o["effect"] for o in block["options"]] if block else [""] * len(options)
    # a motion's own tie rule ("" for the year's ballots: the session's ``ballot_tie_rule``)
    tie_rule = _("A tie is not carried: a motion needs more yes than no votes.") \
        if voting["kind"] == "motion" else ""
    return {"decision": decision, "question": question, "tie_rule": tie_rule,
            "options": [{"index": i, "value": o, "label": label, "effect": effect}
                        for i, (o, label, effect)
                        in enumerate(zip(options, labels, effects, strict=True))]}


# --------------------------------------------------------------------------- the console


def step_label(session: ClassSession, plan: kit.StepPlan, votes: int | None) -> str | None:
    """The teacher's button, for the step to ``plan`` (``Lesson.step_label``): the lesson's
    own words for going on; None where the platform's say it (a count, a vote closed with no
    ballot, the final result). Year 1's session is shown at round 0: its items are no new
    round."""
    if plan.finished or votes is not None:
        return None
    if session.stage == script.YEAR_END:
        return _("Next year's budget")
    if plan.stage == script.YEAR:
        return _("Start the year")
    if plan.stage in script.STAGE_ITEMS:
        return str(script.STAGE_NAMES[plan.stage])
    return None


def next_label(session: dict[str, Any], tables: list[dict[str, Any]]) -> str:
    """What the teacher's one button says while the lesson refuses the step (a table still
    playing or voting): what it will do once it can (``step_label`` names every step)."""
    stage = session["stage"]
    if stage in script.STAGE_ITEMS:
        return _("Count the votes")
    if stage == script.YEAR:
        return _("Year End")
    if stage == script.YEAR_END:
        if tables and all(t["over"] for t in tables):
            return _("Final result")
        return _("Next year's budget")
    return _("Next")


def next_blocked(session: dict[str, Any], tables: list[dict[str, Any]],
                 seating: dict[str, Any] | None) -> str:
    """Why the teacher's button cannot act now ("" if it can): then it is disabled, with
    this reason beside it."""
    stage = session["stage"]
    if session["status"] == "lobby":
        if seating is None:
            return _("Wait for the students to join.")
        if seating["needs_fill"]:
            return _("Choose below how to fill the gaps.")
        return ""
    if stage == script.YEAR:
        playing = [str(t["number"]) for t in tables if not t["year_done"]]
        if playing:
            return ngettext("Table %(tables)s is still playing its year.",
                            "Tables %(tables)s are still playing their year.",
                            len(playing)) % {"tables": ", ".join(playing)}
    return ""


def count_confirm(session: dict[str, Any]) -> dict[str, str] | None:
    """The question before a count with tokens missing ("{n}" filled in by the page)."""
    if session["stage"] not in script.STAGE_ITEMS:
        return None
    return {key: ngettext("%(n)s student has not voted: count anyway?",
                          "%(n)s students have not voted: count anyway?", n) % {"n": "{n}"}
            for key, n in (("one", 1), ("other", 2))}


def seating_text(students: int, options: dict[str, Any]) -> dict[str, Any] | None:
    """What pressing Start will do with this many students (and the choices when needed)."""
    if not students:
        return None

    def sizes(plan: Any) -> str:
        return " + ".join(map(str, plan.tables))

    even = seating_plan(students, None, options)
    if even is not None:
        return {"needs_fill": False, "text": ngettext(
            "Start makes %(t)d table: %(sizes)s.", "Start makes %(t)d tables: %(sizes)s.",
            len(even.tables)) % {"t": len(even.tables), "sizes": sizes(even)}}
    bots, pairs = (seating_plan(students, "bots", options),
                   seating_plan(students, "pairs", options))
    return {
        "needs_fill": True, "text": seating_error(students, None, options),
        "bots": ngettext("Add %(b)d bot and start (%(sizes)s)",
                         "Add %(b)d bots and start (%(sizes)s)", bots.bots)
        % {"b": bots.bots, "sizes": sizes(bots)} if bots else None,
        "pairs": ngettext("Start with %(p)d pair sharing a phone (%(sizes)s)",
                          "Start with %(p)d pairs sharing a phone (%(sizes)s)", pairs.pairs)
        % {"p": pairs.pairs, "sizes": sizes(pairs)} if pairs else None,
    }


def progress_steps(session: dict[str, Any]) -> list[dict[str, Any]]:
    """The year's steps for the console's position bar: its budget items, the year, Year
    End (the policy item from year 2 with policy cards; the institution item with extra
    institutions)."""
    stage = session["stage"]
    year = year_of(session["round"])
    items = [i for i in script.BUDGET_ITEMS
             if (i != script.POLICY_ITEM or (year > 1 and session.get("policies")))
             and (i != script.INSTITUTION or session.get("extra_institutions"))]
    stages = [script.budget_stage(i) for i in items] + [script.YEAR, script.YEAR_END]
    labels = {**{script.budget_stage(i): str(words.ITEM_NAMES[i]) for i in items},
              script.YEAR: _("The year"), script.YEAR_END: _("Year End")}
    here = stages.index(stage) if stage in stages else len(stages)
    return [{"stage": s, "label": labels[s], "current": i == here, "done": i < here}
            for i, s in enumerate(stages)]


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    session = view["session"]
    code = session.get("join_code") or ""
    tables = [table_context(t, session) for t in view["tables"]]
    for t in tables:  # nobody to wait for once every table is done
        t["all_done"] = all(other["year_done"] for other in tables)
    seating = seating_text(len(view.get("lobby") or []), session.get("options") or {})
    goals = {t["goal"] for t in tables}
    ready = sum(1 for t in tables for m in t.get("motions") or [] if m.get("ready"))
    return {
        "session": session, "tables": tables, "grid": len(tables) > 1,
        # The teacher's controls open by themselves when they are needed: a motion is ready,
        # or a table waits for the teacher's own decision.
        "ready_motions": ready,
        "open_controls": bool(ready or any(t.get("teacher_decisions") for t in tables)),
        "goal_shared": goals.pop() if len(goals) == 1 else "",
        "cells": TRACK_CELLS, "budget": session["stage"] in script.STAGE_ITEMS,
        "year": year_of(session["round"]),
        "stage_label": str(script.STAGE_NAMES.get(session["stage"], "")),
        "steps": progress_steps(session),
        "next_label": next_label(session, tables),
        "next_blocked": next_blocked(session, tables, seating),
        "count_confirm": count_confirm(session),
        "seating": seating, "lobby": view.get("lobby"),
        "join_url": join_url, "join_code": code, "join_code_spaced": f"{code[:3]} {code[3:]}",
        "tie_rule": session.get("tie_rule", ""),
        "undone": undone_notice(session),
    }


# --------------------------------------------------------------------------- phones


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    session = view["session"]
    seat = view["seat"]
    ctx: dict[str, Any] = {
        "session": session, "seat": seat, "can": view.get("can", {}), "cells": TRACK_CELLS,
        "year": year_of(session["round"]),
        "stage_label": str(script.STAGE_NAMES.get(session["stage"], "")),
        "tie_rule": session.get("tie_rule", ""),
        "undone": undone_notice(session) if (session.get("undone") or {}).get("discarded")
        else "",
    }
    game = view.get("game")
    if not game or "table" not in view:
        return ctx
    chair = {"nickname": seat["minister_name"]} if seat.get("minister_name") else None
    acting = {"nickname": seat["acting_name"]} if seat.get("acting_name") else None
    # The table's open vote and motions come with the seat (``info.seat_info``).
    table = table_context({**view["table"], "game": game, "minister": chair, "acting": acting,
                           "voting": seat.get("voting"), "motions": seat.get("motions") or [],
                           "screens": seat.get("screens") or {}}, session)
    ctx["table"] = table
    ctx["revote"] = kit.reopened_notice(view["table"].get("reopened", ""), phone=True)
    ctx["minister"] = bool(seat.get("minister"))
    ctx["stands_in"] = bool(seat.get("stands_in"))
    mine = set(ctx["can"].get("decide") or [])  # the decisions this phone answers now
    if mine and not table["over"]:
        pending = [d for d in game.get("decisions") or [] if d["id"] in mine]
        main = [d for d in pending if d["action"] != "action"]
        actions = [d for d in pending if d["action"] == "action"]
        ctx["decide"] = decision_block(main[0], game) if main else None
        ctx["actions"] = decision_block(actions[0], game) if actions else None
    ctx["countdown"] = phone_countdown(session, seat)
    if session.get("portfolios") and seat.get("portfolio"):
        mine_ = portfolio_as_shown(seat["portfolio"], table["game"])
        ctx["portfolio"] = {**mine_, "debt": mine_["portfolio"] == portfolios.TREASURY}
    return ctx


def phone_countdown(session: dict[str, Any], seat: dict[str, Any]) -> dict[str, Any] | None:
    """The timer this phone counts down, if it concerns it: a budget item's (the stage's) and
    a table ballot's at every phone of a table that votes; the minister's decision at the
    phone that decides (the minister's, or the stand-in's while the minister's is asleep)."""
    if session["stage"] in script.STAGE_ITEMS:
        return session.get("countdown") if seat.get("voting") else None
    timer = seat.get("timer")
    if not timer or session["stage"] != script.YEAR:
        return None
    decides = seat.get("stands_in") or (seat.get("minister") and not seat.get("acting_name"))
    return seat.get("countdown") if timer["kind"] == "ballot" or decides else None


def undone_notice(session: dict[str, Any]) -> str:
    """One sentence for the screens: what the last Undo took back ("" if nothing)."""
    undone = session.get("undone")
    if not undone:
        return ""
    if undone["kind"] == "start":
        return _("Undone: the start of the lesson. Everyone is back in the lobby.")
    left = undone.get("from") or ""
    if left in script.STAGE_ITEMS and undone.get("discarded"):
        # The step counted the item's bag: the count is gone and the bag is asked again.
        name = words.ITEM_NAMES[script.STAGE_ITEMS[left]]
        return (_("Undone: the count of “%(item)s”.") % {"item": name} + " "
                + _("The votes cast were discarded: everyone votes again."))
    return _("Undone: back to “%(stage)s”.") % {"stage": script.STAGE_NAMES.get(left, left)}
