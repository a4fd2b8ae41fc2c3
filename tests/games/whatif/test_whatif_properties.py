"""What-if properties over bot-played records of every game: the same path reproduces the
game, turning points only use alternatives the rules allowed, and secrets never matter."""

import pytest

from games import whatif
from games.austerity import simulate as austerity_sim
from games.crisis import simulate as crisis_sim
from games.poleconomy import bots as pole_bots
from games.poleconomy import simulate as pole_sim
from games.registry import get_engine, replay
from games.state_in_class import bots as sic_bots
from games.state_in_class import simulate as sic_sim


def sic_record(seed, players=6):
    _state, actions = sic_sim.play([sic_bots.get_policy("random")] * players, seed)
    return {"game": "state-in-class", "seed": seed,
            "config": {"players": sic_sim.bot_names(players)}, "actions": actions}


def austerity_record(seed):
    return austerity_sim.play({}, seed, "random")[1]


def crisis_record(seed):
    return crisis_sim.play(["sensible", "random", "greedy"], seed)[1]


def pole_record(seed):
    _state, actions = pole_sim.play([pole_bots.get_policy("random")] * 4, seed)
    return {"game": "poleconomy", "seed": seed, "config": {"players": pole_sim.bot_names(4)},
            "actions": actions}


RECORDS = [(sic_record, 1), (sic_record, 2), (austerity_record, 3), (austerity_record, 4),
           (crisis_record, 5), (pole_record, 6), (pole_record, 7)]


@pytest.fixture(scope="module", params=RECORDS, ids=lambda p: f"{p[0].__name__}-{p[1]}")
def record(request):
    make, seed = request.param
    return make(seed)


def test_an_unchanged_decision_sent_through_the_what_if_path_reproduces_the_game(record):
    table = whatif.read(record)
    assert table.choices, "the record has public decisions to change"
    engine = get_engine(record["game"])
    prepared = {**record, "actions": table.actions}
    final = engine.summary(replay(prepared).state)
    for choice in table.choices[:: max(1, len(table.choices) // 4)]:
        line = whatif.replay_changed(record, choice.index, choice.played, table=table)
        assert engine.summary(line.state) == final
        assert {t["how"] for t in line.taken} <= {whatif.KEPT, whatif.CHANGED}
        assert sum(t["how"] == whatif.KEPT for t in line.taken) == len(table.actions) - choice.end


def test_no_decision_through_the_what_if_path_changes_the_as_played_line(record):
    line = whatif.as_played(record)
    table = whatif.read(record)
    assert line.measure == table.module.measure(
        replay({**record, "actions": table.actions}).state)


def test_every_turning_point_changes_the_outcome_with_an_alternative_legal_at_that_moment(
        record):
    table = whatif.read(record)
    engine = get_engine(record["game"])
    points = whatif.turning_points(record)
    assert len(points) <= 3
    for point in points:
        choice = table.choice(point["choice"]["index"])
        alt = next(a for a in choice.alternatives if a.key == point["alternative"])
        before = engine.new_game(record["config"], record["seed"])
        before, _events = engine.replay_actions(before, table.actions[:choice.start])
        for action in alt.actions:
            before, _events = engine.apply(before, action)  # raises if it was not legal
        assert any(point["impact"])
    impacts = [tuple(p["impact"]) for p in points]
    assert impacts == sorted(impacts, reverse=True)


def test_no_alternative_is_a_ballot(record):
    for choice in whatif.read(record).choices:
        for alt in choice.alternatives:
            assert all(a["type"] != "ballot" for a in alt.actions)


def _resplit(record):
    """The same record with the pact's secret split moved around behind the same total."""
    actions = [dict(a) for a in record["actions"]]
    pacts = [a for a in actions if a["type"] == "pact"]
    total = sum(a["coins"] for a in pacts)
    coins = [0] * len(pacts)
    for i in range(total):  # fill from the last seat, up to 3 each
        coins[len(pacts) - 1 - (i // 3)] += 1
    for action, n in zip(pacts, coins, strict=True):
        action["coins"] = n
    return {**record, "actions": actions}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_state_in_class_records_differing_only_in_the_pact_split_give_identical_what_ifs(
        seed):
    record = sic_record(seed)
    other = _resplit(record)
    assert other["actions"] != record["actions"]
    table = whatif.read(record)
    for choice in table.choices[:: max(1, len(table.choices) // 3)]:
        for alt in choice.alternatives[:2]:
            assert whatif.what_if(record, choice.index, alt.key) == whatif.what_if(
                other, choice.index, alt.key)
    assert whatif.turning_points(record) == whatif.turning_points(other)


def test_state_in_class_counts_by_tally_or_by_outcome_give_identical_what_ifs():
    """A count's outcome is all a what-if reads: the tally behind it does not matter."""
    record = sic_record(1)
    engine = get_engine(record["game"])
    state = engine.new_game(record["config"], record["seed"])
    actions = []
    for action in record["actions"]:
        if action["type"] == "count" and action.get("tally"):
            decision = engine.decisions(state)[0].id
            outcome = engine.ballot_outcome(state, decision, action["tally"])
            action = {k: v for k, v in action.items() if k != "tally"} | {"outcome": outcome}
        actions.append(action)
        state, _events = engine.replay_actions(state, [action])
    other = {**record, "actions": actions}
    table = whatif.read(record)
    choice = next(c for c in table.choices if c.label.startswith("Tax"))
    for alt in choice.alternatives:
        mine, theirs = (whatif.what_if(r, choice.index, alt.key) for r in (record, other))
        assert mine["what_if"] == theirs["what_if"]
        assert mine["differences"] == theirs["differences"]
