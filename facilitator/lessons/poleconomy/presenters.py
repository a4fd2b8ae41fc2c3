"""What each screen shows of a Poleconomy lesson, as template context.

- The projector (the console's board): public game data only. During the replay it shows the
  board as it stood before the round and the round's events up to the teacher's beat; the
  board after the round only once every beat is shown. The proposal is public once the orders
  open; its press release only once the game master approved it. Never an order, never who
  consented.
- The game master's panel (``master``): who has sent orders and each player's latest orders
  as they arrive, the phones' requests. It is folded away on the console until the teacher
  opens it on the laptop (``docs/modules.md``, Poleconomy: the projector shows the console).
- A phone: its player's own view, its latest orders, the reachable squares with their
  consequences, the proposal, and for the Prime Minister the proposal form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from facilitator import kit
from facilitator.kit.seating import SeatingPlan
from facilitator.lessons.poleconomy import events, orderform, script
from facilitator.lessons.poleconomy import options as lesson_options
from facilitator.lessons.poleconomy.models import PoliticsRequest
from facilitator.models import ClassSession
from games.core import InvalidAction
from games.poleconomy import data
from games.poleconomy import forms as engine_forms
from games.poleconomy import views as engine_views
from games.poleconomy.state import ORDERS
from games.poleconomy.state import PARTIES as PARTIES_PHASE

ROLE_MARKS = {"pm": "PM", "minister": "M", "government": "G"}


def role_name(role: str | None) -> str:
    return {"pm": _("Prime Minister"), "minister": _("Cabinet Minister"),
            "government": _("Government")}.get(role or "", _("Opposition"))


def money(n: int) -> str:
    return f"${n:,}"


def proposal_lines(items: dict[str, Any]) -> list[str]:
    """The proposal in words, one line per item."""
    out = []
    if "salaries" in items:
        sal = items["salaries"]
        parts = [_("the Prime Minister $%(pm)d") % {"pm": sal["pm"]}] if "pm" in sal else []
        parts += [_("%(name)s $%(n)d") % {"name": name, "n": amount}
                  for name, amount in sal.get("ministers", {}).items()]
        out.append(_("Salaries: %(list)s") % {"list": "; ".join(parts)})
    if "tax" in items:
        out.append(tax_line(items["tax"]))
    for pay in items.get("payments", []):
        out.append(_("The Treasury pays $%(n)d to %(to)s") % {"n": pay["amount"],
                                                              "to": pay["to"]})
    return out


def treasury_warnings(state: Any, items: dict[str, Any]) -> list[str]:
    """What the proposal's Treasury payments would meet, in words (the engine's
    ``treasury_check``): none without a payment, or when the Treasury can make them all and
    stay safe."""
    if not items.get("payments"):
        return []
    part = {k: items[k] for k in ("salaries", "payments") if k in items}
    try:
        check = engine_views.treasury_check(state, part)
    except InvalidAction:
        return []
    if check["can_pay"] and not check["default_risk"]:
        return []
    head = _("The Treasury holds $%(n)d now.") % {"n": check["treasury"]}
    return [head] + [_(w["text"]).format(**w["params"]) for w in check["warnings"]]


def tax_line(rule: dict[str, Any], *, named: bool = True) -> str:
    """The tax rule in words; ``named`` False leaves out "Tax:" (under a heading that says
    it already)."""
    per = {"n": rule.get("per_company", 0)}
    text = (_("Tax: $%(n)d a Company") if named else _("$%(n)d a Company")) % per
    if rule.get("flat"):
        text += " + " + _("$%(n)d each") % {"n": rule["flat"]}
    if rule.get("companies_at_least"):
        text += ", " + _("only with %(n)d Companies or more") % {
            "n": rule["companies_at_least"]}
    if rule.get("bi_at_least"):
        text += ", " + _("only with a Basic Income of $%(n)d or more") % {
            "n": rule["bi_at_least"]}
    if rule.get("exempt"):
        text += ", " + _("except %(names)s") % {"names": ", ".join(rule["exempt"])}
    return text


def players_rows(game: dict[str, Any], sent: set[str]) -> list[dict[str, Any]]:
    return [{**p, "square": events.square(p["position"]),
             "mark": ROLE_MARKS.get(p["role"] or "", ""), "role_name": role_name(p["role"]),
             "firm_names": [events.square(f) for f in p["firms"]],
             "companies": sum(1 for f in p["firms"] if f in data.COMPANIES),
             "advertisers": sum(1 for f in p["firms"] if f in data.ADVERTISERS),
             "sent_now": p["name"] in sent}
            for p in game["players"]]


def final_rows(game: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Once the game is over: each player's score (assets valued at the last multiplier),
    best first, with the winners marked; None before."""
    final = game.get("final")
    if not game.get("over") or not final:
        return None
    rows = sorted(({"name": name, "score": v["score"], "winner": name in final["winners"],
                    **v["breakdown"]} for name, v in final["players"].items()),
                  key=lambda r: -r["score"])
    scores = [r["score"] for r in rows]
    for r in rows:  # tied players share a place: 1st, 1st, 3rd
        r["place"] = scores.index(r["score"]) + 1
        r["place_name"] = place_name(r["place"])
        r["tied"] = scores.count(r["score"]) > 1
    return rows


def place_name(n: int) -> str:
    """A place in words: "1st", "2nd", "3rd", "4th"."""
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(n) or _("%(n)dth") % {"n": n}


def over_text(game: dict[str, Any]) -> str:
    return {"treasury": _("The Treasury could not pay: everyone loses."),
            "bank": _("The Bank ran out of money: the game ends."),
            "rounds": _("The last round is over."),
            "agreed": _("The players agreed to end the game.")}.get(
        game.get("over_reason") or "", "")


def index_info(game: dict[str, Any]) -> dict[str, Any]:
    index = game["index"]
    return {**index, "effect_name": events.effect_name(index["effect"]),
            "arrow": "↻" if index["direction"] == data.CLOCKWISE else "↺",
            "direction_name": _("clockwise: prices rise") if index["direction"] ==
            data.CLOCKWISE else _("anticlockwise")}


def replay_words(replay: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """The round's beats read so far (``reads.table_info``) in words, and the board as the
    class has seen it (the table's board once every beat is shown)."""
    lines = [beat_lines(beat, replay["approved"]) for beat in replay["beats"]]
    return {"beats": lines, "total": replay["total"], "done": replay["done"],
            "shown": len(lines), "board": replay["board"] or game}


def steps_told(all_beats: list[list[dict[str, Any]]], done: bool) -> int:
    """How many steps the replay says the round has: the round as planned at its start (the
    auctions, one turn per player in the round's order, the round's end) until its last step
    is shown. A round cut short (the bank runs dry) has fewer beats, and saying so from step
    1 would tell the class before the teacher reaches it."""
    if done or not all_beats:
        return len(all_beats)
    order = next((e.get("order", []) for e in all_beats[0] if e["type"] == "round_start"), [])
    return max(len(all_beats), len(order) + 2)


def beat_lines(beat: list[dict[str, Any]], press_approved: bool) -> list[dict[str, str]]:
    """One beat's events in words; an approved press release is quoted once, with the
    Treasury's first payment."""
    out = []
    quoted = False
    for e in beat:
        x = events.line(e, press_approved and not quoted)
        if x:
            out.append(x)
            quoted = quoted or (e["type"] == "treasury_payment" and bool(e.get("press_release"))
                                and e.get("made", True))
    return out


def table_screen(public: dict[str, Any]) -> dict[str, Any]:
    """One table on the projector, from its public view and reads (``reads.table_info``)."""
    game = public["game"]
    proposal = public["proposal"]
    if proposal is not None:
        proposal = {**proposal, "lines": proposal_lines(proposal["items"])}
    sent = set(public["sent_by"])
    out: dict[str, Any] = {**public, "proposal": proposal, "board": game, "sent": len(sent)}
    if public["replay"] is not None:
        out["replay"] = replay_words(public["replay"], game)
        out["board"] = out["replay"]["board"]
    board = out["board"]
    out["final"] = final_rows(board)
    if out["final"] and len(out["final"]) > 3:  # six players side by side in two columns
        half = (len(out["final"]) + 1) // 2
        out["final_cols"] = [out["final"][:half], out["final"][half:]]
    elif out["final"]:
        out["final_cols"] = [out["final"]]
    out["over_text"] = over_text(board)
    out["rows"] = players_rows(board, sent)
    out["index"] = index_info(board)
    out["tax_text"] = tax_line(board["tax"], named=False)
    out["auction_names"] = [events.square(f) for f in board["auction"]]
    out["election"] = election_words(public["election"])
    return out


def election_words(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last election by party totals (the engine's ``election_result``), in words: the
    same sentence on the projector, the game master's page and the phones. None before the
    first election."""
    if result is None:
        return None
    values = {"total": result["total"], "need": result["majority_at"]}
    rows = [{**b, "label": (_("%(party)s (%(members)s)") % {
        "party": b["name"], "members": ", ".join(b["members"])}) if b["party"] else b["name"]}
        for b in result["blocs"]]
    majority = next((b for b in rows if b["name"] == result["majority"]), None)
    if result["decided"]:
        text = _("%(pm)s is Prime Minister.") % {"pm": result["pm"]}
    elif majority is not None:
        text = _("%(bloc)s has a majority: %(votes)d of %(total)d votes. The game master "
                 "confirms the Government.") % {**values, "bloc": majority["name"],
                                                  "votes": majority["votes"]}
    else:
        text = _("Nobody has a majority: a Government needs %(need)d of %(total)d votes, "
                 "so a coalition is needed.") % values
    coalitions = [" + ".join(c) for c in result["coalitions"]] if majority is None else []
    return {**result, "rows": rows, "text": text, "coalition_names": coalitions,
            "needs_coalition": majority is None and not result["decided"],
            "rule": _("%(total)d votes in all: a Government needs %(need)d (more than "
                      "half).") % values}


def master_panel(reads: Any, session: dict[str, Any], game: dict[str, Any]
                 ) -> dict[str, Any]:  # the game master's page only, never the projector
    """The game master's view of one table (``reads.MasterReads``): every player's latest
    orders this round (in words, and as the player's own order form filled in, for a
    correction), who has sent, the proposal with its press release to approve, and the phones'
    requests. Never a consent vote: the bag's count is all."""
    state, latest, proposal = reads.state, reads.latest, reads.proposal
    can_correct = session["stage"] in (script.PROPOSAL, script.ORDERS) and state.phase == ORDERS
    players = []
    for p in game["players"]:
        row = latest.get(p["name"])
        players.append({"name": p["name"], "sent": row is not None,
                        "orders": row.orders if row else None,
                        "summary": orderform.summary(row.orders) if row else [],
                        "by_master": row.by_master if row else False,
                        "form": order_form(state, p["name"], row.orders if row else None)
                        if can_correct else None})
    election = game.get("election") or {}
    majority = next((b["members"] for b in election.get("blocs", [])
                     if b["name"] == election.get("majority")), [])
    requests = reads.requests
    return {"players": players, "proposal": proposal, "majority_members": majority,
            "proposal_lines": proposal_lines(proposal.items) if proposal else [],
            "treasury_warnings": treasury_warnings(state, proposal.items) if proposal else [],
            "requests": requests, "party_slots": party_slots(requests)}


def party_slots(requests: list[PoliticsRequest], slots: int = 3) -> list[dict[str, Any]]:
    """The game master's parties form filled in from the phones' party requests (the first
    ones whose members do not overlap), so that declaring what was asked is one click."""
    out: list[dict[str, Any]] = []
    taken: set[str] = set()
    for r in requests:
        if r.kind == PoliticsRequest.Kind.PARTY and not taken & set(r.members):
            out.append({"name": r.name, "members": list(r.members)})
            taken |= set(r.members)
    out = out[:slots]
    return out + [{"name": "", "members": []}] * (slots - len(out))


def seating_text(options: dict[str, Any], students: int) -> dict[str, Any] | None:
    """What pressing Start will do with this many students (and the choices when needed)."""
    if not students:
        return None
    even = lesson_options.class_seating(students, None, options)
    if even is not None and even.parties:
        return {"needs_fill": False, "text": ngettext(
            "Start makes %(t)d table of %(p)d players (students per player: %(sizes)s).",
            "Start makes %(t)d tables of %(p)d players (students per player: %(sizes)s).",
            len(even.tables)) % {"t": len(even.tables), "p": len(even.parties[0]),
                                 "sizes": parties_text(even)}}
    if even is not None:
        return {"needs_fill": False, "text": ngettext(
            "Start makes %(t)d table: %(sizes)s seats.",
            "Start makes %(t)d tables: %(sizes)s seats.",
            len(even.tables)) % {"t": len(even.tables),
                                 "sizes": " + ".join(map(str, even.tables))}}
    bots = (lesson_options.class_seating(students, "bots", options)
            if options.get("bots_allowed") else None)
    pairs = lesson_options.class_seating(students, "pairs", options)
    return {
        "needs_fill": True, "text": lesson_options.class_seating_error(students, None, options),
        "bots": ngettext("Add %(b)d bot and start (%(sizes)s)",
                         "Add %(b)d bots and start (%(sizes)s)", bots.bots)
        % {"b": bots.bots, "sizes": parties_text(bots) if bots.parties
           else " + ".join(map(str, bots.tables))} if bots else None,
        "pairs": ngettext("Start with %(p)d pair sharing a phone (%(sizes)s)",
                          "Start with %(p)d pairs sharing a phone (%(sizes)s)", pairs.pairs)
        % {"p": pairs.pairs, "sizes": " + ".join(map(str, pairs.tables))} if pairs else None,
    }


def parties_text(plan: SeatingPlan) -> str:
    """Each table's players as the students who play them: "2 + 1 + 1 + bot"."""
    tables = []
    for sizes, bots in zip(plan.parties, plan.table_bots, strict=True):
        students = [str(n) for n in sizes[:len(sizes) - bots]]
        tables.append(" + ".join(students + [_("bot")] * bots))
    return " | ".join(tables)


def count_confirm(session: dict[str, Any]) -> dict[str, str] | None:
    """Closing the orders with orders or consent votes missing asks first (``live.js``)."""
    if session["stage"] != script.ORDERS:
        return None
    return {"one": _("1 order or vote is missing: press Close again to close the orders "
                     "anyway (no orders: NMR; no vote: no consent)."),
            "other": _("{n} orders or votes are missing: press Close again to close the "
                       "orders anyway (no orders: NMR; no vote: no consent).")}


def next_blocked(session: dict[str, Any], seating: dict[str, Any] | None,
                 screens: Sequence[dict[str, Any]] = ()) -> str:
    """Why the teacher's button cannot act now ("" if it can): the same reason the step
    would be refused with (``script.plan_step``)."""
    if session["stage"] == "lobby":
        if seating is None:
            return _("Nobody has joined yet.")
        if seating["needs_fill"]:
            return _("Choose how to fill the tables first.")
    if session["stage"] == script.GOVERNMENT:
        stuck = [str(t["number"]) for t in screens if t.get("election")
                 and t["game"]["phase"] == "government" and t["election"]["needs_coalition"]]
        if stuck:
            return _("Table %(tables)s has no majority: confirm a coalition Government or "
                     "call a new election first.") % {"tables": ", ".join(stuck)}
    return ""


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    session = view["session"]
    screens = [table_screen(t) for t in view["tables"]]
    code = session.get("join_code") or ""
    seating = (seating_text(session["options"], len(view.get("lobby") or []))
               if view.get("lobby") is not None else None)
    return {"session": session, "tables": screens, "lobby": view.get("lobby"),
            "join_url": join_url, "join_code": code,
            "join_code_spaced": f"{code[:3]} {code[3:]}", "seating": seating,
            "next_blocked": next_blocked(session, seating, screens),
            "count_confirm": count_confirm(session),
            "next_label": next_label(session, screens), "stage_name": stage_name(session["stage"]),
            "undone": undone_notice(session),
            "rounds": screens[0]["game"]["rounds"] if screens else 0}


def master_context(view: dict[str, Any], reads: dict[int, Any]) -> dict[str, Any]:
    """The game master's page: the projector's context plus every table's orders panel
    (``reads``: ``reads.master_reads``, by table number)."""
    context = projector_context(view)
    for screen in context["tables"]:
        screen["master"] = master_panel(reads[screen["number"]], view["session"],
                                        screen["game"])
    return context


def undone_notice(session: dict[str, Any]) -> str:
    """What the teacher's last Undo took back, in one sentence ("" if nothing)."""
    undone = session.get("undone") or {}
    if not undone:
        return ""
    kind = undone.get("kind")
    if kind == "master":
        text = _("Undone: the game master's last change.")
    elif kind == "beat":
        text = _("Undone: one step of the replay.")
    elif kind == "start":
        text = _("Undone: the start of the lesson.")
    else:
        text = _("Undone: %(stage)s; back to %(before)s.") % {
            "stage": stage_name(undone.get("stage", "")),
            "before": stage_name(undone.get("from", ""))}
    if undone.get("discarded"):
        text += " " + _("The votes cast were discarded: everyone votes again.")
    return text


def stage_name(stage: str) -> str:
    return str(script.STAGE_NAMES.get(stage, stage))


def step_label(session: ClassSession, plan: kit.StepPlan, states: dict[int, Any]) -> str | None:
    """The teacher's button for the step to ``plan`` (``Lesson.step_label``), from the
    tables' ``states``: the election is rolled by the step unless the game master's page has
    rolled every table's; the orders' close is said as that (it counts Parliament's consent
    too); None where the platform's words say it (the next round)."""
    if plan.finished:
        return _("Final result")
    if plan.kind == script.BEAT:
        return _("Next")
    if plan.stage == script.GOVERNMENT:
        rolling = session.stage == script.PARTIES and any(
            s.phase == PARTIES_PHASE for s in states.values())
        return _("Roll the election") if rolling else _("On to the Government")
    if plan.stage == script.PROPOSAL and session.stage == script.GOVERNMENT:
        return _("Start the round")
    if plan.stage == script.ORDERS:
        return _("Open the orders")
    if plan.stage == script.REPLAY:
        return _("Close the orders")
    return None


def next_label(session: dict[str, Any], screens: Sequence[dict[str, Any]] = ()) -> str:
    """What the teacher's button says while the lesson refuses the step (a table without a
    Government): what it will do once it can (``step_label`` names every step it makes)."""
    if session["stage"] == script.PARTIES and screens and all(
            t["game"]["phase"] != PARTIES_PHASE for t in screens):
        return _("On to the Government")
    return {script.PARTIES: _("Roll the election"), script.GOVERNMENT: _("Start the round"),
            script.PROPOSAL: _("Open the orders"), script.ORDERS: _("Close the orders"),
            script.REPLAY: _("Next")}.get(session["stage"], _("Next"))


def proposal_for_phone(state: Any, items: dict[str, Any], press_release: str
                       ) -> dict[str, Any]:
    """The proposal as a phone shows it: its items, in words, with the Treasury's warnings."""
    return {"items": items, "press_release": press_release, "lines": proposal_lines(items),
            "warnings": treasury_warnings(state, items),
            "ministers_salary": next(iter(items.get("salaries", {})
                                          .get("ministers", {}).values()), "")}


def buy_choices() -> list[tuple[str, str]]:
    return [("all", _("Buy Companies and Advertisers")), ("companies", _("Buy Companies only")),
            ("advertisers", _("Buy Advertisers only")), ("none", _("Buy nothing"))]


def order_form(state: Any, player: str, orders: dict[str, Any] | None) -> dict[str, Any]:
    """What one player's order form shows, filled in from ``orders`` (None: No orders): the
    phone's form and the game master's correction of it are the same form."""
    is_pm = player == state.pm
    fields = orderform.fields_from_orders(orders)
    return {
        "is_pm": is_pm, "fields": fields, "reachable": reachable_rows(state, player),
        "buy_choices": buy_choices(),
        "auction": [{"firm": f, "name": events.square(f), "price": data.price(f, state.multiplier),
                     "bid": fields.get("bids", {}).get(f, "")} for f in state.auction],
        "targets": [{"firm": f, "name": events.square(f), "owner": o}
                    for f, o in state.owners.items() if o != player and f in data.COMPANIES],
        "ministers": {"can_appoint": [n for n in state.government
                                      if n != player and n not in state.cabinet],
                      "cabinet": list(state.cabinet)} if is_pm else None}


def consequence_text(c: dict[str, Any]) -> str:
    """What landing on a square would do, at today's prices, in words."""
    effect = c.get("effect")
    if effect == "may-buy":
        return _("unowned: you may buy it for $%(n)d") % {"n": c["price"]}
    if effect == "profit":
        return _("yours: $%(n)d profit") % {"n": c["price"]}
    if effect == "pay-rent":
        return _("%(owner)s's: you pay $%(n)d rent") % {"owner": c["owner"], "n": c["price"]}
    if effect == "sent-by-owner":
        return _("%(owner)s's Advertiser: you are sent to a Company") % {"owner": c["owner"]}
    if effect == "go-to-any-company":
        return _("your Advertiser: go to one of your Companies")
    if effect == "income":
        return _("$%(n)d income") % {"n": c["amount"]}
    if effect == "index":
        return _("moves the Inflation Index %(n)d") % {"n": c["steps"]}
    if c.get("kind") == data.CORNER:
        return _("a corner: take its action if your orders say so")
    return _("nothing happens")


def reachable_rows(state: Any, player: str) -> dict[str, Any]:
    found = engine_forms.reachable(state, player)
    return {"direct": [{"square": c["square"], "name": events.square(c["square"]),
                        "text": consequence_text(c)} for c in found["direct"]],
            "roll": {track: [{"total": r["total"], "chance": r["chance"],
                              "name": events.square(r["square"]), "text": consequence_text(r)}
                             for r in rows] for track, rows in found["roll"].items()},
            "from": events.square(found["from"]), "on_corner": found["on_corner"]}


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    """During the replay the phone's board is the one the projector has shown so far
    (``seat_info``'s ``game_so_far``): never a turn's outcome before the replay reaches it."""
    game = (view.get("seat") or {}).get("game_so_far") or view.get("game")
    me = next((p for p in game["players"] if p["name"] == view["seat"].get("player")),
              None) if game else None
    reopened = (view.get("table") or {}).get("reopened", "")
    final = final_rows(game) if game else None
    return {"final": final, "my_final": next((r for r in final or []
                                              if me and r["name"] == me["name"]), None),
            "session": view["session"], "seat": view["seat"], "game": game,
            "table": view.get("table"), "can": view.get("can", {}), "me": me,
            "revote": kit.reopened_notice(reopened, phone=True),
            "me_square": events.square(me["position"]) if me else "",
            "me_role": role_name(me["role"]) if me else "",
            "stage_name": stage_name(view["session"]["stage"]),
            "index": index_info(game) if game else None,
            "tax_text": tax_line(game["tax"], named=False) if game else ""}
