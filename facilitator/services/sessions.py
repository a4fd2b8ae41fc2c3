"""Creating a lesson, and what every teacher action checks first (lock, step log, pause)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from facilitator import broadcast, clock, countdown, lessons
from facilitator.errors import ServiceError
from facilitator.models import (
    CLASS_SIZE_DEFAULT,
    CLASS_SIZE_MAX,
    CLASS_SIZE_MIN,
    ClassSession,
    TeacherStep,
)
from facilitator.rows import Rows
from facilitator.services.tokens import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH

Status = ClassSession.Status

def session_create(*, owner: AbstractBaseUser, title: str = "", game: str | None = None,
                   language: str = "en", options: dict[str, Any] | None = None,
                   class_size: int = CLASS_SIZE_DEFAULT) -> ClassSession:
    """A new lesson of ``game`` in the lobby, with the module's options (its defaults, then
    ``options``, checked by the module)."""
    game = settings.DEFAULT_GAME if game is None else game
    lesson = lesson_of(game) if isinstance(game, str) else None
    if lesson is None or not lesson.playable:
        raise ServiceError("unknown_game", _("That game is not available."))
    if language not in dict(ClassSession._meta.get_field("language").choices):
        raise ServiceError("unknown_language", _("That language is not available."))
    if options is not None and not isinstance(options, dict):
        raise ServiceError("bad_options", _("Lesson options must be named settings."))
    merged = {**lesson.default_options, **(options or {})}
    lesson.check_options(merged)
    if (not isinstance(class_size, int) or isinstance(class_size, bool)
            or not CLASS_SIZE_MIN <= class_size <= CLASS_SIZE_MAX):
        raise ServiceError("bad_class_size", _("The class size must be between %(min)d and "
                                               "%(max)d students.")
                           % {"min": CLASS_SIZE_MIN, "max": CLASS_SIZE_MAX})
    for _attempt in range(20):
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        try:
            with transaction.atomic():
                return ClassSession.objects.create(
                    owner=owner, title=title.strip()[:120], game=game, language=language,
                    options=merged, class_size=class_size, join_code=code,
                    created_at=clock.now())
        except IntegrityError:
            continue  # the code is taken by another open session: draw again
    raise ServiceError("no_join_code", _("Could not find a free join code; try again."),
                       status=503)


def lesson_of(game: str) -> lessons.Lesson | None:
    try:
        return lessons.lesson_for(game)
    except KeyError:
        return None


def locked_session(session: ClassSession) -> ClassSession:
    return ClassSession.objects.select_for_update().get(pk=session.pk)


STEP = Rows(TeacherStep)
_LAST_STEP_SQL = (f"SELECT {STEP.columns('s')} FROM {STEP.table} s WHERE s.session_id = %s "
                  "ORDER BY s.seq DESC LIMIT 1")


def last_step(session: ClassSession) -> TeacherStep | None:
    """The session's latest teacher step (one fixed statement: every count and action of a
    service asks for it)."""
    with connection.cursor() as cursor:
        cursor.execute(_LAST_STEP_SQL, [session.pk])
        row = cursor.fetchone()
    return STEP.load(row) if row is not None else None


def record_step(session: ClassSession, kind: str, stage_before: str, round_before: int
                 ) -> TeacherStep:
    last = session.steps.aggregate(m=Max("seq"))["m"] or 0
    return TeacherStep.objects.create(
        session=session, seq=last + 1, kind=kind, stage_before=stage_before,
        round_before=round_before, stage_after=session.stage, round_after=session.round,
        created_at=clock.now())


def check_can_drive(session: ClassSession, expected: str | None) -> None:
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    if session.paused:
        raise ServiceError("paused", _("The lesson is paused. Resume it first."))
    if expected is not None and expected != session.stage_id:
        raise ServiceError("stale", _("The lesson has already moved on; the screen has been "
                                      "updated."), status=409)


@transaction.atomic
def session_pause(*, session: ClassSession, paused: bool) -> ClassSession:
    session = locked_session(session)
    if not session.is_open:
        raise ServiceError("read_only", _("This lesson is over and can no longer change."))
    if paused != session.paused:
        session.timer = _timer_held(session.timer, held=paused)
        session.pauses = countdown.pause_marked(session.pauses or [], paused=paused,
                                                now=clock.now().timestamp())
    session.paused = paused
    session.save(update_fields=["paused", "timer", "pauses"])
    broadcast.refresh(session.pk, session.seats.values_list("pk", flat=True))
    return session


def _timer_held(timer: dict[str, Any] | None, *, held: bool) -> dict[str, Any] | None:
    """The stage's countdown frozen while the lesson is paused (``held``), and running again
    on resume from the seconds it had; a countdown the teacher had paused stays paused."""
    if not timer:
        return timer
    moment_ = clock.now().timestamp()
    if held and timer.get("left") is None:  # running: freeze it, marked as the pause's
        return {"ends_at": None, "left": max(0.0, timer["ends_at"] - moment_), "held": True}
    if not held and timer.get("held"):
        return {"ends_at": moment_ + timer["left"], "left": None}
    return timer


@transaction.atomic
def session_archive(*, session: ClassSession) -> ClassSession:
    session = locked_session(session)
    if session.status != Status.FINISHED:
        raise ServiceError("not_finished", _("Only a finished lesson can be archived."))
    session.status = Status.ARCHIVED
    session.save(update_fields=["status"])
    return session


