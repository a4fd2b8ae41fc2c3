"""5. Evaluation, the End of the Round, and the end of the game (surviving or bankruptcy)."""

from games.crisis import cards, scores, summary
from games.crisis.state import OVER
from tests.games.crisis.crisis_support import act, staged


def evaluating(vps, n=4, **start):
    names = ["Blue", "Red", "Green", "White"][:n]
    players = {name: {"vp": vp} for name, vp in zip(names, vps, strict=True)}
    for name, extra in start.pop("extra", {}).items():
        players[name].update(extra)
    return staged(n, phase="evaluation", event="union-praise", players=players, **start)


def test_the_rulebooks_evaluation_example_moves_the_track_from_15_to_7():
    state = evaluating([23, 33, 24, 28], round=3, status=15, goal=29)
    ev = state.history[0]["evaluation"]
    assert ev["differences"] == {"Blue": -6, "Red": 4, "Green": -5, "White": -1}
    assert ev["delta"] == -8 and state.history[0]["status"] == 7


def test_the_track_never_goes_above_45():
    state = evaluating([40, 40, 40, 40], round=1, status=40, goal=18)
    assert state.history[0]["status"] == 45


def test_reaching_the_goal_in_rounds_2_4_and_6_draws_an_influence_card_in_turn_order():
    state = evaluating([20, 25, 10, 30], round=2, status=40, goal=20,
                       order=["White", "Green", "Red", "Blue"])
    drawn = [(p.name, len(p.hand)) for p in state.players]
    assert dict(drawn) == {"Blue": 1, "Red": 1, "Green": 0, "White": 1}
    odd = evaluating([20, 25, 10, 30], round=3, status=40, goal=20)
    assert all(not p.hand for p in odd.players)


def test_the_end_of_round_refreshes_the_board():
    state = staged(2, phase="evaluation", event="union-praise", round=1,
                   players={"Blue": {"vp": 40}, "Red": {"vp": 40}},
                   board={"contracts": ["food-4", None, None, None, "food-6", None,
                                        "minerals-4", None, "food-8", "chemicals-2", None,
                                        None]})
    assert state.round == 2
    assert len([c for c in state.board_companies if c]) == 6
    assert all(cards.COMPANIES[c].level == state.levels[1] for c in state.board_companies)
    assert len(state.board_employees) == 5 and all(state.board_employees)
    # the leftmost column left, the others moved left with their gaps, 4 new future tiles
    assert state.market[:8] == ["food-6", None, "minerals-4", None, "food-8", "chemicals-2",
                                None, None]
    assert all(state.market[8:])


def test_the_next_contracts_come_from_level_one_then_two_then_three():
    state = staged(2, phase="evaluation", event="union-praise", round=2,
                   players={"Blue": {"vp": 40}, "Red": {"vp": 40}})
    assert state.contract_stacks["I"] == []
    assert all(c in cards.CONTRACTS["II"] for c in state.market[8:])


def test_the_temp_employee_returns_and_foreign_employees_stay_at_the_end_of_the_round():
    state = staged(2, phase="planning", event="union-praise")
    act(state, type="place", player="Blue", space="temp-employee")
    for name in ("Red", "Blue", "Red", "Blue", "Red", "Blue", "Red"):
        act(state, type="place", player=name, space="government-subsidy")
    assert "TEMP" not in state.player("Blue").employees and state.temp_holder is None
    assert state.round == 2 and sum(len(s) for s in state.foreign.values()) == 20


def test_surviving_the_crisis_scores_credits_loans_and_penalties():
    state = evaluating([30, 20], n=2, round=7, status=40, goal=10,
                       extra={"Blue": {"credits": 14, "loans": 1, "penalty": 3},
                              "Red": {"credits": 0}})
    final = scores(state)
    assert state.phase == OVER and not state.bankrupt
    assert final["Blue"]["score_breakdown"] == {"vp": 30, "credits": 2, "loans": -2,
                                                "penalty": -3}
    assert final["Blue"]["score"] == 27 and final["Blue"]["winner"]


def test_bankruptcy_ends_the_game_and_only_players_at_the_goal_may_win():
    state = evaluating([30, 10], n=2, round=3, status=2, goal=25,
                       extra={"Blue": {"credits": 50, "loans": 3, "penalty": 4},
                              "Red": {"credits": 90}})
    final = scores(state)
    assert state.phase == OVER and state.bankrupt and state.round == 3
    assert final["Blue"]["score"] == 26 and final["Blue"]["winner"]  # credits, loans ignored
    assert not final["Red"]["eligible"] and not final["Red"]["winner"]


def test_everyone_can_lose_a_bankrupt_game():
    state = evaluating([10, 10], n=2, round=2, status=5, goal=20)
    assert state.bankrupt and summary(state)["winners"] == []


def test_ties_go_to_most_credits_then_fewest_penalties_then_most_company_vp():
    # 30 + 10 // 5 = 31 + 9 // 5: credits are compared before the exchange (10 > 9), not
    # what is left after it (0 < 4)
    tied = evaluating([30, 31], n=2, round=7, status=40, goal=10,
                      extra={"Blue": {"credits": 10}, "Red": {"credits": 9}})
    assert scores(tied)["Blue"]["score"] == scores(tied)["Red"]["score"] == 32
    assert summary(tied)["winners"] == ["Blue"]
    pens = evaluating([32, 31], n=2, round=7, status=40, goal=10,
                      extra={"Blue": {"credits": 5, "penalty": 2},
                             "Red": {"credits": 5, "penalty": 1}})
    assert summary(pens)["winners"] == ["Red"]
    firms = evaluating([30, 30], n=2, round=7, status=40, goal=10,
                       extra={"Blue": {"companies": ["FARM 01"]},
                              "Red": {"companies": ["PORT 01"]}})
    assert summary(firms)["winners"] == ["Red"]
