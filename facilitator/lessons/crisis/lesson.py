"""Crisis on the new-lesson page, while only its engine exists (``games/crisis/``).

The module is offered as "in preparation" (``playable = False``): a lesson of it cannot be
created until its lesson side (script, seating, screens, debrief) lands in this folder.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from facilitator.lessons.base import Lesson


class CrisisLesson(Lesson):
    game = "crisis"
    playable = False
    name = gettext_lazy("Crisis: Entrepreneurs Keeping a Country Afloat")
    summary = gettext_lazy("Teams run companies in a country on the edge of bankruptcy: every "
                           "round they choose between private profit and keeping the country "
                           "afloat.")
    duration = gettext_lazy("7 rounds, about 90 minutes")
    group_sizes = gettext_lazy("Tables of 2 to 5 teams of 2 to 4 students")
    students_do = gettext_lazy("A rotating captain places managers, plans production and exports;"
                               " teammates suggest moves from their phones.")


LESSON = CrisisLesson()
