"""SVG charts: valid, accessible, deterministic, colour-blind safe and black-and-white ready."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from facilitator.lessons.state_in_class import charts
from games.registry import replay
from games.state_in_class.bots import get_policy
from games.state_in_class.simulate import play

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def history():
    for seed in range(40):
        state, actions = play([get_policy("civic") for _ in range(8)], seed)
        if not state.failed:
            record = {"game": "state-in-class", "seed": seed,
                      "config": {"players": [p.name for p in state.players]},
                      "actions": actions}
            return replay(record).state.history
    pytest.fail("no civic game reached the end")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    assert root.find(SVG + "title").text and root.find(SVG + "desc").text
    return root


@pytest.mark.parametrize("name", ["tension_chart", "levels_chart", "tax_chart"])
def test_history_charts_are_valid_accessible_and_deterministic(history, name):
    with translation.override("en"):
        svg = getattr(charts, name)(history, width=360, height=200)
        assert svg == getattr(charts, name)(history, width=360, height=200)
    root = parse(svg)
    assert root.get("viewBox") == "0 0 360 200"
    assert "<script" not in svg and "href" not in svg  # nothing to run, nothing to fetch


def test_tension_series_and_desc(history):
    points = charts.tension_series(history)
    assert points[0][0] == 0 and [r for r, _v in points[1:]] == list(range(1, 9))
    assert points[-1][1] == history[-1]["tension_after"]
    with translation.override("en"):
        desc = parse(charts.tension_chart(history)).find(SVG + "desc").text
    assert f"round 8: {points[-1][1]}" in desc


def test_services_differ_by_colour_dash_and_marker():
    with translation.override("en"):
        styles = charts._service_styles()
    assert {s["colour"] for s in styles.values()} <= set(charts.OKABE_ITO.values())
    for key in ("colour", "dash", "marker", "letter"):
        assert len({s[key] for s in styles.values()}) == 3, key


def test_tally_bars_show_counts_only():
    with translation.override("en"):
        svg = charts.tally_bars({"A": 1, "C": 7}, ["A", "B", "C", "D"],
                                {"A": "A · Flat tax", "C": "C · Progressive"}, winner="C")
    root = parse(svg)
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "7 ★" in texts and "0" in texts


def test_coins_chart_marks_goals_and_exclusions():
    statement = [{"round": 0, "amount": 3, "reason": "start", "balance": 3},
                 {"round": 1, "amount": 5, "reason": "income", "balance": 8},
                 {"round": 2, "amount": -8, "reason": "tax", "balance": 0}]
    assert charts.coins_series(statement) == [(0, 3), (1, 8), (2, 0)]
    with translation.override("en"):
        svg = charts.coins_chart(statement, goals={"get-by": 9, "live-well": 16, "thrive": 23},
                                 exclusion_rounds=[2])
    root = parse(svg)
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "Thrive 23" in texts and "Get by 9" in texts
    assert "An X marks a round with an Exclusion." in root.find(SVG + "desc").text
    # the goals' dashed lines are in the words a screen reader gets too
    assert "Savings goals: Get by 9, Live well 16, Thrive 23." in root.find(SVG + "desc").text
