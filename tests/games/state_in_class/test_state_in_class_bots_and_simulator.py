"""Bot policies, the balance simulator and ``manage.py simulate`` (docs/balance.md)."""

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.state_in_class import data
from games.state_in_class.audiences import legal_actions
from games.state_in_class.bots import POLICIES, FixedPact, get_policy
from games.state_in_class.rules import new_game, options_for, step
from games.state_in_class.simulate import (
    balance_targets,
    bot_names,
    next_decisions,
    pact_dilemma,
    play,
    simulate,
)
from games.state_in_class.state import OVER, PACT, TIE_BREAK

ALL_POLICIES = sorted(POLICIES)


def policies_for(name, players):
    return [get_policy(name) for _ in range(players)]


# --------------------------------------------------------------------------- legal decisions


@pytest.mark.parametrize("policy", ALL_POLICIES)
@pytest.mark.parametrize("players", [6, 7, 8])
def test_every_policy_makes_only_legal_decisions_over_full_games(policy, players):
    seats = policies_for(policy, players)
    for seed in range(3):
        state = new_game({"players": bot_names(players)}, seed)
        rng = random.Random(seed)
        decisions = 0
        while state.phase != OVER:
            actions = next_decisions(state, seats, rng)
            assert actions, f"bots stuck in phase {state.phase}"
            for action in actions:
                if action["type"] == "count":
                    kind = action["kind"]
                    assert set(action["tally"]) <= set(options_for(kind))
                    assert sum(action["tally"].values()) == len(state.receipts)
                    assert {"type": "count", "kind": kind} in legal_actions(state, None)
                else:
                    assert action in legal_actions(state, action["player"]), action
                if action["type"] == "ballot":  # the engine never learns the vote
                    assert set(action) == {"type", "kind", "player"}
                step(state, action)  # raises InvalidAction on anything illegal
                decisions += 1
        assert decisions > players


def test_the_pact_of_each_policy():
    state = new_game({"players": bot_names(8)}, 1)
    rng = random.Random(1)
    me = state.players[0]
    seen = {name: {get_policy(name).pact(state, me, rng) for _ in range(200)}
            for name in POLICIES}
    assert seen["random"] == {0, 1, 2, 3}
    for option in data.TAX_OPTIONS:
        assert seen[f"always-{option}"] == {1}
    assert seen["class-selfish"] == {0}
    assert seen["civic"] == {2, 3}
    assert FixedPact(get_policy("civic"), 0).pact(state, me, rng) == 0
    with pytest.raises(ValueError):
        FixedPact(get_policy("civic"), 4)


def test_unknown_policy_name():
    with pytest.raises(ValueError, match="unknown bot policy"):
        get_policy("greedy")


# --------------------------------------------------------------------------- honesty


def _decision_points(policy, players=8, seed=3):
    """Every state at which some bot was asked something, with who was asked."""
    seats = policies_for(policy, players)
    state = new_game({"players": bot_names(players)}, seed)
    rng = random.Random(seed)
    while state.phase != OVER:
        if state.phase == PACT:
            asked = [p for p in state.players if p.pact is None]
        elif state.phase == TIE_BREAK:
            asked = [state.player(state.tie.deciders[0])]
        else:
            asked = list(state.players)
        yield state.clone(), asked
        for action in next_decisions(state, seats, rng):
            step(state, action)


def _ask(policy, state, me, k):
    bot = get_policy(policy)
    rng = random.Random(k)
    if state.phase == PACT:
        return bot.pact(state, me, rng)
    if state.phase == TIE_BREAK:
        return bot.tie_break(state, me, state.tie.kind, list(state.tie.options), rng)
    kind = "tax" if state.phase == "tax_vote" else "budget"
    return bot.vote(state, me, kind, rng)


@pytest.mark.parametrize("policy", ALL_POLICIES)
def test_a_bot_never_changes_behaviour_with_other_players_coins(policy):
    shuffle = random.Random(99)
    checked = 0
    for state, asked in (point for seed in (3, 4) for point in _decision_points(policy, seed=seed)):
        for me in asked:
            before = _ask(policy, state, state.player(me.name), checked)
            other = state.clone()
            for p in other.players:
                if p.name != me.name:
                    p.coins = shuffle.randrange(0, 60)
            assert _ask(policy, other, other.player(me.name), checked) == before
            checked += 1
    assert checked > 60


@pytest.mark.parametrize("policy", ALL_POLICIES)
def test_a_bot_keeps_no_record_of_its_votes(policy):
    seats = policies_for(policy, 8)
    _, record = play(seats, 5)
    assert all(vars(bot) == {} for bot in seats)  # nothing remembered between calls
    ballots = [a for a in record if a["type"] == "ballot"]
    assert ballots and all(set(a) == {"type", "kind", "player"} for a in ballots)


def test_tax_tie_break_takes_its_preferred_option_or_passes():
    state = new_game({"players": bot_names(8)}, 2)
    for action in next_decisions(state, policies_for("always-C", 8), random.Random(2)):
        step(state, action)  # the pact: roles are dealt
    rng = random.Random(0)
    by_class = {p.klass: p for p in state.players}
    civic = get_policy("civic")
    assert civic.tie_break(state, by_class["upper"], "tax", ["A", "C"], rng) == "C"
    assert civic.tie_break(state, by_class["upper"], "tax", ["A", "B"], rng) is None
    assert get_policy("always-A").tie_break(state, by_class["working"], "tax", ["A", "D"],
                                            rng) == "A"
    selfish = get_policy("class-selfish")
    # Tax B costs the middle class as little as A, and C costs the working class as little as B.
    assert selfish.tie_break(state, by_class["middle"], "tax", ["B", "C"], rng) == "B"
    assert selfish.tie_break(state, by_class["middle"], "tax", ["C", "D"], rng) is None
    assert selfish.tie_break(state, by_class["working"], "tax", ["C", "D"], rng) == "C"
    assert selfish.tie_break(state, by_class["upper"], "tax", ["B", "C"], rng) is None
    for name in POLICIES:  # the lowest Income cannot pass a budget tie
        for options in (list(data.SERVICES), [data.HEALTH, data.SHIELD]):
            choice = get_policy(name).tie_break(state, by_class["working"], "budget", options,
                                                rng)
            assert choice in options
    for _ in range(50):
        choice = get_policy("random").tie_break(state, by_class["middle"], "tax", ["A", "D"],
                                                rng)
        assert choice in ("A", "D", None)


def test_the_selfish_bot_funds_its_own_class_service():
    state = new_game({"players": bot_names(8)}, 4)
    for action in next_decisions(state, policies_for("class-selfish", 8), random.Random(4)):
        step(state, action)
    selfish = get_policy("class-selfish")
    rng = random.Random(0)
    for p in state.players:
        assert selfish.vote(state, p, "budget", rng) == selfish.OWN_SERVICE[p.klass]
        assert selfish.vote(state, p, "tax", rng) == ("A" if p.klass != "working" else "B")


# --------------------------------------------------------------------------- the simulator


def test_simulate_is_deterministic_for_a_seed():
    first = simulate("random", games=25, players=7, seed=5)
    assert simulate("random", games=25, players=7, seed=5) == first
    assert simulate("random", games=25, players=7, seed=6) != first
    assert first["games"] == 25 and first["players"] == 7 and first["seed"] == 5
    dilemma = pact_dilemma("always-C", games=20, players=8, seed=3)
    assert pact_dilemma("always-C", games=20, players=8, seed=3) == dilemma


def test_simulate_rejects_bad_arguments():
    with pytest.raises(ValueError):
        simulate("always-C", games=10, players=5)
    with pytest.raises(ValueError):
        simulate("always-C", games=0)
    with pytest.raises(ValueError):
        simulate("nobody", games=1)
    with pytest.raises(ValueError):
        simulate("always-C", games=1, pact=4)


def test_a_fixed_pact_sets_the_starting_tension():
    everyone_gives_3 = simulate("always-C", games=10, players=8, seed=1, pact=3)
    assert everyone_gives_3["mean_start_tension"] == 1  # 24 coins: Tension 1
    assert simulate("always-C", games=10, players=8, seed=1)["mean_start_tension"] == 4


@pytest.mark.parametrize("players", [8, 7, 6])
def test_the_five_balance_targets_hold(players):
    targets = balance_targets(games=400, players=players, seed=2024)
    assert [t["target"] for t in targets] == [1, 2, 3, 4, 5]
    missed = [(t["target"], t["figures"]) for t in targets if not t["holds"]]
    assert missed == []


def test_the_pact_dilemma_is_a_dilemma():
    d = pact_dilemma("always-C", games=400, players=8, seed=2024)
    give, keep = d["gave_3"], d["gave_0"]
    assert give["start_tension"] < keep["start_tension"]  # the table gains
    assert keep["excluded_r1_3_pct"] == 0 < give["excluded_r1_3_pct"]  # the giver is exposed
    assert give["coins_after_r3"] < keep["coins_after_r3"]
    assert give["own_score"] < keep["own_score"]
    # Only the working class is exposed (the Home care worker's margin is 1 coin a round).
    assert d["excluded_r1_3_pct_by_class"]["upper"]["gave_3"] == 0
    assert d["excluded_r1_3_pct_by_class"]["middle"]["gave_3"] == 0
    assert d["excluded_r1_3_pct_by_class"]["working"]["gave_3"] > 0


def test_role_data_keeps_what_the_rulebook_fixes():
    teacher = data.ROLES["secondary-teacher"]
    assert teacher.live_well == 18 and teacher.thrive > 21
    assert [data.ROLES[r].klass for r in data.BASE_ROLES].count(data.UPPER) == 2
    assert [data.ROLES[r].klass for r in data.BASE_ROLES].count(data.MIDDLE) == 3
    assert [data.ROLES[r].klass for r in data.BASE_ROLES].count(data.WORKING) == 3
    assert data.SPARE_ROLE == {data.UPPER: "landlord", data.MIDDLE: "nurse",
                               data.WORKING: "waiter"}
    for role in data.ROLES.values():
        assert 0 < role.get_by < role.live_well < role.thrive


# --------------------------------------------------------------------------- the command


def run(*args):
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_the_command_prints_a_table_per_policy():
    text = run("--games", "5", "--policy", "always-C", "--policy", "civic", "--seed", "1")
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("policy"))
    for column in ("State fails", "Legacy", "Excl./game", "Tension", "Coins U/M/W",
                   "Score U/M/W"):
        assert column in header
    rows = [line.split()[0] for line in lines if line.split() and line.split()[0] in POLICIES]
    assert rows == ["always-C", "civic"]
    assert "8 players · 5 games per policy · seed 1" in text


def test_the_command_runs_every_policy_by_default_and_with_all():
    default = run("--games", "2", "--players", "6")
    assert run("--games", "2", "--players", "6", "--policy", "all") == default
    for name in POLICIES:
        assert f"\n{name} " in default


def test_the_command_json_is_the_pure_result():
    out = json.loads(run("--games", "8", "--policy", "always-A", "--players", "7", "--seed",
                         "3", "--json"))
    assert out["players"] == 7 and out["games"] == 8 and out["seed"] == 3
    assert out["policies"] == [simulate("always-A", games=8, players=7, seed=3)]


def test_the_command_extra_sections():
    text = run("--games", "10", "--policy", "always-C", "--pact-dilemma", "--targets",
               "--roles")
    assert "Roles under always-C" in text
    assert "Pact dilemma with always-C votes" in text
    assert "Balance targets" in text and text.count("[holds ]") + text.count("[MISSED]") == 5
    data_out = json.loads(run("--games", "4", "--policy", "always-C", "--pact-dilemma",
                              "--targets", "--json"))
    assert data_out["pact_dilemma"][0]["policy"] == "always-C"
    assert len(data_out["targets"]) == 5


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "5"], "--players must be 6, 7 or 8"),
    (["--games", "0"], "--games must be 1 or more"),
    (["--policy", "greedy"], "Unknown policy 'greedy'"),
    (["--policy", "always-C", "--policy", "nope"], "Unknown policy 'nope'"),
    (["--pact", "4"], "--pact must be between 0 and 3"),
    (["--games", "many"], "invalid int value"),
])
def test_the_command_rejects_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
