"""The debrief's skeleton, written once for every module: what ``Lesson.reports()`` gives the
platform (the results on the debrief page, two spreadsheets and two handouts).

The platform owns the handouts' frame: the language they are written in, the page context
(paper, running title, "Page X of Y"), the lesson's date and name, who gets a page (the
students who sat at a table: never a bot, never a removed student, a shared phone's partner
included; ``people``), the turning points of the class handout, and the PDF. A module supplies
only its own parts: its templates, its story of the class (``class_parts``), one page per
student (``student_pages``), the results and the spreadsheets.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from facilitator.models import ClassSession, Seat
from facilitator.reports.pdf import DEFAULT_PAPER, base_context, handout_pdf, lesson_date
from facilitator.reports.whatif import handout_turning_points


def people(session: ClassSession, seat_id: int | None = None) -> list[Seat]:
    """The lesson's students who sat at a table, table by table in seat order (or only
    ``seat_id``'s): the students a handout is about. Bots and removed students are left out."""
    seats = (session.seats.filter(is_bot=False, table__isnull=False, removed=False)
             .select_related("table", "shares")
             .order_by("table__number", "position", "nickname"))
    if seat_id is not None:
        seats = seats.filter(pk=seat_id)
    return list(seats)


class Debrief(ABC):
    """A module's debrief: subclass it, name the two templates and fill in the abstract parts.

    The class handout's template gets the platform's context (``session``, ``date``,
    ``game``, ``people``: how many students played, ``turning_points``) and the module's
    ``class_parts``; the students' template gets the same frame and ``pages``, the module's
    ``student_pages``."""

    class_template: str
    students_template: str

    @abstractmethod
    def results(self, session: ClassSession) -> list[tuple[Any, Any]]:
        """Each table and its result in a few lines, for the debrief page."""

    @abstractmethod
    def rounds_csv(self, session: ClassSession, *, anonymous: bool = False) -> str:
        """One row per table and round."""

    @abstractmethod
    def results_csv(self, session: ClassSession, *, anonymous: bool = False) -> str:
        """One row per player (``anonymous``: pseudonyms for the students)."""

    @abstractmethod
    def class_parts(self, session: ClassSession) -> dict[str, Any]:
        """The module's story of the class for the class handout (in the active language)."""

    @abstractmethod
    def student_pages(self, session: ClassSession, seats: Sequence[Seat]) -> list[Any]:
        """One page for each of ``seats`` (``people``), in their order (in the active
        language). A student whose game left nothing to say may have no page."""

    # ------------------------------------------------------------------ the platform's part

    def frame(self, session: ClassSession, paper: str) -> dict[str, Any]:
        """What every handout's template gets from the platform, in the active language."""
        date = lesson_date(session)
        title = f"{session} · {date}" if date else str(session)
        return {**base_context(session, paper, title), "session": session, "date": date,
                "game": session.game_name}

    def class_html(self, session: ClassSession, *, paper: str,
                   language: str | None = None) -> str:
        with translation.override(language or session.language):
            context = {**self.frame(session, paper), "people": len(people(session)),
                       "turning_points": handout_turning_points(session)}
            context.update(self.class_parts(session))
            return render_to_string(self.class_template, context)

    def class_handout(self, session: ClassSession, *, paper: str = DEFAULT_PAPER,
                      language: str | None = None) -> bytes:
        """The class handout (one PDF for the lesson), in ``language`` (default: the
        lesson's)."""
        return handout_pdf(session, self.class_html, language=language, paper=paper)

    def students_html(self, session: ClassSession, *, paper: str, seat_id: int | None = None,
                      language: str | None = None) -> str:
        with translation.override(language or session.language):
            pages = self.student_pages(session, people(session, seat_id))
            return render_to_string(self.students_template,
                                    {**self.frame(session, paper), "pages": pages})

    def student_handouts(self, session: ClassSession, *, paper: str = DEFAULT_PAPER,
                         seat_id: int | None = None, language: str | None = None) -> bytes:
        """One page per student, all in one PDF (or just ``seat_id``'s page), in
        ``language`` (default: the lesson's)."""
        return handout_pdf(session, self.students_html, language=language, paper=paper,
                           seat_id=seat_id)
