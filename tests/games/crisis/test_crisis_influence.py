"""Influence cards (our edition): one per player per round, their effects, their checks."""

import pytest

from games.core import InvalidAction
from games.crisis import data
from tests.games.crisis.crisis_support import act, staged


def holding(card, **blue):
    return staged(2, phase="planning", event="union-praise",
                  players={"Blue": {"hand": [card, "tax-break"], **blue}})


def play(state, card, **extra):
    return act(state, type="influence", player="Blue", card=card, **extra)


def test_the_deck_has_28_cards_of_our_edition():
    assert len(data.INFLUENCE_DECK) == 28
    assert all(c.source == "ours" for c in data.INFLUENCE.values())


def test_only_one_influence_card_per_player_per_round():
    state = holding("energy-deal")
    play(state, "energy-deal")
    with pytest.raises(InvalidAction, match="already played"):
        play(state, "tax-break")
    assert state.influence_discard == ["energy-deal"]


def test_a_card_must_be_in_the_hand():
    state = holding("energy-deal")
    with pytest.raises(InvalidAction, match="do not hold"):
        play(state, "bad-press", target="Red")


def test_each_card_does_what_it_says():
    cases = [
        ("tax-break", {}, {}, lambda b, r: b.credits == 22 + 5),
        ("friends-in-government", {}, {}, lambda b, r: b.vp == 17),
        ("energy-deal", {}, {}, lambda b, r: b.warehouse["energy"] == 3),
        ("smuggled-goods", {"choice": "chemicals"}, {}, lambda b, r: b.warehouse["chemicals"] == 1),
        ("headhunter", {"choice": "banker"}, {}, lambda b, r: b.employees == ["FB-1"]),
        ("soft-loan", {}, {}, lambda b, r: (b.loans, b.credits, b.vp) == (1, 32, 15)),
        ("debt-relief", {}, {"loans": 2}, lambda b, r: (b.loans, b.credits) == (1, 17)),
        ("clean-record", {}, {"penalty": 3}, lambda b, r: b.penalty == 1),
        ("tax-audit", {"target": "Red"}, {}, lambda b, r: r.credits == 24 - 4),
        ("bad-press", {"target": "Red"}, {}, lambda b, r: r.vp == 13),
    ]
    for card, extra, blue, check in cases:
        state = holding(card, **blue)
        play(state, card, **extra)
        assert check(state.player("Blue"), state.player("Red")), card


def test_targets_and_choices_are_checked():
    state = holding("bad-press")
    with pytest.raises(InvalidAction, match="needs a rival"):
        play(state, "bad-press", target="Blue")
    with pytest.raises(InvalidAction, match="does not name a rival"):
        play(state, "tax-break", target="Red")
    smuggler = holding("smuggled-goods")
    with pytest.raises(InvalidAction, match="Choose Food"):
        play(smuggler, "smuggled-goods", choice="machines")


def test_a_soft_loan_respects_the_four_loan_limit():
    state = holding("soft-loan", loans=4)
    with pytest.raises(InvalidAction, match="4 loans"):
        play(state, "soft-loan")


def test_an_empty_influence_deck_is_rebuilt_from_the_discards():
    deck = list(data.INFLUENCE_DECK)
    state = staged(2, phase="planning", event="union-praise",
                   players={"Blue": {"hand": deck[1:]}, "Red": {"hand": [deck[0]]}})
    act(state, type="influence", player="Red", card=deck[0])
    assert state.influence_deck == [] and state.influence_discard == [deck[0]]
    act(state, type="place", player="Blue", space="initiative")
    for name in ["Red", "Blue"] * 3 + ["Red"]:
        act(state, type="place", player=name, space="government-subsidy")
    assert state.player("Blue").hand[-1] == deck[0] and state.reshuffles == 1
