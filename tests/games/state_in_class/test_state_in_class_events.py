"""The eight events, each condition both ways (rulebook: "Show each round's events")."""

import pytest

from games.state_in_class import data
from games.state_in_class.state import BUDGET_VOTE, OVER
from tests.games.state_in_class.state_in_class_support import (
    advance_to,
    close_budget,
    give,
    moved,
    started,
    statement,
    tax_vote,
    tension_changes,
    transfers,
    vote,
)


def role(p):
    return data.ROLES[p.role]


def to_round(round_no, h, e, s, *, tension=1, coins=None):
    """The event of ``round_no`` resolved, after the previous round with a budget vote ended
    with levels h/e/s (before its end-of-round steps: obsolescence after rounds 3 and 6).
    Round 5 follows round 3's budget vote and the (quiet) Midlife Crossroads."""
    state = started()
    if round_no > 1:
        advance_to(state, 3 if round_no == 5 else round_no - 1, BUDGET_VOTE)
        if coins is not None:
            give(state, coins)
        close_budget(state, h, e, s, tension=tension)
    assert state.round == round_no
    return state


# --------------------------------------------------------------------------- 1. Economic boom


def test_economic_boom_everyone_receives_2_coins():
    state = started()
    for p in state.players:
        assert statement(p, round_no=1, reason="boom") == [
            {"round": 1, "amount": 2, "reason": "boom", "balance": 3 - 3 + 2}]
    assert state.history[0]["event_effect"] == {"effect": "boom", "coins": 2}


# --------------------------------------------------------------------------- 2. Seasonal flu


@pytest.mark.parametrize(("health", "extra"), [(1, 2), (2, 2), (3, 0)])
def test_seasonal_flu_raises_cost_of_living_by_2_if_health_is_2_or_below(health, extra):
    state = to_round(2, health, 1, 1)
    give(state, 100)
    tax_vote(state, "A")
    for p in state.players:
        assert moved(p, round_no=2, reason="cost_of_living") == -(role(p).cost_of_living + extra)
    assert state.history[1]["event_effect"]["effect"] == ("surcharge" if extra else "spared")


def test_seasonal_flu_lasts_one_round_only():
    state = to_round(2, 1, 1, 3)
    give(state, 100)
    tax_vote(state, "A")
    close_budget(state, 1, 1, 3, tension=1)  # round 3: the crisis spares Shield 3
    give(state, 100)
    tax_vote(state, "A")
    for p in state.players:
        expected = 0 if role(p).klass == "working" else role(p).cost_of_living
        assert moved(p, round_no=3, reason="cost_of_living") == -expected


# ------------------------------------------------------------------- 3. Cost-of-living crisis


@pytest.mark.parametrize(("shield", "extra"), [(1, 2), (2, 2), (3, 0), (4, 0)])
def test_cost_of_living_crisis_raises_cost_by_2_if_the_shield_is_2_or_below(shield, extra):
    state = to_round(3, 3, 1, shield)
    give(state, 100)
    tax_vote(state, "A")
    for p in state.players:
        if role(p).klass == "working" and shield >= 3:
            assert moved(p, round_no=3, reason="cost_of_living") == 0
        else:
            assert moved(p, round_no=3, reason="cost_of_living") == -(
                role(p).cost_of_living + extra)


# --------------------------------------------------------------------------- 5. Tech breakthrough


def incomes(state, round_no):
    return {p.role: moved(p, round_no=round_no, reason="income") for p in state.players}


@pytest.mark.parametrize("education", [3, 4])
def test_tech_breakthrough_gives_2_more_income_to_middle_and_working_for_the_rest_of_the_game(
        education):
    state = to_round(5, 3, education + 1, 3)  # obsolescence after round 3 -> education
    assert state.services["education"].level == education
    assert state.history[4]["event_effect"]["effect"] == "tech_bonus"
    give(state, 100)
    tax_vote(state, "A")
    close_budget(state, 3, 1, 3, tension=1)  # Education drops to 1 for round 6
    give(state, 100)
    tax_vote(state, "A")
    for round_no, bonus in ((5, 1 + 2), (6, 0 + 2)):
        for role_id, got in incomes(state, round_no).items():
            card = data.ROLES[role_id]
            assert got == card.income + (bonus if card.klass != "upper" else 0)


def test_no_tech_breakthrough_bonus_if_education_is_below_3_even_if_it_rises_later():
    state = to_round(5, 3, 3, 3)  # Education 2 after obsolescence
    assert state.history[4]["event_effect"]["effect"] == "missed"
    give(state, 100)
    tax_vote(state, "A")
    close_budget(state, 3, 4, 3, tension=1)
    give(state, 100)
    tax_vote(state, "A")
    for role_id, got in incomes(state, 6).items():
        card = data.ROLES[role_id]
        assert got == card.income + (1 if card.klass != "upper" else 0)


# --------------------------------------------------------------------------- 6. Great storm


@pytest.mark.parametrize(("h", "s", "loss"), [
    (1, 1, 3), (2, 2, 3), (2, 1, 3), (3, 2, 1), (2, 3, 1), (5, 5, 1),
])
def test_great_storm_costs_3_coins_if_health_and_shield_are_2_or_below_else_1(h, s, loss):
    state = to_round(6, h, 3, s, coins=50)
    for p in state.players:
        assert moved(p, round_no=6, reason="storm") == -loss
    assert state.history[5]["event_effect"]["loss"] == loss


def test_great_storm_raises_tension_by_1():
    state = to_round(6, 3, 3, 3, tension=2, coins=50)
    assert tension_changes(state, 6) == [{"delta": 1, "value": 3, "reason": "storm"}]
    assert state.tension == 3


def test_great_storm_never_takes_a_player_below_0_coins():
    state = advance_to(started(), 5, BUDGET_VOTE)
    give(state, 50)
    give(state, {"Ana": 0, "Ben": 2, "Cai": 1})
    close_budget(state, 1, 3, 1, tension=1)
    assert state.player("Ana").coins == 0 and moved(state.player("Ana"), round_no=6) == 0
    assert state.player("Ben").coins == 0 and moved(state.player("Ben"), round_no=6) == -2
    assert state.player("Cai").coins == 0
    assert state.player("Ana").exclusions == 0


# --------------------------------------------------------------------------- 7. Social peace


@pytest.mark.parametrize(("tension", "bonus"), [(1, 15), (2, 15), (3, 15), (4, 0), (6, 0)])
def test_social_peace_adds_15_coins_to_the_budget_if_tension_is_3_or_below(tension, bonus):
    state = to_round(7, 3, 3, 3, tension=tension)  # 2-2-2 after obsolescence: no change
    assert state.tension == tension
    assert state.pot == bonus  # waiting on the table for this round's split
    give(state, 100)
    tax_vote(state, "C")
    assert state.current["revenue"] == 26 + bonus
    vote(state, "budget", {"health": 3, "education": 2, "shield": 1})
    assert state.history[6]["split"]["revenue"] == 26 + bonus


def test_social_peace_coins_come_from_the_bank_to_the_table():
    state = advance_to(started(), 6, BUDGET_VOTE)
    events = close_budget(state, 3, 3, 3, tension=2)
    assert [(e["from"], e["to"], e["amount"]) for e in transfers(events, "peace")] == [
        ("bank", "table", 15)]


# --------------------------------------------------------------------------- 8. The Legacy


def test_the_legacy_is_the_last_round_then_the_final_count():
    state = advance_to(started(), 8)
    assert state.history[7]["event"] == "the-legacy"
    assert state.history[7]["event_effect"] == {"effect": "none"}
    give(state, 100)
    tax_vote(state, "C")
    vote(state, "budget", {"health": 3, "education": 2, "shield": 1})
    assert state.phase == OVER
