"""What Poleconomy's screens read: the database rows and the engine's answers each screen
needs, gathered once and handed to the presenters as plain values (the ``Lesson``'s
``session_info``, ``table_info`` and ``seat_info``, and ``master_reads`` for the game master's
page). The presenters read nothing themselves; this module writes nothing.

What each read may hold follows the screens' rules (``presenters``' docstring): a table's
reads are public (the proposal once the orders open, its press release once approved, how many
have sent orders or consented, never what or who); a seat's reads are its own player's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from facilitator.kit import bags, load_state, parties, record_actions, remembered
from facilitator.lessons.poleconomy import orderform, presenters, script, turns
from facilitator.lessons.poleconomy.models import (
    PendingOrders,
    PoliticsRequest,
    Proposal,
    Suggestion,
)
from facilitator.models import ClassSession, Seat, Table
from games.core import PUBLIC
from games.poleconomy import forms as engine_forms
from games.poleconomy import views as engine_views
from games.poleconomy.state import ORDERS
from games.poleconomy.state import PARTIES as PARTIES_PHASE


def session_info(session: ClassSession) -> dict[str, Any]:
    """The replay's beat, and the lesson's options while it seats its class (the projector
    says what Start will do)."""
    lobby = session.status == ClassSession.Status.LOBBY
    return {"beats": script.beats_shown(session) if session.stage == script.REPLAY else 0,
            "options": dict(session.options) if lobby else {}}


def so_far(table: Table, state: Any, round_: int, shown: int) -> Any:
    """The game as the projector's replay of ``round_`` has shown it (``shown`` beats beyond
    the first): the engine's ``state_so_far``, read once for the screens rendered together.
    A table whose round was not played (its game ended before) is simply its state."""
    if not script.beats(state, round_):
        return state
    return remembered(("pol_so_far", table.pk, round_, shown), lambda: (
        engine_views.state_so_far(table.config, table.seed, record_actions(table),
                                  shown + 1, round_)))


def _proposal_public(proposal: Proposal | None) -> dict[str, Any] | None:
    """The proposal as the projector may show it: its press release once approved (before
    that: that one is waiting)."""
    if proposal is None or not proposal.items:
        return None
    approved = proposal.approved_by_id is not None
    return {"pm": proposal.pm, "items": proposal.items,
            "press_release": proposal.press_release if approved else "",
            "press_waiting": bool(proposal.press_release) and not approved}


def _replay(table: Table, state: Any, round_: int, shown: int,
            proposal: Proposal | None) -> dict[str, Any]:
    """The round's beats up to ``shown`` (0: the first), as the engine's events, and the board
    as the class has seen it (None once every beat is shown: the table's board)."""
    all_beats = script.beats(state, round_)
    done = shown + 1 >= len(all_beats)
    return {"beats": all_beats[:shown + 1], "total": presenters.steps_told(all_beats, done),
            "done": done, "approved": proposal is not None and proposal.approved_by_id is not None,
            "board": None if done else engine_views.view(so_far(table, state, round_, shown),
                                                         PUBLIC)}


def _consent_progress(table: Table) -> dict[str, Any] | None:
    """How many players have put a token in the consent bag (never who said what)."""
    bag = bags.open_bag(table)
    if bag is None:
        return None
    return {"voted": len(bags.voter_ids(bag)), "bag": bags.generation(bag)}


def _election(state: Any) -> dict[str, Any] | None:
    """The last election by party totals (the engine's ``election_result``); None before the
    first election."""
    return None if state.phase == PARTIES_PHASE else engine_views.election_result(state)


def table_info(table: Table, state: Any) -> dict[str, Any]:
    """One table's reads for the projector: the public proposal, how many have sent orders
    (their players' names, for the board's ticks), the consent bag's progress, the replay so
    far and the last election, each where its stage shows it."""
    session = table.session
    stage, round_ = session.stage, session.round
    full = load_state(table)
    proposal = turns.proposal_of(table, round_) if stage in (script.ORDERS, script.REPLAY) \
        else None
    sent = sorted(turns.latest_orders(table, round_)) if stage in (
        script.PROPOSAL, script.ORDERS) else []
    return {
        "proposal": _proposal_public(proposal),
        "sent_by": sent,
        "consent": _consent_progress(table) if stage == script.ORDERS else None,
        "replay": (_replay(table, full, round_, script.beats_shown(session), proposal)
                   if stage == script.REPLAY else None),
        "election": (_election(full) if stage in (script.PARTIES, script.GOVERNMENT)
                     else None),
    }


def open_requests(table: Table, phase: str) -> list[PoliticsRequest]:
    """The phones' requests the game master can still confirm: parties while the table forms
    them, coalitions while it has no Government; none once it has moved on."""
    kind = {"parties": PoliticsRequest.Kind.PARTY,
            "government": PoliticsRequest.Kind.COALITION}.get(phase)
    if kind is None:
        return []
    return list(PoliticsRequest.objects.filter(table=table, kind=kind).order_by("pk"))


@dataclass(frozen=True)
class MasterReads:
    """One table as the game master's page reads it: the engine's state, every player's
    latest orders this round, the proposal and the phones' open requests."""

    state: Any
    latest: dict[str, PendingOrders]
    proposal: Proposal | None
    requests: list[PoliticsRequest]


def master_reads(session: ClassSession) -> dict[int, MasterReads]:
    """Every table of the lesson for the game master's page, by table number."""
    out = {}
    for table in session.tables.all():
        state = load_state(table)
        out[table.number] = MasterReads(
            state=state, latest=turns.latest_orders(table, session.round),
            proposal=turns.proposal_of(table, session.round),
            requests=open_requests(table, state.phase))
    return out


def seat_info(session: ClassSession, seat: Seat, table: Table) -> dict[str, Any]:
    """What the seat's phone may do now: its player's latest orders (a summary, and the form
    filled in from them or from suggested orders), the squares it can reach with what each
    would do, the proposal, Parliament's ballot, the PM's powers and political requests."""
    state = load_state(table)
    player = seat.player_name
    stage = session.stage
    orders_open = stage in (script.PROPOSAL, script.ORDERS) and state.phase == ORDERS
    latest = turns.latest_orders(table, session.round).get(player)
    proposal = turns.proposal_of(table, session.round)
    is_pm = player == state.pm
    info: dict[str, Any] = {
        "can": {"orders": orders_open,
                "propose": stage == script.PROPOSAL and state.phase == ORDERS and is_pm,
                "party": stage == script.PARTIES and state.phase == "parties",
                "coalition": stage in (script.PARTIES, script.GOVERNMENT)
                and state.phase == "government"},
        "player": player, "is_pm": is_pm,
        "orders": {"sent": latest is not None, "orders": latest.orders if latest else None,
                   "by_master": latest.by_master if latest else False,
                   "summary": orderform.summary(latest.orders) if latest else []},
        "proposal": (presenters.proposal_for_phone(state, proposal.items,
                                                     proposal.press_release)
                     if proposal is not None and proposal.items
                     and (is_pm or stage != script.PROPOSAL) else None),
        "others": [p.name for p in state.players if p.name != player],
    }
    if stage in (script.PARTIES, script.GOVERNMENT):  # as the projector says it
        info["election"] = presenters.election_words(_election(state))
    info["requests"] = [{"mine": r.by == player, "by": r.by, "name": r.name,
                         "members": r.members, "pm": r.pm}
                        for r in open_requests(table, state.phase)
                        if r.by == player or player in r.members]
    if stage == script.REPLAY:  # the phone shows what the projector has shown, no more
        info["game_so_far"] = engine_views.view(
            so_far(table, state, session.round, script.beats_shown(session)), player)
    seats = sorted(table.seats.all(), key=lambda s: s.position or 0)
    team = parties.members(seats, player)
    if len(team) > 1:  # the lesson's captain: a team's students take turns, never its bot
        captain = turns.captain_of(seats, player, session.round)
        info["party"] = {"name": player, "members": [m.nickname for m in team],
                         "captain": captain.nickname if captain else None,
                         "is_captain": captain == seat}
    bag = bags.open_bag(table)
    if bag is not None and stage == script.ORDERS:
        mine = {s.pk for s in seats if s.player_name == player}
        info["consent"] = {"decision": bag.decision, "options": bag.options,
                           "voted": bool(bags.voter_ids(bag) & mine),
                           "bag": bags.generation(bag)}
    if orders_open:
        info.update(presenters.order_form(state, player, latest.orders if latest else
                                          engine_forms.suggested_orders(state, player)))
        info["suggestions"] = [
            {"by": s.seat.nickname, "orders": s.orders, "summary": orderform.summary(s.orders)}
            for s in Suggestion.objects.filter(table=table, round=session.round,
                                               seat__player_name=player).select_related("seat")]
    return info
