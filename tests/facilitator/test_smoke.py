import random

import pytest

from facilitator.log import verify_table
from tests.facilitator.lesson import join, make_session, play_lesson


@pytest.mark.django_db
def test_a_class_of_eight_plays_a_whole_lesson_through_the_services():
    session = make_session()
    join(session, 8)
    session = play_lesson(session, random.Random(3), tax_options=["C", "D"])
    assert session.status == "finished"
    for table in session.tables.all():
        assert verify_table(table) == []
