"""The debrief's questions fit the game that happened: the upper class's coins and place are
said as they were, a table's switch of tax in the last round is asked about, and a Tension
rise cut short by the end of the track is told with one figure and the cap, as on the phones."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.utils import translation

from facilitator.lessons.state_in_class.debrief import questions
from facilitator.lessons.state_in_class.words import tension_line, tension_reason
from games.state_in_class import data


class Story(SimpleNamespace):
    def tax_winners(self) -> list[tuple[int, str]]:
        return [(e["round"], e["tax"]["winner"]) for e in self.history
                if (e.get("tax") or {}).get("winner")]


def row(klass: str, coins: int, score: int, role: str = "factory-worker") -> dict[str, Any]:
    return {"class": klass, "coins": coins, "score": score, "role": role}


def story(players: dict[str, dict[str, Any]], *, legacy: bool = True, levels: int = 13,
          taxes: tuple[str, ...] = ()) -> Story:
    history = [{"round": r, "tax": {"winner": t}} for r, t in enumerate(taxes, start=1)]
    return Story(number=1, over=True, failed=False, legacy=legacy, levels_sum=levels,
                 final={"players": players}, state=SimpleNamespace(price=4), history=history)


LAST = {"Ana": row(data.UPPER, 24, 20, "company-director"),
        "Luis": row(data.UPPER, 21, 18, "specialist-doctor"),
        "Eva": row(data.MIDDLE, 30, 32), "Tom": row(data.WORKING, 45, 38)}


def test_an_upper_class_that_finished_last_is_told_so_with_each_players_coins():
    with translation.override("en"):
        q = questions.upper_coins_vs_legacy(story(LAST))
    assert "Ana 24 and Luis 21 coins" in q.situation
    assert "finished last in points (the others: 32 to 38)" in q.situation
    assert "45 coins" not in q.situation  # not summed into one rich-sounding figure
    assert "scored more by paying less tax" not in q.question
    assert "finished last" in q.question


def test_an_upper_class_that_finished_first_is_asked_whether_lower_taxes_would_pay():
    first = {**LAST, "Ana": row(data.UPPER, 44, 50), "Luis": row(data.UPPER, 40, 45)}
    with translation.override("en"):
        q = questions.upper_coins_vs_legacy(story(first))
    assert "finished first in points" in q.situation
    assert "scored more by paying less tax" in q.question


def test_a_switch_to_the_flat_tax_in_the_last_round_is_asked_about():
    taxes = ("C", "C", "C", "B", "C", "C", "A")  # rounds 1–7; round 8 is added below
    with translation.override("en"):
        switched = questions.last_round_switch(story(LAST, taxes=(*taxes, "A")))
        steady = questions.last_round_switch(story(LAST, taxes=(*taxes, "C")))
    assert f"(round {data.ROUNDS}) the table switched to tax A" in switched.situation
    assert "after choosing C" in switched.situation
    assert steady is None
    # asked before the rules that fire in most games, so a handout's few questions keep it
    order = [rule_id for rule_id, _fn in questions.RULES]
    assert order.index("last-round-switch") < order.index("upper-coins-vs-legacy")


def test_a_midlife_exclusion_cut_short_at_10_is_one_figure_with_the_cap_everywhere():
    change = {"reason": "midlife", "delta": 1, "value": 10, "player": "Ana",
              "role": "factory-worker"}
    with translation.override("en"):
        handout, screen = tension_line(change), tension_reason(change)
    assert handout.startswith(f"+{data.MIDLIFE_EXCLUSION_TENSION}: ")
    assert "+1" not in handout
    for line in (handout, screen):
        assert "(Tension stops at 10, the end of the track)" in line


def test_a_failed_state_question_names_the_rise_as_the_rule_counts_it():
    history = [{"round": 4, "tension": [
        {"reason": "service_at_level_1", "service": data.HEALTH, "delta": 1, "value": 9},
        {"reason": "midlife", "delta": 1, "value": 10, "player": "Ana",
         "role": "factory-worker"}]}]
    failed = Story(number=1, failed=True, failed_round=4, history=history)
    with translation.override("en"):
        q = questions.state_failure(failed)
    assert "+2: the Factory worker (Ana) got an Exclusion" in q.situation
    assert "stops at 10" in q.situation
