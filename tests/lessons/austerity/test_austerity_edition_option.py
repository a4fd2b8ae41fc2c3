"""A new Austerity lesson plays our edition: each table's config names our levels and the
lesson length rule (3 years unless the teacher chose 2, 4 or the rulebook's game); the
Classic levels stay a teacher option."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from facilitator import services
from facilitator.lessons.austerity import options
from facilitator.lessons.austerity.forms import OptionsForm
from facilitator.lessons.austerity.lesson import LESSON
from tests.facilitator.lesson import make_teacher
from tests.lessons.austerity.austerity_lesson import started, state_of
from tests.lessons.austerity.test_austerity_pace import playable  # noqa: F401 (autouse)

pytestmark = pytest.mark.django_db

FORM = {"seating": "tables", "scenario": "economic-crash", "difficulty": "easy",
        "country": ""}


def test_a_new_lessons_tables_play_our_levels_with_the_three_year_rule() -> None:
    session = started(5, seating="class")
    table = session.tables.get()
    assert table.config["levels"] == "ours" and table.config["min_years"] == 3
    state = state_of(table)
    assert (state.levels, state.min_years) == ("ours", 3)


def test_the_teacher_may_choose_the_classic_levels_and_the_rulebooks_length() -> None:
    session = started(5, seating="class", levels="classic", min_years=None)
    table = session.tables.get()
    assert table.config["levels"] == "classic" and table.config["min_years"] is None
    assert (state_of(table).levels, state_of(table).min_years) == ("classic", None)


def test_a_lesson_stored_before_the_options_gets_this_editions_defaults() -> None:
    stored = {k: v for k, v in options.DEFAULTS.items() if k not in ("levels", "min_years")}
    config = options.table_config(stored)
    assert (config["levels"], config["min_years"]) == ("ours", 3)


@pytest.mark.parametrize("bad", [{"levels": "fan"}, {"min_years": 5}, {"min_years": True},
                                 {"min_years": 4, "year_limit": 3}])
def test_bad_edition_options_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.session_create(owner=make_teacher(), game="austerity", options=bad)
    assert caught.value.code == "bad_options"


@pytest.mark.parametrize(("posted", "levels", "least"), [
    ({}, "ours", 3), ({"levels": "ours", "min_years": "3"}, "ours", 3),
    ({"levels": "classic", "min_years": "2"}, "classic", 2),
    ({"levels": "ours", "min_years": "4"}, "ours", 4),
    ({"levels": "ours", "min_years": "off"}, "ours", None)])
def test_the_form_gives_the_levels_and_the_shortest_game(posted: dict[str, str], levels: str,
                                                         least: int | None) -> None:
    form = OptionsForm(data={**FORM, **posted})
    assert form.is_valid(), form.errors
    chosen = {**LESSON.default_options, **form.options()}
    LESSON.check_options(chosen)
    assert (chosen["levels"], chosen["min_years"]) == (levels, least)


def test_the_form_offers_three_years_and_our_levels_first_in_plain_words_in_spanish() -> None:
    form = OptionsForm()
    assert form.fields["min_years"].initial == "3"
    assert form.fields["levels"].initial == "ours"
    with translation.override("es"):
        html = str(form["min_years"]) + str(form["levels"]) + str(form["levels"].help_text) \
            + str(form["min_years"].help_text) + str(form["min_years"].label)
        assert "At least" not in html and "Classic levels" not in html
        assert "Our rule" not in html and "rulebook" not in html
