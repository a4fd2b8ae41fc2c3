"""A finished lesson's PDFs are built once and served from then on (``models.Handout``).

A finished lesson no longer changes (``services.check_can_drive`` refuses every step), so a
handout is a function of its key (what, paper, language, student) and of what can still change
afterwards, its ``fingerprint``: the application's version, the lesson's title and the
students' nicknames. One process builds a given handout at a time; a second request for it
waits for that build and is served its result.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import threading
from collections.abc import Callable

from django.db import IntegrityError, transaction

from facilitator import clock
from facilitator.models import ClassSession, Handout

CLASS, STUDENTS, STUDENT = "class", "students", "student"

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def version() -> str:
    try:
        return importlib.metadata.version("state-in-class")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout not installed
        return "checkout"


def key(what: str, *, paper: str, language: str, seat_id: int | None = None) -> str:
    name = f"{STUDENT}:{seat_id}" if what == STUDENT else what
    return f"{name}|{paper}|{language}"


def fingerprint(session: ClassSession) -> str:
    """A hash of what a handout is made from that may change once the lesson is over (no row
    id: the same lesson stored again has the same fingerprint)."""
    names = (session.seats.order_by("table__number", "position", "nickname")
             .values_list("table__number", "position", "nickname", "removed"))
    text = repr((version(), session.title, session.finished_at, list(names)))
    return hashlib.sha256(text.encode()).hexdigest()


def _lock(name: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())


def stored(session: ClassSession, name: str, print_: str | None = None) -> bytes | None:
    """The stored handout ``name`` if it is still current (``print_``: the fingerprint, when
    the caller has it)."""
    content = (Handout.objects
               .filter(session=session, key=name,
                       fingerprint=print_ if print_ is not None else fingerprint(session))
               .values_list("content", flat=True).first())
    return bytes(content) if content is not None else None


def handout_get(*, session: ClassSession, name: str, build: Callable[[], bytes]) -> bytes:
    """The handout ``name`` of a finished lesson: the stored one while it is current, else
    built by ``build`` and stored (replacing an out-of-date one)."""
    print_ = fingerprint(session)
    content = stored(session, name, print_)
    if content is not None:
        return content
    with _lock(f"{session.pk}|{name}"):
        content = stored(session, name, print_)
        if content is not None:
            return content
        content = build()
        try:
            with transaction.atomic():
                Handout.objects.update_or_create(
                    session=session, key=name,
                    defaults={"fingerprint": print_, "content": content,
                              "built_at": clock.now()})
        except IntegrityError:  # another process stored it meanwhile: theirs is as good
            pass
        return content
