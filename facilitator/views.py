"""HTTP views: thin. Pages render from selectors; the few forms call a service."""

from __future__ import annotations

import hashlib

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from facilitator import (
    kept_reads,
    lessons,
    messages,
    network,
    presence,
    ratelimit,
    selectors,
    services,
)
from facilitator.consumers import SEAT_COOKIE
from facilitator.errors import ServiceError
from facilitator.forms import JoinForm, TeacherLoginForm, lesson_form
from facilitator.language import phone_language
from facilitator.log import game_record
from facilitator.models import ClassSession, Seat
from facilitator.screens import phone_context, projector_context

SEAT_COOKIE_AGE = 24 * 3600
CODE_ERRORS = {"wrong_code", "closed_code", "already_started"}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"form": JoinForm()})


def about(request: HttpRequest) -> HttpResponse:
    return render(request, "about.html")


# --------------------------------------------------------------------------- students


def _set_seat_cookie(response: HttpResponse, token: str) -> None:
    response.set_cookie(SEAT_COOKIE, token, max_age=SEAT_COOKIE_AGE, httponly=True,
                        samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)


def _holds_seat_in(seat: Seat | None, code: str) -> bool:
    return (seat is not None and seat.session.is_open
            and seat.session.join_code == services.normalise_code(code))


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str = "") -> HttpResponse:
    current = selectors.seat_for_token(request.COOKIES.get(SEAT_COOKIE))
    if current is not None:  # a phone that sat in a lesson speaks its language here too
        translation.activate(phone_language(request.COOKIES, current.session.language))
    # A seat cookie that holds no seat any more: its seat was given to another phone (the
    # "New phone" link) or the teacher removed it. Said once, then the cookie is cleared.
    signed_out = current is None and bool(request.COOKIES.get(SEAT_COOKIE))
    status = 200
    if request.method == "POST":
        form = JoinForm(request.POST)
        if ratelimit.too_many_failures(request):
            form.is_valid()
            form.add_error("code", _("Too many wrong codes from this network. Wait a minute, "
                                     "then check the code on the board."))
            status = 429
        elif form.is_valid():
            code = form.cleaned_data["code"]
            if _holds_seat_in(current, code):
                # A phone already in the lesson keeps its seat: no second seat.
                return redirect("play")
            # The code as typed may hold any character: the cache key carries its hash.
            lesson = hashlib.sha256(services.normalise_code(code).encode()).hexdigest()[:16]
            new_seats = f"join-new:{lesson}"
            if ratelimit.reached(request, new_seats, settings.JOIN_NEW_SEATS_PER_MINUTE):
                form.add_error("code", _("Many phones have just joined this lesson from your "
                                         "network. Wait a minute, then try again."))
                return render(request, "play/join.html", {"form": form, "current": current},
                              status=429)
            try:
                _seat, token = services.seat_join(code=code,
                                                  nickname=form.cleaned_data["nickname"])
            except ServiceError as exc:
                form.add_error("code" if exc.code in CODE_ERRORS else "nickname", exc.message)
                status = exc.status
                if exc.code == "wrong_code":
                    ratelimit.record_failure(request)
            else:
                ratelimit.count(request, new_seats)
                response = redirect("play")
                _set_seat_cookie(response, token)
                return response
        else:
            status = 400
    else:
        form = JoinForm(initial={"code": services.normalise_code(code)})
    response = render(request, "play/join.html",
                      {"form": form, "current": current, "signed_out": signed_out},
                      status=status)
    if signed_out:
        response.delete_cookie(SEAT_COOKIE, samesite="Lax")
    return response


@require_http_methods(["GET", "POST"])
def claim_seat(request: HttpRequest, token: str) -> HttpResponse:
    """A "New phone" link from the teacher. GET asks (a link preview or a prefetch must not
    use the link up); POST takes the seat, once (``services.seat_claim``)."""
    current = selectors.seat_for_token(request.COOKIES.get(SEAT_COOKIE))
    seat = selectors.seat_for_claim(token)
    if seat is None:
        if current is not None and current.session.is_open and request.method == "POST":
            return redirect("play")  # the link tapped twice: this phone already has a seat
        return render(request, "play/claim_failed.html", status=410)
    if request.method == "GET":
        return render(request, "play/claim_seat.html", {"seat": seat})
    try:
        _seat, seat_token = services.seat_claim(token=token)
    except ServiceError:
        return render(request, "play/claim_failed.html", status=410)
    response = redirect("play")
    _set_seat_cookie(response, seat_token)
    return response


def play(request: HttpRequest, error: ServiceError | None = None) -> HttpResponse:
    seat = selectors.seat_for_token(request.COOKIES.get(SEAT_COOKIE))
    if seat is None:
        return redirect("join")
    get_token(request)  # the CSRF cookie, for forms the websocket pushes later
    with translation.override(phone_language(request.COOKIES, seat.session.language)), \
            kept_reads.screen_reads():
        view = selectors.seat_view(seat)  # in the language too: it names the lesson
        context = {**phone_context(view), "error": error.message if error else None}
        return render(request, "play/phone.html", context, status=error.status if error else 200)


@require_POST
def play_act(request: HttpRequest) -> HttpResponse:
    """The phone's actions as plain form posts (when its websocket cannot get through)."""
    seat = selectors.seat_for_token(request.COOKIES.get(SEAT_COOKIE))
    if seat is None:
        return redirect("join")
    with translation.override(phone_language(request.COOKIES, seat.session.language)):
        try:
            lesson = seat.session.lesson
            message = messages.parse(messages.seat_messages(lesson),
                                     messages.from_form(request.POST, lesson))
            messages.seat_act(seat.pk, lesson, message, token_hash=seat.token_hash)
        except ServiceError as exc:
            return play(request, error=exc)
    return redirect("play")


# --------------------------------------------------------------------------- teachers


class TeacherLoginView(LoginView):
    """Django's login, throttled per client address (``forms.ThrottledLogin``): 429 then."""

    authentication_form = TeacherLoginForm

    def form_invalid(self, form: TeacherLoginForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


def _owned(request: HttpRequest, session_id: int) -> ClassSession:
    try:
        return selectors.session_for_teacher(request.user, session_id)
    except ServiceError:
        raise Http404 from None


def join_url(request: HttpRequest, code: str) -> str:
    return network.join_url(request.get_host(), secure=request.is_secure(), code=code)


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    sessions = selectors.teacher_sessions(request.user)
    return render(request, "facilitator/dashboard.html", {
        "open_sessions": [s for s in sessions if s.is_open],
        "past_sessions": [s for s in sessions if not s.is_open],
    })


@login_required
@require_http_methods(["GET", "POST"])
def lesson_new(request: HttpRequest) -> HttpResponse:
    """Every lesson module, and the form of the one chosen (``?game=``, or the form's own
    ``game``; the default game at first)."""
    chosen = request.POST.get("game") or request.GET.get("game") or settings.DEFAULT_GAME
    lesson = next((m for m in lessons.playable() if m.game == chosen), None)
    if lesson is None:
        lesson = lessons.lesson_for(settings.DEFAULT_GAME)
    form_class = lesson_form(lesson)
    # A POST with no fields is still a bound form (an empty QueryDict is false).
    form = form_class(request.POST if request.method == "POST" else None,
                      initial={"language": request.LANGUAGE_CODE, "game": lesson.game})
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_create(
                owner=request.user, title=form.cleaned_data["title"],
                game=form.cleaned_data["game"], language=form.cleaned_data["language"],
                options=form.options(), class_size=form.cleaned_data["class_size"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("facilitator:console", session.pk)
    return render(request, "facilitator/lesson_new.html",
                  {"form": form, "lesson": lesson, "modules": lessons.all_lessons()},
                  status=400 if form.errors else 200)


@login_required
def console(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _owned(request, session_id)
    get_token(request)  # the CSRF cookie, for forms the websocket pushes later
    with translation.override(session.language), kept_reads.screen_reads():
        view = selectors.projector_view(session)  # in the language too: it names the lesson
        context = projector_context(view, join_url=join_url(request, session.join_code))
        return render(request, "facilitator/console.html", context)


@login_required
@require_POST
def console_act(request: HttpRequest, session_id: int) -> HttpResponse:
    """The console's buttons as plain form posts (the websocket is used when it is up)."""
    session = _owned(request, session_id)
    with translation.override(session.language):
        try:
            message = messages.parse(messages.teacher_messages(session.lesson),
                                     messages.from_form(request.POST, session.lesson))
            messages.teacher_act(session, message)
        except ServiceError as exc:
            view = selectors.projector_view(selectors.session_for_teacher(request.user,
                                                                         session_id))
            context = projector_context(view, join_url=join_url(request, session.join_code))
            return render(request, "facilitator/console.html",
                          {**context, "error": exc.message}, status=exc.status)
    return redirect("facilitator:console", session_id)


@login_required
def students(request: HttpRequest, session_id: int) -> HttpResponse:
    """Manage the class during the lesson: remove a student, give a seat to a new phone."""
    session = _owned(request, session_id)
    seats = list(session.seats.filter(is_bot=False).select_related("table", "shares").order_by(
        "table__number", "position", "nickname"))
    here = presence.online(s.pk for s in seats)
    for s in seats:
        s.online = s.pk in here
    return render(request, "facilitator/students.html", {"session": session, "seats": seats})


@login_required
def join_qr(request: HttpRequest, session_id: int) -> HttpResponse:
    session = _owned(request, session_id)
    image = qrcode.make(join_url(request, session.join_code),
                        image_factory=qrcode.image.svg.SvgPathImage, box_size=20, border=2)
    return HttpResponse(image.to_string(), content_type="image/svg+xml")


@login_required
@require_POST
def reseat(request: HttpRequest, session_id: int, seat_id: int) -> HttpResponse:
    session = _owned(request, session_id)
    seat = session.seats.filter(pk=seat_id).first()
    if seat is None:
        raise Http404
    try:
        token = services.seat_reseat(session=session, seat=seat)
    except ServiceError as exc:
        return render(request, "facilitator/error.html", {"message": exc.message},
                      status=exc.status)
    link = join_url(request, session.join_code).rsplit("/join/", 1)[0] + reverse(
        "claim_seat", args=[token])
    image = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, box_size=16)
    return render(request, "facilitator/reseat.html", {
        "session": session, "seat": seat, "link": link,
        "qr": image.to_string(encoding="unicode")})


@login_required
def export_record(request: HttpRequest, session_id: int, number: int) -> JsonResponse:
    session = _owned(request, session_id)
    table = session.tables.filter(number=number).first()
    if table is None:
        raise Http404
    response = JsonResponse(game_record(table), json_dumps_params={"indent": 2,
                                                                  "ensure_ascii": False})
    response["Content-Disposition"] = (
        f'attachment; filename="lesson-{session.pk}-table-{number}.json"')
    return response
