"""Can the Treasury make the Prime Minister's proposed payments (``views.treasury_check``)?
A payment is not an obligation (rule decision 4): the engine makes each one only if the
Treasury holds it then; the check says so beforehand, for the PM's and Parliament's warning."""

import random
from typing import Any

import pytest

from games.core import InvalidAction
from games.poleconomy.rules import new_game, step
from games.poleconomy.views import treasury_check

NAMES = ["Ana", "Ben", "Cai"]


def staged(**start: Any) -> Any:
    start.setdefault("basic_incomes", {"Ana": 6, "Ben": 5, "Cai": 4})
    start.setdefault("pm", "Ana")
    start.setdefault("government", ["Ana", "Ben"])
    start.setdefault("votes", {"Ana": 6, "Ben": 4, "Cai": 5})
    return new_game({"players": NAMES, "rounds": 5, "consent_mode": "orders",
                     "start": start}, 1)


def pay(to: str, amount: int) -> dict[str, Any]:
    return {"to": to, "amount": amount, "press_release": "Stimulus"}


def codes(out: dict[str, Any]) -> list[str]:
    return [w["code"] for w in out["warnings"]]


def test_payments_the_treasury_holds_are_all_made():
    out = treasury_check(staged(treasury=50, bonds_issued=5, bank=2000),
                         {"payments": [pay("Ben", 20), pay("Cai", 15)]})
    assert (out["treasury"], out["available"], out["total"], out["after"]) == (50, 50, 35, 15)
    assert out["can_pay"] and out["unpaid"] == 0 and out["bonds_needed"] == 0
    assert out["obligations"] == {"salaries": 10, "interest": 50}
    assert out["bonds_left"] == 25 and not out["default_risk"] and codes(out) == []


def test_a_payment_the_treasury_cannot_make_is_not_made_and_a_later_smaller_one_is():
    out = treasury_check(staged(treasury=30, bank=2000),
                         {"payments": [pay("Ben", 20), pay("Cai", 15), pay("Cai", 5)]})
    assert [r["made"] for r in out["payments"]] == [True, False, True]
    assert (out["can_pay"], out["unpaid"], out["after"], out["bonds_needed"]) == (
        False, 15, 5, 1)
    assert codes(out) == ["short", "issue"]
    short = out["warnings"][0]
    assert short["params"] == {"available": 30, "total": 40, "unpaid": 15}
    assert short["text"].format(**short["params"]).startswith("The Treasury will hold $30 ")
    # Issuing the one Bond first covers them.
    out = treasury_check(staged(treasury=30, bank=2000),
                         {"issue_bonds": 1,
                          "payments": [pay("Ben", 20), pay("Cai", 15), pay("Cai", 5)]})
    assert out["can_pay"] and out["available"] == 40 and out["after"] == 0


def test_no_bonds_left_and_the_next_salary_and_interest_out_of_reach():
    out = treasury_check(staged(treasury=5, bonds_issued=30, bank=2000, cabinet=["Ben"]),
                         {"payments": [pay("Ben", 10)],
                          "salaries": {"pm": 25, "ministers": {"Ben": 15}}})
    assert out["bonds_left"] == 0 and out["obligations"] == {"salaries": 40, "interest": 300}
    assert out["default_risk"]
    assert codes(out) == ["short", "no_bonds", "salaries_risk", "interest_risk"]


def test_buying_bonds_back_first_leaves_less_and_players_who_move_first_are_named():
    state = staged(treasury=60, bonds={"Cai": 2}, bonds_issued=4, bank=2000, first="Ben")
    out = treasury_check(state, {"buy_back_bank": 1, "buy_back_players": 2,
                                 "payments": [pay("Ben", 10)]})
    assert out["available"] == 60 - 10 - 40 and out["can_pay"]
    assert out["obligations"]["interest"] == 10 and out["moves_before"] == ["Ben", "Cai"]
    warning = out["warnings"][-1]
    assert warning["code"] == "earlier_turns" and warning["params"] == {"players": "Ben, Cai"}


def test_a_proposal_that_is_not_valid_pm_orders_is_refused():
    with pytest.raises(InvalidAction):
        treasury_check(staged(), {"payments": [{"to": "Ben", "amount": 5}]})
    with pytest.raises(InvalidAction):
        treasury_check(staged(), {"payments": [pay("Zoe", 5)]})


@pytest.mark.parametrize("seed", range(30))
def test_the_check_is_what_the_engine_then_does_on_the_pms_turn(seed):
    rng = random.Random(seed)
    issued = rng.randint(0, 30)
    state = staged(treasury=rng.randint(0, 60), bonds_issued=issued, bank=2000,
                   cash={"Ana": 40, "Ben": 40, "Cai": 40})
    proposal: dict[str, Any] = {"payments": [pay(rng.choice(NAMES), rng.randint(1, 40))
                                             for _i in range(rng.randint(1, 4))]}
    if rng.random() < 0.5:
        proposal["issue_bonds"] = rng.randint(0, 5)
    if rng.random() < 0.5:
        proposal["buy_back_bank"] = rng.randint(0, 3)
    out = treasury_check(state, proposal)
    # Everyone consents; the PM (first to move) sits on the corner without acting.
    step(state, {"type": "orders", "player": "Ana", "orders": {
        "pm": proposal, "consent": "all", "move": {"corner": "bonds", "act": False}}})
    events = []
    for name in ("Ben", "Cai"):
        events += step(state, {"type": "orders", "player": name,
                               "orders": {"consent": "all"}})
    made = [e["made"] for e in events if e["type"] == "treasury_payment"]
    assert made == [r["made"] for r in out["payments"]]
    assert state.treasury == out["after"]
