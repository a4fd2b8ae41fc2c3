"""Turn selector views into what the templates show, in the active language.

The engine moves on by itself (docs/engine.md): when a bag is counted the rest of the round and the
next round's event resolve at once. The lesson, though, is paced by the teacher, so what the
projector and the phones show is the game *as of the teacher's stage*: a round the teacher has
not reached yet (its event, its Midlife cards, its coins) stays out of view until then.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import kit
from facilitator.lessons.state_in_class import charts, seating, undo
from facilitator.lessons.state_in_class.pacing import (
    ALL_CARDS,
    card_moments,
    cards_read,
    failure_key,
    session_stage_key,
    stage_key,
    stage_order,
    tie_shown,
)
from facilitator.lessons.state_in_class.stages import Stage
from facilitator.lessons.state_in_class.words import (
    SERVICE_LETTERS,
    class_mark,
    class_name,
    coins,
    event_effect_now,
    role_name,
    service_mark,
    service_name,
    signed,
    tension_reason,
)
from facilitator.models import ClassSession
from games.state_in_class import data
from games.state_in_class.audiences import role_card
from games.state_in_class.rules import split_shares
from games.state_in_class.state import Service

PHASE_BAR = [Stage.EVENT, Stage.DEBATE, Stage.TAX_VOTE, Stage.PAY, Stage.BUDGET_VOTE,
             Stage.END_OF_ROUND]


# --------------------------------------------------------------------------- texts


def statement_reason(entry: dict[str, Any]) -> str:
    reason = entry["reason"]
    labels = {
        "start": _("Starting coins"), "pact": _("Opening pact"), "income": _("Income"),
        "tax": _("Tax"), "cost_of_living": _("Cost of living"), "boom": _("Economic boom"),
        "storm": _("Great storm"), "class_change": _("Class change"),
    }
    if reason.startswith("midlife:"):
        card = data.MIDLIFE_CARDS[reason.split(":", 1)[1]]
        return _("Midlife: %(card)s") % {"card": _(card.name)}
    return labels.get(reason, reason)


# --------------------------------------------------------------------------- pacing


def visible_round(entry_round: int, session: dict[str, Any]) -> bool:
    """Has the teacher reached the part of the game where this happened?"""
    shown = session["round"]
    if session["stage"] in (Stage.LOBBY, Stage.PACT):
        return entry_round == 0
    if session["stage"] == Stage.FINAL:
        return True
    if entry_round < shown:
        return True
    if entry_round > shown:
        return False
    if shown == data.MIDLIFE_ROUND:
        return session["stage"] in (Stage.MIDLIFE, Stage.END_OF_ROUND)
    return True


# The stage at which the class sees a round's coin movements of each kind (in round 4, the
# Midlife Crossroads, a card's coins come with its card: ``visible_entry``).
SHOWN_AT = {"boom": Stage.EVENT, "storm": Stage.EVENT, "income": Stage.PAY, "tax": Stage.PAY,
            "cost_of_living": Stage.PAY}
# Where the class sees each cause of a Tension change or an exclusion (outside round 4).
CAUSE_SHOWN_AT = {"storm": Stage.EVENT, "could_not_pay": Stage.PAY}


def visible_entry(entry: dict[str, Any], session: dict[str, Any],
                  my_card: int | None = None) -> bool:
    """Has the teacher reached the moment this wallet line happened?

    Decision: a bag is counted (and the engine pays everyone) as soon as the last token is in,
    while the class still sees the vote; a phone shows that round's income, tax and cost of
    living only when the teacher reveals the count (the "pay" stage), so no wallet gives the
    result away early. It also means a count changes no phone's screen (only a tie-break
    decider's), which the services rely on (performance, docs/performance.md).

    In the Midlife round the income comes when the Crossroads opens, a card's coins when the
    class reaches that card (``my_card``: the player's card, 1-based) and a class change's
    at the round's end.
    """
    if not visible_round(entry["round"], session):
        return False
    if entry["round"] == data.MIDLIFE_ROUND:
        read = cards_read(session, data.MIDLIFE_ROUND)
        if entry["reason"].startswith("midlife:"):
            return my_card is not None and read >= my_card
        if entry["reason"] == "class_change":
            return read == ALL_CARDS
        return True
    shown_at = SHOWN_AT.get(entry["reason"])
    if (shown_at is None or entry["round"] != session["round"]
            or session["stage"] == Stage.FINAL):
        return True
    return stage_order(session["stage"]) >= stage_order(shown_at)


def shown_flags(entry_round: int, entry: dict[str, Any], session: dict[str, Any]
                ) -> tuple[list[bool], list[bool]]:
    """Which of a round's Tension changes and exclusions the class has seen, in order."""
    changes, exclusions = entry.get("tension") or [], entry.get("exclusions") or []
    reached = session_stage_key(session)
    if reached < stage_key(entry_round, Stage.EVENT) or not visible_round(entry_round, session):
        return [False] * len(changes), [False] * len(exclusions)
    if reached >= stage_key(entry_round + 1, Stage.EVENT) or session["stage"] == Stage.FINAL:
        return [True] * len(changes), [True] * len(exclusions)
    at_end = stage_order(session["stage"]) >= stage_order(Stage.END_OF_ROUND)
    if entry_round == data.MIDLIFE_ROUND:
        read = cards_read(session, entry_round)
        tension_cards, exclusion_cards = card_moments(entry)
        return ([at_end if c is None else read >= c for c in tension_cards],
                [at_end if c is None else read >= c for c in exclusion_cards])

    def seen(item: dict[str, Any]) -> bool:
        shown_at = CAUSE_SHOWN_AT.get(item.get("reason", ""), Stage.END_OF_ROUND)
        return stage_order(session["stage"]) >= stage_order(shown_at)

    return [seen(c) for c in changes], [seen(e) for e in exclusions]


def exclusions_ahead(game: dict[str, Any], session: dict[str, Any]) -> Counter[str]:
    """Exclusion tokens, per player, that the class has not reached yet (the engine runs
    ahead of the teacher: a count pays everyone at once, the Midlife round plays itself)."""
    ahead: Counter[str] = Counter()
    for rnd, entry in enumerate(game.get("history") or [], start=1):
        for e, seen in zip(entry.get("exclusions") or [], shown_flags(rnd, entry, session)[1],
                           strict=True):
            if not seen:
                ahead[e["player"]] += 1
    return ahead


def roles_ahead(game: dict[str, Any], session: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Players whose class changed at a Midlife Crossroads the class has not reached the end
    of yet, with the role and class they still hold as shown (the engine plays round 4 by
    itself as soon as round 3's budget is counted)."""
    before: dict[str, tuple[str, str]] = {}
    for rnd, entry in enumerate(game.get("history") or [], start=1):
        if cards_read(session, rnd) == ALL_CARDS:
            continue
        for change in entry.get("class_changes", []):
            if change.get("result") == "changed":
                before.setdefault(change["player"], (change["from_role"], change["from_class"]))
    return before


def board_as_shown(game: dict[str, Any], session: dict[str, Any]) -> dict[str, Any]:
    """Services, Tension and this round's story as of the teacher's stage.

    Tension is the value after the last change the class has seen this round (before the
    first one: the value the round started with); services are as the round began until the
    round's end, once the engine has played past it (its budget counted): the previous
    round's end, or in round 1 the new game's services. No event changes a service, so that
    is the board the class saw before the count.
    """
    rnd = session["round"]
    history = game.get("history") or []
    entry = history[rnd - 1] if 0 < rnd <= len(history) else {}
    ahead = game.get("round", 0) > rnd or game.get("over")
    services = {s: dict(v) for s, v in game["services"].items()}
    tension = game.get("tension")
    if not entry or session["stage"] == Stage.FINAL:
        return {"services": services, "tension": tension, "entry": entry}
    if ahead:
        before_end = stage_order(session["stage"]) < stage_order(Stage.END_OF_ROUND)
        if before_end and rnd == 1:
            start = Service()  # every service as a new game deals it
            source = {"levels": dict.fromkeys(services, start.level),
                      "funds": dict.fromkeys(services, start.fund)}
        else:
            source = history[rnd - 2] if before_end else entry
        if source.get("levels") is not None:
            for s in services:
                services[s]["level"] = source["levels"][s]
                services[s]["fund"] = source["funds"][s]
        tension = entry.get("tension_after", tension)
    changes = entry.get("tension") or []
    seen = [c for c, shown in zip(changes, shown_flags(rnd, entry, session)[0], strict=True)
            if shown]
    if seen:
        tension = seen[-1]["value"]
    elif changes:
        tension = changes[0]["value"] - changes[0]["delta"]
    return {"services": services, "tension": tension, "entry": entry}


# --------------------------------------------------------------------------- building blocks


def services_block(services: dict[str, Any], price: int) -> list[dict[str, Any]]:
    return [{
        "key": s, "name": service_name(s), "letter": SERVICE_LETTERS[s], "mark": service_mark(s),
        "level": v["level"], "fund": v["fund"], "price": price,
        "to_next": None if v["level"] >= data.MAX_LEVEL else max(0, price - v["fund"]),
        "effect": _(data.SERVICE_EFFECTS[s]), "pips": range(1, data.MAX_LEVEL + 1),
    } for s, v in services.items()]


def tally_block(tally: dict[str, int], kind: str) -> list[dict[str, Any]]:
    top = max(tally.values(), default=0) or 1
    rows = []
    for option, votes in tally.items():
        if kind == "tax":
            label = f"{option} · {_(data.TAX_NAMES[option])}"
            letter = mark = option
        else:
            label, letter = service_name(option), SERVICE_LETTERS[option]
            mark = service_mark(option)
        rows.append({"option": option, "label": label, "letter": letter, "mark": mark,
                     "votes": votes, "percent": round(100 * votes / top)})
    return rows


def split_block(split: dict[str, Any]) -> dict[str, Any]:
    passes: dict[int, list[dict[str, Any]]] = {}
    for step in split.get("steps", []):
        passes.setdefault(step["pass"], []).append({
            **step, "name": service_name(step["to"]), "letter": SERVICE_LETTERS[step["to"]],
            "mark": service_mark(step["to"]),
            "redirected": step["to"] != step["service"],
            "from_name": service_name(step["service"])})
    return {
        "revenue": split.get("revenue", 0),
        "ranking": [{"key": s, "name": service_name(s), "letter": SERVICE_LETTERS[s],
                     "mark": service_mark(s),
                     "place": i + 1, "share": split["shares"].get(s, 0)}
                    for i, s in enumerate(split.get("ranking", []))],
        "passes": [{"number": n, "steps": steps} for n, steps in sorted(passes.items())],
        "level_ups": [{"name": service_name(u["service"]), "level": u["level"],
                       "letter": SERVICE_LETTERS[u["service"]],
                       "mark": service_mark(u["service"])}
                      for u in split.get("level_ups", [])],
    }


def midlife_block(draws: list[dict[str, Any]], names: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for d in draws:
        card = data.MIDLIFE_CARDS[d["card"]]
        measured = (_("The country") if card.measures == "country"
                    else service_name(card.measures))
        out.append({
            "player": names.get(d["player"], d["player"]), "player_name": d["player"],
            "role": role_name(d["role"]),
            "card": _(card.name), "measures": measured, "level": d["level"],
            "outcome": _(d["outcome"]).format(**(d.get("params") or {})),
            "token": d["token"], "move": d["move"],
        })
    return out


def class_change_text(change: dict[str, Any], names: dict[str, str]) -> str:
    who = names.get(change["player"], change["player"])
    result = change["result"]
    if result == "changed":
        return _("%(who)s becomes %(role)s (%(klass)s).") % {
            "who": who, "role": role_name(change["to_role"]),
            "klass": class_name(change["to_class"])}
    if result == "no_spare":
        return _("%(who)s would change class, but that spare role is taken: "
                 "%(who)s stays %(role)s.") % {"who": who, "role": role_name(change["from_role"])}
    if result == "top_bonus":
        return _("%(who)s is already upper class and gains 5 coins.") % {"who": who}
    if result == "bottom_token":
        return _("%(who)s is already working class, cannot pay 5 coins and gets an Exclusion "
                 "token.") % {"who": who}
    return _("%(who)s is already working class and loses 5 coins.") % {"who": who}


def final_block(final: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The final count for the screens; players on the same score share their place, as the
    rulebook has them share the victory ("1, 1, 3")."""
    ranking = sorted(final["players"].items(), key=lambda kv: -kv[1]["score"])
    scores = [p["score"] for _n, p in ranking]
    return {
        "failed": final["failed"], "legacy": final["legacy"], "levels_sum": final["levels_sum"],
        "tension": final["tension"], "pact_total": final["pact_total"],
        "winners": [names.get(w, w) for w in final["winners"]],
        "ranking": [{
            "name": names.get(n, n), "role": role_name(p["role"]), "klass": class_name(p["class"]),
            "coins": p["coins"], "pact": p["pact"], "score": p["score"],
            "goal": _(data.GOAL_NAMES[p["goal"]]), "exclusions": p["exclusions"],
            "breakdown": p["breakdown"], "winner": n in final["winners"],
            "place": 1 + sum(s > p["score"] for s in scores),
        } for n, p in ranking],
    }


# --------------------------------------------------------------------------- pages


def phase_bar(session: dict[str, Any]) -> list[dict[str, Any]]:
    current = session["stage"]
    if current == Stage.MIDLIFE:
        current = Stage.DEBATE  # the Midlife round replaces debate, votes and paying
    labels = dict(Stage.choices)
    return [{"key": s, "label": labels[s], "current": s == current,
             "done": stage_order(s) < stage_order(current)} for s in PHASE_BAR]


def revenue_notes(history: list[dict[str, Any]], entry: dict[str, Any]) -> list[str]:
    """What the round's revenue holds besides tax, as the handouts say it: Social peace's
    coins, and the inheritance's coins that waited on the table since the Midlife round."""
    notes = []
    effect = entry.get("event_effect") or {}
    if effect.get("effect") == "peace" and effect.get("coins"):
        notes.append(_("including %(coins)s from Social peace") % {
            "coins": coins(effect["coins"])})
    inheritance = sum(d.get("budget") or 0 for e in history
                      if e.get("round") == entry.get("round", 0) - 1
                      for d in e.get("midlife") or [])
    if inheritance:
        notes.append(_("including %(coins)s from the inheritance") % {
            "coins": coins(inheritance)})
    return notes


def table_context(table: dict[str, Any], session: dict[str, Any]) -> dict[str, Any]:
    game = table["game"]
    names = {s["name"]: s["nickname"] if not s["partner"] else s["name"] for s in table["seats"]}
    shown = board_as_shown(game, session)
    entry = shown["entry"]
    stage = session["stage"]
    after = stage_order(stage)
    players = {p["name"]: p for p in game["players"]}
    for name, (role, klass) in roles_ahead(game, session).items():
        players[name] = {**players[name], "role": role, "class": klass}
    hidden = exclusions_ahead(game, session)
    seats = [{**s, "role": role_name(players.get(s["name"], {}).get("role")),
              "klass": players.get(s["name"], {}).get("class"),
              "klass_name": class_name(players.get(s["name"], {}).get("class")),
              "klass_mark": class_mark(players.get(s["name"], {}).get("class")),
              "exclusions": range(players.get(s["name"], {}).get("exclusions", 0)
                                  - hidden[s["name"]])}
             for s in table["seats"]]
    ctx: dict[str, Any] = {
        "reopened": kit.reopened_notice(table.get("reopened", ""), phone=False),
        "bag": table.get("bag", ""),
        "number": table["number"], "seats": seats, "players_count": len(seats),
        "services": services_block(shown["services"], game["price"]),
        "tension": shown["tension"], "tension_track": range(1, data.FAIL_TENSION + 1),
        "failed": failure_seen(game, session),
        "pact": game["pact"], "tax": game.get("tax"),
        "vote": game.get("vote"), "tie_break": None,
    }
    if entry:
        ctx["event"] = {"name": _(data.EVENT_NAMES[entry["event"]]),
                        "effect": event_effect_now(entry["event"], entry.get("event_effect", {}))}
        tension_seen, exclusions_seen = shown_flags(session["round"], entry, session)
        ctx["tension_seen"] = [c for c, seen in zip(entry.get("tension") or [], tension_seen,
                                                    strict=True) if seen]
        ctx["tension_changes"] = [tension_reason(c) for c in ctx["tension_seen"]]
        ctx["exclusions"] = [{"name": names.get(e["player"], e["player"]), "player": e["player"],
                              "role": role_name(e["role"]), "reason": e["reason"]}
                             for e, seen in zip(entry.get("exclusions") or [], exclusions_seen,
                                                strict=True) if seen]
        if "tax" in entry and "winner" in entry["tax"] and after >= stage_order(Stage.PAY):
            tax = entry["tax"]
            ctx["tax_result"] = {
                "bars": tally_block(tax["tally"], "tax") if tax.get("tally") is not None
                else None, "winner": tax["winner"],
                "winner_name": _(data.TAX_NAMES[tax["winner"]]), "how": tax["decided_by"],
                "voters": tax["voters"], "revenue": entry.get("revenue"),
                "revenue_notes": revenue_notes(game.get("history") or [], entry)}
        if "split" in entry and after >= stage_order(Stage.END_OF_ROUND):
            budget = entry["budget"]
            ctx["budget_result"] = {"bars": tally_block(budget["tally"], "budget")
                                    if budget.get("tally") is not None else None,
                                    "voters": entry["budget"]["voters"],
                                    **split_block(entry["split"])}
        if entry.get("obsolescence") and after >= stage_order(Stage.END_OF_ROUND):
            ctx["obsolescence"] = True
        if "midlife" in entry:
            read = cards_read(session, session["round"])
            ctx["midlife"] = midlife_block(entry["midlife"][:read], names)
            # Out of the table's players (not the cards drawn: a State that fails at a card
            # draws no more, and "card 3 of 7" would give that away).
            ctx["midlife_total"] = len(game["players"])
            if read == ALL_CARDS:
                ctx["class_changes"] = [class_change_text(c, names)
                                        for c in entry.get("class_changes", [])]
        ctx["tie_breaks"] = entry.get("tie_breaks", [])
    if game.get("tax_collects") and stage == Stage.DEBATE:
        ctx["taxes"] = tax_table(game["tax_collects"])
    if game.get("tie_break") and tie_shown(stage):
        tie = game["tie_break"]
        labels = [service_name(o) if tie["kind"] == "budget" else o for o in tie["options"]]
        passed = [t for t in (entry.get("tie_breaks") or [])
                  if t["kind"] == tie["kind"] and t["choice"] is None]
        ctx["tie_break"] = {"decider": names.get(tie["decider"], tie["decider"]),
                            "after_passes": bool(passed),
                            "kind": tie["kind"], "options": tie["options"],
                            "place": tie.get("place", 1),
                            "pairs": list(zip(tie["options"], labels, strict=True))}
        # The count the class is now shown, while the decider chooses among its tied options
        # (its bars only where the tally is published: three votes or more).
        counted = (entry or {}).get(tie["kind"]) or {}
        if counted.get("tally") is not None:
            ctx["tie_break"]["bars"] = tally_block(counted["tally"], tie["kind"])
    if game.get("final") and stage == Stage.FINAL:
        ctx["final"] = final_block(game["final"], names)
        history = game.get("history") or []
        # charts.* escape every text they draw: their SVG is safe to inline.
        # Drawn for the projector: a compact frame the page scales up, its labels larger.
        ctx["charts"] = [mark_safe(charts.tension_chart(history, width=400, height=190,
                                                        big=True)),
                         mark_safe(charts.levels_chart(history, width=400, height=190,
                                                       big=True))]
    return ctx


def tax_table(collects: dict[str, int]) -> list[dict[str, Any]]:
    """The rulebook's table of the four taxes, for this table's players: what each class
    pays, what the table collects, and what the service with the most budget votes gets."""
    levels = dict.fromkeys(data.SERVICES, data.MIN_LEVEL)
    return [{"option": o, "name": _(data.TAX_NAMES[o]), "upper": data.TAXES[o][data.UPPER],
             "middle": data.TAXES[o][data.MIDDLE], "working": data.TAXES[o][data.WORKING],
             "collects": collects[o],
             "first": split_shares(collects[o], list(data.SERVICES), levels)[0][data.SERVICES[0]]}
            for o in data.TAX_OPTIONS]


def failure_seen(game: dict[str, Any], session: dict[str, Any]) -> bool:
    """Has the teacher reached the moment this table's State failed?"""
    when = failure_key(game["failed"], game["round"], game.get("history") or [])
    return when is not None and session_stage_key(session) >= when


def step_label(session: ClassSession, plan: kit.StepPlan, votes: int | None) -> str | None:
    """The teacher's button, for the step to ``plan`` (``Lesson.step_label``): the lesson's
    own words for going to a stage; None where the platform's say it (a count, a vote closed
    with no ballot, a new round, the final count)."""
    if plan.finished or votes is not None:
        return None
    if plan.stage == Stage.MIDLIFE:
        return _("Next card") if session.stage == Stage.MIDLIFE else _("First card")
    if plan.stage == Stage.END_OF_ROUND and session.stage == Stage.MIDLIFE:
        return _("End of the Crossroads")
    if plan.stage == Stage.EVENT and session.stage == Stage.PACT:
        return _("Close the pact")
    return {Stage.DEBATE: _("Start the debate"), Stage.TAX_VOTE: _("Open the tax vote"),
            Stage.BUDGET_VOTE: _("Open the budget vote")}.get(plan.stage)


def next_label(session: dict[str, Any], tables: list[dict[str, Any]] | None = None) -> str:
    """What the teacher's one button says while the lesson refuses the step (a tie-break
    pending): what it will do once it can (``step_label`` names every step it makes)."""
    stage, rnd = session["stage"], session["round"]
    tables = tables or []
    if tables and stage != Stage.PACT and all(t["failed"] for t in tables):
        return _("Final count")
    if stage == Stage.EVENT:
        return _("First card") if rnd == data.MIDLIFE_ROUND else _("Start the debate")
    if stage == Stage.MIDLIFE:
        more = any(t.get("midlife_total", 0) > session.get("cards", 0)
                   for t in tables if not t["failed"])  # a standing table has cards left
        return _("Next card") if more else _("End of the Crossroads")
    if stage == Stage.END_OF_ROUND:
        return _("Final count") if rnd >= data.ROUNDS else _("Next round")
    return {
        Stage.PACT: _("Close the pact"), Stage.DEBATE: _("Open the tax vote"),
        Stage.TAX_VOTE: _("Count the votes"), Stage.PAY: _("Open the budget vote"),
        Stage.BUDGET_VOTE: _("Count the votes"),
    }.get(stage, _("Next"))


def seating_text(students: int) -> dict[str, Any] | None:
    """What pressing Start will do with this many students (and the choices when needed)."""
    if not students:
        return None
    even = seating.plan(students)
    if even is not None:
        return {"needs_fill": False, "text": ngettext(
            "Start makes %(t)d table: %(sizes)s.", "Start makes %(t)d tables: %(sizes)s.",
            len(even.tables)) % {"t": len(even.tables),
                                 "sizes": " + ".join(map(str, even.tables))}}
    bots, pairs = seating.plan(students, "bots"), seating.plan(students, "pairs")
    return {
        "needs_fill": True,
        "text": ngettext("%(n)d student cannot be split into tables of 6 to 8. Choose:",
                         "%(n)d students cannot be split into tables of 6 to 8. Choose:",
                         students) % {"n": students},
        "bots": ngettext("Add %(b)d bot and start (%(sizes)s)",
                         "Add %(b)d bots and start (%(sizes)s)", bots.bots)
        % {"b": bots.bots, "sizes": " + ".join(map(str, bots.tables))} if bots else None,
        "pairs": ngettext("Start with %(p)d pair sharing a phone (%(sizes)s)",
                          "Start with %(p)d pairs sharing a phone (%(sizes)s)", pairs.pairs)
        % {"p": pairs.pairs, "sizes": " + ".join(map(str, pairs.tables))} if pairs else None,
    }


def next_blocked(session: dict[str, Any], tables: list[dict[str, Any]],
                 seating: dict[str, Any] | None) -> str:
    """Why the teacher's button cannot act now ("" if it can): it is then disabled, with
    this reason beside it, instead of doing nothing when pressed."""
    stage = session["stage"]
    if stage == Stage.LOBBY:
        if seating is None:
            return _("Wait for the students to join.")
        if seating["needs_fill"]:
            return _("Choose below how to fill the gaps.")
        return ""
    waiting = [str(t["number"]) for t in tables if t.get("tie_break") and not t["failed"]]
    if waiting and stage in (Stage.PAY, Stage.END_OF_ROUND):
        return ngettext("Waiting for a tie-break at table %(tables)s.",
                        "Waiting for tie-breaks at tables %(tables)s.", len(waiting)) % {
            "tables": ", ".join(waiting)}
    return ""


def count_confirm(session: dict[str, Any]) -> dict[str, str] | None:
    """The question before a count with tokens missing, in its singular and plural forms
    ("{n}" is filled in by the page, which keeps each bag's live count)."""
    if session["stage"] not in (Stage.TAX_VOTE, Stage.BUDGET_VOTE):
        return None
    forms = {}
    for key, n in (("one", 1), ("other", 2)):
        forms[key] = ngettext("%(n)s student has not voted: count anyway?",
                              "%(n)s students have not voted: count anyway?", n) % {"n": "{n}"}
    return forms


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    session = view["session"]
    code = session.get("join_code") or ""
    tables = [table_context(t, session) for t in view["tables"]]
    seating = seating_text(len(view.get("lobby") or []))
    return {
        "next_blocked": next_blocked(session, tables, seating),
        "count_confirm": count_confirm(session),
        "next_label": next_label(session, tables),
        "seating": seating,
        "session": session,
        "stage_label": dict(Stage.choices).get(session["stage"], ""),
        "phase_bar": phase_bar(session),
        "rounds": [{"number": n, "current": n == session["round"],
                    "done": n < session["round"],
                    "midlife": n == data.MIDLIFE_ROUND} for n in range(1, data.ROUNDS + 1)],
        "lobby": view.get("lobby"),
        "join_url": join_url, "join_code": code, "join_code_spaced": f"{code[:3]} {code[3:]}",
        "tables": tables,
        "marks": {k: class_mark(k) for k in (data.UPPER, data.MIDDLE, data.WORKING)},
        "grid": len(view["tables"]) > 1,
        "undone": undo.undone_notice(session),
    }


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    session = view["session"]
    number = view["seat"].get("table")
    # A phone hears of an Undo only where it discarded the votes at its own table (a phone
    # with no table yet is at none).
    undone = session.get("undone") or {}
    discarded_here = (undo.discarded(undone, number)[0]
                      if number is not None or "discarded_at" not in undone else False)
    ctx: dict[str, Any] = {"session": session, "seat": view["seat"], "can": view.get("can", {}),
                           "undone": undo.undone_notice(session, table=number)
                           if discarded_here else "",
                           "stage_label": dict(Stage.choices).get(session["stage"])}
    game = view.get("game")
    if not game:
        return ctx
    table = table_context({**view["table"], "game": game}, session)
    ctx["table"] = table
    ctx["revote"] = kit.reopened_notice(view["table"].get("reopened", ""), phone=True)
    me = game.get("me")
    if me is None:
        return ctx
    draws = (table.get("midlife") or []) if session["round"] == data.MIDLIFE_ROUND else []
    history = game.get("history") or []
    all_draws = (history[data.MIDLIFE_ROUND - 1].get("midlife") or []
                 if len(history) >= data.MIDLIFE_ROUND else [])
    my_card = next((i + 1 for i, d in enumerate(all_draws) if d["player"] == me["name"]), None)
    statement = [e for e in me["statement"] if visible_entry(e, session, my_card)]
    balance = statement[-1]["balance"] if statement else me["coins"]
    rounds: dict[int, list[dict[str, Any]]] = {}
    for e in statement:
        rounds.setdefault(e["round"], []).append(
            {"label": statement_reason(e), "amount": signed(e["amount"]),
             "positive": e["amount"] > 0})
    role = me.get("role")
    earlier = roles_ahead(game, session).get(me["name"])
    if earlier:  # a class change at a Midlife Crossroads the class has not reached yet
        role = role_card(earlier[0])
    ctx["me"] = {
        "name": me["name"], "coins": balance, "pact": me["pact"],
        "exclusions": me["exclusions"] - exclusions_ahead(game, session)[me["name"]],
        "has_voted": me["has_voted"],
        "decides_tie": me["decides_tie"] and tie_shown(session["stage"]),
        "statement": [{"round": r, "items": items} for r, items in sorted(rounds.items(),
                                                                       reverse=True)],
        "this_round": rounds.get(session["round"], []),
        "excluded_now": [e for e in table.get("exclusions", []) if e["player"] == me["name"]],
        "tension_changes": [tension_reason(c, me["name"])
                            for c in table.get("tension_seen", [])],
    }
    if session["stage"] == Stage.MIDLIFE:
        ctx["my_card"] = next((d for d in draws if d["player_name"] == me["name"]), None)
        ctx["reading"] = draws[-1] if draws else None
        ctx["cards_before_mine"] = (my_card - len(draws) - 1 if my_card and not ctx["my_card"]
                                    else 0)
    if role:
        ctx["role"] = {
            **role, "name": role_name(role["id"]), "klass": class_name(role["class"]),
            "mark": class_mark(role["class"]),
            "description": _(data.ROLES[role["id"]].description),
            "helped_by": [{"name": service_name(s), "letter": SERVICE_LETTERS[s],
                           "mark": service_mark(s),
                           "effect": _(data.SERVICE_EFFECTS[s])} for s in role["helped_by"]],
            "goals": [(_(data.GOAL_NAMES[k]), v) for k, v in role["goals"].items()],
        }
    if me.get("tax_preview") and game.get("tax_collects"):
        ctx["taxes"] = [{"option": o, "name": _(data.TAX_NAMES[o]), "you_pay": me["tax_preview"][o],
                         "collects": game["tax_collects"][o]} for o in data.TAX_OPTIONS]
    ctx["budget_options"] = [{"option": s, "name": service_name(s), "letter": SERVICE_LETTERS[s],
                              "mark": service_mark(s),
                              "effect": _(data.SERVICE_EFFECTS[s]),
                              "level": game["services"][s]["level"]} for s in data.SERVICES]
    if game.get("final") and session["stage"] == Stage.FINAL:
        mine = game["final"]["players"].get(me["name"])
        ctx["my_final"] = mine
        if mine is not None:  # tied scores share a place
            scores_ = [p["score"] for p in game["final"]["players"].values()]
            ctx["my_rank"] = {"place": 1 + sum(s > mine["score"] for s in scores_),
                              "of": len(scores_),
                              "winner": me["name"] in game["final"]["winners"]}
        ctx["my_chart"] = mark_safe(charts.coins_chart(
            me["statement"], goals=role["goals"] if role else None, width=360, height=180))
    return ctx
