"""4.14 Exports: the rulebook's example, contracts, the black market and the rotation."""

import pytest

from games.core import InvalidAction
from games.crisis import decisions
from games.crisis.state import EXPORTS
from tests.games.crisis.crisis_support import act, staged

MARKET = ["food-4", "chemicals-3", "minerals-6", "food-6", None, None, None, None,
          "food-8", None, None, None]


def exporting(**players):
    return staged(3, phase="exports", exports=["Blue", "Red", "Green"], event="union-praise",
                  board={"contracts": list(MARKET)}, players=players)


def test_the_rulebooks_exports_example():
    state = exporting(Blue={"warehouse": {"food": 6}}, Red={"warehouse": {"chemicals": 2}},
                      Green={"warehouse": {"minerals": 3}})
    blue, red, green = (state.player(n) for n in ("Blue", "Red", "Green"))
    start = {p.name: (p.vp, p.credits) for p in (blue, red, green)}

    def gained(p):
        return (p.vp - start[p.name][0], p.credits - start[p.name][1])

    act(state, type="export", player="Blue", contract="food-4", amount=4)
    assert gained(blue) == (4, 8)
    act(state, type="export", player="Red", contract="chemicals-3", amount=2)
    assert gained(red) == (4, 6)
    act(state, type="black_market", player="Green", resource="minerals", amount=3)
    assert gained(green) == (0, 12)
    act(state, type="export", player="Blue", contract="food-6", amount=2)
    assert gained(blue) == (6, 12)
    act(state, type="pass", player="Red")
    act(state, type="pass", player="Green")
    assert state.phase == EXPORTS and state.exports == ["Blue"]
    assert decisions(state)[0].deciders == ("Blue",)  # Blue may go on alone
    act(state, type="pass", player="Blue")
    assert state.round == 2


def test_a_used_contract_leaves_the_game():
    state = exporting(Blue={"warehouse": {"food": 8}})
    act(state, type="export", player="Blue", contract=0, amount=1)
    assert state.market[0] is None
    act(state, type="pass", player="Red")
    with pytest.raises(InvalidAction, match="no current Export Contract"):
        act(state, type="export", player="Green", contract=0, amount=1)


def test_future_contracts_cannot_be_used_yet():
    state = exporting(Blue={"warehouse": {"food": 8}})
    with pytest.raises(InvalidAction, match="no current Export Contract"):
        act(state, type="export", player="Blue", contract=8, amount=1)


def test_a_contract_takes_one_to_its_number_of_tokens_the_player_holds():
    state = exporting(Blue={"warehouse": {"food": 8}})
    with pytest.raises(InvalidAction, match="at most 4"):
        act(state, type="export", player="Blue", contract="food-4", amount=5)
    with pytest.raises(InvalidAction, match="at least 1"):
        act(state, type="export", player="Blue", contract="food-4", amount=0)
    with pytest.raises(InvalidAction, match="only 0"):
        act(state, type="export", player="Blue", contract="minerals-6", amount=1)


def test_the_black_market_takes_at_most_4_of_a_type_per_round():
    state = exporting(Blue={"warehouse": {"food": 12, "minerals": 5}})
    act(state, type="black_market", player="Blue", resource="food", amount=3)
    act(state, type="pass", player="Red")
    act(state, type="pass", player="Green")
    with pytest.raises(InvalidAction, match="only 1 more food"):
        act(state, type="black_market", player="Blue", resource="food", amount=2)
    act(state, type="black_market", player="Blue", resource="food", amount=1)
    act(state, type="black_market", player="Blue", resource="minerals", amount=4)
    assert state.player("Blue").warehouse == {**state.player("Blue").warehouse,
                                              "food": 8, "minerals": 1}


def test_energy_cannot_be_exported_or_sold():
    state = exporting(Blue={"warehouse": {"energy": 5}})
    with pytest.raises(InvalidAction, match="black market buys"):
        act(state, type="black_market", player="Blue", resource="energy", amount=1)


def test_the_rotation_follows_the_managers_left_to_right_not_turn_order():
    state = exporting()
    with pytest.raises(InvalidAction, match="Blue's turn"):
        act(state, type="pass", player="Red")


def test_exports_are_placed_left_to_right_and_one_manager_per_player():
    state = staged(2, phase="planning", event="union-praise")
    act(state, type="place", player="Blue", space="exports")
    act(state, type="place", player="Red", space="exports")
    assert state.exports == ["Blue", "Red"]
    with pytest.raises(InvalidAction, match="only one per player"):
        act(state, type="place", player="Blue", space="exports")


def test_customs_checks_lower_the_black_market_limit():
    state = staged(2, phase="exports", exports=["Blue"], event="customs-checks",
                   players={"Blue": {"warehouse": {"food": 5}}})
    with pytest.raises(InvalidAction, match="only 2 more"):
        act(state, type="black_market", player="Blue", resource="food", amount=3)
