"""Every registered engine offers the whole lesson-module protocol (games.core)."""

import pytest

from games.core import BALLOT, Decision
from games.registry import ENGINES, get_engine
from tests.games.state_in_class.state_in_class_support import new_table

PROTOCOL = ("new_game", "apply", "replay_actions", "legal_actions", "player_view",
            "public_view", "is_over", "scores", "summary", "to_dict", "from_dict",
            "decisions", "view", "balances", "ballot_outcome")


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_engine_offers_the_whole_protocol(game):
    engine = get_engine(game)
    assert game == engine.GAME_ID
    missing = [name for name in PROTOCOL if not callable(getattr(engine, name, None))]
    assert missing == []


def test_state_in_class_waits_for_pacts_then_a_secret_ballot_of_every_player():
    engine = get_engine("state-in-class")
    state = new_table(8)
    pacts = engine.decisions(state)
    assert len(pacts) == 8 and all(isinstance(d, Decision) for d in pacts)
    assert pacts[0].default == {"type": "pact", "player": pacts[0].deciders[0], "coins": 0}
    for d in pacts:
        state, _ = engine.apply(state, d.default)
    [vote] = engine.decisions(state)
    assert (vote.id, vote.kind, vote.mode, vote.options) == ("1:tax", "tax", BALLOT,
                                                            ("A", "B", "C", "D"))
    assert len(vote.deciders) == 8
    state, _ = engine.apply(state, {"type": "ballot", "kind": "tax", "player": vote.deciders[0]})
    assert len(engine.decisions(state)[0].deciders) == 7
    assert sum(engine.balances(state).values()) == 0
    assert engine.view(state, "public") == engine.public_view(state)
    name = state.players[0].name
    assert engine.view(state, name) == engine.player_view(state, name)
