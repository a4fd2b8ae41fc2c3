"""A phone at the Midlife Crossroads when the State fails: every student is told, the one
whose card caused it first of all, and nobody is promised class changes that will not come."""

from __future__ import annotations

from django.template.loader import render_to_string

CARD = {"card": "Nine months out of work", "measures": "Social Shield", "level": 1,
        "outcome": "You lose 12 coins; an Exclusion token if you cannot pay."}


def screen(**context: object) -> str:
    return render_to_string("state_in_class/phone/_midlife.html",
                            {"table": {"failed": False, "tension": 9}, "me": {}, **context})


def test_a_student_who_read_their_card_is_told_the_state_failed():
    html = screen(table={"failed": True, "tension": 10}, my_card=CARD)
    assert "the State has failed" in html
    assert html.index("the State has failed") < html.index("Nine months out of work")
    assert "Class changes happen" not in html


def test_while_the_state_stands_the_class_changes_are_still_to_come():
    html = screen(my_card=CARD)
    assert "the State has failed" not in html
    assert "Class changes happen once everyone has read their card." in html
