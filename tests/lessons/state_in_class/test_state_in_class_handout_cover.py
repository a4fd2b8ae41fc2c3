"""The class handout's cover names the teacher only by a person's name, never the login."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from facilitator.lessons.state_in_class.debrief.story import teacher_name


def test_a_teacher_without_a_full_name_is_not_named_by_their_login():
    assert teacher_name(get_user_model()(username="teacher")) == ""


def test_a_teacher_with_a_full_name_is_named_by_it():
    user = get_user_model()(username="teacher", first_name="Ana", last_name="Ruiz")
    assert teacher_name(user) == "Ana Ruiz"
