"""Poleconomy on the new-lesson page, while only its engine exists (``games/poleconomy/``).

The module is offered as "in preparation" (``playable = False``): a lesson of it cannot be
created until its lesson side (script, seating, screens, debrief) lands in this folder.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from facilitator.lessons.base import Lesson


class PoleconomyLesson(Lesson):
    game = "poleconomy"
    playable = False
    name = gettext_lazy("Poleconomy: Elections, Parliament and Inflation")
    summary = gettext_lazy("Players are politicians and business owners: they win elections, pass"
                           " taxes in Parliament and buy companies while inflation climbs.")
    duration = gettext_lazy("Several rounds of orders, one or two lessons")
    group_sizes = gettext_lazy("Tables of 3 to 6 players (students or teams); the teacher is the "
                               "game master")
    students_do = gettext_lazy("Students send sealed orders from their phones each round; "
                               "Parliament votes in secret, weighted by electoral votes.")


LESSON = PoleconomyLesson()
