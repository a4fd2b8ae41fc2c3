"""The game master's page: every table's orders as they arrive, who has sent them, the
proposal and its press release to approve, the phones' requests, and the forms that correct
orders and confirm parties and Governments. Thin: a selector's view, the module's presenters,
the module's services."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from facilitator import kit
from facilitator.errors import ServiceError
from facilitator.lessons.poleconomy import presenters, reads
from facilitator.lessons.poleconomy import services as pol
from facilitator.models import ClassSession

PAGE = "poleconomy/master.html"


def _owned(request: HttpRequest, session_id: int) -> ClassSession:
    session = kit.session_for_teacher(request.user, session_id)
    if session.game != "poleconomy":
        raise ServiceError("not_found", _("There is no such lesson."), status=404)
    return session


def _render(request: HttpRequest, session: ClassSession, error: str = "",
            status: int = 200, open_player: str = "") -> HttpResponse:
    """``open_player``: the player whose correction was refused; their form stays open with
    the reason beside it."""
    view = kit.projector_view(session)
    context = {**presenters.master_context(view, reads.master_reads(session)), "error": error,
               "open_player": open_player}
    template = "poleconomy/_master_live.html" if request.GET.get("part") else PAGE
    return render(request, template, context, status=status)


@login_required
def master(request: HttpRequest, session_id: int) -> HttpResponse:
    try:
        session = _owned(request, session_id)
    except ServiceError as exc:
        return render(request, "facilitator/error.html", {"message": exc.message},
                      status=exc.status)
    with translation.override(session.language):
        return _render(request, session)


def _int(value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise ServiceError("bad_message", _("That table does not exist.")) from None


def _act(session: ClassSession, post: Any) -> None:
    kind, table, expected = post.get("type"), _int(post.get("table")), post.get("expected")
    if kind == "master_order_form":
        pol.master_order_form_send(session=session, table=table, player=post.get("player", ""),
                                   fields=post.dict(), clear=post.get("clear") == "1",
                                   expected=expected)
    elif kind == "master_parties":
        declared: dict[str, list[str]] = {}
        for i in range(1, 4):
            name = post.get(f"party{i}", "").strip()
            members = post.getlist(f"members{i}")
            if name or members:
                declared[name] = members
        pol.master_parties(session=session, table=table, declared=declared,
                           expected=expected)
    elif kind == "master_government":
        new_election = post.get("election") == "1"
        pol.master_government(session=session, table=table,
                              members=None if new_election else post.getlist("members"),
                              pm=None if new_election else (post.get("pm") or None),
                              expected=expected)
    elif kind == "master_end":
        pol.master_end(session=session, table=table, expected=expected)
    elif kind == "master_press":
        pol.master_press(session=session, table=table, expected=expected)
    else:
        raise ServiceError("bad_message", _("Unknown action."))


@login_required
@require_POST
def master_act(request: HttpRequest, session_id: int) -> HttpResponse:
    try:
        session = _owned(request, session_id)
    except ServiceError as exc:
        return render(request, "facilitator/error.html", {"message": exc.message},
                      status=exc.status)
    with translation.override(session.language):
        try:
            _act(session, request.POST)
        except ServiceError as exc:
            return _render(request, ClassSession.objects.get(pk=session.pk), exc.message,
                           exc.status, open_player=request.POST.get("player", ""))
    return redirect("facilitator:poleconomy:master", session_id)
