"""What a what-if tells the lesson side beyond msgids: the round or year of every decision
the bot took, and what an alternative is (a Crisis move's kind, amount and resource; the
event card an Austerity event option belongs to), so a page can name them in words."""

from games import whatif
from games.austerity import data as austerity_data
from games.austerity import simulate as austerity_sim
from games.crisis import cards
from games.crisis import simulate as crisis_sim


def crisis_record():
    return crisis_sim.play(["sensible"] * 5, 3)[1]


def test_every_decision_the_bot_took_names_the_round_it_was_taken_in():
    record = crisis_record()
    table = whatif.read(record)
    choice = next(c for c in table.choices if c.played.startswith("export"))
    result = whatif.what_if(record, choice.index, "pass")
    assert result["bot"], "this what-if needs the bot"
    rounds = set(result["what_if"]["steps"])
    for taken in result["bot"]:
        assert taken["step"] in rounds
        assert taken["step"] >= choice.params["round"]


def test_a_crisis_move_says_what_it_exports_or_sells_and_how_much():
    record = crisis_record()
    table = whatif.read(record)
    for choice in table.choices:
        named = [choice.played_params, *(a.params for a in choice.alternatives)]
        for params in named:
            assert params["kind"] in ("export", "black_market", "pass")
            if params["kind"] != "pass":
                assert params["resource"] in cards.RESOURCE_NAMES
                assert params["amount"] >= 1
            if params["kind"] == "export":
                assert isinstance(params["contract"], int)
    assert any(c.played_params["kind"] == "export" for c in table.choices)


def test_an_austerity_event_option_names_its_event_card():
    record = austerity_sim.play({}, 3, "random")[1]
    table = whatif.read(record)
    events = [c for c in table.choices if c.params["kind"] == "event"]
    assert events
    for choice in events:
        options = {o.id for o in austerity_data.EVENTS[choice.params["event"]].options}
        assert choice.played.split(":")[0] in options | {"decline", "fund-again"}
