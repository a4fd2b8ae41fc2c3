"""Debrief downloads for the teacher who owns the lesson (anyone else: 404).

Every file is made from the log; a report is available once the lesson is finished (409 with
an explanation before that), when the lesson can no longer change. The PDFs are built once and
served from then on (``facilitator.reports.handouts``); the index page has them built in the
background (``prepare``, one request per handout) and shows their progress.
``?paper=a4|letter`` picks the paper and is remembered; ``?lang=en|es`` picks the handouts'
language (default: the lesson's); ``?anonymous=1`` replaces names in the data exports.
The what-if and turning-points pages are for the projector, in the lesson's language, and
are picked with plain GET parameters (``?table=N&decision=I&alternative=K``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from facilitator.errors import ServiceError
from facilitator.language import known
from facilitator.models import ClassSession
from facilitator.reports import export, handouts, pdf
from facilitator.reports import whatif as whatifs
from facilitator.reports.services import session_set_paper
from facilitator.selectors import session_for_teacher

FINISHED = (ClassSession.Status.FINISHED, ClassSession.Status.ARCHIVED)
View = Callable[..., HttpResponse]


def _owned(request: HttpRequest, session_id: int) -> ClassSession:
    try:
        return session_for_teacher(request.user, session_id)
    except ServiceError:
        raise Http404("There is no such lesson.") from None


def finished_lesson(view: View, method: Callable[[View], View] = require_GET) -> View:
    """Login required; the owner's session only (404); finished only (409 page)."""
    @login_required
    @method
    @wraps(view)
    def wrapper(request: HttpRequest, session_id: int, **kwargs: Any) -> HttpResponse:
        session = _owned(request, session_id)
        if session.status not in FINISHED:
            return render(request, "reports/not_ready.html", {"session": session}, status=409)
        return view(request, session, **kwargs)
    return wrapper


def _debrief(session: ClassSession) -> Any:
    """The lesson module's debrief (its ``reports``); a module without one has no handouts."""
    debrief = session.lesson.reports()
    if debrief is None:
        raise Http404("This lesson has no handouts.")
    return debrief


def _paper(request: HttpRequest, session: ClassSession) -> str:
    paper = request.GET.get("paper")
    if paper:
        try:
            session_set_paper(session=session, paper=paper)
        except ServiceError:
            paper = None
    return paper if paper in pdf.PAPERS else pdf.session_paper(session)


def _language(request: HttpRequest, session: ClassSession) -> str:
    """``?lang=en|es``: the handouts in that language; anything else: the lesson's."""
    lang = request.GET.get("lang")
    return lang if lang and known(lang) else session.language


def _anonymous(request: HttpRequest) -> bool:
    return request.GET.get("anonymous", "") in ("1", "true", "yes", "on")


def _file(content: bytes | str, content_type: str, filename: str, *, inline: bool = False
          ) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def _name(session: ClassSession, what: str, ext: str) -> str:
    base = slugify(session.title) or f"lesson-{session.pk}"
    return f"{base}-{what}.{ext}"


@finished_lesson
def index(request: HttpRequest, session: ClassSession) -> HttpResponse:
    with translation.override(session.language):
        results = _debrief(session).results(session)
    # The students with a handout: everyone who sat at a table, bots and students the
    # teacher removed excepted (every module's student handouts leave them out too).
    students = (session.seats.filter(is_bot=False, table__isnull=False, removed=False)
                .select_related("table").order_by("table__number", "position", "nickname"))
    words = handout_language_words()
    paper = _paper(request, session)
    tables = session.tables.order_by("number") if whatifs.side_of(session) else []
    return render(request, "reports/index.html", {
        "session": session, "paper": paper, "results": results,
        "whatif_tables": [{"number": t.number,
                           "whatif": whatifs.whatif_url(session, t.number),
                           "turning": whatifs.turning_url(session, t.number)} for t in tables],
        "pending": _pending(session, paper),
        "result_template": session.lesson.templates.get("result", "reports/_result.html"),
        "students": students, "handouts_language": words[session.language][0],
        "other_languages": [{"code": c, "label": words[c][1]}
                            for c, _name in settings.LANGUAGES if c != session.language]})


def _pending(session: ClassSession, paper: str) -> list[dict[str, Any]]:
    """The lesson's two handouts, in its language and this paper, not stored yet."""
    print_ = handouts.fingerprint(session)
    labels = {handouts.CLASS: _("Class handout"), handouts.STUDENTS: _("Student handouts")}
    return [{"what": what, "label": label} for what, label in labels.items()
            if handouts.stored(session, handouts.key(what, paper=paper,
                                                     language=session.language),
                               print_) is None]


def handout_language_words() -> dict[str, tuple[str, str]]:
    """Per language: which language the handouts are in, and the label of a link to them."""
    return {
        "en": (_("The handouts are in English, the lesson's language."), _("In English:")),
        "es": (_("The handouts are in Spanish, the lesson's language."), _("In Spanish:")),
    }


def _handout(session: ClassSession, what: str, paper: str, language: str,
             seat_id: int | None = None) -> bytes:
    """The PDF ``what`` (``handouts.CLASS``, ``STUDENTS`` or one ``STUDENT``), built once."""
    debrief = _debrief(session)
    if what == handouts.CLASS:
        def build() -> bytes:
            return debrief.class_handout(session, paper=paper, language=language)
    else:
        def build() -> bytes:
            return debrief.student_handouts(session, paper=paper, language=language,
                                            **({"seat_id": seat_id} if seat_id else {}))
    name = handouts.key(what, paper=paper, language=language, seat_id=seat_id)
    return handouts.handout_get(session=session, name=name, build=build)


@finished_lesson
def class_pdf(request: HttpRequest, session: ClassSession) -> HttpResponse:
    content = _handout(session, handouts.CLASS, _paper(request, session),
                       _language(request, session))
    return _file(content, "application/pdf", _name(session, "class", "pdf"), inline=True)


@finished_lesson
def students_pdf(request: HttpRequest, session: ClassSession) -> HttpResponse:
    content = _handout(session, handouts.STUDENTS, _paper(request, session),
                       _language(request, session))
    return _file(content, "application/pdf", _name(session, "students", "pdf"), inline=True)


@finished_lesson
def student_pdf(request: HttpRequest, session: ClassSession, seat_id: int) -> HttpResponse:
    seat = session.seats.filter(pk=seat_id, is_bot=False, table__isnull=False,
                                removed=False).first()
    if seat is None:
        raise Http404("There is no such student in this lesson.")
    content = _handout(session, handouts.STUDENT, _paper(request, session),
                       _language(request, session), seat.pk)
    return _file(content, "application/pdf",
                 _name(session, slugify(seat.nickname) or f"student-{seat.pk}", "pdf"),
                 inline=True)


def _prepare(request: HttpRequest, session: ClassSession, what: str) -> HttpResponse:
    """Build the handout ``what`` now (the index page asks for each in turn, to show its
    progress); answers ``{"ready": true}`` once it is stored."""
    if what not in (handouts.CLASS, handouts.STUDENTS):
        raise Http404("There is no such handout.")
    _handout(session, what, _paper(request, session), _language(request, session))
    return JsonResponse({"ready": True})


prepare = finished_lesson(_prepare, require_POST)


@finished_lesson
def table_record(request: HttpRequest, session: ClassSession, number: int) -> HttpResponse:
    table = session.tables.filter(number=number).select_related("session").first()
    if table is None:
        raise Http404("There is no such table.")
    anonymous = _anonymous(request)
    record = export.table_record(table, anonymous=anonymous)
    body = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    what = f"table-{number}" + ("-anonymous" if anonymous else "")
    return _file(body, "application/json; charset=utf-8", _name(session, what, "json"))


@finished_lesson
def rounds_csv(request: HttpRequest, session: ClassSession) -> HttpResponse:
    anonymous = _anonymous(request)
    body = _debrief(session).rounds_csv(session, anonymous=anonymous)
    what = "rounds" + ("-anonymous" if anonymous else "")
    return _file(body, "text/csv; charset=utf-8", _name(session, what, "csv"))


@finished_lesson
def results_csv(request: HttpRequest, session: ClassSession) -> HttpResponse:
    anonymous = _anonymous(request)
    body = _debrief(session).results_csv(session, anonymous=anonymous)
    what = "results" + ("-anonymous" if anonymous else "")
    return _file(body, "text/csv; charset=utf-8", _name(session, what, "csv"))


def _whatif_side(session: ClassSession) -> whatifs.WhatIf:
    side = whatifs.side_of(session)
    if side is None:
        raise Http404("This lesson has no what-if.")
    return side


@finished_lesson
def whatif(request: HttpRequest, session: ClassSession) -> HttpResponse:
    """"What if we had…?": one table's game as played and with one public decision changed,
    side by side (docs/what-if.md)."""
    side = _whatif_side(session)
    with translation.override(session.language):
        context = whatifs.whatif_context(session, side, request.GET)
        return render(request, "reports/whatif.html", context)


@finished_lesson
def turning_points(request: HttpRequest, session: ClassSession) -> HttpResponse:
    """A table's three turning points, each with a discussion question."""
    side = _whatif_side(session)
    with translation.override(session.language):
        context = whatifs.turning_context(session, side, request.GET)
        return render(request, "reports/turning_points.html", context)
