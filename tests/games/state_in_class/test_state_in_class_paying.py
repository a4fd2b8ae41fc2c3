"""Getting paid and paying (rulebook: "Getting paid and paying", "What each service gives").

"The bank pays each player their Income. Then each player pays the tax for their class, which
goes to the middle of the table, and their Cost of Living, which goes back to the bank. If you
can't pay both, you hand over everything you have, drop to 0 and receive an Exclusion token."
"""

import dataclasses

import pytest

from games.state_in_class import data, rules
from tests.games.state_in_class.state_in_class_support import (
    by_role,
    close_budget,
    give,
    moved,
    set_services,
    started,
    statement,
    tax_vote,
    tension_changes,
    transfers,
)

# Taxes per class (rulebook table "The four taxes").
TAXES = {"A": (2, 2, 2), "B": (5, 2, 1), "C": (7, 3, 1), "D": (10, 4, 2)}
CLASS_INDEX = {"upper": 0, "middle": 1, "working": 2}


def role(p):
    return data.ROLES[p.role]


def tax_of(option, p):
    return TAXES[option][CLASS_INDEX[role(p).klass]]


# --------------------------------------------------------------------------- income


def test_the_bank_pays_each_player_their_income():
    state = started()
    tax_vote(state, "A")
    for p in state.players:
        rows = statement(p, round_no=1, reason="income")
        assert [row["amount"] for row in rows] == [role(p).income]


def test_everyone_is_paid_before_anyone_pays():
    state = started()
    events = tax_vote(state, "C")
    reasons = [e["reason"] for e in transfers(events)]
    last_income = max(i for i, r in enumerate(reasons) if r == "income")
    first_payment = min(i for i, r in enumerate(reasons) if r in ("tax", "cost_of_living"))
    assert reasons.count("income") == 8 and last_income < first_payment


@pytest.mark.parametrize(("education", "bonus"), [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1)])
def test_education_3_or_more_adds_1_income_for_middle_and_working_classes(education, bonus):
    state = started()
    tax_vote(state, "A")
    close_budget(state, 2, education, 2)
    tax_vote(state, "A")
    for p in state.players:
        extra = bonus if role(p).klass in ("middle", "working") else 0
        assert moved(p, round_no=2, reason="income") == role(p).income + extra


def test_income_is_unchanged_for_the_upper_class_whatever_the_services():
    state = started()
    set_services(state, 5, 5, 5)
    for name in ("company-director", "specialist-doctor"):
        p = by_role(state, name)
        assert rules.income(state, p) == role(p).income


# --------------------------------------------------------------------------- tax


@pytest.mark.parametrize("option", ["A", "B", "C", "D"])
def test_each_player_pays_the_tax_of_their_class_to_the_table(option):
    state = started()
    give(state, 50)
    tax_vote(state, option)
    for p in state.players:
        assert moved(p, round_no=1, reason="tax") == -tax_of(option, p)
    assert state.current["revenue"] == sum(tax_of(option, p) for p in state.players)
    assert state.pot == state.current["revenue"]


def test_tax_goes_to_the_table_and_cost_of_living_to_the_bank():
    state = started()
    events = tax_vote(state, "B")
    assert {e["to"] for e in transfers(events, "tax")} == {"table"}
    assert {e["to"] for e in transfers(events, "cost_of_living")} == {"bank"}
    assert all(e["option"] == "B" for e in transfers(events, "tax"))


# --------------------------------------------------------------------------- cost of living


def test_each_player_pays_their_cost_of_living():
    state = started()
    tax_vote(state, "A")
    for p in state.players:
        assert moved(p, round_no=1, reason="cost_of_living") == -role(p).cost_of_living


@pytest.mark.parametrize(("health", "less"), [(1, 0), (3, 0), (4, 1), (5, 1)])
def test_health_4_or_more_lowers_everyones_cost_of_living_by_1(health, less):
    state = started()
    set_services(state, health=health)
    for p in state.players:
        assert rules.cost_of_living(state, p) == role(p).cost_of_living - less


@pytest.mark.parametrize(("shield", "shielded"), [(1, False), (2, False), (3, True), (5, True)])
def test_shield_3_or_more_frees_the_working_class_from_cost_of_living(shield, shielded):
    state = started()
    set_services(state, shield=shield)
    for p in state.players:
        if role(p).klass == "working" and shielded:
            assert rules.cost_of_living(state, p) == 0
        else:
            assert rules.cost_of_living(state, p) == role(p).cost_of_living


def test_the_shield_also_removes_an_event_surcharge_for_the_working_class():
    state = started()
    set_services(state, health=1, shield=3)
    state.surcharge = 2
    for p in state.players:
        expected = 0 if role(p).klass == "working" else role(p).cost_of_living + 2
        assert rules.cost_of_living(state, p) == expected


def test_health_4_and_a_surcharge_combine():
    state = started()
    set_services(state, health=4, shield=1)
    state.surcharge = 2
    for p in state.players:
        assert rules.cost_of_living(state, p) == role(p).cost_of_living + 1


def test_through_a_round_health_and_shield_change_what_is_paid():
    state = started()
    tax_vote(state, "A")
    close_budget(state, 4, 2, 3)  # round 2 (Seasonal flu spares Health 4)
    give(state, 50)
    tax_vote(state, "A")
    for p in state.players:
        expected = 0 if role(p).klass == "working" else role(p).cost_of_living - 1
        assert moved(p, round_no=2, reason="cost_of_living") == -expected


# --------------------------------------------------------------------------- can't pay


def test_who_cannot_pay_both_hands_over_everything_and_is_excluded():
    state = started()
    p = by_role(state, "specialist-doctor")  # maximum effort: 10 tax + cost of living
    due = tax_of("D", p) + role(p).cost_of_living
    start = max(0, due - role(p).income - 1)
    assert start + role(p).income < due
    give(state, {p.name: start})
    events = tax_vote(state, "D")
    have = start + role(p).income
    paid_tax = min(have, tax_of("D", p))
    mine = [e for e in transfers(events) if p.name in (e["from"][7:], e["to"][7:])]
    assert [(e["reason"], e["to"], e["amount"]) for e in mine if e["reason"] != "income"] == [
        x for x in (("tax", "table", paid_tax), ("cost_of_living", "bank", have - paid_tax))
        if x[2] > 0]
    assert p.coins == 0 and p.exclusions == 1
    assert state.tension == 1 + 3
    assert tension_changes(state, 1)[-1] == {
        "delta": 3, "value": 4, "reason": "could_not_pay", "player": p.name, "role": p.role}
    assert state.current["exclusions"] == [
        {"player": p.name, "role": p.role, "reason": "could_not_pay"}]


def test_the_tax_is_paid_first_when_even_it_cannot_be_paid(monkeypatch):
    freelancer = data.ROLES["precarious-freelancer"]
    monkeypatch.setitem(data.ROLES, "precarious-freelancer",
                        dataclasses.replace(freelancer, income=1, cost_of_living=2))
    state = started()
    p = by_role(state, "precarious-freelancer")
    give(state, {p.name: 0})
    events = tax_vote(state, "D")  # working class pays 2; the player has 1
    mine = [e for e in transfers(events) if e["from"] == f"player:{p.name}"]
    assert [(e["reason"], e["to"], e["amount"]) for e in mine] == [("tax", "table", 1)]
    assert p.coins == 0 and p.exclusions == 1


def test_exactly_enough_pays_both_and_leaves_0_without_a_token():
    state = started()
    p = by_role(state, "care-worker")
    due = tax_of("C", p) + role(p).cost_of_living
    give(state, {p.name: max(0, due - role(p).income)})
    tax_vote(state, "C")
    if due >= role(p).income:
        assert p.coins == 0
    assert p.exclusions == 0 and state.tension == 1


def test_each_player_who_cannot_pay_raises_tension_by_3():
    state = started()
    give(state, {"Fay": 0, "Gus": 0, "Hal": 0})
    dues = {n: tax_of("D", state.player(n)) + role(state.player(n)).cost_of_living
            for n in ("Fay", "Gus", "Hal")}
    short = [n for n in dues if role(state.player(n)).income < dues[n]]
    tax_vote(state, "D")
    assert state.tension == 1 + 3 * len(short)
    assert [e["player"] for e in state.current.get("exclusions", [])] == short


def test_an_excluded_player_keeps_playing_and_can_be_excluded_again():
    state = started()
    p = by_role(state, "precarious-freelancer")
    for _ in range(2):
        give(state, 100)
        give(state, {p.name: 0})
        state.tension = 1
        state.surcharge = 20  # SET: a cost of living no one can pay
        tax_vote(state, "A")
        close_budget(state, 2, 2, 2, tension=1)
    assert p.exclusions == 2
