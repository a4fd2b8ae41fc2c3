"""Poleconomy's own actions: a phone's orders, proposal, suggestion and political requests;
the game master's corrections, confirmations and approval of a press release.

Every service checks everything first and raises ``ServiceError`` (nothing changed); the game
master's actions are teacher's steps of their own (kind ``master``: the stage stays), so that
the console's Undo takes back exactly the last one.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from facilitator.errors import ServiceError
from facilitator.kit import (
    broadcast,
    check_can_drive,
    engine_error,
    engine_of,
    last_step,
    load_state,
    locked_session,
    parties,
    record_step,
    seat_turn,
    table_settle,
)
from facilitator.lessons.poleconomy import orderform, script, turns
from facilitator.lessons.poleconomy.models import PoliticsRequest, Proposal, Suggestion
from facilitator.models import ClassSession, Seat, Table, TableAction, TeacherStep
from games.core import InvalidAction
from games.poleconomy.state import GOVERNMENT, ORDERS, PARTIES

Actor = TableAction.Actor
MASTER = "master"  # the kind of a game master's step
ORDER_STAGES = (script.PROPOSAL, script.ORDERS)


def _check(table: Table, state: Any, action: dict[str, Any]) -> None:
    """The engine accepts ``action`` now (tried on a copy: nothing changes)."""
    try:
        engine_of(table).apply(state, action)
    except InvalidAction as exc:
        raise engine_error(exc) from None


def _step(session: ClassSession) -> TeacherStep:
    step = last_step(session)
    if step is None:
        raise ServiceError("not_started", _("Start the lesson first."))
    return step


def _turn(seat_id: int, expected: str | None, token_hash: str | None
          ) -> tuple[Seat, Table, ClassSession, list[Seat]]:
    """``seat_turn`` for a player's move: only the team's captain this round makes it."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    if turns.captain_of(seats, seat.player_name, session.round) != seat:
        raise ServiceError("not_captain", _("Your team's captain makes this move this round."),
                           status=403)
    return seat, table, session, seats


def _orders_open(session: ClassSession, state: Any) -> None:
    if session.stage not in ORDER_STAGES or state.phase != ORDERS:
        raise ServiceError("orders_closed", _("Orders are not open now."), status=409)


def check_player_orders(table: Table, state: Any, player: str,
                        orders: dict[str, Any] | None) -> None:
    """A player's orders as the engine's grammar has them; the Prime Minister's salaries, tax
    rule and payments go to Parliament in the proposal, never in the orders."""
    pm = (orders or {}).get("pm")
    if isinstance(pm, dict) and any(k in pm for k in script.CONSENT_KINDS):
        raise ServiceError("use_proposal", _(
            "Salaries, the tax rule and Treasury payments go to Parliament in your proposal, "
            "not in your orders."))
    _check(table, state, {"type": "orders", "player": player, "orders": orders})


@transaction.atomic
def orders_send(*, seat_id: int, orders: dict[str, Any] | None, expected: str | None = None,
                token_hash: str | None = None) -> None:
    """A player's sealed orders for this round (``None``: the NMR rule), replacing any sent
    before; editable until the game master closes the orders. A team's captain sends them."""
    seat, table, session, seats = _turn(seat_id, expected, token_hash)
    state = load_state(table)
    _orders_open(session, state)
    check_player_orders(table, state, seat.player_name, orders)
    turns.write_orders(table=table, round_=session.round, player=seat.player_name,
                        orders=orders, step=_step(session), seat=seat)
    broadcast.refresh(session.pk, [s.pk for s in parties.members(seats, seat.player_name)])


def order_form_send(*, seat_id: int, fields: dict[str, Any], suggest: bool = False,
                    expected: str | None = None, token_hash: str | None = None) -> None:
    """The phone's order form: its orders (or, ``suggest``, a teammate's suggestion)."""
    seat = Seat.objects.select_related("table").filter(pk=seat_id).first()
    is_pm = bool(seat and seat.table and load_state(seat.table).pm == seat.player_name)
    orders = orderform.orders_from_fields(fields, is_pm=is_pm)
    if suggest:
        orders_suggest(seat_id=seat_id, orders=orders or {}, expected=expected,
                       token_hash=token_hash)
    else:
        orders_send(seat_id=seat_id, orders=orders, expected=expected, token_hash=token_hash)


@transaction.atomic
def orders_suggest(*, seat_id: int, orders: dict[str, Any], expected: str | None = None,
                   token_hash: str | None = None) -> None:
    """A team member's suggested orders, shown to the team (the captain sends the orders)."""
    seat, table, session, seats = seat_turn(seat_id, expected, token_hash)
    team = parties.members(seats, seat.player_name)
    if len(team) < 2:
        raise ServiceError("not_a_team", _("Only a team's members suggest orders."))
    state = load_state(table)
    _orders_open(session, state)
    check_player_orders(table, state, seat.player_name, orders)
    Suggestion.objects.update_or_create(table=table, round=session.round, seat=seat,
                                        defaults={"orders": orders},
                                        create_defaults={"orders": orders,
                                                         "step": _step(session)})
    broadcast.refresh(session.pk, [s.pk for s in team])


def check_proposal(table: Table, state: Any, pm: str, items: dict[str, Any],
                   press_release: str) -> dict[str, Any]:
    """The proposal's items as the engine's PM orders have them; a payment needs the press
    release (1 to 280 characters), which every payment of the proposal carries."""
    unknown = set(items) - set(script.CONSENT_KINDS)
    if unknown:
        raise ServiceError("bad_proposal", _("A proposal holds salaries, a tax rule and "
                                             "Treasury payments only."))
    items = dict(items)
    if "payments" in items:
        text = press_release.strip()
        if not 1 <= len(text) <= 280:
            raise ServiceError("press_release", _(
                "Treasury payments need a press release of 1 to 280 characters."))
        if not isinstance(items["payments"], list):
            raise ServiceError("bad_proposal", _("Payments must be a list."))
        items["payments"] = [{**p, "press_release": text} if isinstance(p, dict) else p
                             for p in items["payments"]]
    _check(table, state, {"type": "orders", "player": pm, "orders": {"pm": items}})
    return items


@transaction.atomic
def proposal_write(*, seat_id: int, items: dict[str, Any], press_release: str = "",
                   expected: str | None = None, token_hash: str | None = None) -> None:
    """The Prime Minister's proposal to Parliament this round (empty: nothing to consent),
    editable until the orders open; then it is public and Parliament votes on it."""
    seat, table, session, seats = _turn(seat_id, expected, token_hash)
    state = load_state(table)
    if session.stage != script.PROPOSAL or state.phase != ORDERS:
        raise ServiceError("proposal_closed", _("Proposals are written before the orders "
                                                "open."), status=409)
    if seat.player_name != state.pm:
        raise ServiceError("not_pm", _("Only the Prime Minister proposes to Parliament."),
                           status=403)
    items = check_proposal(table, state, state.pm, items, press_release)
    # The row belongs to the step it was first written in: a later step's undo (the game
    # master's) leaves the PM's proposal alone.
    Proposal.objects.update_or_create(
        table=table, round=session.round,
        defaults={"pm": state.pm, "items": items,
                  "press_release": press_release.strip() if "payments" in items else "",
                  "approved_by": None},
        create_defaults={"pm": state.pm, "items": items, "step": _step(session),
                         "press_release": press_release.strip() if "payments" in items
                         else ""})
    broadcast.refresh(session.pk, [s.pk for s in parties.members(seats, seat.player_name)])


def proposal_form_send(*, seat_id: int, fields: dict[str, Any], expected: str | None = None,
                       token_hash: str | None = None) -> None:
    """The PM's proposal form (``orderform.proposal_from_fields``)."""
    seat = Seat.objects.select_related("table").filter(pk=seat_id).first()
    cabinet = list(load_state(seat.table).cabinet) if seat and seat.table else []
    proposal_write(seat_id=seat_id, items=orderform.proposal_from_fields(fields, cabinet),
                   press_release=str(fields.get("press_release") or ""), expected=expected,
                   token_hash=token_hash)


@transaction.atomic
def politics_request(*, seat_id: int, kind: str, members: list[str], name: str = "",
                     pm: str = "", expected: str | None = None,
                     token_hash: str | None = None) -> None:
    """A phone asks the game master to form a party (before the first election) or a
    coalition Government (after an election with no majority); the game master confirms."""
    seat, table, session, seats = _turn(seat_id, expected, token_hash)
    state = load_state(table)
    names = [p.name for p in state.players]
    wanted = sorted(set(members) | {seat.player_name}, key=names.index) \
        if all(m in names for m in members) else None
    if wanted is None:
        raise ServiceError("bad_members", _("Choose players of your table."))
    if kind == PoliticsRequest.Kind.PARTY:
        if state.phase != PARTIES:
            raise ServiceError("parties_closed", _("Parties are formed before the first "
                                                   "election."), status=409)
        if len(wanted) < 2 or not 1 <= len(name.strip()) <= 40:
            raise ServiceError("bad_party", _("A party has a name and two members or more."))
        _check(table, state, {"type": "parties", "parties": {name.strip(): wanted}})
    elif kind == PoliticsRequest.Kind.COALITION:
        if state.phase != GOVERNMENT:
            raise ServiceError("no_election", _("Coalitions are formed after an election."),
                               status=409)
        _check(table, state, {"type": "government", "members": wanted, "pm": pm or None})
    else:
        raise ServiceError("bad_kind", _("Unknown request."))
    PoliticsRequest.objects.create(table=table, kind=kind, name=name.strip(), members=wanted,
                                   pm=pm, by=seat.player_name, step=_step(session))
    # The asker sees it sent, the partners see the request, the game master's page lists it.
    broadcast.refresh(session.pk, [s.pk for s in seats if s.player_name in wanted])


# ---------------------------------------------------------------- the game master


def _master_table(session: ClassSession, number: int, expected: str | None
                  ) -> tuple[ClassSession, Table, Any]:
    session = locked_session(session)
    check_can_drive(session, expected)
    if session.status != ClassSession.Status.RUNNING:
        raise ServiceError("not_started", _("Start the lesson first."))
    table = Table.objects.select_for_update().filter(session=session, number=number).first()
    if table is None:
        raise ServiceError("not_found", _("There is no table %(n)d.") % {"n": number},
                           status=404)
    return session, table, load_state(table)


def _master_step(session: ClassSession) -> TeacherStep:
    return record_step(session, MASTER, session.stage, session.round)


def _done(session: ClassSession, table: Table, state: Any, step: TeacherStep) -> None:
    table_settle(table, session, step, state)
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))


@transaction.atomic
def master_orders(*, session: ClassSession, table: int, player: str,
                  orders: dict[str, Any] | None, clear: bool = False,
                  expected: str | None = None) -> None:
    """The game master corrects a player's orders (``clear``: takes them back; the player is
    then NMR unless they send again). Undo brings the orders before it back."""
    session, table_, state = _master_table(session, table, expected)
    _orders_open(session, state)
    if player not in [p.name for p in state.players]:
        raise ServiceError("bad_player", _("There is no such player at this table."))
    if not clear:
        check_player_orders(table_, state, player, orders)
    step = _master_step(session)
    turns.write_orders(table=table_, round_=session.round, player=player, orders=orders,
                        step=step, by_master=True, withdrawn=clear)
    _done(session, table_, state, step)


def master_order_form_send(*, session: ClassSession, table: int, player: str,
                           fields: dict[str, Any], clear: bool = False,
                           expected: str | None = None) -> None:
    """The game master's correction made with the player's own order form (its fields, as
    the phone posts them); the engine checks the orders they make (``master_orders``)."""
    found = Table.objects.filter(session=session, number=table).first()
    is_pm = found is not None and load_state(found).pm == player
    orders = None if clear else orderform.orders_from_fields(fields, is_pm=is_pm)
    master_orders(session=session, table=table, player=player, orders=orders, clear=clear,
                  expected=expected)


@transaction.atomic
def master_parties(*, session: ClassSession, table: int, declared: dict[str, list[str]],
                   expected: str | None = None) -> None:
    """The game master declares a table's parties (``{}``: all Independents): the election
    is rolled at once."""
    session, table_, state = _master_table(session, table, expected)
    if session.stage != script.PARTIES or state.phase != PARTIES:
        raise ServiceError("parties_closed", _("Parties are declared before the first "
                                               "election."), status=409)
    step = _master_step(session)
    state = turns.apply(table_, state, {"type": "parties", "parties": declared}, step)
    _done(session, table_, state, step)


@transaction.atomic
def master_government(*, session: ClassSession, table: int, members: list[str] | None,
                      pm: str | None = None, expected: str | None = None) -> None:
    """The game master confirms a table's Government and Prime Minister, or (``members``
    None) calls a new election when nobody has a majority."""
    session, table_, state = _master_table(session, table, expected)
    if state.phase != GOVERNMENT:
        raise ServiceError("no_election", _("This table is not forming a Government now."),
                           status=409)
    action: dict[str, Any] = ({"type": "no_government"} if members is None
                              else {"type": "government", "members": members, "pm": pm})
    step = _master_step(session)
    state = turns.apply(table_, state, action, step)
    _done(session, table_, state, step)


@transaction.atomic
def master_press(*, session: ClassSession, table: int, expected: str | None = None) -> None:
    """The game master approves this round's press release: the projector shows it."""
    session, table_, _state = _master_table(session, table, expected)
    proposal = turns.proposal_of(table_, session.round)
    if proposal is None or not proposal.press_release:
        raise ServiceError("no_press", _("There is no press release to approve."))
    if proposal.approved_by_id is not None:
        raise ServiceError("approved", _("This press release is already approved."))
    proposal.approved_by = _master_step(session)
    proposal.save(update_fields=["approved_by"])
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))


@transaction.atomic
def master_end(*, session: ClassSession, table: int, expected: str | None = None) -> None:
    """The players agree to end the game at a table now (the rulebook's mutual agreement):
    the game master records it; its final scores are those of now."""
    session, table_, state = _master_table(session, table, expected)
    if state.phase == "over":
        raise ServiceError("game_over", _("The game at this table is already over."))
    step = _master_step(session)
    state = turns.apply(table_, state, {"type": "end"}, step)
    _done(session, table_, state, step)
