"""Golden what-ifs: a record, one public decision changed, the expected alternative line."""

from games import whatif
from games.austerity import simulate as austerity_sim
from games.crisis import simulate as crisis_sim
from games.poleconomy import bots as pole_bots
from games.poleconomy import simulate as pole_sim

NAMES = ["Ana", "Ben", "Cai", "Dee", "Eli", "Fay"]


def _bag(kind, tally):
    return [{"type": "ballot", "kind": kind, "player": n} for n in NAMES] + [
        {"type": "count", "kind": kind, "tally": tally}]


def state_in_class_record():
    """Six players pay one coin each into the pact, then vote tax A and fund health first
    for three rounds."""
    actions = [{"type": "pact", "player": n, "coins": 1} for n in NAMES]
    for _round in range(3):
        actions += _bag("tax", {"A": 6}) + _bag("budget", {"health": 3, "education": 2,
                                                           "shield": 1})
    return {"game": "state-in-class", "seed": 42, "config": {"players": NAMES},
            "actions": actions}


def _choice(record, label, **params):
    table = whatif.read(record)
    return next(c for c in table.choices if c.label.startswith(label)
                and all(c.params.get(k) == v for k, v in params.items()))


def test_state_in_class_tax_d_instead_of_a_in_round_2_fills_the_funds_and_eases_tension():
    record = state_in_class_record()
    choice = _choice(record, "Tax", round=2)
    assert choice.played == "A"
    result = whatif.what_if(record, choice.index, "D")
    real, alt = result["as_played"], result["what_if"]
    assert real["steps"] == alt["steps"] == [1, 2, 3, 4]
    # Round 1 is before the change: the same in both lines.
    assert real["series"][0] == alt["series"][0]
    # Round 2: tax D raises more than A, so every fund ends the round fuller and Health
    # climbs to level 3 (level 2 with A).
    assert real["series"][1] == {"tension": 5, "level:health": 2, "fund:health": 4,
                                 "level:education": 2, "fund:education": 0,
                                 "level:shield": 1, "fund:shield": 4}
    assert alt["series"][1] == {"tension": 5, "level:health": 3, "fund:health": 7,
                                "level:education": 2, "fund:education": 6,
                                "level:shield": 1, "fund:shield": 7}
    # Round 3 (tax A again, kept from the record): Tension ends at 8 instead of 9.
    assert (real["series"][2]["tension"], alt["series"][2]["tension"]) == (9, 8)
    assert result["bot"] == []  # every later decision of the class was still legal
    assert {"msgid": "The class would have ended with {alt} points in all instead of {real}.",
            "params": {"alt": 50, "real": 47}} in result["differences"]


def test_state_in_class_a_changed_decision_answers_with_the_public_outcome_only():
    record = state_in_class_record()
    choice = _choice(record, "Tax", round=2)
    alt = next(a for a in choice.alternatives if a.key == "D")
    assert alt.actions == ({"type": "count", "kind": "tax", "outcome": [["D"]]},)


def test_austerity_borrowing_instead_of_raising_taxes_changes_the_tracks():
    _state, record = austerity_sim.play({}, 7)
    choice = _choice(record, "Budget item")
    assert (choice.index, choice.played, [a.key for a in choice.alternatives]) == (
        0, "raise-taxes", ["borrow"])
    result = whatif.what_if(record, choice.index, "borrow")
    assert result["as_played"]["measure"] == {"result": "won", "year": 1, "tracks": 21}
    assert result["what_if"]["measure"] == {"result": "won", "year": 1, "tracks": 20}
    assert result["as_played"]["series"][0] != result["what_if"]["series"][0]
    assert set(result["tracks"]) == {"employment", "public-safety", "wealth", "health",
                                     "popularity", "debt"}


def test_crisis_a_pass_instead_of_an_export_costs_the_team_its_vp():
    _state, record = crisis_sim.play(["sensible"] * 4, 5)
    table = whatif.read(record)
    choice = table.choices[2]
    result = whatif.what_if(record, choice.index, choice.alternatives[0].key)
    real, alt = result["as_played"]["measure"], result["what_if"]["measure"]
    assert real["vp"] == {"Team 1": 53, "Team 2": 50, "Team 3": 70, "Team 4": 57}
    assert alt["vp"] == {"Team 1": 53, "Team 2": 48, "Team 3": 70, "Team 4": 57}
    assert {"msgid": "{team} would have ended with {alt} VP instead of {real}.",
            "params": {"team": "Team 2", "alt": 48, "real": 50}} in result["differences"]


def test_poleconomy_reversing_the_index_in_round_1_changes_final_wealth():
    _state, actions = pole_sim.play([pole_bots.get_policy("builder")] * 4, 5)
    record = {"game": "poleconomy", "seed": 5, "config": {"players": pole_sim.bot_names(4)},
              "actions": actions}
    choice = _choice(record, "The Index", round=1)
    assert choice.played == "kept"
    result = whatif.what_if(record, choice.index, "reversed")
    assert result["as_played"]["measure"]["wealth"] == {"Bot 1": 0, "Bot 2": 197,
                                                        "Bot 3": 243, "Bot 4": 264}
    assert result["what_if"]["measure"]["wealth"]["Bot 2"] != 197
    assert all(t["how"] == "bot" for t in result["bot"])


def poleconomy_raise_record():
    """Four builder bots whose Prime Minister asks Parliament for a $3 raise every round."""
    _state, actions = pole_sim.play([pole_bots.get_policy("builder", pm_raise=3)] * 4, 1)
    return {"game": "poleconomy", "seed": 1, "config": {"players": pole_sim.bot_names(4)},
            "actions": actions}


def test_poleconomy_a_refused_raise_in_round_6_costs_the_prime_minister_exactly_the_raise():
    record = poleconomy_raise_record()
    choice = _choice(record, "Consent", kind="salaries", round=6)
    assert choice.played == "carried"
    # The PM (Bot 3) asked for $28 instead of $25; the alternative is the count's public
    # outcome the other way, never a ballot.
    pm_orders = next(a for a in record["actions"][:choice.index]
                     if a["type"] == "orders" and a["player"] == "Bot 3"
                     and a["orders"].get("pm", {}).get("salaries") == {"pm": 28})
    assert pm_orders
    alt = next(a for a in choice.alternatives)
    assert (alt.key, alt.actions) == ("not-carried", (
        {"type": "count", "decision": "r6.consent.salaries", "outcome": "not-carried"},))
    result = whatif.what_if(record, choice.index, "not-carried")
    real, changed = result["as_played"], result["what_if"]
    assert real["series"][:6] == changed["series"][:6]  # nothing differs before the salary
    for before, after in zip(real["series"][6:], changed["series"][6:], strict=True):
        assert after == {**before, "wealth:Bot 3": before["wealth:Bot 3"] - 3}
    assert changed["measure"]["wealth"] == {"Bot 1": 109, "Bot 2": 69, "Bot 3": 146,
                                            "Bot 4": 247}
    assert result["differences"] == [{
        "msgid": "{player} would have ended with ${alt} instead of ${real}.",
        "params": {"player": "Bot 3", "alt": 146, "real": 149}}]
    assert result["bot"] == []  # every later order of the class was still legal
    assert all(t["how"] in ("kept", "changed") for t in changed["taken"])
