"""The rules of Poleconomy (play-by-mail edition) as a pure state machine.

A record holds decisions only: ``parties`` and ``government``/``no_government`` (the game
master confirms what the players agreed), ``orders`` (each player's sealed orders),
``ballot``/``count`` (Parliament's secret weighted consent) and ``end`` (mutual agreement).
As soon as a round's orders and consent counts are all in, the engine adjudicates the whole
round by itself: auctions, every turn, the end of the round and any election.

Rule decisions the rulebook leaves open are listed in ``docs/engines/poleconomy.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import Action, Event, InvalidAction, check_tally
from games.i18n import _
from games.poleconomy import data
from games.poleconomy.elections import (
    check_government,
    check_no_government,
    government,
    hold_election,
    no_government,
)
from games.poleconomy.money import TreasuryDefault, emit
from games.poleconomy.moves import play_turn
from games.poleconomy.orders import check_orders
from games.poleconomy.setup import check_parties, new_state, set_up, stated_situation
from games.poleconomy.state import GOVERNMENT, ORDERS, OVER, PARTIES, Consent, GameState
from games.poleconomy.turn import companies_of, run_auctions, value_now

GAME_ID = "poleconomy"
OUTCOMES = ("carried", "not-carried")
CONSENT_OPTIONS = ("yes", "no")  # the options of a consent ballot (``decisions``)
CONSENT_KINDS = ("salaries", "tax", "payments")
ACTION_KEYS = {
    "parties": ({"parties"}, set()),
    "government": ({"members"}, {"pm"}),
    "no_government": (set(), set()),
    "orders": ({"player", "orders"}, set()),
    "ballot": ({"decision", "player"}, set()),
    "count": ({"decision", "outcome"}, set()),
    "end": (set(), set()),
}


def new_game(config: Mapping[str, Any], seed: int) -> GameState:
    state = new_state(config, seed)
    events: list[Event] = []
    if "start" in config:
        stated_situation(state, config["start"], events)
        return state
    set_up(state, config, events)
    if "parties" in config:
        _parties(state, {"parties": config["parties"]}, events)
    return state


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    new = state.clone()
    return new, step(new, action)


def replay_actions(state: GameState, actions: Iterable[Action]
                   ) -> tuple[GameState, list[Event]]:
    """Apply decisions in place (the fast path for replays); stops at the first invalid one."""
    events: list[Event] = []
    for action in actions:
        before = state.clone()
        try:
            events += step(state, action)
        except InvalidAction:
            state.__dict__.update(before.__dict__)
            raise
    return state, events


def step(state: GameState, action: Action, *, beats: int | None = None) -> list[Event]:
    """Apply one decision to ``state`` in place. Invalid: raises before changing anything.

    ``beats`` (for views only): if this decision completes the round, its adjudication stops
    after that many beats (``round_beats``: the start and the auctions, one per turn, the end
    of the round); 0 stops before it starts. The state is then left in the middle of the round:
    a picture of what the class has seen, never to be played on.
    """
    if not isinstance(action, Mapping) or action.get("type") not in ACTION_KEYS:
        raise InvalidAction(_("An action must be an object whose 'type' is one of: {types}."),
                            types=", ".join(ACTION_KEYS))
    kind = action["type"]
    required, optional = ACTION_KEYS[kind]
    missing = sorted(required - set(action))
    if missing:
        raise InvalidAction(_("The action '{type}' needs: {keys}."), type=kind,
                            keys=", ".join(missing))
    extra = sorted(set(action) - required - optional - {"type"})
    if extra:
        raise InvalidAction(_("The action '{type}' has unknown keys: {keys}."), type=kind,
                            keys=", ".join(extra))
    if state.phase == OVER:
        raise InvalidAction(_("The game is over."))
    events: list[Event] = []
    if kind == "end":
        emit(state, events, {"type": "game_over", "reason": "agreed"})
        state.phase, state.over_reason = OVER, "agreed"
        return events
    handler = {"parties": _parties, "government": _government,
               "no_government": _no_government, "orders": _orders, "ballot": _ballot,
               "count": _count}[kind]
    handler(state, action, events)
    if kind in ("orders", "count"):
        _maybe_adjudicate(state, events, beats)
    return events


def _need_phase(state: GameState, phase: str) -> None:
    if state.phase != phase:
        texts = {PARTIES: _("The game is waiting for the parties to be declared."),
                 GOVERNMENT: _("The game is waiting for a Government to be formed."),
                 ORDERS: _("The game is waiting for this round's orders.")}
        raise InvalidAction(texts[state.phase])


def _parties(state: GameState, action: Action, events: list[Event]) -> None:
    _need_phase(state, PARTIES)
    parties = check_parties(action["parties"], state.names)
    state.parties = parties
    for p in state.players:
        p.party = next((k for k, v in parties.items() if p.name in v), None)
    emit(state, events, {"type": "parties", "parties": parties})
    hold_election(state, events)


def _government(state: GameState, action: Action, events: list[Event]) -> None:
    _need_phase(state, GOVERNMENT)
    members, pm = check_government(state, action["members"], action.get("pm"))
    government(state, events, members, pm)


def _no_government(state: GameState, action: Action, events: list[Event]) -> None:
    _need_phase(state, GOVERNMENT)
    check_no_government(state)
    no_government(state, events)


def _player(state: GameState, name: Any) -> Any:
    if not isinstance(name, str) or name not in state.names:
        raise InvalidAction(_("There is no player {name!r} in this game."), name=name)
    return state.player(name)


def _orders(state: GameState, action: Action, events: list[Event]) -> None:
    _need_phase(state, ORDERS)
    p = _player(state, action["player"])
    if p.sent:
        raise InvalidAction(_("{name} has already sent orders this round."), name=p.name)
    orders = check_orders(action["orders"], player=p.name, names=state.names,
                          is_pm=p.name == state.pm, consent_mode=state.consent_mode)
    _on_the_board(state, orders)
    for i, bid in enumerate(orders.get("bids", [])):
        if bid["firm"] not in state.auction:
            raise InvalidAction(_("Bid {n} is for {firm}, which is not up for auction this "
                                  "round."), n=i + 1, firm=bid["firm"])
    pm = orders.get("pm", {})
    for key in ("appoint", "dismiss"):
        for name in pm.get(key, []):
            if name not in state.government or name == state.pm:
                raise InvalidAction(_("{name} is not a member of the Government who can be a "
                                      "Cabinet Minister."), name=name)
    move = orders.get("move")
    for m in move if isinstance(move, list) else [move] if move else []:
        if m.get("corner") == data.TAKEOVER and m.get("act") and \
                not orders.get("corners", {}).get(data.TAKEOVER):
            raise InvalidAction(_("A move to Takeover that takes its action must say which "
                                  "Company to take over in 'corners'."))
    p.orders = orders if action["orders"] is not None else None
    p.sent, p.nmr = True, action["orders"] is None
    emit(state, events, {"type": "orders_in", "player": p.name, "nmr": p.nmr})
    if p.name == state.pm and state.consent_mode == "ballot":
        for kind in CONSENT_KINDS:
            if kind in pm:
                state.consents.append(Consent(f"r{state.round}.consent.{kind}", kind, pm[kind]))
                emit(state, events, {"type": "consent_asked", "decision":
                                     f"r{state.round}.consent.{kind}", "kind": kind,
                                     "proposal": pm[kind]})


def _on_the_board(state: GameState, orders: Mapping[str, Any]) -> None:
    """Every square the orders could send the player to is on this game's board (always so on
    our edition's, where the orders grammar already checked them)."""
    board = state.layout()
    if board is data.EDITION:
        return
    send = orders.get("send_to")
    targets = [("opportunity", orders.get("opportunity")),
               ("own_advertiser", orders.get("own_advertiser")),
               *(("send_to", c) for c in (send.values() if isinstance(send, Mapping)
                                          else [send])),
               *((f"at.{sq}.go", choice.get("go"))
                 for sq, choice in orders.get("at", {}).items())]
    for what, square in targets:
        if square is not None and square not in board.squares:
            raise InvalidAction(_("'{what}' names {square}, which is not on this game's "
                                  "board."), what=what, square=square)


def _consent(state: GameState, decision: Any) -> Consent:
    for c in state.consents:
        if c.id == decision and c.outcome is None:
            return c
    raise InvalidAction(_("There is no open consent ballot {decision!r}."), decision=decision)


def _ballot(state: GameState, action: Action, events: list[Event]) -> None:
    _need_phase(state, ORDERS)
    c = _consent(state, action["decision"])
    p = _player(state, action["player"])
    if p.name in c.receipts:
        raise InvalidAction(_("{name} has already voted in this ballot."), name=p.name)
    c.receipts.append(p.name)
    c.receipts.sort()
    emit(state, events, {"type": "ballot", "decision": c.id, "player": p.name})


def _count(state: GameState, action: Action, events: list[Event]) -> None:
    _need_phase(state, ORDERS)
    c = _consent(state, action["decision"])
    if action["outcome"] not in OUTCOMES:
        raise InvalidAction(_("A consent count's 'outcome' is \"carried\" or \"not-carried\"."))
    c.outcome = action["outcome"]
    emit(state, events, {"type": "count", "decision": c.id, "outcome": c.outcome,
                         "voted": len(c.receipts)})


def ballot_outcome(state: GameState, decision_id: str, tally: Mapping[str, int]) -> str:
    """The outcome of the open consent ballot ``decision_id`` for ``count {decision, outcome}``:
    ``"carried"`` iff the players voting ``"yes"`` hold a majority (more than half) of all the
    electoral votes, as the rulebook's Parliamentary Consent asks. ``tally`` is weighted: each
    option's number is the sum of its voters' electoral votes, and together they are the
    electoral votes of the ballots in the bag."""
    _need_phase(state, ORDERS)
    c = _consent(state, decision_id)
    counted = check_tally(tally, CONSENT_OPTIONS)
    cast = sum(state.player(n).votes for n in c.receipts)
    if sum(counted.values()) != cast:
        raise InvalidAction(_("The tally has {counted} electoral votes but the ballots in the "
                              "bag carry {cast}."), counted=sum(counted.values()), cast=cast)
    return OUTCOMES[0] if 2 * counted["yes"] > state.total_votes else OUTCOMES[1]


def _maybe_adjudicate(state: GameState, events: list[Event], beats: int | None) -> None:
    if all(p.sent for p in state.players) and all(c.outcome for c in state.consents):
        play_round(state, events, beats)


def play_round(state: GameState, events: list[Event], beats: int | None = None) -> None:
    """Adjudicate the round: its start and the auctions, each turn, the end of the round.

    ``beats`` (views only, see ``step``): stop once that many of these beats are played.
    """
    if beats is not None and beats < 1:
        return
    emit(state, events, {"type": "round_start", "multiplier": state.multiplier,
                         "order": [p.name for p in state.order()]})
    played = 0  # turns played; the beats played so far are played + 1
    try:
        won = run_auctions(state, events)
        for p in state.order():
            if beats is not None and played + 1 >= beats:
                return
            play_turn(state, events, p, won)
            played += 1
            if state.bank_empty:
                break
    except TreasuryDefault:
        state.phase, state.over_reason = OVER, "treasury"
        emit(state, events, {"type": "game_over", "reason": "treasury"})
        return
    if beats is not None and played + 1 >= beats:
        return
    end_round(state, events)


def round_beats(state: GameState, round_: int) -> list[list[Event]]:
    """Round ``round_``'s public events from its start, in the projector's beats: the start of
    the round and the auctions (before the first turn), one beat per turn (the PM's powers come
    with the PM's turn), then the end of the round with any election and Government. A round
    not adjudicated yet has none."""
    events = next((r["events"] for r in state.history if r["round"] == round_), [])
    start = next((i for i, e in enumerate(events) if e["type"] == "round_start"), None)
    if start is None:
        return []
    out: list[list[Event]] = [[]]
    for event in events[start:]:
        if event["type"] in ("turn", "round_end"):
            out.append([])
        out[-1].append(event)
    return out


def end_round(state: GameState, events: list[Event]) -> None:
    state.multiplier = value_now(state)
    state.auction = [f for f in state.unbought if f not in state.owners]
    state.unbought = []
    state.consents = []
    for p in state.players:
        p.orders, p.sent, p.nmr = None, False, False
    emit(state, events, {"type": "round_end", "multiplier": state.multiplier,
                         "auction": list(state.auction)})
    reason = "bank" if state.bank_empty else "rounds" if state.round >= state.rounds else None
    if reason:
        state.phase, state.over_reason = OVER, reason
        emit(state, events, {"type": "game_over", "reason": reason})
        return
    if state.election_due:
        hold_election(state, events)
        return
    state.round += 1
    state.first = (state.first + 1) % len(state.players)


def is_over(state: GameState) -> bool:
    return state.phase == OVER


def valuation(state: GameState, name: str) -> dict[str, int]:
    """Assets at game end: firms at the multiplier of the space the marker is on now."""
    p = state.player(name)
    mult = value_now(state)
    firms = [f for f, o in state.owners.items() if o == name]
    return {"cash": p.cash,
            "companies": sum(data.price(f, mult) for f in firms if f in data.COMPANIES),
            "advertisers": sum(data.price(f, mult) for f in firms if f in data.ADVERTISERS),
            "life_insurance": p.life_insurance * data.LIFE_VALUE,
            "bonds": p.bonds * data.BOND_VALUE}


def scores(state: GameState) -> dict[str, Any]:
    players = {}
    for p in state.players:
        parts = valuation(state, p.name)
        players[p.name] = {"score": sum(parts.values()), "breakdown": parts,
                           "companies": len(companies_of(state, p.name))}
    best = max(v["score"] for v in players.values())
    lost = state.over_reason == "treasury"
    winners = [] if lost or state.phase != OVER else sorted(
        n for n, v in players.items() if v["score"] == best)
    return {"players": players, "winners": winners, "all_lose": lost,
            "over_reason": state.over_reason, "multiplier": value_now(state)}
