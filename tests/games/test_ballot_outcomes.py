"""Generic secret ballots: votes named by their decision id, counts by outcome only, and every
engine's ``ballot_outcome`` (games.core)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import austerity, crisis, poleconomy, state_in_class
from games.core import InvalidAction, plurality
from games.poleconomy.rules import step as pol_step
from games.registry import replay
from games.state_in_class import data, rules
from games.state_in_class.audiences import player_view, public_view, summary
from games.state_in_class.bots import get_policy
from games.state_in_class.simulate import Stats, bot_names, play
from games.state_in_class.state import BUDGET_VOTE, TAX_VOTE, TIE_BREAK, to_dict
from tests.games.state_in_class.state_in_class_support import (
    ballots,
    set_services,
    started,
    tax_vote,
)

# --------------------------------------------------------------------------- helpers


def outcome_of(state, tally):
    return state_in_class.ballot_outcome(state, rules.vote_id(state), tally)


def count_by_outcome(state, tally):
    """Count the open vote by the outcome its ``tally`` gives (the ballots are in the bag)."""
    return rules.step(state, {"type": "count", "decision": rules.vote_id(state),
                              "outcome": outcome_of(state, tally)})


def count_by_tally(state, tally):
    return rules.step(state, {"type": "count", "decision": rules.vote_id(state),
                              "tally": dict(tally)})


def voters_for(state, tally):
    return state.names[: sum(tally.values())]


def without_tally(raw: Any) -> Any:
    """``raw`` (a state snapshot or events) with every stored count removed: the tally and the
    ranking that replaces it."""
    raw = copy.deepcopy(raw)

    def strip(node: Any) -> None:
        if isinstance(node, dict):
            if "tally" in node:  # a count (a split's "ranking" is no count and stays)
                node.pop("tally")
                node.pop("ranking", None)
            for value in node.values():
                strip(value)
        elif isinstance(node, list):
            for value in node:
                strip(value)

    strip(raw)
    return raw


def tallies_stored(raw: Any) -> list[Any]:
    """Every non-empty ``"tally"`` anywhere in ``raw`` (JSON-ready data)."""
    found: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("tally") is not None:
                found.append(node["tally"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(raw)
    return found


def settle_ties(state):
    """Break every open tie the same way (tax: the first voter passes, then picks; budget: the
    first tied service); returns the events."""
    events = []
    passed = False
    while state.phase == TIE_BREAK:
        tie = state.tie
        choice = None if tie.kind == "tax" and not passed else tie.options[0]
        passed = True
        events += rules.step(state, {"type": "tie_break", "player": tie.deciders[0],
                                     "choice": choice})
    return events


def bot_record(seed=3, policy="random", players=8):
    _, actions = play([get_policy(policy) for _ in range(players)], seed)
    return {"game": "state-in-class", "seed": seed,
            "config": {"players": bot_names(players)}, "actions": actions}


def converted(record, *, outcome):
    """The record with every ballot and count naming its decision id (and, if ``outcome``,
    every count giving the outcome of its tally instead)."""
    state = rules.new_game(record["config"], record["seed"])
    out = []
    for action in record["actions"]:
        new = dict(action)
        if action["type"] in ("ballot", "count"):
            new["decision"] = rules.vote_id(state)
            del new["kind"]
            if outcome and action["type"] == "count":
                new["outcome"] = outcome_of(state, new.pop("tally"))
        rules.step(state, action)
        out.append(new)
    return {**record, "actions": out}


# --------------------------------------------------------------------------- plurality


def test_plurality_groups_equal_votes_most_first_and_leaves_out_options_with_none():
    assert plurality({"B": 2, "D": 2, "A": 3, "C": 0}, "ABCD") == [["A"], ["B", "D"]]
    assert plurality({}, "ABCD") == []
    with pytest.raises(InvalidAction, match="not an option"):
        plurality({"E": 1}, "ABCD")
    with pytest.raises(InvalidAction, match="whole number"):
        plurality({"A": -1}, "ABCD")


# --------------------------------------------------------------------------- decision form


def test_a_record_in_the_decision_form_replays_exactly_as_in_the_kind_form():
    record = bot_record()
    generic = converted(record, outcome=False)
    assert generic["actions"] != record["actions"]
    assert any(a.get("decision") == "2:budget" for a in generic["actions"])
    old, new = replay(record), replay(generic)
    assert to_dict(new.state) == to_dict(old.state)
    assert new.events == old.events


def test_a_ballot_by_decision_id_is_a_receipt_of_the_open_vote():
    state = started()
    rules.step(state, {"type": "ballot", "decision": "1:tax", "player": "Ana"})
    assert state.receipts == ["Ana"]
    with pytest.raises(InvalidAction, match="already voted in this tax vote"):
        rules.step(state, {"type": "ballot", "decision": "1:tax", "player": "Ana"})


@pytest.mark.parametrize(("decision", "reason"), [
    ("1:budget", "the open vote is '1:tax'"),
    ("2:tax", "the open vote is '1:tax'"),
    ("tax", "the open vote is '1:tax'"),
    ("1:tax:tie", "the open vote is '1:tax'"),
    (1, "the open vote is '1:tax'"),
    (None, "the open vote is '1:tax'"),
])
def test_a_ballot_or_count_naming_another_decision_is_rejected(decision, reason):
    state = started()
    before = to_dict(state)
    for action in ({"type": "ballot", "decision": decision, "player": "Ana"},
                   {"type": "count", "decision": decision, "tally": {}},
                   {"type": "count", "decision": decision, "outcome": []}):
        with pytest.raises(InvalidAction, match=reason):
            rules.step(state, action)
        with pytest.raises(InvalidAction, match=reason):
            state_in_class.ballot_outcome(state, decision, {})
    assert to_dict(state) == before


def test_no_decision_id_is_open_during_the_pact_or_a_tie_break():
    state = rules.new_game({"players": bot_names(6)}, 1)
    with pytest.raises(InvalidAction, match="no open vote '1:tax': this is the opening pact phase"):
        rules.step(state, {"type": "ballot", "decision": "1:tax", "player": "Bot 1"})
    state = started()
    ballots(state, "tax", ["Ana", "Ben"])
    count_by_tally(state, {"A": 1, "B": 1})
    assert state.phase == TIE_BREAK
    with pytest.raises(InvalidAction, match="this is the tie-break phase"):
        rules.step(state, {"type": "count", "decision": "1:tax", "outcome": []})


@pytest.mark.parametrize("action", [
    {"type": "ballot", "player": "Ana"},
    {"type": "ballot", "kind": "tax", "decision": "1:tax", "player": "Ana"},
    {"type": "count", "outcome": []},
    {"type": "count", "kind": "tax", "decision": "1:tax", "tally": {}},
    {"type": "count", "decision": "1:tax"},
    {"type": "count", "decision": "1:tax", "tally": {}, "outcome": []},
])
def test_a_vote_is_named_once_and_a_count_gives_a_tally_or_an_outcome(action):
    with pytest.raises(InvalidAction, match="one of the two"):
        rules.step(started(), action)


# --------------------------------------------------------------------------- outcome counts


def test_a_tax_outcome_with_one_option_decides_the_tax_and_stores_no_tally():
    state = started()
    ballots(state, "tax", ["Ana", "Ben", "Cai"])
    assert outcome_of(state, {"C": 2, "A": 1}) == [["C"]]
    events = rules.step(state, {"type": "count", "decision": "1:tax", "outcome": [["C"]]})
    assert state.tax == "C" and state.phase == BUDGET_VOTE
    assert state.history[0]["tax"] == {"tally": None, "ranking": [["C"]], "voters": 3,
                                       "winner": "C", "decided_by": "plurality"}
    [counted] = [e for e in events if e["type"] == "count"]
    assert counted == {"type": "count", "audience": "public", "kind": "tax", "tally": None,
                       "ranking": [["C"]], "voters": 3}


def test_a_tax_outcome_of_a_tie_asks_the_voters_among_the_tied_in_tie_order():
    by_tally, by_outcome = started(), started()
    voters = ["Ana", "Cai", "Gus", "Hal"]
    for state in (by_tally, by_outcome):
        ballots(state, "tax", voters)
    count_by_tally(by_tally, {"B": 2, "D": 2})
    assert outcome_of(by_outcome, {"B": 2, "D": 2}) == [["B", "D"]]
    rules.step(by_outcome, {"type": "count", "kind": "tax", "outcome": [["D", "B"]]})
    assert by_outcome.phase == TIE_BREAK
    assert by_outcome.tie == by_tally.tie
    assert by_outcome.tie.options == ["B", "D"]
    assert by_outcome.tie.deciders == [p.name for p in rules.tie_order(by_outcome)
                                       if p.name in voters]


def test_a_tax_outcome_when_nobody_voted_carries_the_tax_over():
    state = started()
    assert outcome_of(state, {}) == []
    rules.step(state, {"type": "count", "decision": "1:tax", "outcome": []})
    assert state.tax == data.FIRST_ROUND_TAX
    assert state.history[0]["tax"]["carried_over"] is True
    assert state.history[0]["tax"]["decided_by"] == "carried_over"


def test_a_budget_outcome_ranks_the_voted_groups_then_the_unvoted_services_by_level():
    state = started()
    tax_vote(state, "C")
    set_services(state, health=3, education=1, shield=2, funds=None)
    ballots(state, "budget", ["Ana", "Ben", "Cai"])
    assert outcome_of(state, {"shield": 2, "health": 1}) == [["shield"], ["health"]]
    rules.step(state, {"type": "count", "decision": "1:budget",
                       "outcome": [["shield"], ["health"]]})
    assert state.history[0]["split"]["ranking"] == ["shield", "health", "education"]
    assert state.history[0]["budget"] == {"tally": None, "ranking": [["shield"], ["health"]],
                                          "voters": 3}


def test_a_budget_outcome_with_a_tied_group_asks_the_lowest_income():
    state = started()
    tax_vote(state, "C")
    ballots(state, "budget", ["Ana", "Ben"])
    assert outcome_of(state, {"education": 1, "health": 1}) == [["health", "education"]]
    rules.step(state, {"type": "count", "decision": "1:budget",
                       "outcome": [["education", "health"]]})
    assert state.phase == TIE_BREAK and state.tie.kind == "budget"
    assert state.tie.options == ["health", "education"]
    assert state.tie.deciders == [rules.tie_order(state)[0].name]


@pytest.mark.parametrize(("kind", "outcome", "reason"), [
    ("tax", "C", "A tax outcome is"),
    ("tax", [["A"], ["B"]], "A tax outcome is"),
    ("tax", [[]], "A tax outcome is"),
    ("tax", [["A", "A"]], "A tax outcome is"),
    ("tax", [["E"]], "'E' is not an option of the tax vote"),
    ("tax", [], "No count of the 2 ballots"),
    ("tax", [["A", "B", "C"]], "No count of the 2 ballots"),
    ("budget", [["health"], ["education"]], "No count of the 2 ballots"),
    ("budget", [["health"], ["health"]], "A budget outcome"),
    ("budget", {"health": 2}, "A budget outcome"),
    ("budget", [["A"]], "'A' is not an option of the budget vote"),
])
def test_an_outcome_no_count_of_the_bag_could_give_is_rejected(kind, outcome, reason):
    state = started()
    if kind == "budget":
        tax_vote(state, "C")
    ballots(state, kind, ["Ana", "Ben"])
    before = to_dict(state)
    with pytest.raises(InvalidAction, match=reason):
        rules.step(state, {"type": "count", "kind": kind, "outcome": outcome})
    assert to_dict(state) == before


def test_ballot_outcome_checks_the_tally_against_the_bag():
    state = started()
    ballots(state, "tax", ["Ana", "Ben"])
    with pytest.raises(InvalidAction, match="3 votes but 2 ballots"):
        outcome_of(state, {"A": 3})
    with pytest.raises(InvalidAction, match="not an option of the tax vote"):
        outcome_of(state, {"health": 2})


SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
TAX_TABLE = started()
BUDGET_TABLE = started()
tax_vote(BUDGET_TABLE, "C")


@SETTINGS
@given(kind=st.sampled_from(["tax", "budget"]), data_=st.data())
def test_a_count_by_outcome_leads_to_the_same_game_as_the_count_by_its_tally(kind, data_):
    base = (TAX_TABLE if kind == "tax" else BUDGET_TABLE).clone()
    options = rules.options_for(kind)
    votes = data_.draw(st.lists(st.sampled_from(options), max_size=8), label="votes")
    if kind == "budget":
        levels = data_.draw(st.lists(st.integers(1, 4), min_size=3, max_size=3), label="levels")
        set_services(base, *levels, funds=None)
    tally = {o: votes.count(o) for o in options if votes.count(o)}
    voters = base.names[: len(votes)]
    ballots(base, kind, voters)
    by_tally, by_outcome = base.clone(), base.clone()
    events_t = count_by_tally(by_tally, tally) + settle_ties(by_tally)
    events_o = count_by_outcome(by_outcome, tally) + settle_ties(by_outcome)
    assert without_tally(to_dict(by_outcome)) == without_tally(to_dict(by_tally))
    assert without_tally(events_o) == without_tally(events_t)
    assert by_outcome.history[0][kind]["ranking"] == outcome_of(base, tally)
    assert by_outcome.tally is None and by_outcome.history[0][kind]["tally"] is None
    assert [e["tally"] for e in events_o if e["type"] == "count"] == [None]


# --------------------------------------------------------------------------- whole games


def test_a_whole_game_counted_by_outcomes_keeps_no_tally_and_plays_out_the_same():
    record = bot_record(seed=5)
    old, new = replay(record), replay(converted(record, outcome=True))
    assert without_tally(to_dict(new.state)) == without_tally(to_dict(old.state))
    assert summary(new.state) == summary(old.state)
    assert state_in_class.scores(new.state) == state_in_class.scores(old.state)
    name = new.state.players[0].name
    views = [public_view(new.state), player_view(new.state, name), to_dict(new.state),
             new.events]
    assert tallies_stored(views) == []
    assert json.dumps(views)
    rounds = [r for r in new.state.history if "tax" in r]
    assert rounds and all(r["tax"]["tally"] is None and "ranking" in r["tax"] for r in rounds)
    stats_old, stats_new = Stats("random", 8), Stats("random", 8)
    stats_old.add(old.state)
    stats_new.add(new.state)
    assert stats_new.row() == stats_old.row()


def test_the_decision_id_of_the_open_vote_is_the_id_its_ballots_and_counts_name():
    state = started()
    [vote] = state_in_class.decisions(state)
    assert vote.id == rules.vote_id(state) == "1:tax"
    assert state.phase == TAX_VOTE


# --------------------------------------------------------------------------- other engines


VOTES = {"Ana": 6, "Ben": 4, "Cai": 2}


def consent_ballot(votes=VOTES, voters=("Ana", "Ben", "Cai")):
    state = poleconomy.new_game({"players": ["Ana", "Ben", "Cai"], "rounds": 5,
                                 "consent_mode": "ballot",
                                 "start": {"basic_incomes": {"Ana": 6, "Ben": 5, "Cai": 4},
                                           "pm": "Ana", "government": ["Ana", "Ben"],
                                           "votes": dict(votes)}}, 1)
    pol_step(state, {"type": "orders", "player": "Ana",
                     "orders": {"pm": {"salaries": {"pm": 30}}}})
    for name in voters:
        pol_step(state, {"type": "ballot", "decision": "r1.consent.salaries", "player": name})
    return state


@pytest.mark.parametrize(("votes", "tally", "outcome"), [
    (VOTES, {"yes": 10, "no": 2}, "carried"),
    ({"Ana": 7, "Ben": 3, "Cai": 2}, {"yes": 7, "no": 5}, "carried"),
    (VOTES, {"yes": 6, "no": 6}, "not-carried"),  # exactly half is not a majority
    (VOTES, {"no": 12}, "not-carried"),
])
def test_poleconomy_consent_carries_with_more_than_half_of_all_electoral_votes(votes, tally,
                                                                              outcome):
    state = consent_ballot(votes=votes)
    assert poleconomy.ballot_outcome(state, "r1.consent.salaries", tally) == outcome


def test_poleconomy_consent_counts_against_every_electoral_vote_not_only_the_cast_ones():
    state = consent_ballot(voters=("Ana",))
    assert poleconomy.ballot_outcome(state, "r1.consent.salaries", {"yes": 6}) == "not-carried"
    with pytest.raises(InvalidAction, match="carry 6"):
        poleconomy.ballot_outcome(state, "r1.consent.salaries", {"yes": 10})


def test_poleconomy_ballot_outcome_rejects_an_unknown_ballot_or_option():
    state = consent_ballot()
    with pytest.raises(InvalidAction, match="no open consent ballot"):
        poleconomy.ballot_outcome(state, "r1.consent.tax", {"yes": 12})
    with pytest.raises(InvalidAction, match="not an option of this ballot"):
        poleconomy.ballot_outcome(state, "r1.consent.salaries", {"carried": 12})


@pytest.mark.parametrize("engine", [austerity, crisis])
def test_an_engine_without_a_secret_ballot_refuses_every_ballot_outcome(engine):
    with pytest.raises(InvalidAction, match="has no secret ballot"):
        engine.ballot_outcome(None, "y1.policy", {"a": 1})
