"""A team decides knowing what each choice costs, needs and earns. Every
button on a captain's phone carries one line from the engine's own preview
(``games.crisis.previews``): a Company's price, its Employees and inputs, its VP; a
contract's VP and credits; the black market's price and risk; and the captain's Planning
screen shows the likely moves first, the rest folded away."""

from __future__ import annotations

import pytest

from facilitator.lessons.crisis import costs
from facilitator.log import save_state
from games.crisis import cards, names, ops, previews
from tests.lessons.crisis.test_crisis_lesson import (
    advance,
    captain,
    human_table,
    playable,  # noqa: F401 (autouse)
    started,
    state_of,
    waiting,
)
from tests.lessons.crisis.test_crisis_lesson_screens import phone_html

pytestmark = pytest.mark.django_db


def test_every_company_button_says_its_price_what_it_needs_and_its_vp() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    state = state_of(table)
    page = phone_html(captain(session, table, team))
    for company in filter(None, state.board_companies):
        p = previews.company_preview(state, team, company)
        assert f"Costs {p['costs']['credits']} credits" in page
        line = costs.company(p)
        assert line in page, line
        for resource in p["needs"]["inputs"]:
            assert names.resource_name(resource) in line  # e.g. a Farm's Energy
        assert f"Earns {cards.COMPANIES[company].vp} VP" in line


def test_a_company_that_needs_energy_says_so_before_the_team_buys_it() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    state = state_of(table)
    state.board_companies[0] = "FARM 03"
    save_state(table, state)
    page = phone_html(captain(session, table, team))
    inputs = dict(cards.COMPANIES["FARM 03"].inputs)
    assert inputs.get("energy")
    assert f"{inputs['energy']} Energy each round" in page


def test_exports_buttons_show_each_contracts_vp_and_credits_and_the_black_markets_risk(
) -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    state = state_of(table)
    team = state.names[0]
    p = state.player(team)
    p.warehouse["food"] = 2
    state.phase, state.exports, state.turn = "exports", [team], 0
    contracts = [i for i in range(8) if state.market[i]
                 and cards.contract_parts(state.market[i])[0] == "food"]
    assert contracts
    exp = previews.export_preview(state, team, contracts[0])
    assert costs.export(exp, 1) == (f"Costs 1 Food · Earns {exp['per_token']['credits']} "
                                    f"credits, {exp['per_token']['vp']} VP")
    bm = previews.black_market_preview(state, team, "food")
    line = costs.black_market(bm, 2)
    assert f"Earns {bm['price'] * 2} credits, no VP" in line
    if bm["risk"]["line"]:
        assert "steps down" in line or "only seller" in line


def test_the_planning_screen_shows_the_likely_moves_first_and_folds_the_rest() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    page = phone_html(captain(session, table, team))
    assert '<details class="crisis-more">' in page
    first, folded = page.split('<details class="crisis-more">', 1)
    assert "Government Subsidy" in first and "Exports" in first
    assert "Shady Business" in folded and "Imports" in folded
    assert first.count("crisis-choice") < 20


def test_the_plain_spaces_say_what_they_earn_too() -> None:
    session = advance(started(4, team_size=2))
    table = human_table(session)
    team = waiting(table).deciders[0]
    state = state_of(table)
    page = phone_html(captain(session, table, team))
    subsidy = costs.detail(state, team, {"type": "place", "space": "government-subsidy"})
    assert subsidy["text"] == f"Earns {ops.subsidy(state)} credits" and subsidy["text"] in page
    lead = costs.detail(state, team, {"type": "place", "space": "leadership"})["text"]
    assert lead == "Earns 1 VP · first in the turn order"
    assert costs.detail(state, team, {"type": "place", "space": "shady-business"})["text"] \
        == "Earns an Influence card"
    food = costs.detail(state, team, {"type": "resolve", "space": "domestic-industry",
                                      "choice": "food"})["text"]
    assert food == f"Costs {cards.IMPORT_PRICE['food'][1]} credits · Earns 1 Food"
