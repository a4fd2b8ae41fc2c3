"""The rules of *A State in Class · Who Pays for Us All?* as a pure state machine.

A record holds decisions only (docs/record.md): ``pact``, ``ballot``, ``count`` and
``tie_break``. The engine moves on by itself as soon as a phase's decisions are complete.

Decisions the rulebook leaves open, and what we chose (also in ``docs/engine.md``):

- Chance never uses module-level ``random``: each draw has its own ``random.Random`` seeded
  from ``(seed, purpose)``, so the state is a function of (config, seed, actions).
- The bank is the issuer of coins: its balance is minus all the coins in circulation, so every
  account together (bank, players, table, funds, pact) always sums to zero.
- A player who cannot pay tax and cost of living hands over everything: the tax is paid first
  (to the table) and whatever is left goes to the bank as cost of living.
- The Social Shield removes the working class's whole cost of living, event surcharges included.
- The Tech breakthrough is checked when the event is read; the +2 then lasts the whole game.
- Coins lost to the Great storm or a Midlife card are taken up to what the player has; only a
  card that says so gives an Exclusion token when the player is short.
- The end-of-round Tension steps apply every round, the Midlife round too; Tension never goes
  below 1 (the lowest space of the track).
- A tax tie: only players who put a token in the bag can have voted for a tied option, so only
  they are asked, in tie order. If every one of them passes, the tie is settled by drawing one of
  the tied options from the bag (seeded).
- A budget tie (or two services with no votes at the same level) is decided by the player with
  the lowest Income, who cannot pass; a three-way tie takes two decisions.
- The split uses the levels at its start to redirect shares of services at level 5; if all
  three are at level 5 the coins stay in the funds. After the split each fund buys as many whole
  levels as it can (up to 5); the rest stays in view.
- The inheritance's 4 coins wait on the table (the pot is empty in round 4) and so join the
  revenue of round 5.
"""

from __future__ import annotations

import contextlib
import copy
import math
import random
from collections.abc import Iterable, Mapping
from typing import Any

from games.core import (
    PUBLIC,
    Action,
    Event,
    InvalidAction,
    InvalidConfig,
    Word,
    check_config,
    player_names,
    plurality,
)
from games.i18n import _
from games.state_in_class import data
from games.state_in_class.state import (
    BUDGET_VOTE,
    OVER,
    PACT,
    TAX_VOTE,
    TIE_BREAK,
    GameState,
    Player,
    TieBreak,
)

GAME_ID = "state-in-class"
BANK = "bank"
TABLE = "table"
PACT_ACCOUNT = "pact"
CONFIG_KEYS = {"players", "roles", "midlife_order"}


class _StateFailed(Exception):
    """Tension reached 10: the game ends at that moment."""


def account(player: Player | str) -> str:
    return f"player:{player if isinstance(player, str) else player.name}"


def fund_account(service: str) -> str:
    return f"fund:{service}"


# --------------------------------------------------------------------------- setup


def new_game(config: Mapping[str, Any], seed: int) -> GameState:
    check_config(config, seed, CONFIG_KEYS)
    names = player_names(config)
    if len(names) not in data.SETUPS:
        raise InvalidConfig(_("State in Class needs 6, 7 or 8 players, not {n}."), n=len(names))
    setup = data.SETUPS[len(names)]
    roles_pin = config.get("roles") or {}
    in_play = [r for r in data.BASE_ROLES if r not in setup.left_out]
    if not isinstance(roles_pin, Mapping):
        raise InvalidConfig(_("'roles' must map player names to role ids."))
    for name, role in roles_pin.items():
        if name not in names:
            raise InvalidConfig(_("'roles' names an unknown player {name!r}."), name=name)
        if role not in in_play:
            raise InvalidConfig(
                _("Role {role!r} is not in play with {n} players."), role=role, n=len(names)
            )
    if len(set(roles_pin.values())) != len(roles_pin):
        raise InvalidConfig(_("'roles' gives the same role to two players."))
    midlife_pin = config.get("midlife_order") or []
    # Every entry is a known card's name: anything else (e.g. ["eviction"]) is InvalidConfig
    # (tests/games/state_in_class/test_state_in_class_setup_and_pact.py).
    if not isinstance(midlife_pin, list) or any(
            not isinstance(c, str) or c not in data.MIDLIFE_CARDS for c in midlife_pin):
        raise InvalidConfig(_("'midlife_order' must list Midlife card ids."))
    if len(set(midlife_pin)) != len(midlife_pin):
        raise InvalidConfig(_("'midlife_order' lists a card twice."))
    # Every wallet starts empty and the bank pays the 3 starting coins below (Player()'s own
    # default is START_COINS; tests/games/state_in_class/test_state_in_class_setup_and_pact.py).
    players = [Player(name=n, seat=i) for i, n in enumerate(names)]
    state = GameState(
        seed=seed, players=players, price=setup.price,
        roles_pin=dict(roles_pin), midlife_pin=list(midlife_pin),
    )
    for p in players:  # every player receives 3 coins before the pact
        _move(state, [], BANK, account(p), data.START_COINS, "start")
    return state


def _rng(state: GameState, purpose: str) -> random.Random:
    return random.Random(f"{state.seed}:{purpose}")


# --------------------------------------------------------------------------- helpers


def _move(state: GameState, events: list[Event], src: str, dst: str, amount: int,
          reason: str, **params: Any) -> None:
    """Move coins between accounts and report the transfer (the ledger records each one)."""
    if amount <= 0:
        return
    for acct, sign in ((src, -1), (dst, 1)):
        if acct.startswith("player:"):
            p = state.player(acct[7:])
            p.coins += sign * amount
            p.statement.append({"round": state.round, "amount": sign * amount, "reason": reason,
                                "balance": p.coins, **params})
        elif acct.startswith("fund:"):
            state.services[acct[5:]].fund += sign * amount
        elif acct == TABLE:
            state.pot += sign * amount
    private = next((a[7:] for a in (src, dst) if a.startswith("player:")), None)
    events.append({"type": "transfer", "audience": private or PUBLIC, "from": src, "to": dst,
                   "amount": amount, "reason": reason, "round": state.round, **params})


def _tension(state: GameState, events: list[Event], delta: int, reason: str,
             **params: Any) -> None:
    before = state.tension or 0
    after = min(data.FAIL_TENSION, max(data.MIN_TENSION, before + delta))
    if after == before:
        return
    state.tension = after
    change = {"delta": after - before, "value": after, "reason": reason, **params}
    state.current.setdefault("tension", []).append(change)
    events.append({"type": "tension", "audience": PUBLIC, "round": state.round, **change})
    if after >= data.FAIL_TENSION:
        state.failed = True
        state.phase = OVER
        state.tie = None
        state.receipts = []
        events.append({"type": "state_failed", "audience": PUBLIC, "round": state.round})
        raise _StateFailed


def _exclude(state: GameState, events: list[Event], p: Player, tension: int,
             reason: str) -> None:
    p.exclusions += 1
    state.current.setdefault("exclusions", []).append(
        {"player": p.name, "role": p.role, "reason": reason})
    events.append({"type": "exclusion", "audience": PUBLIC, "round": state.round,
                   "player": p.name, "role": p.role, "reason": reason})
    _tension(state, events, tension, reason, player=p.name, role=p.role)


def tie_order(state: GameState) -> list[Player]:
    """Lowest Income first; equal Income: the lower class; then seat order."""
    return sorted(state.players, key=lambda p: (
        data.ROLES[p.role].income if p.role else 0, data.CLASS_RANK.get(p.klass or "", 0), p.seat))


def income(state: GameState, p: Player) -> int:
    role = data.ROLES[p.role]
    amount = role.income
    if role.klass in (data.MIDDLE, data.WORKING):
        if state.services[data.EDUCATION].level >= 3:
            amount += data.EDUCATION_BONUS
        if state.tech_bonus:
            amount += data.TECH_BONUS
    return amount


def cost_of_living(state: GameState, p: Player) -> int:
    role = data.ROLES[p.role]
    if role.klass == data.WORKING and state.services[data.SHIELD].level >= 3:
        return 0
    cost = role.cost_of_living + state.surcharge
    if state.services[data.HEALTH].level >= 4:
        cost -= 1
    return max(0, cost)


def tax_due(option: str, klass: str) -> int:
    return data.TAXES[option][klass]


def levels_sum(state: GameState) -> int:
    return sum(s.level for s in state.services.values())


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one decision to a copy of ``state``; the given state is never changed."""
    new = state.clone()
    # Events are detached copies: none shares a list or dict with the new state's history
    # (tally, split, levels, Midlife draws;
    # tests/games/state_in_class/test_state_in_class_views_secrecy.py).
    return new, copy.deepcopy(step(new, action))


def replay_actions(state: GameState, actions: Iterable[Action]) -> tuple[GameState,
                                                                          list[Event]]:
    """Apply decisions in place (fast path for replays). Stops at the first invalid one."""
    events: list[Event] = []
    for action in actions:
        events.extend(step(state, action))
    return state, events


def step(state: GameState, action: Action) -> list[Event]:
    """Validate ``action`` completely, then apply it to ``state`` in place."""
    if not isinstance(action, Mapping):
        raise InvalidAction(_("An action must be an object with a 'type'."))
    kind = action.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise InvalidAction(_("Unknown action type {type!r}."), type=kind)
    if state.phase == OVER:
        raise InvalidAction(_("The game is over."))
    required, optional, check = handler
    _check_keys(action, required, optional)
    check(state, action)
    events: list[Event] = []
    with contextlib.suppress(_StateFailed):
        _PERFORM[kind](state, action, events)
    return events


def _check_keys(action: Mapping[str, Any], required: set[str], optional: set[str]) -> None:
    keys = set(action)
    missing = sorted(required - keys)
    if missing:
        raise InvalidAction(_("The {type} action needs {keys}."), type=action["type"],
                            keys=", ".join(missing))
    extra = sorted(keys - required - optional - {"type"}, key=str)
    if extra:
        raise InvalidAction(_("Unexpected fields in the {type} action: {keys}."),
                            type=action["type"], keys=", ".join(map(repr, extra)))


def _known_player(state: GameState, name: Any) -> Player:
    if isinstance(name, str):
        for p in state.players:
            if p.name == name:
                return p
    raise InvalidAction(_("There is no player {name!r} at this table."), name=name)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- pact


def _check_pact(state: GameState, action: Action) -> None:
    p = _known_player(state, action["player"])
    if state.phase != PACT:
        raise InvalidAction(_("The opening pact is over."))
    if p.pact is not None:
        raise InvalidAction(_("{name} has already made their pact contribution."), name=p.name)
    coins = action["coins"]
    if not _is_count(coins) or not 0 <= coins <= data.MAX_PACT:
        raise InvalidAction(_("A pact contribution is 0, 1, 2 or 3 coins, not {coins!r}."),
                            coins=coins)


def _pact(state: GameState, action: Action, events: list[Event]) -> None:
    p = state.player(action["player"])
    p.pact = action["coins"]
    _move(state, events, account(p), PACT_ACCOUNT, p.pact, "pact")
    given = sum(q.pact is not None for q in state.players)
    events.append({"type": "pact_progress", "audience": PUBLIC, "done": given,
                   "of": len(state.players)})
    events.append({"type": "pact_made", "audience": p.name, "coins": p.pact})
    if given == len(state.players):
        _close_pact(state, events)


def _close_pact(state: GameState, events: list[Event]) -> None:
    total = sum(p.pact or 0 for p in state.players)
    state.pact_total = total
    _move(state, events, PACT_ACCOUNT, BANK, total, "pact")
    t1, t2, t3 = data.SETUPS[len(state.players)].tension_thresholds
    state.tension = 1 if total >= t1 else 2 if total >= t2 else 3 if total >= t3 else 4
    events.append({"type": "pact_total", "audience": PUBLIC, "total": total,
                   "tension": state.tension})
    _deal_roles(state, events)
    _start_round(state, events, 1)


def _deal_roles(state: GameState, events: list[Event]) -> None:
    setup = data.SETUPS[len(state.players)]
    pinned = state.roles_pin
    free = [r for r in data.BASE_ROLES if r not in setup.left_out and r not in pinned.values()]
    _rng(state, "roles").shuffle(free)
    for p in state.players:
        p.role = pinned.get(p.name) or free.pop()
    events.append({"type": "roles_dealt", "audience": PUBLIC,
                   "roles": {p.name: p.role for p in state.players}})


# -- rounds


def _start_round(state: GameState, events: list[Event], number: int) -> None:
    state.round = number
    state.surcharge = 0
    event = data.EVENTS[number - 1]
    state.history.append({"round": number, "event": event, "tension": []})
    events.append({"type": "round_started", "audience": PUBLIC, "round": number,
                   "event": event})
    effect = _resolve_event(state, events, event)
    state.current["event_effect"] = effect
    events.append({"type": "event", "audience": PUBLIC, "round": number, "event": event,
                   **effect})
    if number == data.MIDLIFE_ROUND:
        _midlife(state, events)
        _end_round(state, events)
    else:
        _open_vote(state, TAX_VOTE)


def _resolve_event(state: GameState, events: list[Event], event: str) -> dict[str, Any]:
    """Apply the round's event; returns its resolved effect (``effect`` key + values)."""
    levels = {s: v.level for s, v in state.services.items()}
    if event == data.BOOM:
        for p in state.players:
            _move(state, events, BANK, account(p), data.BOOM_COINS, "boom")
        return {"effect": "boom", "coins": data.BOOM_COINS}
    if event in (data.FLU, data.CRISIS):
        service = data.HEALTH if event == data.FLU else data.SHIELD
        hit = levels[service] <= 2
        if hit:
            state.surcharge += data.SURCHARGE
        return {"effect": "surcharge" if hit else "spared", "service": service,
                "level": levels[service], "surcharge": data.SURCHARGE if hit else 0}
    if event == data.TECH:
        hit = levels[data.EDUCATION] >= 3
        state.tech_bonus = state.tech_bonus or hit
        return {"effect": "tech_bonus" if hit else "missed", "service": data.EDUCATION,
                "level": levels[data.EDUCATION], "bonus": data.TECH_BONUS if hit else 0}
    if event == data.STORM:
        hard = levels[data.HEALTH] <= 2 and levels[data.SHIELD] <= 2
        loss = 3 if hard else 1
        state.current["event_effect"] = {"effect": "storm", "loss": loss, "levels": levels}
        _tension(state, events, data.STORM_TENSION, "storm")
        for p in state.players:
            _move(state, events, account(p), BANK, min(loss, p.coins), "storm")
        return {"effect": "storm", "loss": loss, "levels": levels}
    if event == data.PEACE:
        calm = (state.tension or 0) <= data.PEACE_MAX_TENSION
        if calm:
            _move(state, events, BANK, TABLE, data.PEACE_COINS, "peace")
        return {"effect": "peace" if calm else "no_peace", "tension": state.tension,
                "coins": data.PEACE_COINS if calm else 0}
    return {"effect": "none"}


def _open_vote(state: GameState, phase: str) -> None:
    state.phase = phase
    state.receipts = []
    state.tally = None
    state.tie = None


# -- ballots and counts


def _vote_kind(state: GameState) -> str | None:
    if state.phase == TAX_VOTE:
        return "tax"
    if state.phase == BUDGET_VOTE:
        return "budget"
    return None


def _check_kind(state: GameState, kind: Any) -> str:
    if kind not in ("tax", "budget"):
        raise InvalidAction(_("A vote is 'tax' or 'budget', not {kind!r}."), kind=kind)
    open_kind = _vote_kind(state)
    if open_kind != kind:
        # One whole sentence per case, so each can be translated (no English fragments).
        raise InvalidAction(_NOT_OPEN[(kind, open_kind)], phase=_phase_word(state))
    return kind


# The codes a reason names ({kind}, {phase}), as words a student reads.
KIND_WORDS = {"tax": Word(_("tax")), "budget": Word(_("budget"))}
PHASE_WORDS = {PACT: Word(_("opening pact")), TAX_VOTE: Word(_("tax vote")),
               BUDGET_VOTE: Word(_("budget vote")), TIE_BREAK: Word(_("tie-break")),
               "end_of_round": Word(_("end of round")), OVER: Word(_("game over"))}


def _phase_word(state: GameState) -> str:
    return PHASE_WORDS.get(state.phase, state.phase)


_NOT_OPEN = {
    ("tax", "budget"): _("The tax vote is not open: the budget vote is open."),
    ("budget", "tax"): _("The budget vote is not open: the tax vote is open."),
    ("tax", None): _("The tax vote is not open: this is the {phase} phase."),
    ("budget", None): _("The budget vote is not open: this is the {phase} phase."),
}


def vote_id(state: GameState) -> str | None:
    """The decision id of the open vote (``"<round>:<kind>"``), or None."""
    kind = _vote_kind(state)
    return f"{state.round}:{kind}" if kind else None


def check_decision(state: GameState, decision: Any) -> str:
    """The kind of the open vote whose decision id is ``decision``; InvalidAction otherwise."""
    open_id = vote_id(state)
    if open_id is None:
        raise InvalidAction(_("There is no open vote {decision!r}: this is the {phase} phase."),
                            decision=decision, phase=_phase_word(state))
    if decision != open_id:
        raise InvalidAction(_("There is no open vote {decision!r}: the open vote is {open!r}."),
                            decision=decision, open=open_id)
    return open_id.split(":")[1]


def _check_vote(state: GameState, action: Action) -> str:
    """The kind of the open vote the action names, by ``kind`` or by ``decision`` (one)."""
    if ("kind" in action) == ("decision" in action):
        raise InvalidAction(_("The {type} action names its vote by 'decision' or by 'kind' "
                              "(one of the two)."), type=action["type"])
    if "kind" in action:
        return _check_kind(state, action["kind"])
    return check_decision(state, action["decision"])


def _check_ballot(state: GameState, action: Action) -> None:
    p = _known_player(state, action["player"])
    kind = _check_vote(state, action)
    if p.name in state.receipts:
        raise InvalidAction(_("{name} has already voted in this {kind} vote."), name=p.name,
                            kind=KIND_WORDS[kind])


def _ballot(state: GameState, action: Action, events: list[Event]) -> None:
    name = action["player"]
    kind = _vote_kind(state)
    state.receipts = sorted([*state.receipts, name])  # sorted: no order of casting is kept
    events.append({"type": "ballot_progress", "audience": PUBLIC, "kind": kind,
                   "voted": len(state.receipts), "of": len(state.players)})
    events.append({"type": "ballot_receipt", "audience": name, "kind": kind})


def options_for(kind: str) -> tuple[str, ...]:
    return data.TAX_OPTIONS if kind == "tax" else data.SERVICES


def check_tally(state: GameState, kind: str, tally: Any) -> dict[str, int]:
    """The tally of the open ``kind`` vote over all its options; it must add up to the
    ballots in the bag."""
    if not isinstance(tally, Mapping):
        raise InvalidAction(_("A tally maps each option to its number of votes."))
    options = options_for(kind)
    for option, votes in tally.items():
        if option not in options:
            raise InvalidAction(_("{option!r} is not an option of the {kind} vote."),
                                option=option, kind=KIND_WORDS[kind])
        if not _is_count(votes) or votes < 0:
            raise InvalidAction(_("The votes for {option} must be a whole number of 0 or more."),
                                option=option)
    if sum(tally.values()) != len(state.receipts):
        raise InvalidAction(
            _("The tally has {counted} votes but {cast} ballots are in the bag."),
            counted=sum(tally.values()), cast=len(state.receipts))
    return {o: int(tally.get(o, 0)) for o in options}


def vote_outcome(kind: str, tally: Mapping[str, int]) -> list[list[str]]:
    """What the rules need from a count: the ranking (``games.core.plurality``: groups of
    options, most votes first, options with no votes left out). A tax vote keeps only its top
    group (the winner, or the options tied for it); ``[]``: nobody voted."""
    ranking = plurality(tally, options_for(kind))
    return ranking[:1] if kind == "tax" else ranking


def _check_outcome(state: GameState, kind: str, outcome: Any) -> list[list[str]]:
    """An outcome that some tally of the ballots in the bag gives (``vote_outcome``)."""
    options = options_for(kind)
    shape = isinstance(outcome, list) and all(
        isinstance(g, list) and g and all(isinstance(o, str) for o in g) for g in outcome)
    listed = [o for g in outcome for o in g] if shape else []
    if not shape or len(set(listed)) != len(listed) or (kind == "tax" and len(outcome) > 1):
        raise InvalidAction(_NOT_AN_OUTCOME[kind])
    for option in listed:
        if option not in options:
            raise InvalidAction(_("{option!r} is not an option of the {kind} vote."),
                                option=option, kind=KIND_WORDS[kind])
    # The fewest ballots that give this ranking: one more vote per group above the last.
    fewest = sum(len(g) * (len(outcome) - i) for i, g in enumerate(outcome))
    cast = len(state.receipts)
    if (cast == 0) != (not outcome) or fewest > cast:
        raise InvalidAction(_("No count of the {cast} ballots in the bag gives this outcome."),
                            cast=cast)
    return _in_order(kind, outcome)


def _in_order(kind: str, outcome: list[list[str]]) -> list[list[str]]:
    """The outcome's groups each in the order of the vote's options (as ``plurality``)."""
    options = options_for(kind)
    return [sorted(g, key=options.index) for g in outcome]


_NOT_AN_OUTCOME = {
    "tax": _("A tax outcome is [] (nobody voted) or [the options with most votes]."),
    "budget": _("A budget outcome lists groups of services, most votes first."),
}


def _check_count(state: GameState, action: Action) -> None:
    kind = _check_vote(state, action)
    if ("tally" in action) == ("outcome" in action):
        raise InvalidAction(_("A count gives either a 'tally' or an 'outcome' (one of the two)."))
    if "tally" in action:
        check_tally(state, kind, action["tally"])
    else:
        _check_outcome(state, kind, action["outcome"])


def _count(state: GameState, action: Action, events: list[Event]) -> None:
    kind = _vote_kind(state)
    assert kind is not None
    voters = list(state.receipts)
    state.receipts = []
    if "tally" in action:
        tally = {o: int(action["tally"].get(o, 0)) for o in options_for(kind)}
        ranking = vote_outcome(kind, tally)
        state.tally = tally
        counted: dict[str, Any] = {"tally": tally}
    else:
        ranking = _in_order(kind, action["outcome"])
        state.tally = None
        # Only the outcome is kept: the ranking, never a number of votes.
        counted = {"tally": None, "ranking": ranking}
    state.current[kind] = {**counted, "voters": len(voters)}
    events.append({"type": "count", "audience": PUBLIC, "kind": kind, **counted,
                   "voters": len(voters)})
    if kind == "tax":
        _count_tax(state, events, ranking, voters)
    else:
        _count_budget(state, events, ranking)


def _count_tax(state: GameState, events: list[Event], ranking: list[list[str]],
               voters: list[str]) -> None:
    if not ranking:
        winner = state.tax or data.FIRST_ROUND_TAX
        state.current["tax"]["carried_over"] = True
        _tax_decided(state, events, winner, "carried_over")
        return
    tied = ranking[0]
    if len(tied) == 1:
        _tax_decided(state, events, tied[0], "plurality")
        return
    deciders = [p.name for p in tie_order(state) if p.name in voters]
    _ask_tie_break(state, events, TieBreak("tax", list(tied), deciders))


def _ask_tie_break(state: GameState, events: list[Event], tie: TieBreak) -> None:
    state.phase = TIE_BREAK
    state.tie = tie
    events.append({"type": "tie_break_needed", "audience": PUBLIC, "kind": tie.kind,
                   "options": list(tie.options), "decider": tie.deciders[0]})


def _tax_decided(state: GameState, events: list[Event], winner: str, how: str) -> None:
    state.tax = winner
    state.tie = None
    state.current["tax"].update(winner=winner, decided_by=how)
    events.append({"type": "tax_decided", "audience": PUBLIC, "round": state.round,
                   "option": winner, "how": how})
    _pay(state, events)
    _open_vote(state, BUDGET_VOTE)


def _pay(state: GameState, events: list[Event]) -> None:
    """Getting paid and paying: income from the bank, then tax and cost of living."""
    for p in state.players:
        _move(state, events, BANK, account(p), income(state, p), "income")
    for p in state.players:
        tax = tax_due(state.tax, p.klass)
        cost = cost_of_living(state, p)
        if p.coins >= tax + cost:
            _move(state, events, account(p), TABLE, tax, "tax", option=state.tax)
            _move(state, events, account(p), BANK, cost, "cost_of_living")
            continue
        paid_tax = min(p.coins, tax)
        _move(state, events, account(p), TABLE, paid_tax, "tax", option=state.tax)
        _move(state, events, account(p), BANK, p.coins, "cost_of_living")
        _exclude(state, events, p, data.EXCLUSION_TENSION, "could_not_pay")
    state.current["revenue"] = state.pot
    events.append({"type": "revenue", "audience": PUBLIC, "round": state.round,
                   "coins": state.pot})


# -- tie-breaks


def _check_tie_break(state: GameState, action: Action) -> None:
    p = _known_player(state, action["player"])
    tie = state.tie
    if state.phase != TIE_BREAK or tie is None:
        raise InvalidAction(_("There is no tie to break."))
    if "kind" in action and action["kind"] != tie.kind:
        raise InvalidAction(_("The tie to break is in the {kind} vote."),
                            kind=KIND_WORDS.get(tie.kind, tie.kind))
    if p.name != tie.deciders[0]:
        raise InvalidAction(_("It is {decider}'s turn to break the tie, not {name}'s."),
                            decider=tie.deciders[0], name=p.name)
    choice = action["choice"]
    if choice is None:
        if tie.kind == "budget":
            raise InvalidAction(_("The lowest Income decides a budget tie and cannot pass."))
        return
    if choice not in tie.options:
        raise InvalidAction(_("{choice!r} is not one of the tied options ({options})."),
                            choice=choice, options=", ".join(tie.options))


def _tie_break(state: GameState, action: Action, events: list[Event]) -> None:
    tie = state.tie
    assert tie is not None
    decider, choice = action["player"], action["choice"]
    record = state.current.setdefault("tie_breaks", [])
    record.append({"kind": tie.kind, "options": list(tie.options), "player": decider,
                   "choice": choice})
    events.append({"type": "tie_break", "audience": PUBLIC, "kind": tie.kind,
                   "player": decider, "choice": choice, "options": list(tie.options)})
    if tie.kind == "tax":
        if choice is not None:
            _tax_decided(state, events, choice, "tie_break")
            return
        tie.deciders.pop(0)
        if tie.deciders:
            events.append({"type": "tie_break_needed", "audience": PUBLIC, "kind": "tax",
                           "options": list(tie.options), "decider": tie.deciders[0]})
            return
        drawn = _rng(state, f"tie:{state.round}").choice(sorted(tie.options))
        _tax_decided(state, events, drawn, "drawn")
        return
    tie.ranked.append(choice)
    tie.options.remove(choice)
    _continue_ranking(state, events, tie)


# -- budget


def _count_budget(state: GameState, events: list[Event], ranking: list[list[str]]) -> None:
    """Rank the services: the voted groups as counted, then the unvoted services lowest level
    first (equal levels form a group); the decider settles every group of two or more."""
    voted = {s for group in ranking for s in group}
    unvoted = sorted((s for s in data.SERVICES if s not in voted),
                     key=lambda s: state.services[s].level)
    groups: list[list[str]] = [list(g) for g in ranking]
    for i, s in enumerate(unvoted):
        if i and state.services[unvoted[i - 1]].level == state.services[s].level:
            groups[-1].append(s)
        else:
            groups.append([s])
    decider = tie_order(state)[0].name
    _continue_ranking(state, events, TieBreak("budget", [], [decider], [], groups))


def _continue_ranking(state: GameState, events: list[Event], tie: TieBreak) -> None:
    """Rank the services group by group, asking the decider wherever a group is tied."""
    if len(tie.options) == 1:
        tie.ranked.append(tie.options.pop())
    while not tie.options and tie.rest:
        group = tie.rest.pop(0)
        if len(group) == 1:
            tie.ranked.append(group[0])
        else:
            tie.options = list(group)
    if tie.options:
        _ask_tie_break(state, events, tie)
        return
    state.tie = None
    _split(state, events, tie.ranked)


def split_shares(revenue: int, ranking: list[str], levels: Mapping[str, int]
                 ) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """The 3-2-1 split: shares per service and each step (for a step-by-step reveal)."""
    shares = dict.fromkeys(ranking, 0)
    steps: list[dict[str, Any]] = []
    remaining, pass_no = revenue, 0
    while remaining > 0:
        pass_no += 1
        for place, size in enumerate(data.SPLIT_PASS):
            give = min(size, remaining)
            target = ranking[place]
            if levels[target] >= data.MAX_LEVEL:
                for k in (1, 2):
                    candidate = ranking[(place + k) % 3]
                    if levels[candidate] < data.MAX_LEVEL:
                        target = candidate
                        break
            shares[target] += give
            steps.append({"pass": pass_no, "place": place + 1, "service": ranking[place],
                          "to": target, "coins": give})
            remaining -= give
            if remaining == 0:
                break
    return shares, steps


def _split(state: GameState, events: list[Event], ranking: list[str]) -> None:
    levels = {s: v.level for s, v in state.services.items()}
    revenue = state.pot
    shares, steps = split_shares(revenue, ranking, levels)
    for s in ranking:
        _move(state, events, TABLE, fund_account(s), shares[s], "split")
    level_ups: list[dict[str, Any]] = []
    for s in ranking:
        service = state.services[s]
        while service.fund >= state.price and service.level < data.MAX_LEVEL:
            _move(state, events, fund_account(s), BANK, state.price, "level_up", service=s)
            service.level += 1
            level_ups.append({"service": s, "level": service.level})
    split = {"revenue": revenue, "ranking": list(ranking), "shares": shares, "steps": steps,
             "level_ups": level_ups}
    state.current["split"] = split
    events.append({"type": "split", "audience": PUBLIC, "round": state.round, **split})
    _end_round(state, events)


# -- end of round


def _end_round(state: GameState, events: list[Event]) -> None:
    state.phase = "end_of_round"
    levels = [s.level for s in state.services.values()]
    if all(level >= data.STRONG_SERVICES_LEVEL for level in levels):
        _tension(state, events, -1, "strong_services")
    if state.round >= 2:
        for name, service in state.services.items():
            if service.level == data.MIN_LEVEL:
                _tension(state, events, 1, "service_at_level_1", service=name)
    if state.round in data.OBSOLESCENCE_ROUNDS:
        for service in state.services.values():
            service.level = max(data.MIN_LEVEL, service.level - 1)
        state.current["obsolescence"] = True
        events.append({"type": "obsolescence", "audience": PUBLIC, "round": state.round})
    state.current["levels"] = {s: v.level for s, v in state.services.items()}
    state.current["funds"] = {s: v.fund for s, v in state.services.items()}
    state.current["tension_after"] = state.tension
    events.append({"type": "round_ended", "audience": PUBLIC, "round": state.round,
                   "levels": state.current["levels"], "tension": state.tension})
    if state.round == data.ROUNDS:
        state.phase = OVER
        events.append({"type": "final_count", "audience": PUBLIC, **scores(state)})
    else:
        _start_round(state, events, state.round + 1)


# -- the Midlife Crossroads


def midlife_deck(state: GameState) -> list[str]:
    rest = [c for c in data.MIDLIFE_CARDS if c not in state.midlife_pin]
    _rng(state, "midlife").shuffle(rest)
    return [*state.midlife_pin, *rest]


def _band(card: data.MidlifeCard, state: GameState) -> tuple[int, data.Outcome]:
    if card.measures == "country":
        total = levels_sum(state)
        if total <= data.COUNTRY_LOW_MAX:
            return total, card.low
        return total, card.high if total >= data.COUNTRY_HIGH_MIN else card.mid
    level = state.services[card.measures].level
    return level, card.low if level <= 2 else card.mid if level == 3 else card.high


def _lose(state: GameState, events: list[Event], p: Player, amount: int, reason: str,
          **params: Any) -> bool:
    """Take up to ``amount`` coins; returns True if the player could not pay in full."""
    short = p.coins < amount
    _move(state, events, account(p), BANK, min(amount, p.coins), reason, **params)
    return short


def _midlife(state: GameState, events: list[Event]) -> None:
    for p in state.players:
        _move(state, events, BANK, account(p), income(state, p), "income")
    deck = midlife_deck(state)
    draws: list[dict[str, Any]] = []
    state.current["midlife"] = draws
    moves: list[tuple[Player, int]] = []
    for p, card_id in zip(state.players, deck, strict=False):
        card = data.MIDLIFE_CARDS[card_id]
        level, outcome = _band(card, state)
        reason = f"midlife:{card_id}"
        token = False
        if outcome.gain:
            _move(state, events, BANK, account(p), outcome.gain, reason)
        if outcome.to_zero:
            _move(state, events, account(p), BANK, p.coins, reason)
        if outcome.loss == "all":
            token = p.coins == 0
            _move(state, events, account(p), BANK, p.coins, reason)
        elif outcome.loss == "half+2":
            _lose(state, events, p, math.ceil(p.coins / 2) + 2, reason)
        elif isinstance(outcome.loss, int) and outcome.loss:
            token = _lose(state, events, p, outcome.loss, reason) and outcome.token_if_short
        if outcome.budget:
            _move(state, events, BANK, TABLE, outcome.budget, "inheritance")
        draw = {"player": p.name, "role": p.role, "card": card_id, "measures": card.measures,
                "level": level, "outcome": outcome.text, "params": {"n": outcome.loss},
                "token": token, "move": outcome.move, "budget": outcome.budget}
        draws.append(draw)
        events.append({"type": "midlife_card", "audience": PUBLIC, "round": state.round,
                       **draw})
        if outcome.tension:
            _tension(state, events, outcome.tension, "weak_country", player=p.name,
                     role=p.role)
        if token:
            _exclude(state, events, p, data.MIDLIFE_EXCLUSION_TENSION, "midlife")
        if outcome.move:
            moves.append((p, outcome.move))
    changes: list[dict[str, Any]] = []
    state.current["class_changes"] = changes
    for p, move in moves:
        _change_class(state, events, p, move, changes)


def _change_class(state: GameState, events: list[Event], p: Player, move: int,
                  changes: list[dict[str, Any]]) -> None:
    klass = p.klass
    assert klass is not None
    target = (data.CLASS_UP if move > 0 else data.CLASS_DOWN).get(klass)
    change: dict[str, Any] = {"player": p.name, "from_role": p.role, "from_class": klass,
                              "move": move}
    if target is None:
        if move > 0:
            _move(state, events, BANK, account(p), data.CLASS_UP_FROM_UPPER_GAIN,
                  "class_change")
            change["result"] = "top_bonus"
        else:
            short = _lose(state, events, p, data.CLASS_DOWN_FROM_WORKING_LOSS, "class_change")
            change["result"] = "bottom_token" if short else "bottom_loss"
    elif target in state.spares_taken:
        change["result"] = "no_spare"
    else:
        state.spares_taken.append(target)
        p.role = data.SPARE_ROLE[target]
        change.update(result="changed", to_role=p.role, to_class=target)
    changes.append(change)
    events.append({"type": "class_change", "audience": PUBLIC, "round": state.round, **change})
    if change["result"] == "bottom_token":
        _exclude(state, events, p, data.MIDLIFE_EXCLUSION_TENSION, "midlife")


# -- the final count


def goal_reached(p: Player) -> str:
    role = data.ROLES[p.role]
    if p.coins >= role.thrive:
        return "thrive"
    if p.coins >= role.live_well:
        return "live-well"
    if p.coins >= role.get_by:
        return "get-by"
    return "falls-short"


def score_breakdown(state: GameState, p: Player) -> dict[str, int]:
    total_levels = levels_sum(state)
    tension = state.tension or 0
    penalty = next((pts for lo, hi, pts in data.TENSION_PENALTIES if lo <= tension <= hi), 0)
    return {
        "dividend": data.POINTS_PER_LEVEL * total_levels,
        "legacy": data.LEGACY_POINTS if total_levels >= data.LEGACY_LEVELS else 0,
        "life_goal": data.GOAL_POINTS[goal_reached(p)],
        "exclusions": data.EXCLUSION_POINTS * p.exclusions,
        "tension": penalty,
    }


def is_over(state: GameState) -> bool:
    return state.phase == OVER


def scores(state: GameState) -> dict[str, Any]:
    """The final count: every player's points, and the winners (none if the State failed)."""
    players = {}
    for p in state.players:
        if p.role is None:
            continue
        breakdown = score_breakdown(state, p)
        players[p.name] = {"score": sum(breakdown.values()), "breakdown": breakdown,
                           "goal": goal_reached(p), "coins": p.coins, "pact": p.pact,
                           "exclusions": p.exclusions, "role": p.role, "class": p.klass}
    best = max((v["score"] for v in players.values()), default=None)
    winners = [] if state.failed or best is None else [
        n for n, v in players.items() if v["score"] == best]
    total_levels = levels_sum(state)
    return {"failed": state.failed, "legacy": total_levels >= data.LEGACY_LEVELS,
            "levels_sum": total_levels, "tension": state.tension, "winners": winners,
            "players": players, "pact_total": state.pact_total}


# --------------------------------------------------------------------------- tables

_HANDLERS = {  # action type: (required fields, optional fields, validator)
    "pact": ({"player", "coins"}, set(), _check_pact),
    "ballot": ({"player"}, {"kind", "decision"}, _check_ballot),
    "count": (set(), {"kind", "decision", "tally", "outcome"}, _check_count),
    "tie_break": ({"player", "choice"}, {"kind"}, _check_tie_break),
}
_PERFORM = {"pact": _pact, "ballot": _ballot, "count": _count, "tie_break": _tie_break}
