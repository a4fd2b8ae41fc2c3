"""The sensible and greedy bots put spare credits to work (credits are worth only 1 VP per 5
at the end): Foreign Employees for empty bonus slots, late Companies for their printed VP,
loans paid back when the money is spare."""

import random
from collections import Counter

from games.crisis import bots, decisions
from tests.games.crisis.crisis_support import staged

BOARD = {"companies": ["FOOD INDUSTRY 02", "FREIGHTERS 01", "RESORT 05", "PORT 01",
                       "HEAVY INDUSTRY 08", "FARM 12"]}


def planning(rnd=3, **blue):
    return staged(2, phase="planning", event=None, round=rnd, order=["Blue", "Red"],
                  players={"Blue": blue}, board=BOARD)


def value(state, space):
    p = state.player("Blue")
    budget = p.credits
    return bots.space_value(state, p, space, budget, bots.lacking_staff(p),
                            bots.lacking_inputs(p))


def blue_acts(state, policy="sensible"):
    return bots.act(policy, state, decisions(state)[0], random.Random(0))


def test_a_rich_team_repays_a_loan_before_placing():
    for policy in ("sensible", "greedy"):
        assert blue_acts(planning(credits=60, loans=2), policy) == {"type": "repay",
                                                                      "player": "Blue"}


def test_a_team_keeps_its_loan_when_the_money_is_not_spare():
    assert blue_acts(planning(credits=20, loans=1))["type"] == "place"


def test_no_loan_is_repaid_in_the_last_rounds_where_it_changes_no_score():
    assert blue_acts(planning(rnd=6, credits=60, loans=2))["type"] == "place"


def test_empty_bonus_slots_are_what_one_more_employee_would_fill():
    state = planning(companies=["FARM 03"], employees=["F1"])
    assert bots.spare_bonus(state.player("Blue")) == Counter({"worker": 1, "farmer": 1})
    state = planning(companies=["FARM 03"], employees=["F1", "W1", "F1"])
    assert not bots.spare_bonus(state.player("Blue"))


def test_spare_credits_hire_a_foreign_employee_for_an_empty_bonus_slot():
    rich = planning(companies=["FARM 03"], employees=["F1"], credits=40)
    poor = planning(companies=["FARM 03"], employees=["F1"], credits=4)
    assert value(rich, "foreign-employees") > 0 > value(poor, "foreign-employees")
    choice = bots.resolve(rich, rich.player("Blue"), _foreign_decision())
    assert choice in ("worker", "farmer")


def _foreign_decision():
    class Decision:
        options = ("engineer", "banker", "worker", "farmer")
        default = {"space": "foreign-employees"}
    return Decision()


def test_in_the_last_round_missing_staff_no_longer_holds_a_company_back():
    def worth(rnd, employees):
        return value(planning(rnd=rnd, credits=40, companies=["MINES 02"],
                              employees=employees), "company-5")
    assert worth(7, []) == worth(7, ["E1"]) > 0
    assert worth(3, []) < worth(3, ["E1"])
