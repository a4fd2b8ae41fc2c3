"""Austerity on the new-lesson page, while only its engine exists (``games/austerity/``).

The module is offered as "in preparation" (``playable = False``): a lesson of it cannot be
created until its lesson side (script, seating, screens, debrief) lands in this folder.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from facilitator.lessons.base import Lesson


class AusterityLesson(Lesson):
    game = "austerity"
    playable = False
    name = gettext_lazy("Austerity: Governing a Country in Debt")
    summary = gettext_lazy("Each table governs a country in debt: draw the budget bag, make cuts,"
                           " raise taxes or borrow, and try to clear the debt before a track hits"
                           " zero.")
    duration = gettext_lazy("About 5 to 7 political years in a lesson")
    group_sizes = gettext_lazy("Tables of 4 to 8 students, or the whole class as one country")
    students_do = gettext_lazy("A rotating Finance Minister takes the quick decisions on their "
                               "phone; the whole table votes in secret on each year's budget "
                               "session.")


LESSON = AusterityLesson()
