"""Round 4, the Midlife Crossroads (rulebook: "The Midlife Crossroads" and its card table)."""

import dataclasses
import math

import pytest

from games.state_in_class import data, rules
from games.state_in_class.state import BUDGET_VOTE, TAX_VOTE
from tests.games.state_in_class.state_in_class_support import (
    advance_to,
    budget_vote,
    close_budget,
    give,
    moved,
    names,
    pinned_roles,
    started,
    statement,
    tax_vote,
)

# Cards whose effect on the *other* seats never touches classes, the budget or Tension
# (everyone holds plenty of coins, so nobody is short).
FILLERS = ["waiting-list", "daughter-born", "out-of-work", "mother-needs-care", "rock-bottom",
           "eviction", "serious-illness"]
SIX = ["company-director", "specialist-doctor", "secondary-teacher", "shop-owner",
       "factory-worker", "care-worker"]


def crossroads(cards, *, levels=(3, 3, 3), coins=30, roles=SIX, tension=1, seed=7):
    """Play up to round 5: seats 0, 1, ... draw ``cards`` (fillers after them) with the
    services at ``levels`` (health, education, shield) when the cards are read; every player
    holds ``coins`` (an int, or a dict for some seats; others 100) before their round-4 income.

    Round 3 ends with each level one higher (obsolescence takes it back down); a card can only
    meet a level-5 service if it was 6 before (SET directly: impossible in real play).
    """
    order = list(cards) + [c for c in FILLERS if c not in cards]
    state = started(len(roles), roles=dict(zip(names(len(roles)), roles, strict=True)),
                    midlife_order=order, seed=seed)
    advance_to(state, 3, BUDGET_VOTE)
    give(state, 100)
    give(state, coins if isinstance(coins, dict) else {"Ana": coins})
    events = close_budget(state, *(lv + 1 for lv in levels), tension=tension)
    assert state.history[3]["levels"] == dict(zip(data.SERVICES, levels, strict=True))
    return state, events


def draw(state, name="Ana"):
    return next(d for d in state.history[3]["midlife"] if d["player"] == name)


def at_card(state, name="Ana"):
    """Coins the player held when reading the card: their coins before round 4 + income."""
    p = state.player(name)
    assert state.round == 5 and moved(p, round_no=5) == 0
    before = p.coins - moved(p, round_no=4)  # wallets are SET before round 4: no statement
    return before + moved(p, round_no=4, reason="income")


def card_delta(state, card, name="Ana"):
    return moved(state.player(name), round_no=4, reason=f"midlife:{card}")


def midlife_tension(state, name="Ana"):
    return [(c["delta"], c["reason"]) for c in state.history[3]["tension"]
            if c.get("player") == name]


# --------------------------------------------------------------------------- the round


def test_each_player_collects_income_and_pays_nothing_else():
    state, _ = crossroads([])
    for p in state.players:
        rows = statement(p, round_no=4)
        assert rows[0]["reason"] == "income"
        assert {r["reason"] for r in rows[1:]} <= {f"midlife:{c}" for c in data.MIDLIFE_CARDS}


def test_cards_are_drawn_in_seat_order_from_the_pinned_deck():
    state, _ = crossroads(["the-inheritance", "eviction", "job-obsolete"])
    drawn = [(d["player"], d["card"]) for d in state.history[3]["midlife"]]
    assert drawn[:3] == [("Ana", "the-inheritance"), ("Ben", "eviction"),
                         ("Cai", "job-obsolete")]
    assert [d[0] for d in drawn] == names(6)


def test_an_unpinned_deck_is_shuffled_by_the_seed_and_never_repeats_a_card():
    def cards(seed):
        state = started(8, midlife_order=None, seed=seed)
        return [c for c in rules.midlife_deck(state)]

    assert cards(3) == cards(3)
    assert len({tuple(cards(seed)[:8]) for seed in range(10)}) > 1
    assert sorted(cards(3)) == sorted(data.MIDLIFE_CARDS)  # twelve cards, each once


def test_at_a_table_of_8_four_cards_are_never_drawn():
    state = started(8, midlife_order=None, seed=4)
    advance_to(state, 5)
    drawn = [d["card"] for d in state.history[3]["midlife"]]
    assert len(drawn) == len(set(drawn)) == 8


def test_a_partial_pin_puts_its_cards_on_top():
    state = started(8, midlife_order=["eviction", "the-inheritance"], seed=4)
    deck = rules.midlife_deck(state)
    assert deck[:2] == ["eviction", "the-inheritance"] and len(deck) == 12


# --------------------------------------------------------------------------- the twelve cards

# Which service each card measures (rulebook table).
MEASURES = {
    "serious-illness": "health", "mother-needs-care": "health", "rock-bottom": "health",
    "waiting-list": "health", "eviction": "shield", "out-of-work": "shield",
    "daughter-born": "shield", "the-inheritance": "shield", "job-obsolete": "education",
    "daughters-degree": "education", "civil-service-exam": "education",
}


def test_each_card_measures_the_service_in_the_rulebook():
    assert {c.id: c.measures for c in data.MIDLIFE_CARDS.values()} == {
        **MEASURES, "nothing-happens": "country"}


# (card, low 1-2, level 3, high 4-5): a coin change as a function of C, the coins held.
def lose_all(c):
    return -c


def half_plus_2(c):
    return -(math.ceil(c / 2) + 2)


CARD_COINS = {
    "serious-illness": (lose_all, 0, 0),
    "mother-needs-care": (half_plus_2, -2, -2),
    "rock-bottom": (-13, -3, 0),
    "waiting-list": (-11, -1, -1),
    "eviction": (-10, 0, 0),
    "out-of-work": (-12, -2, -2),
    "daughter-born": (-11, -1, -1),
    "the-inheritance": (8, 2, 2),
    "job-obsolete": (0, 0, 0),
    "daughters-degree": (-6, -5, 0),
    "civil-service-exam": (-7, -2, lose_all),
}
CARD_MOVES = {"job-obsolete": (-1, 0, 1), "daughters-degree": (-1, 0, 0),
              "civil-service-exam": (0, 0, 1)}
CARD_BUDGET = {"the-inheritance": (0, 4, 4)}


def band(level):
    return 0 if level <= 2 else 1 if level == 3 else 2


CASES = [(card, level) for card in CARD_COINS for level in (1, 2, 3, 4, 5)]


@pytest.mark.parametrize(("card", "level"), CASES)
def test_midlife_card_effect_at_each_level(card, level):
    lv = {"health": 3, "education": 3, "shield": 3, MEASURES[card]: level}
    state, _ = crossroads([card], levels=(lv["health"], lv["education"], lv["shield"]),
                          roles=["secondary-teacher", *SIX[:2], *SIX[3:]])
    ana = state.player("Ana")
    held = at_card(state)
    expected = CARD_COINS[card][band(level)]
    if callable(expected):
        expected = expected(held)
    assert card_delta(state, card) == expected
    record = draw(state)
    assert (record["card"], record["measures"], record["level"]) == (card, MEASURES[card], level)
    assert record["move"] == CARD_MOVES.get(card, (0, 0, 0))[band(level)]
    assert record["budget"] == CARD_BUDGET.get(card, (0, 0, 0))[band(level)]
    assert record["token"] is False and ana.exclusions == 0


@pytest.mark.parametrize(("lv", "effect", "tension"), [
    ((1, 1, 1), -6, 1), ((2, 2, 1), -6, 1),  # 5 or less: -6 and Tension +1
    ((2, 2, 2), 0, 0), ((4, 3, 3), 0, 0),  # 6 to 10: nothing
    ((4, 4, 3), 2, 0), ((4, 4, 4), 2, 0), ((5, 5, 5), 2, 0),  # 11 or more: +2
])
def test_nothing_happens_to_you_depends_on_the_sum_of_the_three_levels(lv, effect, tension):
    state, _ = crossroads(["nothing-happens"], levels=lv)
    assert card_delta(state, "nothing-happens") == effect
    assert draw(state)["level"] == sum(lv)
    assert midlife_tension(state) == ([(1, "weak_country")] if tension else [])


# --------------------------------------------------------------------------- tokens


@pytest.mark.parametrize(("card", "loss"), [
    ("rock-bottom", 13), ("waiting-list", 11), ("eviction", 10), ("out-of-work", 12),
    ("daughter-born", 11),
])
def test_a_token_if_you_cannot_pay(card, loss):
    state, _ = crossroads([card], levels=(1, 1, 1), coins=0,
                          roles=["care-worker", *SIX[:5]])
    held = at_card(state)
    assert held < loss  # precondition: the care worker's income alone cannot pay
    ana = state.player("Ana")
    assert card_delta(state, card) == -held
    assert ana.coins == 0 and ana.exclusions == 1 and draw(state)["token"] is True


@pytest.mark.parametrize(("card", "loss"), [("rock-bottom", 13), ("eviction", 10)])
def test_no_token_if_you_can_pay_exactly(card, loss):
    carer = ["care-worker", *SIX[:5]]
    state, _ = crossroads([card], levels=(1, 1, 1), coins=0, roles=carer)
    income = moved(state.player("Ana"), round_no=4, reason="income")
    assert income < loss  # precondition
    state, _ = crossroads([card], levels=(1, 1, 1), coins=loss - income, roles=carer)
    assert at_card(state) == loss
    assert state.player("Ana").coins == 0 and state.player("Ana").exclusions == 0
    assert draw(state)["token"] is False


@pytest.mark.parametrize(("card", "loss"), [
    ("daughters-degree", 6), ("civil-service-exam", 7), ("nothing-happens", 6),
])
def test_cards_that_do_not_say_so_give_no_token_when_short(card, loss):
    state, _ = crossroads([card], levels=(1, 1, 1), coins=0, roles=["care-worker", *SIX[:5]])
    held = at_card(state)
    assert held < loss  # precondition
    assert card_delta(state, card) == -held
    assert draw(state)["token"] is False
    if card != "daughters-degree":  # that card also moves her down from working: -5, a token
        assert state.player("Ana").exclusions == 0


def test_an_exclusion_at_the_crossroads_raises_tension_by_2():
    state, _ = crossroads(["eviction"], levels=(3, 3, 1), coins=0,
                          roles=["care-worker", *SIX[:5]])
    assert midlife_tension(state) == [(2, "midlife")]
    assert state.history[3]["exclusions"] == [
        {"player": "Ana", "role": "care-worker", "reason": "midlife"}]


def test_serious_illness_takes_everything_and_a_token_only_if_already_on_0(monkeypatch):
    state, _ = crossroads(["serious-illness"], levels=(1, 3, 3), coins=5)
    assert state.player("Ana").coins == 0 and state.player("Ana").exclusions == 0
    carer = data.ROLES["care-worker"]
    monkeypatch.setitem(data.ROLES, "care-worker", dataclasses.replace(carer, income=0))
    state, _ = crossroads(["serious-illness"], levels=(1, 1, 3), coins=0,
                          roles=["care-worker", *SIX[:5]])
    assert at_card(state) == 0
    assert state.player("Ana").exclusions == 1 and draw(state)["token"] is True
    assert midlife_tension(state) == [(2, "midlife")]


def test_mother_needs_care_takes_half_rounded_up_plus_2_but_never_more_than_you_have():
    state, _ = crossroads(["mother-needs-care"], levels=(2, 3, 3), coins=17)
    held = at_card(state)
    assert card_delta(state, "mother-needs-care") == -(math.ceil(held / 2) + 2)
    state, _ = crossroads(["mother-needs-care"], levels=(2, 1, 3), coins=0,
                          roles=["care-worker", *SIX[:5]])
    held = at_card(state)
    assert card_delta(state, "mother-needs-care") == -min(held, math.ceil(held / 2) + 2)


# --------------------------------------------------------------------------- the inheritance


def test_the_inheritance_4_coins_join_round_5s_revenue():
    state, events = crossroads(["the-inheritance"], levels=(3, 3, 4))
    assert state.round == 5 and state.phase == TAX_VOTE
    assert state.pot == 4
    to_table = [e for e in events if e["type"] == "transfer" and e["reason"] == "inheritance"]
    assert [(e["from"], e["to"], e["amount"]) for e in to_table] == [("bank", "table", 4)]
    give(state, 100)
    tax_vote(state, "C")
    collected = sum(rules.tax_due("C", p.klass) for p in state.players)
    assert state.current["revenue"] == collected + 4
    budget_vote(state)
    assert state.history[4]["split"]["revenue"] == collected + 4


def test_the_low_inheritance_stays_in_the_family():
    state, _ = crossroads(["the-inheritance"], levels=(3, 3, 2))
    assert state.pot == 0 and card_delta(state, "the-inheritance") == 8


# --------------------------------------------------------------------------- class changes


def test_moving_down_takes_the_spare_role_of_the_lower_class():
    state, _ = crossroads(["job-obsolete"], levels=(3, 1, 3),
                          roles=["secondary-teacher", *SIX[:2], *SIX[3:]])
    ana = state.player("Ana")
    assert (ana.role, ana.klass) == ("waiter", "working")
    assert state.history[3]["class_changes"] == [
        {"player": "Ana", "from_role": "secondary-teacher", "from_class": "middle", "move": -1,
         "result": "changed", "to_role": "waiter", "to_class": "working"}]


@pytest.mark.parametrize(("role", "move_card", "edu", "to_role"), [
    ("secondary-teacher", "job-obsolete", 4, "landlord"),
    ("factory-worker", "job-obsolete", 4, "nurse"),
    ("company-director", "job-obsolete", 2, "nurse"),
    ("shop-owner", "daughters-degree", 2, "waiter"),
    ("care-worker", "civil-service-exam", 5, "nurse"),
])
def test_class_changes_take_the_spare_role(role, move_card, edu, to_role):
    roles = [role, *[r for r in SIX if r != role]][:6]
    state, _ = crossroads([move_card], levels=(3, edu, 3), roles=roles)
    assert state.player("Ana").role == to_role
    assert state.player("Ana").klass == data.ROLES[to_role].klass


def test_a_class_change_keeps_coins_and_tokens():
    state, _ = crossroads(["job-obsolete"], levels=(3, 1, 3),
                          roles=["secondary-teacher", *SIX[:2], *SIX[3:]])
    ana = state.player("Ana")
    assert moved(ana, round_no=4, reason="class_change") == 0
    # The same, starting with a token already held (SET directly).
    order = ["job-obsolete", *FILLERS]
    state = started(6, roles=dict(zip(names(6), ["secondary-teacher", *SIX[:2], *SIX[3:]],
                                      strict=True)), midlife_order=order)
    advance_to(state, 3, BUDGET_VOTE)
    give(state, 100)
    state.player("Ana").exclusions = 1
    close_budget(state, 3, 2, 3, tension=1)
    ana = state.player("Ana")
    assert ana.role == "waiter" and ana.exclusions == 1
    assert ana.coins == 100 + moved(ana, round_no=4)


def test_class_changes_happen_after_everyone_has_read_their_card():
    state, events = crossroads(["job-obsolete", "eviction"], levels=(3, 1, 3),
                               roles=["secondary-teacher", *SIX[:2], *SIX[3:]])
    kinds = [e["type"] for e in events if e["type"] in ("midlife_card", "class_change")]
    assert kinds == ["midlife_card"] * 6 + ["class_change"]
    assert draw(state)["role"] == "secondary-teacher"


def test_one_spare_per_class_the_first_reader_gets_it():
    roles = ["secondary-teacher", "shop-owner", "company-director", "specialist-doctor",
             "factory-worker", "care-worker"]
    state, _ = crossroads(["job-obsolete", "daughters-degree"], levels=(3, 1, 3),
                          roles=roles)
    assert state.player("Ana").role == "waiter"
    assert state.player("Ben").role == "shop-owner"
    assert [c["result"] for c in state.history[3]["class_changes"]] == ["changed", "no_spare"]


def test_each_class_has_its_own_spare():
    roles = ["secondary-teacher", "company-director", "shop-owner", "specialist-doctor",
             "factory-worker", "care-worker"]
    state, _ = crossroads(["job-obsolete", "daughters-degree"], levels=(3, 1, 3),
                          roles=roles)
    assert state.player("Ana").role == "waiter"
    assert state.player("Ben").role == "nurse"


def test_moving_down_from_the_working_class_costs_5_coins():
    state, _ = crossroads(["job-obsolete"], levels=(3, 1, 3), roles=["factory-worker", *SIX[:4],
                                                                     "care-worker"])
    ana = state.player("Ana")
    assert ana.role == "factory-worker"
    assert moved(ana, round_no=4, reason="class_change") == -5 and ana.exclusions == 0


def test_moving_down_from_the_working_class_with_less_than_5_gives_a_token():
    state, _ = crossroads(["daughters-degree"], levels=(3, 1, 3), coins=0,
                          roles=["care-worker", *SIX[:5]])
    ana = state.player("Ana")
    held_after_card = at_card(state) + card_delta(state, "daughters-degree")
    assert held_after_card < 5  # precondition
    assert ana.coins == 0 and ana.exclusions == 1 and ana.role == "care-worker"
    assert state.history[3]["class_changes"][0]["result"] == "bottom_token"
    assert midlife_tension(state) == [(2, "midlife")]


def test_moving_up_from_the_upper_class_gains_5_coins():
    state, _ = crossroads(["job-obsolete"], levels=(3, 4, 3))
    ana = state.player("Ana")
    assert ana.role == "company-director"
    assert moved(ana, round_no=4, reason="class_change") == 5


def test_the_civil_service_exam_drops_to_0_then_moves_up():
    state, _ = crossroads(["civil-service-exam"], levels=(3, 4, 3),
                          roles=["shop-owner", *[r for r in SIX if r != "shop-owner"]])
    ana = state.player("Ana")
    assert ana.coins == 0 and ana.role == "landlord"


def test_the_new_role_pays_its_own_income_from_round_5():
    state, _ = crossroads(["job-obsolete"], levels=(3, 4, 3),
                          roles=["secondary-teacher", *SIX[:2], *SIX[3:]])
    give(state, 100)
    tax_vote(state, "A")
    assert moved(state.player("Ana"), round_no=5, reason="income") == data.ROLES[
        "landlord"].income


def test_spare_roles_are_never_dealt_so_they_are_free_at_the_crossroads():
    state = started(8, roles=pinned_roles(8))
    assert not {"landlord", "nurse", "waiter"} & {p.role for p in state.players}
    assert state.spares_taken == []
