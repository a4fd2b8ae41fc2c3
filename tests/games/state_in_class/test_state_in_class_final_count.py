"""The final count (rulebook: "The final count" and its example)."""

import pytest

from games.state_in_class import data
from games.state_in_class.audiences import public_view, summary
from games.state_in_class.rules import goal_reached, score_breakdown, scores
from games.state_in_class.state import OVER
from tests.games.state_in_class.state_in_class_support import (
    by_role,
    give,
    play_round,
    set_services,
    started,
)


def final_state(health=3, education=3, shield=3, tension=1, coins=0):
    """A table at the final count (levels, Tension and wallets SET directly)."""
    state = started()
    set_services(state, health, education, shield)
    state.tension = tension
    give(state, coins)
    state.round, state.phase = 8, OVER
    return state


def test_rulebook_example_the_secondary_school_teacher_scores_30():
    state = final_state(health=4, education=3, shield=4, tension=4)
    teacher = by_role(state, "secondary-teacher")
    teacher.coins = 21
    assert data.ROLES["secondary-teacher"].live_well == 18  # fixed by the rulebook
    assert goal_reached(teacher) == "live-well"
    assert score_breakdown(state, teacher) == {
        "dividend": 22, "legacy": 0, "life_goal": 8, "exclusions": 0, "tension": 0}
    assert scores(state)["players"][teacher.name]["score"] == 30


@pytest.mark.parametrize(("lv", "dividend"), [((1, 1, 1), 6), ((2, 3, 4), 18), ((5, 5, 5), 30)])
def test_public_dividend_is_2_points_per_level_for_everyone(lv, dividend):
    state = final_state(*lv)
    for p in state.players:
        assert score_breakdown(state, p)["dividend"] == dividend


@pytest.mark.parametrize(("lv", "legacy"), [((4, 4, 3), 0), ((4, 4, 4), 5), ((5, 4, 3), 5),
                                             ((5, 5, 5), 5), ((5, 5, 1), 0)])
def test_legacy_5_points_for_everyone_if_the_levels_add_up_to_12_or_more(lv, legacy):
    state = final_state(*lv)
    assert {score_breakdown(state, p)["legacy"] for p in state.players} == {legacy}
    assert scores(state)["legacy"] is (legacy == 5)


@pytest.mark.parametrize("role_id", [*data.BASE_ROLES, "landlord", "nurse", "waiter"])
def test_life_goal_points_at_each_boundary(role_id):
    role = data.ROLES[role_id]
    state = final_state()
    p = state.players[0]
    p.role = role_id
    for coins, points in ((role.get_by - 1, -4), (role.get_by, 0), (role.live_well - 1, 0),
                          (role.live_well, 8), (role.thrive - 1, 8), (role.thrive, 12),
                          (role.thrive + 50, 12), (0, -4 if role.get_by > 0 else 0)):
        p.coins = coins
        assert score_breakdown(state, p)["life_goal"] == points, coins


def test_goals_are_in_increasing_order_and_the_example_holds():
    for role in data.ROLES.values():
        assert 0 <= role.get_by < role.live_well < role.thrive
    assert data.ROLES["secondary-teacher"].thrive > 21  # 21 is Live Well, not Thrive


@pytest.mark.parametrize("tokens", [0, 1, 2, 3])
def test_each_exclusion_token_takes_5_points(tokens):
    state = final_state()
    state.players[0].exclusions = tokens
    assert score_breakdown(state, state.players[0])["exclusions"] == -5 * tokens


@pytest.mark.parametrize(("tension", "penalty"), [
    (1, 0), (4, 0), (5, -2), (6, -2), (7, -2), (8, -5), (9, -5)])
def test_final_tension_costs_everyone_points(tension, penalty):
    state = final_state(tension=tension)
    assert {score_breakdown(state, p)["tension"] for p in state.players} == {penalty}


def test_the_score_is_the_sum_of_its_parts():
    state = final_state(4, 4, 4, tension=6, coins=20)
    state.players[3].exclusions = 2
    for name, row in scores(state)["players"].items():
        assert row["score"] == sum(row["breakdown"].values()), name


def test_the_highest_score_wins():
    state = final_state()
    give(state, 0)
    top = by_role(state, "care-worker")
    top.coins = data.ROLES["care-worker"].thrive
    assert scores(state)["winners"] == [top.name]


def test_a_tie_for_the_highest_score_shares_the_victory():
    state = final_state()
    for p in state.players:
        p.coins = data.ROLES[p.role].thrive  # everyone Thrives: all equal
    assert scores(state)["winners"] == state.names


def test_nobody_wins_if_the_state_failed():
    state = final_state(tension=10)
    state.failed = True
    assert scores(state)["winners"] == []
    assert scores(state)["failed"] is True


def test_a_whole_game_ends_with_the_final_count_for_everyone():
    state = started()
    while state.phase != OVER:
        give(state, 40)
        state.tension = 1
        play_round(state, "C")
    final = scores(state)
    assert set(final["players"]) == set(state.names)
    assert final["winners"] and not final["failed"]
    assert public_view(state)["final"] == final
    out = summary(state)
    for name, row in out["players"].items():
        assert row["score"] == final["players"][name]["score"]
        assert row["score_breakdown"] == final["players"][name]["breakdown"]
        assert row["coins"] == state.player(name).coins
    assert out["winners"] == final["winners"]


def test_everyones_money_is_revealed_at_the_final_count():
    state = final_state(coins=0)
    for i, p in enumerate(state.players):
        p.coins = 700 + i
    final = public_view(state)["final"]
    assert {n: row["coins"] for n, row in final["players"].items()} == {
        p.name: 700 + i for i, p in enumerate(state.players)}
