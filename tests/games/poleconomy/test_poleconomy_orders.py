"""Poleconomy orders: the grammar's plain-word errors, conditions and the sealed auctions."""

import pytest

from games.core import InvalidAction
from games.poleconomy import data
from games.poleconomy.rules import apply, step
from games.poleconomy.state import to_dict
from tests.games.poleconomy.poleconomy_support import play, staged

OPPORTUNITY = next(s for s, sq in data.SQUARES.items() if sq.opportunity)




@pytest.mark.parametrize("orders, reason", [
    ({"bids": [{"firm": "c99", "amount": 3}]}, "must name a firm"),
    ({"bids": [{"firm": "c1", "amount": 0}]}, "at least \\$1"),
    ({"move": {"corner": "beach"}}, "must name a corner"),
    ({"move": {"roll": True, "track": "middle"}}, "inner"),
    ({"move": {"fly": True}}, "corner or roll"),
    ({"move": {"corner": "takeover", "act": True}}, "which Company"),
    ({"opportunity": OPPORTUNITY}, "another Opportunity"),
    ({"send_to": "a1"}, "must name a Company"),
    ({"sell": {"life": -1}}, "whole number"),
    ({"consent": "all"}, "secret ballot"),
    ({"move": {"roll": True, "if": [{"won": "c1", "cash_below": 3}]}}, "one condition"),
    ({"teleport": 1}, "unknown keys"),
])
def test_bad_orders_are_refused_with_a_plain_reason_and_change_nothing(orders, reason):
    state = staged()
    before = to_dict(state)
    with pytest.raises(InvalidAction, match=reason):
        apply(state, {"type": "orders", "player": "Ben", "orders": orders})
    assert to_dict(state) == before


def test_only_the_pm_gives_pm_orders_and_only_ministers_from_the_government():
    state = staged(government=["Ana", "Ben"])
    with pytest.raises(InvalidAction, match="Only the Prime Minister"):
        step(state, {"type": "orders", "player": "Ben", "orders": {"pm": {"reverse": True}}})
    with pytest.raises(InvalidAction, match="not a member of the Government"):
        step(state, {"type": "orders", "player": "Ana", "orders": {"pm": {"appoint": ["Cai"]}}})


def test_orders_are_sent_once_per_round():
    state = staged()
    step(state, {"type": "orders", "player": "Ben", "orders": None})
    with pytest.raises(InvalidAction, match="already sent"):
        step(state, {"type": "orders", "player": "Ben", "orders": None})


def test_the_highest_sealed_bid_wins_and_pays_its_own_bid_to_the_bank():
    state = staged(auction=["c1", "a1"])
    events = play(state, Ana={"bids": [{"firm": "c1", "amount": 12}]},
                  Ben={"bids": [{"firm": "c1", "amount": 15}, {"firm": "a1", "amount": 2}]})
    assert state.owners == {"c1": "Ben", "a1": "Ben"}
    assert state.player("Ben").cash == 30 - 17
    auctions = [e for e in events if e["type"] == "auction"]
    assert [(e["firm"], e["winner"], e["price"]) for e in auctions] == [
        ("c1", "Ben", 15), ("a1", "Ben", 2)]


def test_a_tie_goes_to_the_bidder_earlier_in_the_movement_order():
    state = staged(auction=["c1"], first="Ben")
    play(state, Ana={"bids": [{"firm": "c1", "amount": 9}]},
         Cai={"bids": [{"firm": "c1", "amount": 9}]})
    assert state.owners == {"c1": "Cai"}  # order Ben, Cai, Ana


def test_a_bid_above_the_bidders_cash_does_not_count():
    state = staged(auction=["c1"], cash={"Ana": 5})
    play(state, Ana={"bids": [{"firm": "c1", "amount": 50}]},
         Ben={"bids": [{"firm": "c1", "amount": 4}]})
    assert state.owners == {"c1": "Ben"}


def test_bids_can_depend_on_earlier_auctions():
    state = staged(auction=["c1", "c2"])
    play(state, Ana={"bids": [{"firm": "c1", "amount": 10},
                              {"firm": "c2", "amount": 10, "if": [{"lost": "c1"}]}]},
         Ben={"bids": [{"firm": "c1", "amount": 11}]})
    assert state.owners == {"c1": "Ben", "c2": "Ana"}


def test_an_auction_with_no_valid_bid_leaves_the_firm_unsold():
    state = staged(auction=["c1"])
    play(state)
    assert "c1" not in state.owners and state.auction == []


def test_the_first_move_whose_conditions_hold_is_made_else_the_nmr_move():
    state = staged(auction=["c1"], positions={"Ben": "takeover"})
    play(state, Ana={"bids": [{"firm": "c1", "amount": 10}],
                     "move": [{"corner": "bonds", "if": [{"won": "c1"}]},
                              {"corner": "takeover"}]},
         Ben={"move": [{"corner": "bonds", "if": [{"cash_at_least": 999}]}]})
    assert state.player("Ana").position == "bonds"
    assert state.player("Ben").position == "takeover"


def test_a_square_by_square_decision_overrides_the_general_buying_rule():
    target = data.ahead("start", 3)
    state = staged(dice=[(1, 2)])
    play(state, Ana={"move": {"roll": True}, "buy": {"companies": True},
                     "at": {target: {"buy": False}}})
    assert state.owners == {} and state.auction == [target]


def test_leaving_a_corner_the_player_chooses_the_track():
    state = staged(dice=[(1, 1)], positions={"Ana": "business-insurance"})
    play(state, Ana={"move": {"roll": True, "track": "outer"}})
    assert state.player("Ana").position == data.LOOPS["outer"][2]
    assert state.player("Ana").track == "outer"


def test_a_bid_must_be_for_a_firm_up_for_auction_this_round():
    state = staged(auction=["c1"])
    with pytest.raises(InvalidAction, match="not up for auction"):
        step(state, {"type": "orders", "player": "Ben",
                     "orders": {"bids": [{"firm": "c2", "amount": 3}]}})


def test_orders_without_a_move_make_the_nmr_move():
    state = staged(positions={"Ben": "start"})
    play(state, Ben={"buy": {"companies": True}})
    assert state.player("Ben").position == "life-insurance"
