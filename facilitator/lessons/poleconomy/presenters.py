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

from typing import Any

from django.utils.translation import gettext as _

from facilitator.lessons.poleconomy import rounds, script
from facilitator.lessons.poleconomy.models import PoliticsRequest, RoundBoard, Suggestion
from facilitator.log import load_state
from facilitator.models import ClassSession, Seat, Table
from games.poleconomy import data
from games.poleconomy import forms as engine_forms
from games.poleconomy.state import ORDERS


def square_name(square: str) -> str:
    sq = data.SQUARES.get(square)
    return _(sq.name) if sq is not None else square


def proposal_public(table: Table, round_: int, stage: str) -> dict[str, Any] | None:
    """The proposal as the projector may show it: from the orders on; the press release once
    approved (before that: that one is waiting)."""
    if stage not in (script.ORDERS, script.REPLAY):
        return None
    proposal = rounds.proposal_of(table, round_)
    if proposal is None or not proposal.items:
        return None
    approved = proposal.approved_by_id is not None
    return {"pm": proposal.pm, "items": proposal.items,
            "press_release": proposal.press_release if approved else "",
            "press_waiting": bool(proposal.press_release) and not approved}


def replay(table: Table, game: dict[str, Any], round_: int, shown: int) -> dict[str, Any]:
    """The round's beats up to ``shown`` (0: the first), the board as it stood before the
    round, and whether every beat is shown (then the board after the round is shown)."""
    state = load_state(table)
    all_beats = script.beats(state, round_)
    board = RoundBoard.objects.filter(table=table, round=round_).first()
    done = shown + 1 >= len(all_beats)
    return {"beats": all_beats[:shown + 1], "total": len(all_beats), "done": done,
            "board": game if done or board is None else board.board}


def table_screen(session: dict[str, Any], table: Table, public: dict[str, Any]
                 ) -> dict[str, Any]:
    stage, round_ = session["stage"], session["round"]
    game = public["game"]
    out: dict[str, Any] = {**public, "proposal": proposal_public(table, round_, stage),
                           "board": game}
    if stage == script.REPLAY:
        out["replay"] = replay(table, game, round_, int(session.get("beats", 0)))
        out["board"] = out["replay"]["board"]
    return out


def master_panel(table: Table, session: dict[str, Any], game: dict[str, Any]
                 ) -> dict[str, Any]:
    """The game master's view of one table: every player's latest orders this round, who
    has sent, the proposal (press release included, to approve) and the phones' requests."""
    round_ = session["round"]
    latest = rounds.latest_orders(table, round_)
    proposal = rounds.proposal_of(table, round_)
    return {
        "players": [{"name": p["name"], "sent": p["name"] in latest,
                     "orders": latest[p["name"]].orders if p["name"] in latest else None,
                     "by_master": latest[p["name"]].by_master if p["name"] in latest else False}
                    for p in game["players"]],
        "proposal": proposal,
        "requests": list(PoliticsRequest.objects.filter(table=table).order_by("pk")),
    }


def projector_context(view: dict[str, Any], *, join_url: str = "") -> dict[str, Any]:
    session = view["session"]
    tables = {t.number: t for t in Table.objects.filter(session_id=session["id"])}
    screens = [table_screen(session, tables[t["number"]], t) for t in view["tables"]]
    for screen in screens:
        screen["master"] = master_panel(tables[screen["number"]], session, screen["game"])
    return {"session": session, "tables": screens, "lobby": view.get("lobby"),
            "join_url": join_url, "join_code": session.get("join_code") or "",
            "next_label": next_label(session), "stage_name": stage_name(session["stage"])}


def stage_name(stage: str) -> str:
    return str(script.STAGE_NAMES.get(stage, stage))


def next_label(session: dict[str, Any]) -> str:
    return {script.PARTIES: _("Roll the election"), script.GOVERNMENT: _("Start the round"),
            script.PROPOSAL: _("Open the orders"), script.ORDERS: _("Close the orders"),
            script.REPLAY: _("Next")}.get(session["stage"], _("Next"))


def seat_info(session: ClassSession, seat: Seat, table: Table) -> dict[str, Any]:
    """What the seat's phone may do now and its player's latest orders."""
    state = load_state(table)
    player = seat.player_name
    orders_open = session.stage in (script.PROPOSAL, script.ORDERS) and state.phase == ORDERS
    latest = rounds.latest_orders(table, session.round).get(player)
    proposal = rounds.proposal_of(table, session.round)
    info: dict[str, Any] = {
        "can": {"orders": orders_open,
                "propose": session.stage == script.PROPOSAL and state.phase == ORDERS
                and player == state.pm},
        "orders": {"sent": latest is not None, "orders": latest.orders if latest else None,
                   "by_master": latest.by_master if latest else False},
        "proposal": ({"items": proposal.items, "press_release": proposal.press_release}
                     if proposal is not None and (player == state.pm
                                                  or session.stage != script.PROPOSAL)
                     else None),
    }
    if orders_open:
        info["reachable"] = engine_forms.reachable(state, player)
        info["suggested"] = engine_forms.suggested_orders(state, player)
        info["suggestions"] = [
            {"by": s.seat.nickname, "orders": s.orders}
            for s in Suggestion.objects.filter(table=table, round=session.round,
                                               seat__player_name=player).select_related("seat")]
    return info


def phone_context(view: dict[str, Any]) -> dict[str, Any]:
    return {"session": view["session"], "seat": view["seat"], "game": view.get("game"),
            "table": view.get("table"), "can": view.get("can", {}),
            "stage_name": stage_name(view["session"]["stage"])}
