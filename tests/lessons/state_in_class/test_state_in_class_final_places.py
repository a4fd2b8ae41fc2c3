"""Tied players share their place at the final count, as the rulebook has them share the
victory: five players on 47 are all first, the next is sixth."""

from __future__ import annotations

from facilitator.lessons.state_in_class.presenters import final_block


def player(score: int, role: str = "factory-worker") -> dict:
    return {"role": role, "class": "working", "coins": 10, "pact": 1, "score": score,
            "goal": "get-by", "exclusions": 0, "breakdown": {}}


def test_tied_scores_share_a_place_and_the_next_place_skips_them():
    scores = {"Ana": 47, "Ben": 47, "Cai": 47, "Dee": 47, "Eli": 47, "Fay": 30, "Gus": 12}
    final = {"failed": False, "legacy": 10, "levels_sum": 9, "tension": 5, "pact_total": 7,
             "winners": [n for n, s in scores.items() if s == 47],
             "players": {n: player(s) for n, s in scores.items()}}
    block = final_block(final, {})
    assert [(p["name"], p["place"]) for p in block["ranking"]] == [
        ("Ana", 1), ("Ben", 1), ("Cai", 1), ("Dee", 1), ("Eli", 1), ("Fay", 6), ("Gus", 7)]
