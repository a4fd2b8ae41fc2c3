"""Splitting a class into tables of 6 to 8 (facilitator/seating.py, pure functions)."""

import pytest

from facilitator.seating import SeatingPlan, even_split, plan


@pytest.mark.parametrize(("students", "tables"), [
    (6, [6]), (7, [7]), (8, [8]),
    (12, [6, 6]), (13, [7, 6]), (14, [7, 7]), (15, [8, 7]), (16, [8, 8]),
    (18, [6, 6, 6]), (20, [7, 7, 6]), (24, [8, 8, 8]),
    (25, [7, 6, 6, 6]), (31, [8, 8, 8, 7]), (32, [8, 8, 8, 8]),
])
def test_an_even_split_uses_the_fewest_tables_of_six_to_eight(students, tables):
    assert even_split(students) == tables
    assert plan(students) == SeatingPlan(tables)
    assert max(tables) - min(tables) <= 1


@pytest.mark.parametrize("students", [0, 1, 2, 3, 4, 5, 9, 10, 11, 17])
def test_some_classes_have_no_even_split(students):
    assert even_split(students) is None
    assert plan(students) is None


def test_every_class_of_six_to_thirty_two_but_nine_to_eleven_and_seventeen_splits():
    for students in range(6, 33):
        split = even_split(students)
        if students in (9, 10, 11, 17):
            assert split is None
            continue
        assert split is not None and sum(split) == students
        assert all(6 <= size <= 8 for size in split)
        assert len(split) == -(-students // 8)


@pytest.mark.parametrize(("students", "seats", "bots"), [
    (17, [6, 6, 6], 1), (4, [6], 2), (1, [6], 5), (5, [6], 1),
    (9, [6, 6], 3), (10, [6, 6], 2), (11, [6, 6], 1),
])
def test_bots_fill_the_fewest_seats(students, seats, bots):
    assert plan(students, "bots") == SeatingPlan(seats, bots=bots)


@pytest.mark.parametrize(("students", "seats", "pairs"), [
    (17, [8, 8], 1), (9, [8], 1), (10, [8], 2), (11, [8], 3),
])
def test_pairs_share_the_fewest_seats(students, seats, pairs):
    result = plan(students, "pairs")
    assert result == SeatingPlan(seats, pairs=pairs)
    assert result.seats + result.pairs == students
    assert result.pairs <= result.seats  # at most two students on one seat


@pytest.mark.parametrize("students", [1, 2, 3, 4, 5])
def test_too_few_students_cannot_pair_up_into_a_table(students):
    assert plan(students, "pairs") is None


def test_an_even_class_needs_no_fill_whatever_is_asked():
    assert plan(20, "bots") == SeatingPlan([7, 7, 6])
    assert plan(20, "pairs") == SeatingPlan([7, 7, 6])


def test_an_unknown_fill_seats_nobody():
    assert plan(17, "robots") is None


def test_a_plan_of_mixed_parties_fills_each_table_with_its_bots_playing_alone_last() -> None:
    mixed = SeatingPlan([5, 4], bots=1, parties=((2, 1, 1, 1), (1, 1, 1, 1)), table_bots=(0, 1))
    assert mixed.seats == 9
    for bad in ({"parties": ((2, 1, 1),), "table_bots": (0,)},  # 4 seats for a table of 5
                {"parties": ((1, 1, 1, 2),), "table_bots": (1,)},  # a bot inside a team
                {"parties": ((2, 1, 1, 1),), "table_bots": (2,)},  # bots do not add up
                {"parties": ((2, 1, 1, 1), (1,)), "table_bots": (1, 0)}):  # one table only
        with pytest.raises(ValueError):
            SeatingPlan([5], bots=1, **bad)
