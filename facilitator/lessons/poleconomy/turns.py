"""A round at one table: orders gathered before the close, then applied as engine actions.

Where orders wait (a decision of this module, ``docs/modules.md``): in the module's own
``PendingOrders`` rows, not in the engine. The engine takes a player's orders once and for
all, while a phone may edit its orders until the game master closes the round; so each
player's latest orders are kept per teacher's step, the game master's console reads them as
they arrive (they are not secret from the game master, as the engine's ``"master"`` view is
not), the projector never does, and at the close each player's latest orders (none: the NMR
rule) are applied as that player's one ``orders`` action, the Prime Minister's with the
published proposal in it. Parliament's consent is one secret weighted ballot on the whole
proposal (``script.consent_ballot``), counted after every player's orders are in: its count is
the engine's ``count`` of each proposed item, and the engine then adjudicates the round.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from facilitator import kit
from facilitator.kit import StepPlan, apply_action, bags, engine_of, parties, table_seats
from facilitator.lessons.poleconomy import script
from facilitator.lessons.poleconomy.models import PendingOrders, Proposal, RoundBoard
from facilitator.models import Seat, Table, TableAction, TeacherStep
from games.core import PUBLIC
from games.poleconomy import bots as engine_bots
from games.poleconomy.elections import majority_bloc
from games.poleconomy.state import GOVERNMENT as GOVERNMENT_PHASE
from games.poleconomy.state import PARTIES as PARTIES_PHASE

Actor = TableAction.Actor


def apply(table: Table, state: Any, action: dict[str, Any], step: TeacherStep | None,
          actor: str = Actor.TEACHER, seat: Seat | None = None) -> Any:
    state, _events = apply_action(table, state, action, actor=actor, seat=seat, step=step)
    return state


def latest_orders(table: Table, round_: int) -> dict[str, PendingOrders]:
    """Each player's current orders this round: the row of their latest step."""
    out: dict[str, PendingOrders] = {}
    for row in (PendingOrders.objects.filter(table=table, round=round_)
                .select_related("seat").order_by("step__seq", "pk")):
        out[row.player] = row
    return {name: row for name, row in out.items() if not row.withdrawn}


def write_orders(*, table: Table, round_: int, player: str, orders: dict[str, Any] | None,
                 step: TeacherStep, seat: Seat | None = None, by_master: bool = False,
                 withdrawn: bool = False) -> PendingOrders:
    """The player's orders now (replacing what they wrote during the same step)."""
    row, _created = PendingOrders.objects.update_or_create(
        table=table, round=round_, player=player, step=step,
        defaults={"orders": orders, "seat": seat, "by_master": by_master,
                  "withdrawn": withdrawn})
    return row


def proposal_of(table: Table, round_: int) -> Proposal | None:
    return Proposal.objects.filter(table=table, round=round_).first()


def bot_players(table: Table, seats: list[Seat] | None = None) -> list[str]:
    """The players whose every seat is a bot (a team with a student in it is the student's)."""
    seats = table_seats(table) if seats is None else seats
    teams: dict[str, list[Seat]] = {}
    for seat in seats:
        if not seat.removed and seat.shares_id is None:
            teams.setdefault(seat.player_name, []).append(seat)
    return [name for name, group in teams.items() if all(s.is_bot for s in group)]


def captain_of(seats: list[Seat], player: str, round_: int) -> Seat | None:
    """Who sends a team's orders this round: its rotating captain among its students (a bot
    that completes a short team never does: the team is the students'); a bot player's
    first seat."""
    group = parties.members(seats, player)
    people = [s for s in group if not s.is_bot]
    return parties.acting(people or group, round_)


def policy_of(table: Table) -> engine_bots.Policy:
    return engine_bots.get_policy(str(table.session.options.get("bot_policy") or "builder"))


def bot_rng(table: Table, round_: int, name: str) -> random.Random:
    """A bot's orders are logged decisions: seeded, so a lesson replays."""
    return random.Random(f"{table.seed}:{round_}:{name}")


def open_orders(table: Table, state: Any, round_: int, step: TeacherStep) -> Any:
    """The orders open: the published proposal's consent ballot opens (the bots then vote
    and write their orders: ``bot_turn``, run by the platform after every change)."""
    proposal = proposal_of(table, round_)
    ballot = script.consent_ballot(round_, proposal.items if proposal else {}, state)
    if ballot is not None:
        kit.vote_open(table, ballot, step)
    return state


def bot_turn(table: Table, round_: int, stage: str, state: Any, seat: Seat,
             step: TeacherStep | None) -> None:
    """A bot player during the orders: its token in Parliament's bag if it has none there
    (again after the bag was emptied: an undone count, a lost key), and its orders for the
    round if it has written none."""
    if stage != script.ORDERS or state.phase != "orders" or step is None:
        return
    if seat.player_name not in bot_players(table):
        return
    bag = bags.open_bag(table)
    if bag is not None and not bag.receipts.filter(seat__player_name=seat.player_name).exists():
        _bot_ballot(bag, state, seat)
    if not PendingOrders.objects.filter(table=table, round=round_,
                                        player=seat.player_name).exists():
        orders = policy_of(table).orders(state, seat.player_name,
                                         bot_rng(table, round_, seat.player_name))
        if orders is not None:
            orders.pop("consent", None)
            for kind in script.CONSENT_KINDS:  # a bot PM proposes nothing to Parliament
                orders.get("pm", {}).pop(kind, None)
        write_orders(table=table, round_=round_, player=seat.player_name, orders=orders,
                     step=step, seat=seat)


def _bot_ballot(bag: Any, state: Any, seat: Seat) -> None:
    """A bot's token: consent if its party governs (the platform's bot ballot adds the
    noise and the randomness that is never stored)."""
    kit.bot_ballot(bag, seat, lambda _rng: "yes" if seat.player_name in state.government
                   else "no")


def engine_orders(state: Any, name: str, row: PendingOrders | None,
                  proposal: Proposal | None) -> dict[str, Any] | None:
    """The engine orders of one player at the close: their latest orders, the Prime
    Minister's with the published proposal in them (a proposal is the PM's order to ask)."""
    orders = copy.deepcopy(row.orders) if row is not None else None
    if proposal is not None and name == state.pm and proposal.items:
        orders = orders or {}
        pm = orders.setdefault("pm", {})
        for kind in script.CONSENT_KINDS:
            pm.pop(kind, None)
        pm.update(copy.deepcopy(proposal.items))
    return orders


def close_orders(table: Table, state: Any, round_: int, step: TeacherStep, *,
                 confirmed: bool) -> Any:
    """The game master closes the round: every player's orders (none: NMR) are applied in
    seat order, the consent ballot is counted, and the engine adjudicates the round.
    ``confirmed``: the teacher confirmed counting a ballot that misses tokens."""
    engine = engine_of(table)
    RoundBoard.objects.create(table=table, round=round_, board=_board(engine.view(state, PUBLIC)),
                              step=step)
    latest = latest_orders(table, round_)
    proposal = proposal_of(table, round_)
    for player in state.players:
        if player.sent:
            continue
        row = latest.get(player.name)
        orders = engine_orders(state, player.name, row, proposal)
        seat = row.seat if row is not None else None
        actor = (Actor.TEACHER if row is None or row.by_master
                 else Actor.BOT if seat is not None and seat.is_bot else Actor.SEAT)
        state = apply(table, state, {"type": "orders", "player": player.name,
                                     "orders": orders}, step, actor=actor, seat=seat)
    bag = bags.open_bag(table)
    if bag is not None:
        state = kit.vote_close(table, state, bag.decision, step, Actor.TEACHER,
                                    confirmed=confirmed)
    return state


def on_step(table: Table, state: Any, *, before: str, plan: StepPlan,
            step: TeacherStep) -> Any:
    """The teacher's "next" at one table (``script.plan_step`` chose where it goes): what the
    stage left is applied (parties, a majority Government, the round's orders), then what the
    next stage opens (the orders and Parliament's ballot)."""
    if before == script.PARTIES and state.phase == PARTIES_PHASE:
        state = apply(table, state, {"type": "parties", "parties": {}}, step)
    if before == script.GOVERNMENT and state.phase == GOVERNMENT_PHASE:
        win = majority_bloc(state)
        if win is not None:
            state = apply(table, state, {"type": "government",
                                         "members": win["members"], "pm": None}, step)
    if plan.stage == script.ORDERS:
        state = open_orders(table, state, plan.round, step)
    if before == script.ORDERS and plan.stage == script.REPLAY:
        state = close_orders(table, state, plan.round, step, confirmed=plan.confirmed)
    return state


def _board(view: dict[str, Any]) -> dict[str, Any]:
    view = dict(view)
    view.pop("history", None)
    return view
