"""A table's game, stored as a log: rebuild its state, append decisions, keep the ledger.

Call these inside a transaction that holds the table's row lock (see ``services``).
The full record of a table is its log with the ballots put back in: one ``ballot`` per
receipt just before the ``count`` that emptied that bag (receipts are listed by seat, never in
the order of casting), and the receipts of a still-open bag at the end.

The snapshot is the state after the log alone: an open bag's receipts are not in it (a ballot
writes only its receipt and its sealed ballot). ``load_view_state`` adds them for the screens.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext

from facilitator import log_rows
from facilitator.clock import now
from facilitator.errors import ServiceError
from facilitator.lessons.base import Lesson
from facilitator.models import (
    Bag,
    BallotReceipt,
    Seat,
    Table,
    TableAction,
    TeacherStep,
)
from games.core import Action, Engine, Event, InvalidAction, Word
from games.registry import get_engine


def engine_of(table: Table) -> Engine:
    return get_engine(table.session.game)


def _bag_voters(table: Table, status: str | None = None) -> dict[str, list[str]]:
    """Who voted in each bag of the table, by decision, listed by seat."""
    receipts = BallotReceipt.objects.filter(bag__table=table)
    if status is not None:
        receipts = receipts.filter(bag__status=status)
    voters: dict[str, list[str]] = defaultdict(list)
    for decision, name in receipts.order_by("bag__decision", "seat__position", "seat_id"
                                            ).values_list("bag__decision", "seat__player_name"):
        voters[decision].append(name)
    return voters


def record_actions(table: Table, *, open_bags: bool = True) -> list[Action]:
    """The table's decisions in order (docs/record.md), ballots rebuilt from the receipts
    just before their bag's count (in the count's own form); an open bag's receipts at the
    end (``open_bags``)."""
    return [action for action, _acted in _record(table, open_bags=open_bags)]


def record_acted(table: Table) -> list[dict[str, Any]]:
    """Who acted, and how, for each of ``record_actions``' entries (in the same order):
    ``player`` (whose decision it was: the engine's name for the seat or team, absent for a
    decision of the table or the teacher's), ``by`` (the student who acted, when another
    than the one whose decision it was, or when a team's member), and ``how``
    (``TableAction.How``: chose, timer, teacher, stand_in, bot, vote, rules)."""
    return [acted for _action, acted in _record(table, open_bags=True)]


def _acted(actor: str, how: str, seat: Seat | None, whose: Seat | None) -> dict[str, Any]:
    out: dict[str, Any] = {"how": how or _PLAIN_HOW.get(actor, "")}
    if whose is None:
        whose = seat
    if whose is not None and whose.player_name:
        out["player"] = whose.player_name
    if seat is not None and (seat != whose or seat.player_name != seat.nickname):
        out["by"] = seat.nickname
    return out


def _record(table: Table, *, open_bags: bool) -> list[tuple[Action, dict[str, Any]]]:
    lesson = table.session.lesson
    counted = {b.decision for b in table.bags.filter(status=Bag.Status.COUNTED)}
    voters = _bag_voters(table)
    seats = {s.pk: s for s in table.session.seats.all()}
    out: list[tuple[Action, dict[str, Any]]] = []

    def ballots_of(decision: str, names: list[str]) -> None:
        out.extend((a, {"how": TableAction.How.CHOSE.value,
                        **({"player": a["player"]} if "player" in a else {})})
                   for a in ballots(lesson, decision, names))

    rows = table.actions.order_by("seq").values_list("round", "payload", "actor", "how",
                                                     "seat_id", "on_behalf_id")
    for round_, payload, actor, how, seat_id, whose_id in rows:
        if payload.get("type") == "count":
            decision = lesson.counted_decision(round_, payload)
            if decision in counted:
                ballots_of(decision, voters.pop(decision, []))
        out.append((payload, _acted(actor, how, seats.get(seat_id), seats.get(whose_id))))
    if open_bags:
        for decision, names in sorted(voters.items()):
            if decision not in counted:
                ballots_of(decision, names)
    return out


def ballots(lesson: Lesson, decision: str, names: list[str]) -> list[Action]:
    """The receipts of a bag as the lesson's engine actions (who voted, never what)."""
    actions = [lesson.ballot_action(decision, name) for name in names]
    return [a for a in actions if a is not None]


def game_record(table: Table) -> dict[str, Any]:
    """The table's record (docs/record.md): what replays the game (``game``, ``seed``,
    ``config``, ``actions``) and, beside it, who acted and how (``acted``, one entry per
    action; replay reads only the first four)."""
    pairs = _record(table, open_bags=True)
    return {"game": table.session.game, "version": 1, "seed": table.seed,
            "config": table.config, "actions": [a for a, _ in pairs],
            "acted": [acted for _, acted in pairs]}


def replay_table(table: Table, *, open_bags: bool = True) -> Any:
    """The state rebuilt from scratch: config, seed and every decision (with the receipts of
    an open bag, unless ``open_bags`` is false: then it is what the snapshot holds)."""
    engine = engine_of(table)
    state = engine.new_game(table.config, table.seed)
    state, _ = engine.replay_actions(state, record_actions(table, open_bags=open_bags))
    return state


def load_state(table: Table) -> Any:
    """The state after the log (the snapshot): what services apply decisions to."""
    engine = engine_of(table)
    if table.snapshot is None:
        return replay_table(table, open_bags=False)
    return engine.from_dict(table.snapshot)


def load_view_state(table: Table, voters: dict[str, list[str]] | None = None) -> Any:
    """The state with its open bag's receipts: who has voted (never what), for the screens.
    ``voters``: the open bag's voters by decision, if already read (``table_reads``)."""
    state = load_state(table)
    if voters is None:
        voters = _bag_voters(table, Bag.Status.OPEN)
    if not voters:
        return state
    (decision, names), = voters.items()
    state, _ = engine_of(table).replay_actions(state, ballots(table.session.lesson, decision,
                                                              names))
    return state


def save_state(table: Table, state: Any) -> None:
    table.snapshot = engine_of(table).to_dict(state)
    log_rows.snapshot_save(table_id=table.pk, snapshot=table.snapshot)


def engine_error(exc: InvalidAction) -> ServiceError:
    """The engine's English reason (a msgid marked in ``games/``), in the active language;
    a value the engine gave as a ``Word`` is translated too, any other is shown as given."""
    params = {k: gettext(v) if isinstance(v, Word) else v for k, v in exc.params.items()}
    return ServiceError("invalid_action", gettext(exc.reason).format(**params))


# How a decision was taken when the caller does not say: the actor's plain way.
_PLAIN_HOW = {TableAction.Actor.SEAT: TableAction.How.CHOSE,
              TableAction.Actor.BOT: TableAction.How.BOT,
              TableAction.Actor.TEACHER: TableAction.How.TEACHER}


def apply_action(table: Table, state: Any, action: Action, *, actor: str,
                 seat: Seat | None = None, step: TeacherStep | None = None,
                 how: str | None = None, on_behalf: Seat | None = None
                 ) -> tuple[Any, list[Event]]:
    """Apply one decision; log it (ballots excepted) with who acted and how, and record its
    coin transfers. ``how`` (``TableAction.How``; the actor's plain way if not given) and
    ``on_behalf`` (whose decision it was: the acting seat itself if not given) are the
    record's "who acted, and how"."""
    engine = engine_of(table)
    try:
        new_state, events = engine.apply(state, action)
    except InvalidAction as exc:
        raise engine_error(exc) from None
    action_id = None
    if action["type"] != "ballot":
        whose = on_behalf if on_behalf is not None else seat
        action_id = log_rows.action_append(
            table_id=table.pk, step_id=step.pk if step is not None else None, actor=actor,
            seat_id=seat.pk if seat is not None else None, round_=getattr(state, "round", 0),
            payload=dict(action), created_at=now(),
            on_behalf_id=whose.pk if whose is not None else None,
            how=how or _PLAIN_HOW.get(actor, ""))
    record_transfers(table, [e for e in events if e["type"] == "transfer"], action_id)
    return new_state, events


def record_transfers(table: Table, transfers: list[Event], action_id: int | None) -> None:
    """The engine's coin transfers as ledger entries, after the table's last one (fixed SQL,
    ``facilitator.log_rows``)."""
    details_keys = ("service", "option")
    log_rows.ledger_append(table_id=table.pk, action_id=action_id, transfers=[
        {"round": t.get("round", 0), "source": t["from"], "destination": t["to"],
         "amount": t["amount"], "reason": t["reason"],
         "details": {k: t[k] for k in details_keys if k in t}} for t in transfers])


def opening_transfers(table: Table, state: Any) -> list[Event]:
    """What every account holds before the first decision, paid out by the bank (the
    engine's ``balances`` of the new game: State in Class's 3 coins a player)."""
    return [{"type": "transfer", "from": "bank", "to": account, "amount": amount,
             "reason": "start", "round": 0}
            for account, amount in engine_balances(table, state).items()
            if account != "bank" and amount > 0]


def ledger_balances(table: Table) -> dict[str, int]:
    balances: dict[str, int] = defaultdict(int)
    for source, destination, amount in table.ledger.values_list("source", "destination",
                                                                 "amount"):
        balances[source] -= amount
        balances[destination] += amount
    return dict(balances)


def engine_balances(table: Table, state: Any) -> dict[str, int]:
    """Every account's balance as the table's engine sees it (``balances`` of the protocol)."""
    return engine_of(table).balances(state)


def verify_table(table: Table) -> list[str]:
    """Problems found: snapshot vs full replay, ledger vs engine, coins conserved."""
    engine = engine_of(table)
    problems: list[str] = []
    replayed = replay_table(table, open_bags=False)
    if table.snapshot is not None and engine.to_dict(replayed) != table.snapshot:
        problems.append(gettext("the snapshot differs from a full replay of the log"))
    ledger = ledger_balances(table)
    expected = engine_balances(table, replayed)
    for acct in sorted(set(ledger) | set(expected)):
        if ledger.get(acct, 0) != expected.get(acct, 0):
            problems.append(gettext("%(account)s: ledger %(ledger)d, engine %(engine)d") % {
                "account": acct, "ledger": ledger.get(acct, 0),
                "engine": expected.get(acct, 0)})
    if sum(ledger.values()) != 0:
        problems.append(gettext("the ledger does not balance (coins created or lost)"))
    return problems


def player_names(table: Table) -> dict[str, Seat]:
    return {s.player_name: s for s in table.seats.filter(shares__isnull=True)}
