"""The black-market line of our Event cards, settled at the start of Evaluation: a lone
smuggler is paid three times the black-market price; two or more smugglers cost Axia 8 steps."""

from games.crisis import data
from tests.games.crisis.crisis_support import act, events_of, staged

NO_NEXT_EVENT = {"events_order": {"green": [None], "yellow": [None], "red": [None]}}


def exporting(event="union-praise", **players):
    """Three players on Exports (Blue, Red, Green), status 31, goal 15 (everyone at 15 VP, so
    Evaluation itself moves nothing); round 2 starts with no Event."""
    return staged(3, phase="exports", exports=["Blue", "Red", "Green"], event=event,
                  status=31, goal=15, players=players, pins=NO_NEXT_EVENT)


def pass_all(state):
    """Everyone still on Exports passes, in the rotation's order (Evaluation follows)."""
    events = []
    while state.round == 1:
        events += act(state, type="pass", player=state.exports[state.turn])
    return events


def test_every_event_card_carries_the_black_market_line_of_our_edition():
    assert all(data.SMUGGLING in c.effects for c in data.EVENT_CARDS.values())
    assert len(data.EVENT_CARDS) == 30 and data.SMUGGLING_SOURCE == data.OURS


def test_a_lone_black_market_seller_is_paid_three_times_the_price_at_evaluation():
    state = exporting(Green={"warehouse": {"minerals": 3}, "credits": 20})
    act(state, type="pass", player="Blue")
    act(state, type="pass", player="Red")
    act(state, type="black_market", player="Green", resource="minerals", amount=3)
    assert state.player("Green").credits == 20 + 12  # the printed double price
    events = act(state, type="pass", player="Green")
    premium = [e for e in events_of(events, "transfer") if e.get("premium")]
    assert [(e["to"], e["amount"], e["reason"]) for e in premium] == [
        ("player:Green", 24, "black-market")]
    assert state.player("Green").credits == 20 + 36
    assert state.round == 2 and state.history[0]["status"] == 31  # no crackdown
    assert state.history[0]["black_market_line"] == {"sellers": ["Green"], "premium": 24,
                                                     "crackdown": 0}


def test_the_premium_follows_the_rounds_black_market_price():
    # Export slump: 1 credit less per exported token, so Minerals fetch 2 on the black market.
    state = exporting(event="export-slump", Blue={"warehouse": {"minerals": 3}, "credits": 0})
    act(state, type="black_market", player="Blue", resource="minerals", amount=3)
    pass_all(state)
    assert state.player("Blue").credits == 6 + 12


def test_two_black_market_sellers_get_no_premium_and_cost_axia_8_steps():
    state = exporting(Blue={"warehouse": {"food": 2}, "credits": 0},
                      Green={"warehouse": {"minerals": 3}, "credits": 0})
    act(state, type="black_market", player="Blue", resource="food", amount=2)
    act(state, type="pass", player="Red")
    act(state, type="black_market", player="Green", resource="minerals", amount=3)
    events = pass_all(state)
    crackdown = [e for e in events_of(events, "status") if e["reason"] == "black-market"]
    assert [e["delta"] for e in crackdown] == [-8]
    assert (state.player("Blue").credits, state.player("Green").credits) == (8, 12)
    assert state.history[0]["status"] == 31 - 8
    assert state.history[0]["black_market_line"]["crackdown"] == 8


def test_honest_exports_and_a_round_without_event_leave_the_line_silent():
    honest = exporting(Blue={"warehouse": {"food": 4}, "credits": 0})
    act(honest, type="export", player="Blue", contract="food-4", amount=4)
    events = pass_all(honest)
    assert not [e for e in events_of(events, "status") if e["reason"] == "black-market"]
    assert honest.player("Blue").credits == 8 and honest.history[0]["status"] == 31 + 4
    no_event = exporting(event=None, Blue={"warehouse": {"food": 4}, "credits": 0})
    act(no_event, type="black_market", player="Blue", resource="food", amount=4)
    pass_all(no_event)
    assert no_event.player("Blue").credits == 16
