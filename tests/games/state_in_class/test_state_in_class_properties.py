"""Properties of every game: random bot games and random streams of arbitrary actions.

- coins are conserved: players + table + funds + bank (rebuilt from the transfer events) = 0;
- every transfer moves a positive amount for a named reason;
- levels stay in 1..5 and Tension in 1..10 (None only during the pact);
- replaying the record reproduces the live game; snapshots round-trip (also through JSON);
- an illegal action raises InvalidAction and changes nothing;
- before the end, no phone shows another seat's coins.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import InvalidAction
from games.registry import replay
from games.state_in_class import data, rules
from games.state_in_class.audiences import legal_actions, player_view, public_view, summary
from games.state_in_class.bots import RandomPolicy
from games.state_in_class.simulate import bot_names, next_decisions, play
from games.state_in_class.state import PHASES, TIE_BREAK, from_dict, to_dict

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SENTINEL = 900_001


class Ledger:
    """Every account rebuilt from the transfer events alone."""

    def __init__(self, state):
        self.balance: dict[str, int] = defaultdict(int)
        for p in state.players:  # new_game's starting coins (its events are not returned)
            self.balance["bank"] -= data.START_COINS
            self.balance[f"player:{p.name}"] += data.START_COINS

    def add(self, events):
        for e in events:
            if e["type"] != "transfer":
                continue
            assert isinstance(e["amount"], int) and e["amount"] > 0, e
            assert isinstance(e["reason"], str) and e["reason"], e
            self.balance[e["from"]] -= e["amount"]
            self.balance[e["to"]] += e["amount"]

    def check(self, state):
        assert sum(self.balance.values()) == 0
        for p in state.players:
            assert self.balance[f"player:{p.name}"] == p.coins, p.name
            assert p.coins >= 0
        assert self.balance["table"] == state.pot
        for name, service in state.services.items():
            assert self.balance[f"fund:{name}"] == service.fund
        in_state = (sum(p.coins for p in state.players) + state.pot
                    + sum(s.fund for s in state.services.values()) + self.balance["pact"])
        assert in_state + self.balance["bank"] == 0
        assert set(self.balance) <= {"bank", "table", "pact",
                                     *(f"fund:{s}" for s in data.SERVICES),
                                     *(f"player:{p.name}" for p in state.players)}


def check_invariants(state):
    assert state.phase in PHASES
    for service in state.services.values():
        assert data.MIN_LEVEL <= service.level <= data.MAX_LEVEL
        assert service.fund >= 0
    if state.round == 0:
        assert state.tension is None
    else:
        assert 1 <= state.tension <= 10
        assert state.failed == (state.tension == 10)
    assert 0 <= state.round <= 8
    assert state.pot >= 0
    assert all(p.exclusions >= 0 for p in state.players)


def check_no_foreign_wallets(state):
    if state.phase == "over":
        return
    spy = state.clone()
    for p in spy.players:
        p.coins = SENTINEL + 7919 * p.seat
    for me in spy.players:
        text = json.dumps(player_view(spy, me.name))
        for other in spy.players:
            if other is not me:
                assert str(other.coins) not in text, (me.name, other.name)
    text = json.dumps(public_view(spy))
    assert all(str(p.coins) not in text for p in spy.players)


def random_bot_game(n, seed, bot_seed):
    """A whole game of random bots, stepping one decision at a time."""
    state = rules.new_game({"players": bot_names(n)}, seed)
    policies = [RandomPolicy() for _ in range(n)]
    rng = random.Random(bot_seed)
    ledger = Ledger(state)
    record, phases = [], []
    while state.phase != "over":
        for action in next_decisions(state, policies, rng):
            ledger.add(rules.step(state, action))
            record.append(action)
            ledger.check(state)
            check_invariants(state)
            if (state.round, state.phase) not in phases:
                phases.append((state.round, state.phase))
                if len(phases) % 3 == 0:
                    check_no_foreign_wallets(state)
    return state, record


@SETTINGS
@given(n=st.sampled_from([6, 7, 8]), seed=st.integers(0, 2**31), bot_seed=st.integers(0, 2**31))
def test_random_bot_games_keep_every_invariant_and_replay_exactly(n, seed, bot_seed):
    state, record = random_bot_game(n, seed, bot_seed)
    assert rules.is_over(state)
    assert state.failed or state.round == 8
    replayed = replay({"game": "state-in-class", "version": 1, "seed": seed,
                       "config": {"players": bot_names(n)}, "actions": record})
    assert to_dict(replayed.state) == to_dict(state)
    assert summary(replayed.state) == summary(state)
    snapshot = to_dict(state)
    assert to_dict(from_dict(snapshot)) == snapshot
    assert to_dict(from_dict(json.loads(json.dumps(snapshot)))) == snapshot


@SETTINGS
@given(n=st.sampled_from([6, 7, 8]), seed=st.integers(0, 2**31), cut=st.floats(0, 1))
def test_a_snapshot_taken_mid_game_continues_exactly_like_the_live_game(n, seed, cut):
    policies = [RandomPolicy() for _ in range(n)]
    final, record = play(policies, seed)
    k = int(cut * len(record))
    head = replay({"game": "state-in-class", "seed": seed, "config": {"players": bot_names(n)},
                   "actions": record[:k]}).state
    restored = from_dict(json.loads(json.dumps(to_dict(head))))
    assert to_dict(restored) == to_dict(head)
    rules.replay_actions(restored, record[k:])
    assert to_dict(restored) == to_dict(final)


# --------------------------------------------------------------------------- arbitrary actions

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay", "Gus", "Hal"]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.floats(allow_nan=False),
                 st.text(max_size=6), st.lists(st.integers(), max_size=2),
                 st.sampled_from(["A", "B", "C", "D", "E", "health", "education", "shield",
                                  "tax", "budget", "Zoe", "Ana", "Hal"]))


def pick(draw, items):
    """One of ``items`` (an index draw: cheaper than a new sampled_from for each list)."""
    return items[draw(st.integers(0, len(items) - 1))]


def a_legal_count(draw, state):
    kind = {"tax_vote": "tax", "budget_vote": "budget"}[state.phase]
    options = data.TAX_OPTIONS if kind == "tax" else data.SERVICES
    tally: dict[str, int] = {}
    for _ in state.receipts:
        option = pick(draw, options)
        tally[option] = tally.get(option, 0) + 1
    return {"type": "count", "kind": kind, "tally": tally}


def an_action(draw, state):
    """Mostly a decision some seat (or the teacher) may take now; sometimes something broken.
    Returns (action, whether it is one of the legal actions)."""
    if draw(st.integers(0, 9)) <= 6:
        legal = [a for seat in [*state.names, None] for a in legal_actions(state, seat)]
        if legal:
            action = dict(pick(draw, legal))
            return (a_legal_count(draw, state) if action["type"] == "count" else action), True
    return a_broken_action(draw, state), False


def a_template(draw, state):
    n = len(state.receipts)
    return pick(draw, [
        lambda: {"type": "pact", "player": pick(draw, NAMES), "coins": 1},
        lambda: {"type": "ballot", "kind": "tax", "player": pick(draw, NAMES)},
        lambda: {"type": "ballot", "kind": "budget", "player": pick(draw, NAMES)},
        lambda: {"type": "count", "kind": "tax", "tally": {"A": n}},
        lambda: {"type": "count", "kind": "budget", "tally": {"health": n}},
        lambda: {"type": "tie_break", "player": pick(draw, NAMES), "choice": "A"},
    ])()


def a_broken_action(draw, state):
    if draw(st.integers(0, 2)):
        # A plausible action with one field spoiled (or an extra one).
        action = a_template(draw, state)
        action[pick(draw, [*action, "extra"])] = draw(JUNK)
        return action
    if draw(st.booleans()):
        return draw(st.dictionaries(st.sampled_from(["type", "player", "kind", "coins", "tally",
                                                     "choice"]), JUNK, max_size=4))
    return draw(JUNK)


@SETTINGS
@given(st.data())
def test_arbitrary_actions_either_apply_cleanly_or_change_nothing(data_):
    n = data_.draw(st.sampled_from([6, 7, 8]), label="players")
    seed = data_.draw(st.integers(0, 2**31), label="seed")
    state = rules.new_game({"players": NAMES[:n]}, seed)
    ledger = Ledger(state)
    record, compared = [], 0
    for _ in range(data_.draw(st.integers(1, 100), label="length")):
        if state.phase == "over":
            break
        action, legal = an_action(data_.draw, state)
        # Dataclass equality is the comparison of to_dict (asdict) without building the dicts:
        # used on every action; the first few rejected ones also compare to_dict itself.
        before = state.clone()
        try:
            new, events = rules.apply(state, action)
        except InvalidAction as exc:
            assert not legal, f"a legal action was rejected: {action} ({exc})"
            assert str(exc)  # a readable reason
            assert state == before
            probe = state.clone()  # step validates completely before changing anything
            with pytest.raises(InvalidAction):
                rules.step(probe, action)
            assert probe == before
            if compared < 3:
                compared += 1
                assert to_dict(state) == to_dict(before) == to_dict(probe)
            continue
        assert state == before  # apply never changes the state it was given
        state = new
        record.append(action)
        ledger.add(events)
        ledger.check(state)
        check_invariants(state)
    if state.phase == TIE_BREAK:
        assert state.tie is not None and state.tie.deciders
    replayed = replay({"game": "state-in-class", "seed": seed,
                       "config": {"players": NAMES[:n]}, "actions": record})
    assert to_dict(replayed.state) == to_dict(state)
    check_no_foreign_wallets(state)
