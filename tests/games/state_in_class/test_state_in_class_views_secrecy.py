"""What each audience may see (docs/secrecy.md) and what each seat may do.

Coins and pact contributions are secret until the final count; a vote is secret and
receipt-free: nothing links a player to an option, only "has voted" exists.
"""

import re

import pytest

from games.core import InvalidAction
from games.state_in_class import rules
from games.state_in_class.audiences import legal_actions, player_view, public_view
from games.state_in_class.state import BUDGET_VOTE, OVER, PACT, TAX_VOTE, TIE_BREAK, to_dict
from tests.games.state_in_class.state_in_class_support import (
    advance_to,
    as_json,
    ballots,
    give,
    new_table,
    play_round,
    started,
    tax_vote,
    vote,
)

SENTINEL = 700_001  # wallets set to SENTINEL + 7919 * seat: numbers no game can produce


def spy_copy(state):
    """A copy whose wallets (and pact contributions) are unmistakable numbers."""
    spy = state.clone()
    for p in spy.players:
        p.coins = SENTINEL + 7919 * p.seat
        if p.pact is not None:
            p.pact = SENTINEL + 7919 * p.seat + 1
    return spy


def secrets_of(p):
    return {str(SENTINEL + 7919 * p.seat), str(SENTINEL + 7919 * p.seat + 1)}


def states_in_every_phase():
    pact = new_table()
    rules.step(pact, {"type": "pact", "player": "Ana", "coins": 2})
    tax = started()
    ballots(tax, "tax", ["Ana", "Ben"])
    tie = started()
    vote(tie, "tax", {"A": 4, "D": 4})
    budget = started()
    tax_vote(budget, "C")
    budget_tie = started()
    tax_vote(budget_tie, "C")
    vote(budget_tie, "budget", {"health": 2, "shield": 2})
    later = advance_to(started(), 6, BUDGET_VOTE)
    return {"pact": pact, "tax": tax, "tie": tie, "budget": budget, "budget_tie": budget_tie,
            "round 6": later}


PHASE_STATES = states_in_every_phase()


@pytest.mark.parametrize("label", list(PHASE_STATES))
def test_the_projector_never_shows_a_wallet_or_a_pact_contribution(label):
    spy = spy_copy(PHASE_STATES[label])
    text = as_json(public_view(spy))
    for p in spy.players:
        assert not secrets_of(p) & set(_numbers(text)), p.name


@pytest.mark.parametrize("label", list(PHASE_STATES))
def test_a_phone_shows_its_own_wallet_and_nobody_elses(label):
    spy = spy_copy(PHASE_STATES[label])
    for me in spy.players:
        numbers = set(_numbers(as_json(player_view(spy, me.name))))
        assert str(me.coins) in numbers
        for other in spy.players:
            if other is not me:
                assert not secrets_of(other) & numbers, (me.name, other.name)


def _numbers(text):
    return re.findall(r"\d+", text)


def test_a_phone_shows_only_its_own_statement():
    state = started()
    tax_vote(state, "C")
    view = player_view(state, "Cai")
    assert view["me"]["statement"] == state.player("Cai").statement
    assert "statement" not in as_json(public_view(state))


def test_public_players_list_holds_only_public_facts():
    state = started()
    assert set(public_view(state)["players"][0]) == {"name", "seat", "role", "class",
                                                     "exclusions"}


def test_every_event_for_the_projector_keeps_wallets_private():
    state = started()
    events = tax_vote(state, "C") + vote(state, "budget", {"health": 3, "education": 2,
                                                            "shield": 1})
    for e in events:
        if e["type"] == "transfer" and e["audience"] == "public":
            assert not e["from"].startswith("player:") and not e["to"].startswith("player:")
        if e["type"] == "transfer" and e["audience"] != "public":
            assert f"player:{e['audience']}" in (e["from"], e["to"])


# --------------------------------------------------------------------------- votes


def test_nothing_links_a_player_to_an_option():
    state = started()
    events = ballots(state, "tax", ["Ana", "Ben", "Cai"])
    events += rules.step(state, {"type": "count", "kind": "tax", "tally": {"B": 2, "D": 1}})
    for e in events:
        if "player" in e:
            assert not {"option", "choice", "vote"} & set(e), e
    dump = as_json(to_dict(state))
    for key in ('"vote"', '"votes"', '"ballots"', '"voted_for"'):
        assert key not in dump
    assert state.current["tax"] == {"tally": {"A": 0, "B": 2, "C": 0, "D": 1}, "voters": 3,
                                    "winner": "B", "decided_by": "plurality"}


def test_a_phone_knows_only_that_its_player_has_voted():
    state = started()
    ballots(state, "tax", ["Ana"])
    me = player_view(state, "Ana")["me"]
    assert me["has_voted"] is True
    assert not {"vote", "option", "choice", "ballot"} & set(me)


def test_who_has_voted_is_not_shown_to_others_only_how_many():
    state = started()
    before = player_view(state, "Ben")
    ballots(state, "tax", ["Ana"])
    after = player_view(state, "Ben")
    assert after["vote"] == {"kind": "tax", "voted": 1, "of": 8}
    after["vote"] = before["vote"]
    assert after == before
    assert public_view(state)["vote"] == {"kind": "tax", "voted": 1, "of": 8}


def test_the_tally_is_shown_only_once_the_bag_is_emptied():
    state = started()
    ballots(state, "tax", state.names)
    assert "tally" not in as_json(public_view(state)["history"][-1])
    rules.step(state, {"type": "count", "kind": "tax", "tally": {"C": 8}})
    assert public_view(state)["history"][-1]["tax"]["tally"] == {"A": 0, "B": 0, "C": 8, "D": 0}


def test_an_unknown_seat_has_no_view():
    with pytest.raises(InvalidAction):
        player_view(started(), "Zoe")


# --------------------------------------------------------------------------- legal actions


def test_legal_actions_in_the_pact():
    state = new_table()
    assert state.phase == PACT
    assert legal_actions(state, "Ana") == [
        {"type": "pact", "player": "Ana", "coins": c} for c in range(4)]
    assert legal_actions(state, None) == []
    rules.step(state, {"type": "pact", "player": "Ana", "coins": 0})
    assert legal_actions(state, "Ana") == []


@pytest.mark.parametrize(("kind", "phase"), [("tax", TAX_VOTE), ("budget", BUDGET_VOTE)])
def test_legal_actions_in_a_vote(kind, phase):
    state = started()
    if kind == "budget":
        tax_vote(state, "C")
    assert state.phase == phase
    assert legal_actions(state, "Ana") == [{"type": "ballot", "kind": kind, "player": "Ana"}]
    assert legal_actions(state, None) == [{"type": "count", "kind": kind}]
    ballots(state, kind, ["Ana"])
    assert legal_actions(state, "Ana") == []
    assert legal_actions(state, None) == [{"type": "count", "kind": kind}]


def test_legal_actions_in_a_tax_tie_break_include_passing():
    state = started()
    vote(state, "tax", {"A": 4, "D": 4})
    assert state.phase == TIE_BREAK
    decider = state.tie.deciders[0]
    assert legal_actions(state, decider) == [
        {"type": "tie_break", "player": decider, "choice": c} for c in ("A", "D", None)]
    assert all(legal_actions(state, n) == [] for n in state.names if n != decider)
    assert legal_actions(state, None) == []
    assert player_view(state, decider)["me"]["decides_tie"] is True
    assert public_view(state)["tie_break"] == {"kind": "tax", "options": ["A", "D"],
                                               "decider": decider, "place": 1}


def test_legal_actions_in_a_budget_tie_break_exclude_passing():
    state = PHASE_STATES["budget_tie"].clone()
    decider = state.tie.deciders[0]
    assert legal_actions(state, decider) == [
        {"type": "tie_break", "player": decider, "choice": c} for c in ("health", "shield")]


def test_every_legal_action_is_accepted():
    for state in PHASE_STATES.values():
        for seat in [*state.names, None]:
            for action in legal_actions(state, seat):
                if action["type"] == "count":
                    continue  # the teacher's count needs the tally from the bag
                rules.apply(state, action)  # must not raise


def test_no_legal_actions_once_the_game_is_over():
    state = started()
    while state.phase != OVER:
        give(state, 40)
        state.tension = 1
        play_round(state)
    assert all(legal_actions(state, n) == [] for n in [*state.names, None])


# --------------------------------------------------------------------------- detached outputs


def _scribble(obj):
    """Change every list and dict nested in ``obj`` (as a careless caller might)."""
    if isinstance(obj, dict):
        for value in obj.values():
            _scribble(value)
        obj["scribbled"] = True
    elif isinstance(obj, list):
        for value in obj:
            _scribble(value)
        obj.append("scribbled")


def test_changing_a_view_never_changes_the_game():
    state = advance_to(started(), 5)
    before = to_dict(state)
    _scribble(public_view(state))
    for name in state.names:
        _scribble(player_view(state, name))
    assert to_dict(state) == before


def test_changing_the_events_of_an_action_never_changes_the_new_state():
    state = started()
    tax_vote(state, "C")
    for n in state.names[:6]:
        rules.step(state, {"type": "ballot", "kind": "budget", "player": n})
    new, events = rules.apply(state, {"type": "count", "kind": "budget",
                                      "tally": {"health": 3, "education": 2, "shield": 1}})
    after = to_dict(new)
    _scribble(events)
    assert to_dict(new) == after
