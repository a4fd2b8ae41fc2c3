"""Poleconomy records, views, decisions and invariants (money, determinism, snapshots)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games import core, registry
from games.core import FORM, MASTER, SEAT, InvalidAction
from games.poleconomy import balances, decisions, from_dict, summary, to_dict, view
from games.poleconomy.bots import get_policy
from games.poleconomy.forms import WAYS, reachable, suggested_orders
from games.poleconomy.rules import apply, new_game
from games.poleconomy.simulate import balance_targets, format_report, play, simulate

NAMES = ["Ana", "Ben", "Cai"]


def record(actions, **config):
    return {"game": "poleconomy", "version": 1, "seed": 4,
            "config": {"players": NAMES, **config}, "actions": actions}


def started(**start):
    start.setdefault("basic_incomes", {"Ana": 6, "Ben": 5, "Cai": 4})
    start.setdefault("pm", "Ana")
    return new_game({"players": NAMES, "start": start}, 1)


def all_transfers(state):
    return [e for r in state.history for e in r["events"] if e["type"] == "transfer"]


def ledger(state):
    totals = dict.fromkeys(balances(state), 0)
    for t in all_transfers(state):
        totals[t["from"]] -= t["amount"]
        totals[t["to"]] += t["amount"]
    return totals


def test_a_record_replays_through_core_and_may_stop_mid_game():
    rec = record([{"type": "parties", "parties": {}},
                  {"type": "orders", "player": "Ana", "orders": None}],
                 dice=[[1, 2], [2, 2], [3, 4], [6, 5], [1, 2], [1, 3]])
    replayed = registry.replay(rec)
    assert replayed.state.pm == "Ana" and replayed.state.round == 1
    assert [d.id for d in decisions(replayed.state)] == ["r1.orders.Ben", "r1.orders.Cai"]


def test_an_invalid_action_in_a_record_names_its_index():
    rec = record([{"type": "parties", "parties": {}}, {"type": "orders", "player": "Zed",
                                                       "orders": None}],
                 dice=[[1, 2], [2, 2], [3, 4], [6, 5], [1, 2], [1, 3]])
    with pytest.raises(core.ReplayError) as err:
        registry.replay(rec)
    assert err.value.index == 1 and "Zed" in err.value.reason


def test_each_decision_has_a_stable_id_and_a_default_that_applies_the_nmr_rule():
    state = started()
    ds = decisions(state)
    assert [(d.id, d.who, d.mode) for d in ds] == [
        ("r1.orders.Ana", SEAT, FORM), ("r1.orders.Ben", SEAT, FORM),
        ("r1.orders.Cai", SEAT, FORM)]
    assert ds[0].kind == "pm_orders" and ds[1].kind == "orders"
    for d in ds:
        state, _ = apply(state, d.default)
    assert state.round == 2 and all(p.position == "life-insurance" for p in state.players)


def test_set_up_decisions_belong_to_the_game_master():
    state = new_game({"players": NAMES}, 2)
    (d,) = decisions(state)
    assert (d.id, d.who, d.action) == ("setup.parties", MASTER, "parties")


def test_apply_leaves_the_old_state_untouched():
    state = started()
    before = to_dict(state)
    apply(state, {"type": "orders", "player": "Ana", "orders": {"move": {"roll": True}}})
    assert to_dict(state) == before


def test_sealed_orders_are_seen_by_their_writer_and_the_master_only():
    state = started(auction=["a25"])
    orders = {"bids": [{"firm": "a25", "amount": 17}], "move": {"corner": "bonds"}}
    state, _ = apply(state, {"type": "orders", "player": "Ben", "orders": orders})
    for audience in ("public", "Cai", "Ana"):
        shown = json.dumps(view(state, audience))
        assert '"amount": 17' not in shown and '"corner": "bonds"' not in shown
    assert view(state, "Ben")["me"]["orders"] == orders
    assert view(state, "master")["orders"] == {"Ben": orders}
    assert [p["orders_sent"] for p in view(state, "public")["players"]] == [False, True, False]


def test_no_view_holds_how_anyone_voted_on_consent():
    state = started(government=["Ana", "Ben"])
    state, _ = apply(state, {"type": "orders", "player": "Ana",
                             "orders": {"pm": {"salaries": {"pm": 20}}}})
    state, _ = apply(state, {"type": "ballot", "decision": "r1.consent.salaries",
                             "player": "Ben"})
    for audience in ("public", "master", "Ben"):
        consent = view(state, audience)["consents"][0]
        assert consent == {"decision": "r1.consent.salaries", "kind": "salaries",
                           "proposal": {"pm": 20}, "voted": 1, "outcome": None}


def test_the_public_view_reports_what_the_rulebook_says_the_gm_reports():
    v = view(started(bonds_issued=2, life_insurance={"Cai": 1}), "public")
    assert {"index", "players", "auction", "unsold", "bank", "treasury", "bonds", "insurance",
            "cabinet", "salaries", "tax"} <= set(v)
    assert v["bonds"] == {"issued": 2, "unissued": 28, "bank": 2}
    assert v["insurance"] == {"life": 4, "business": 5}


def test_reachable_lists_each_total_and_the_decision_its_square_needs():
    state = started(positions={"Ana": "takeover"})
    r = reachable(state, "Ana")
    assert set(r["roll"]) == {"inner", "outer"} and len(r["direct"]) == 4
    assert [x["total"] for x in r["roll"]["outer"]] == list(range(2, 12))
    assert sum(WAYS.values()) == 35  # the 36th outcome is the double six
    assert all(x["decision"] == "buy" for x in r["roll"]["inner"] if x["kind"] == "company")
    state, _ = apply(state, {"type": "orders", "player": "Ana",
                             "orders": suggested_orders(state, "Ana")})


def test_a_snapshot_round_trips_through_json():
    state, _ = play([get_policy("random") for _ in range(4)], 11)
    again = from_dict(json.loads(json.dumps(to_dict(state))))
    assert to_dict(again) == to_dict(state) and summary(again) == summary(state)


@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_conserve_money_and_balances_match_the_transfers(seed):
    policy = ["random", "builder", "cautious", "nmr"][seed % 4]
    state, actions = play([get_policy(policy, pm_raise=seed % 3 * 10)
                           for _ in range(3 + seed % 4)], seed)
    assert sum(balances(state).values()) == 0
    assert ledger(state) == balances(state)
    assert state.bank + state.treasury + sum(p.cash for p in state.players) == \
        state.money_supply
    assert all(p.cash >= 0 for p in state.players) and state.bank >= 0
    assert 0 <= state.bonds_issued <= 30
    assert sum(p.bonds for p in state.players) <= state.bonds_issued
    assert sum(p.life_insurance for p in state.players) <= 5
    # The record replays to the same game (actions + config + seed only).
    rec = {"game": "poleconomy", "version": 1, "seed": seed,
           "config": {"players": state.names}, "actions": actions}
    assert to_dict(registry.replay(rec).state) == to_dict(state)


def test_an_invalid_action_changes_nothing_in_a_replay():
    from games.poleconomy.rules import replay_actions
    state = started()
    before = to_dict(state)
    with pytest.raises(InvalidAction):
        replay_actions(state, [{"type": "orders", "player": "Ana", "orders": {"fly": 1}}])
    assert to_dict(state) == before


def test_simulate_reports_the_balance_targets():
    report = simulate(games=20, seed=1, policy="builder", players=4)
    assert report["games"] == 20 and sum(report["end"].values()) == 20
    targets = balance_targets(games=6, seed=1)
    assert [t["target"] for t in targets["targets"]] == ["1a", "1b", "2", "3a", "3b"]
    assert "1a" in format_report(targets) and "builder" in format_report(report)


PLAY = """
import json
from games.poleconomy.bots import get_policy
from games.poleconomy.simulate import play
from games.poleconomy.views import summary
out = []
for seed in range(3):
    state, record = play([get_policy("random") for _ in range(5)], seed)
    out.append([summary(state), record])
print(json.dumps(out))
"""


def test_the_same_game_comes_out_byte_for_byte_the_same_in_another_process():
    root = Path(__file__).resolve().parents[3]
    runs = [subprocess.run([sys.executable, "-c", PLAY], cwd=root, capture_output=True,
                           text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": h}).stdout for h in "12"]
    assert runs[0] == runs[1] and runs[0]
