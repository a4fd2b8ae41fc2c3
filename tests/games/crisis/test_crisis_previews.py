"""Previews of a team's choices (``games.crisis.previews``): the numbers agree with what the
engine then does, the risk of the black market is the Event's line, nothing changes the
state, and every line can be shown in English and Spanish."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.core import InvalidAction
from games.crisis import bots, names, new_game, previews, rules, summary, to_dict, views
from games.crisis.state import OVER
from tests.games.crisis.crisis_support import act, config, events_of, staged
from tests.i18n.po import read

PO = Path(__file__).resolve().parents[3] / "locale" / "es" / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def spanish():
    entries = [e for e in read(PO) if not e.obsolete and e.msgctxt is None and e.msgstr]
    single = {e.msgid: e.msgstr[0] for e in entries if not e.msgid_plural}
    plural = {(e.msgid, e.msgid_plural): e.msgstr for e in entries if e.msgid_plural}

    def gettext(text):
        assert text in single, f"no Spanish for {text!r}"
        return single[text]

    def ngettext(singular, plural_text, n):
        assert (singular, plural_text) in plural, f"no Spanish for {singular!r}"
        return plural[singular, plural_text][0 if n == 1 else 1]
    return gettext, ngettext


def planning(**players):
    """Blue to place its first Manager, the board pinned."""
    return staged(2, phase="planning", players=players, board={
        "companies": ["FARM 03", "TRAINS 01", "BANK 01", "PORT 01", None, None],
        "employees": ["WF", "E2", "F1", None, None]})


# --------------------------------------------------------------------------- Companies


def test_a_company_preview_says_its_price_vp_needs_and_output():
    state = planning(Blue={"companies": ["FARM 01"], "employees": ["F1"]})
    out = previews.company_preview(state, "Blue", "FARM 03")
    assert out["available"] and out["space"] == "company-1"
    assert out["costs"]["credits"] == 5 and out["earns"]["vp"] == 1 and out["penalty"] == 1
    assert out["needs"]["staff"] == ["farmer"] and out["needs"]["inputs"] == {"energy": 1}
    assert out["needs"]["inputs_short"] == {"energy": 1} and out["needs"]["staffed"]
    assert out["output"] == {"food": 2} and out["per_skill"] == {"food": 1}
    assert [names.render_line(x) for x in out["lines"][:3]] == [
        "Costs 5 credits and gives 1 VP at once.",
        "To work it needs Farmer and, each round, 1 Energy.",
        "Each round it makes 2 Food without bonus Employees; each bonus skill point adds "
        "1 Food."]
    port = previews.company_preview(state, "Blue", "PORT 01")
    assert port["output"] == {"vp": 2, "credits": 20} and port["per_skill"] == {
        "vp": 1, "credits": 5}
    assert not port["needs"]["staffed"]


def test_this_rounds_event_is_in_the_price_and_the_output():
    state = staged(2, phase="planning", event="investor-confidence",
                   board={"companies": ["FARM 03", None, None, None, None, None]})
    assert previews.company_preview(state, "Blue", "FARM 03")["costs"]["credits"] == 2
    state = staged(2, phase="planning", event="good-harvest")
    assert previews.company_preview(state, "Blue", "FARM 03")["output"] == {"food": 3}


def test_a_company_the_team_cannot_pay_for_says_why():
    state = planning(Blue={"credits": 3})
    out = previews.company_preview(state, "Blue", "FARM 03")
    assert not out["available"]
    assert names.render_line(out["reason"]) == "It costs 5 credits; you have 3."
    gone = previews.company_preview(state, "Blue", "MINES 03")
    assert names.render_line(gone["reason"]) == "Mines 03 is not on the board this round."


def test_the_third_extra_manager_icon_is_announced():
    state = planning(Blue={"companies": ["FARM 01", "MINES 03"]})  # 1 icon
    assert previews.company_preview(state, "Blue", "TRAINS 01")["fifth_manager"]
    assert not previews.company_preview(state, "Blue", "FARM 03")["fifth_manager"]


def test_buying_costs_and_earns_what_the_preview_said():
    state = staged(2, phase="planning", event="capital-flight",
                   board={"companies": ["TRAINS 01", None, None, None, None, None]})
    blue = state.player("Blue")
    preview = previews.company_preview(state, "Blue", "TRAINS 01")
    credits, vp = blue.credits, blue.vp
    act(state, type="place", player="Blue", space="company-1")
    for name in ["Red", "Blue", "Red", "Blue", "Red", "Blue", "Red"]:
        act(state, type="place", player=name, space="government-subsidy")
    before = blue.credits
    act(state, type="resolve", player="Blue", space="company-1", choice="buy")
    assert before - blue.credits == preview["costs"]["credits"] == 8 + 3
    assert blue.vp - vp == preview["earns"]["vp"]
    assert credits < before  # the Subsidies came first


# --------------------------------------------------------------------------- Employees


def test_an_employee_preview_lists_the_slots_it_fits_and_what_it_adds_now():
    state = planning(Blue={"companies": ["FARM 03"], "employees": ["F1"],
                           "warehouse": {"energy": 1}})
    wf = state.board_employees[0]
    out = previews.employee_preview(state, "Blue", wf)
    assert out["available"] and out["space"] == "employee-1" and out["costs"]["credits"] == 0
    assert out["skills"] == {"worker": 2, "farmer": 1}
    assert [(f["where"], f["slot"], f["role"], f["skill"]) for f in out["fits"]] == [
        ("staff", 1, "farmer", 1), ("bonus", 1, "worker", 2), ("bonus", 2, "farmer", 1)]
    assert out["gain"] == {"food": 2} and out["earns"]["resources"] == {"food": 2}
    assert names.render_line(out["lines"][1]) == \
        "In Farm 03's bonus slot 1 it adds 2 to the Company's output."
    engineer = previews.employee_preview(state, "Blue", state.board_employees[1])
    assert engineer["fits"] == [] and engineer["gain"] == {}


@pytest.mark.parametrize(("status", "event", "cost"), [
    (31, None, 5), (20, None, 3), (10, None, 1), (31, "brain-drain", 7)])
def test_a_foreign_employee_costs_what_the_zone_and_the_event_say(status, event, cost):
    state = staged(2, phase="planning", status=status, event=event)
    out = previews.employee_preview(state, "Blue", "FE")
    assert out["costs"]["credits"] == cost and out["penalty"] == 1 and out["left"] == 5
    text = names.render_line(out["lines"][0])
    assert text.startswith(f"Costs {cost} credit{'s' if cost != 1 else ''} now")


def test_the_temp_employee_preview():
    state = planning(Blue={"companies": ["MINES 02"], "warehouse": {"energy": 1}})
    out = previews.employee_preview(state, "Blue", "TEMP")
    assert out["available"] and out["skills"]["banker"] == 1
    assert out["gain"] == {"minerals": 2}  # it can be MINES 02's Engineer


# --------------------------------------------------------------------------- Exports


def exporting(event=None, **blue):
    return staged(2, phase="exports", event=event, exports=["Blue", "Red"],
                  players={"Blue": blue, "Red": {"warehouse": {"food": 3}}},
                  board={"contracts": ["food-4", "chemicals-3", None, None, "food-6",
                                       None, None, None, "food-8", None, None, None]})


@pytest.mark.parametrize("event", [None, "export-boom", "export-slump"])
def test_an_export_earns_what_its_preview_said(event):
    state = exporting(event, warehouse={"food": 3, "chemicals": 4})
    blue = state.player("Blue")
    out = previews.export_preview(state, "Blue", "chemicals-3")
    assert out["available"] and out["can"] == 3 and out["most"] == 3
    credits_each = {None: 3, "export-boom": 4, "export-slump": 2}[event]
    assert out["per_token"] == {"vp": 2, "credits": credits_each}
    assert out["amounts"][1] == {"amount": 2, "vp": 4, "credits": 2 * credits_each}
    vp, credits = blue.vp, blue.credits
    act(state, type="export", player="Blue", contract="chemicals-3", amount=3)
    assert (blue.vp - vp, blue.credits - credits) == \
        (out["earns"]["vp"], out["earns"]["credits"]) == (6, 3 * credits_each)


def test_an_export_the_team_cannot_make_says_why():
    state = exporting(warehouse={})
    out = previews.export_preview(state, "Blue", 0)
    assert not out["available"]
    assert names.render_line(out["reason"]) == "You hold no Food for this contract."
    other = previews.export_preview(exporting(warehouse={"food": 2}), "Red", 0)
    assert names.render_line(other["reason"]) == "It is not your turn on Exports."
    with pytest.raises(InvalidAction):
        previews.export_preview(state, "Blue", 2)  # an empty space


def test_the_black_market_price_and_what_the_tokens_would_earn_on_a_contract():
    state = exporting("drought", warehouse={"food": 6})
    out = previews.black_market_preview(state, "Blue", "food")
    assert out["price"] == 4 and out["left"] == 4 and out["can"] == 4
    assert out["earns"] == {"credits": 16, "vp": 0, "resources": {}}
    assert out["vp_forgone"] == 4
    credits = state.player("Blue").credits
    act(state, type="black_market", player="Blue", resource="food", amount=4)
    assert state.player("Blue").credits - credits == 16
    again = previews.black_market_preview(state, "Red", "food")
    assert again["left"] == 4 and again["can"] == 3


def test_the_black_market_risk_is_the_events_line():
    state = exporting("drought", warehouse={"food": 6})
    risk = previews.black_market_risk(state, "Blue", 16)
    assert (risk["premium"], risk["crackdown"]) == ("possible", "possible")
    assert risk["premium_times"] == 2 and risk["premium_credits"] == 32
    assert risk["crackdown_steps"] == 8 and risk["may_still_sell"] == ["Red"]
    act(state, type="black_market", player="Blue", resource="food", amount=2)
    red = previews.black_market_risk(state, "Red")
    assert (red["premium"], red["crackdown"], red["sellers"]) == ("none", "certain", ["Blue"])
    assert names.render_line(red["lines"][1]).startswith(
        "1 other player has already sold on the black market this round")
    # Red passes: Blue is now sure to be the only seller, and is paid the premium.
    act(state, type="pass", player="Red")
    lone = previews.black_market_risk(state, "Blue", 8)
    assert (lone["premium"], lone["crackdown"]) == ("certain", "none")
    assert lone["premium_credits"] == 2 * (8 + 8)
    credits = state.player("Blue").credits
    events = act(state, type="black_market", player="Blue", resource="food", amount=2)
    events += act(state, type="pass", player="Blue")
    premium = [e for e in events_of(events, "transfer") if e.get("premium")]
    assert premium[0]["amount"] == lone["premium_credits"]
    assert state.player("Blue").credits - credits >= 8 + 32


def test_without_an_event_there_is_no_black_market_risk():
    state = exporting(None, warehouse={"food": 6})
    risk = previews.black_market_risk(state, "Blue")
    assert not risk["line"] and risk["crackdown"] == "none" and risk["premium"] == "none"


# --------------------------------------------------------------------------- Loan


def test_the_loan_preview():
    state = planning()
    out = previews.loan_preview(state, "Blue")
    assert out["available"] and out["earns"]["credits"] == 10 and out["costs"]["vp"] == 1
    assert out["rounds_of_interest"] == 6 and out["interest_total"] == 6
    assert out["unpaid_vp"] == 2 and out["repay_credits"] == 10
    full = previews.loan_preview(planning(Blue={"loans": 4}), "Blue")
    assert names.render_line(full["reason"]) == "You already have 4 loans, the most allowed."
    broke = previews.loan_preview(planning(Blue={"vp": 0}), "Blue")
    assert not broke["available"]
    closed = previews.loan_preview(staged(2, phase="planning", event="tight-credit"), "Blue")
    assert names.render_line(closed["reason"]) == \
        "That location is Out of Service this round."


# --------------------------------------------------------------------------- Production


def test_the_production_preview_defaults_to_the_engines_suggestion():
    state = staged(2, phase="production", players={
        "Blue": {"companies": ["FARM 03"], "employees": ["F1", "WF"],
                 "warehouse": {"energy": 1, "food": 9}},
        "Red": {"companies": ["FARM 01"]}})
    out = previews.production_preview(state, "Blue")
    assert out["available"] and out["result"]["output"] == {"food": 4}
    assert out["earns"]["resources"] == {"food": 3} and out["returned"] == {"food": 1}
    assert [names.render_line(x) for x in out["lines"]] == [
        "Farm 03 makes 4 Food.", "The plan uses 1 Energy from your Warehouse.",
        "No room in your Warehouse for 1 Food: back to the supply."]
    named = previews.production_preview(state, "Blue", [
        {"company": "FARM 03", "staff": ["F1"], "bonus": [{"employee": "WF", "slot": 2}]}])
    assert named["result"]["output"] == {"food": 3} and named["returned"] == {}
    bad = previews.production_preview(state, "Blue", [
        {"company": "FARM 03", "staff": [], "bonus": []}])
    assert not bad["available"]
    assert names.render_line(bad["reason"]) == \
        "Farm 03 needs these Employees to work: Farmer."


# --------------------------------------------------------------------------- all at once


def test_choices_follow_the_phase_and_whose_turn_it_is():
    state = planning(Blue={"companies": ["FARM 03"]})
    kinds = [(c["choice"], c["id"]) for c in previews.choices(state, "Blue")]
    assert ("loan", "loan") in kinds and ("company", "TRAINS 01") in kinds
    assert ("employee", "FW") in kinds and ("employee", "TEMP") in kinds
    assert previews.choices(state, "Red") == []  # not Red's turn
    state = exporting("drought", warehouse={"food": 2})
    assert {c["choice"] for c in previews.choices(state, "Blue")} == {"export",
                                                                        "black_market"}


def test_every_line_shows_in_english_and_spanish(spanish):
    gettext, ngettext = spanish
    seen = set()
    for state in (planning(Blue={"companies": ["FARM 03", "TRAINS 01"], "employees": ["F1"],
                                 "credits": 1, "loans": 4}),
                  exporting("drought", warehouse={"food": 6, "chemicals": 1}),
                  exporting(None, warehouse={})):
        for c in previews.choices(state, "Blue"):
            for x in [*c["lines"], *([c["reason"]] if c["reason"] else [])]:
                assert "{" not in names.render_line(x)
                assert "{" not in names.render_line(x, gettext, ngettext)
                seen.add(x["text"])
    assert len(seen) > 15


def test_previews_never_change_the_state_in_a_whole_game():
    for seed in (1, 2):
        state = new_game(config(3), seed)
        rng = random.Random(seed)
        while state.phase != OVER:
            decision = views.decisions(state)[0]
            player = decision.deciders[0]
            before = to_dict(state)
            found = previews.choices(state, player)
            assert to_dict(state) == before
            assert all(isinstance(c["available"], bool) for c in found)
            rules.step(state, bots.act("greedy", state, decision, rng))
        assert summary(state)["over"]
