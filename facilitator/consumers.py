"""WebSocket consumers: thin. Authenticate, validate the JSON, call a service, answer.

Protocol (JSON text frames, each with a ``type``):

- Phone (``/ws/play/``, seat token in the HttpOnly cookie): ``ballot {decision or kind,
  option}``, ``refresh`` and the lesson's own (``Lesson.seat_messages``); each may carry
  ``expected`` (the ``stage_id`` the phone was showing: an action for a moment that has passed
  is refused as stale) and ``id`` (echoed in the ``ack`` so a phone can tell a lost frame from
  a refused one).
- Teacher (``/ws/lesson/<id>/``, logged-in owner): ``start {fill}``, ``next {confirm}``,
  ``undo``, ``pause``, ``resume``, ``remove {seat}``, ``refresh`` and the lesson's own
  (``Lesson.teacher_messages``).
- Server: ``view {phase, html}`` (on connect and after every change: the screen rendered by
  the same templates as the page; with ``settings.LIVE_VIEW_DATA``, as in the tests, also
  ``view``, the data it was rendered from), ``progress`` (projector:
  "5 of 8 have voted", counts and text), ``presence {seat, connected}``
  (projector: a phone came or went), ``ack {id}`` (a ballot's also carries its bag's
  ``progress``), ``counted {table, bag}`` (phone: a held count, see ``broadcast.counted``),
  ``error {code, message, id}``, ``removed``.

Bad input gets an ``error`` frame and changes nothing; the socket stays open.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user
from django.db import close_old_connections
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from pydantic import TypeAdapter, ValidationError

from facilitator import broadcast, clock, kept_reads, messages, presence, selectors, services
from facilitator.errors import ServiceError
from facilitator.language import phone_language
from facilitator.lessons import lesson_for
from facilitator.messages import Id
from facilitator.models import ClassSession, Seat
from facilitator.network import join_url
from facilitator.phone_screens import phone_screens
from facilitator.screens import phone_context, projector_context

logger = logging.getLogger(__name__)
SEAT_COOKIE = "sic_seat"
CSRF_COOKIE = "csrftoken"
MAX_FRAME = 4096
ID_ADAPTER: TypeAdapter[Any] = TypeAdapter(Id)
_render_threads: dict[str, tuple[int, ThreadPoolExecutor]] = {}


def render_executor(audience: str = "phone") -> ThreadPoolExecutor:
    """One thread per process and audience that renders views (read-only), apart from the one
    thread in which Channels runs every service call. Performance fixes
    (docs/performance.md): renders queued in that thread made every ballot behind them wait;
    and the projectors have a thread of their own, so a console's screen (and the vote
    counts queued behind it) never waits for the phones' screens at a count. Made again in a
    forked child (the parent's thread does not run there, and work queued on it would wait for
    ever; docs/architecture.md, "Traps in the stack")."""
    entry = _render_threads.get(audience)
    if entry is None or entry[0] != os.getpid():
        entry = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix=f"render-{audience}"))
        _render_threads[audience] = entry
    return entry[1]


def view_frame(view: dict[str, Any], html: str) -> dict[str, Any]:
    """A screen for the page, with the server's time as it is sent (the page's countdowns
    count to their end times by it: ``facilitator.countdown``); its data only where
    settings.LIVE_VIEW_DATA asks for it."""
    frame = {"type": "view", "phase": view["session"]["stage_id"], "html": html,
             "now": clock.now().timestamp()}
    if settings.LIVE_VIEW_DATA:
        frame["view"] = view
    return frame


def _echo_id(raw: Any) -> Any:
    """The ``id`` of a refused message, if it is a valid one (else None: nothing to echo)."""
    if not isinstance(raw, dict):
        return None
    try:
        return ID_ADAPTER.validate_python(raw.get("id"))
    except ValidationError:
        return None


def still_logged_in(session_key: str | None, user_pk: Any) -> bool:
    """True while the browser session ``session_key`` is still ``user_pk``'s login: not
    logged out, not expired, not ended by a password change (Django's session hash)."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return bool(user.is_authenticated and user.is_active and user.pk == user_pk)


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


class LessonConsumer(AsyncJsonWebsocketConsumer):
    """What both sockets share: parsing, error frames, language, refresh on demand."""

    adapter: TypeAdapter[Any]
    language = "en"
    audience = "phone"  # whose render thread (see render_executor)

    def speak(self, language: str) -> None:
        """This socket's language, for everything it says from now on.

        Activated once, in the socket's own task: Django keeps the active language in a
        context variable, so it holds for every message this socket handles (and the
        database thread's work for it, which runs in a copy of that context) and for no
        other socket, at no cost per message (entering ``translation.override`` for every
        message instead took a share of the server's CPU: docs/performance.md, "The vote path
        toward the physical limit", step 18).
        """
        self.language = language
        translation.activate(language)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its hop to the database thread before every message
        (``aclose_old_connections``: a ballot, every count sent to a projector, every
        presence frame queued there). Every database call of these consumers goes through
        ``database_sync_to_async``, which closes old connections before and after it, in the
        thread that holds them."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        # The limit is 4 KB on the wire: UTF-8 bytes, not characters.
        if text_data is None or len(text_data.encode()) > MAX_FRAME:
            await self.send_error("bad_message", _("Send one JSON text message of at most "
                                                   "4 KB."))
            return
        try:
            raw = json.loads(text_data)
        except (ValueError, RecursionError):
            # "[[[[…" nested a few thousand deep (still under 4 KB) raises
            # RecursionError, which is no ValueError.
            await self.send_error("bad_message", _("That message is not valid JSON."))
            return
        try:
            message = self.adapter.validate_python(raw)
        except ValidationError as exc:
            # A well-formed id is echoed, so the phone can tell which message was refused.
            await self.send_error("bad_message", messages.describe(exc), _echo_id(raw))
            return
        if isinstance(message, messages.Refresh):
            await self.send_view()
            if not getattr(self, "closing", False):
                await self.send_json({"type": "ack", "id": message.id})
            return
        try:
            result = await broadcast.deliver_after(
                lambda: database_sync_to_async(self.act)(message))
            if self.rendering():
                self.stale = True  # the screen under way may predate this action
        except ServiceError as exc:
            # The refusal, then a fresh screen: not a needless one. The page disabled the
            # form's buttons when it sent the action, and a refusal often means its screen was
            # behind ("stale": the lesson has moved on, as the message says). The page keeps
            # the message across this screen and later ones of the same moment, until the
            # user acts again (static/js/live.js, keepRefusal).
            await self.send_json({**exc.as_frame(), "id": message.id})
            await self.send_view()
            return
        ack: dict[str, Any] = {"type": "ack", "id": message.id}
        if result and result.get("progress"):
            # A ballot's ack says how full the bag is now: the phone shows it under "your
            # token is in the bag" (no new screen is rendered for the voter), said as a
            # moment, since the phone is not told the counts after it.
            counts = result["progress"]
            text = ngettext("When your token went in, %(n)d of %(of)d had voted.",
                            "When your token went in, %(n)d of %(of)d had voted.",
                            counts["voted"]) % {"n": counts["voted"], "of": counts["of"]}
            ack["progress"] = {**counts, "text": text}
        await self.send_json(ack)

    async def send_error(self, code: str, message: str, message_id: Any = None) -> None:
        frame = {"type": "error", "code": code, "message": message}
        if message_id is not None:
            frame["id"] = message_id
        await self.send_json(frame)

    def act(self, message: Any) -> dict[str, Any] | None:
        raise NotImplementedError

    def progress_text(self, counts: dict[str, Any]) -> str:
        """A vote's progress at one table, counts only: "5 of 8 have voted" (a bag counted
        where the count changes nothing else on the projector: "The bag has been counted.")."""
        if counts.get("counted"):
            return _("The bag has been counted.")
        return ngettext("%(n)d of %(of)d has voted", "%(n)d of %(of)d have voted",
                        counts["voted"]) % {"n": counts["voted"], "of": counts["of"]}

    def render(self) -> dict[str, Any]:
        """The frame with this socket's current view: data, and the screen as HTML."""
        raise NotImplementedError

    async def render_async(self) -> dict[str, Any]:
        return await database_sync_to_async(self._render_then_tidy, thread_sensitive=False,
                                            executor=render_executor(self.audience))()

    def _render_then_tidy(self) -> dict[str, Any]:
        try:
            with kept_reads.screen_reads():  # the tables read once for this screen
                return self.render()
        finally:
            close_old_connections()  # in the render's own context (the wrapper's may differ)

    # Views are rendered in the background, one at a time, and coalesced: a refresh that
    # arrives during a render makes one more render, not one each, and the socket's next
    # message (a ballot) is handled at once instead of waiting for its screen to be rendered
    # (performance, docs/performance.md). An action handled while a render is under way asks
    # for one more, so the last screen sent shows the action. A view rendered just before a
    # ballot may arrive after that ballot's count: the page keeps the higher count
    # (static/js/live.js). The console renders at most ``RENDERS_PER_SECOND`` a second: the
    # counts of a class voting at once make one render for several tables (each count's
    # "8 of 8" goes out at once as a progress frame; only the screen it changes waits).
    views: asyncio.Future[None] | None = None
    stale = False
    RENDERS_PER_SECOND: float | None = None
    last_render = 0.0

    def request_view(self) -> asyncio.Future[None]:
        self.stale = True
        if self.views is None or self.views.done():
            self.views = asyncio.ensure_future(self._render_while_stale())
            self.views.add_done_callback(self._views_done)
        return self.views

    async def _render_while_stale(self) -> None:
        loop = asyncio.get_running_loop()
        while self.stale and not getattr(self, "closing", False):
            if self.RENDERS_PER_SECOND:
                wait = self.last_render + 1 / self.RENDERS_PER_SECOND - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)  # refreshes asked for meanwhile join this one
            self.stale = False
            self.last_render = loop.time()
            await self.deliver_view(await self.render_async())

    async def deliver_view(self, frame: dict[str, Any]) -> None:
        await self.send_json(frame)

    def _views_done(self, task: asyncio.Future[None]) -> None:
        if task.cancelled() or task.exception() is None:
            return
        # As when a render fails in the consumer itself: close the socket (the page
        # reconnects and asks for a fresh view), and say why in the server's log.
        logger.error("a socket's view failed", exc_info=task.exception())
        self.closer = asyncio.ensure_future(self.close(code=1011))

    def rendering(self) -> bool:
        return self.views is not None and not self.views.done()

    async def send_view(self) -> None:
        """A fresh view, after any view being rendered (callers that answer after it)."""
        await asyncio.shield(self.request_view())

    async def lesson_refresh(self, event: dict[str, Any]) -> None:
        self.request_view()

    def stop_views(self) -> None:
        if self.views is not None:
            self.views.cancel()

    async def layer_lost(self, event: dict[str, Any]) -> None:
        """This process lost Redis (``facilitator.channel_layer``): messages may have been
        missed, so the socket closes and its page reconnects to a fresh view."""
        await self.close(code=1012)

    async def send_json(self, content: Any, close: bool = False) -> None:
        try:
            await super().send_json(content, close)
        except Disconnected:
            # The phone went away while its screen was being rendered (the class ends, the
            # wifi drops): daphne refuses to send on the closed socket. Its goodbye is on its
            # way; nothing is logged as an error.
            self.closing = True

    async def encode_json(self, content: Any) -> str:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"))

    def csrf_token(self) -> str:
        """Forms in pushed HTML post to the HTTP fallback too: they carry the CSRF secret."""
        return self.scope.get("cookies", {}).get(CSRF_COOKIE, "")


class SeatConsumer(LessonConsumer):
    seat: Seat

    async def connect(self) -> None:
        token = self.scope.get("cookies", {}).get(SEAT_COOKIE)
        seat = await database_sync_to_async(self.arrive)(token)  # one database hop
        if seat is None:
            await self.close(code=4403)
            return
        self.present = True  # counted in presence (see arrive); disconnect uncounts it
        presence.socket_opened()
        # Kept for the socket's life: the seat's ids only (not its table and snapshot), so a
        # connected phone costs the server little memory; every render reads the seat again.
        self.seat = Seat(id=seat.pk, session_id=seat.session_id, token_hash=seat.token_hash)
        self.token_hash = seat.token_hash
        self.lesson = lesson_for(seat.session.game)
        self.adapter = messages.seat_messages(self.lesson)
        # The phone's own language choice (its cookie), else the lesson's.
        self.speak(phone_language(self.scope.get("cookies", {}), seat.session.language))
        await self.channel_layer.group_add(broadcast.seat_group(seat.pk), self.channel_name)
        await self.accept()
        await self.send_view()
        await self.tell_console()

    @staticmethod
    def arrive(token: str | None) -> Seat | None:
        """The seat the token holds, counted in presence (one more socket for it)."""
        seat = selectors.seat_for_token(token)
        if seat is not None:
            presence.presence_join(seat_id=seat.pk)
        return seat

    async def disconnect(self, code: int) -> None:
        self.stop_views()
        seat = getattr(self, "seat", None)
        if seat is not None:
            await self.channel_layer.group_discard(broadcast.seat_group(seat.pk),
                                                   self.channel_name)
        if getattr(self, "present", False):
            self.present = False
            presence.socket_closed()
            await database_sync_to_async(presence.presence_leave)(seat_id=seat.pk)
            here = await database_sync_to_async(presence.online)([seat.pk])
            await self.tell_console(connected=bool(here))

    async def tell_console(self, connected: bool = True) -> None:
        # The console shows who is connected: it is told at once when a phone comes or goes.
        # Performance: a small presence frame, never a re-render of the whole console, for a
        # phone that comes or goes (docs/performance.md, "What was changed, before and after").
        await self.channel_layer.group_send(broadcast.projector_group(self.seat.session_id),
                                            {"type": "lesson.presence", "seat": self.seat.pk,
                                             "connected": connected})

    def act(self, message: Any) -> dict[str, Any] | None:
        # The service checks, under the table's lock, that this socket's token still holds
        # the seat (see render).
        return messages.seat_act(self.seat.pk, self.lesson, message, token_hash=self.token_hash)

    async def render_async(self) -> dict[str, Any]:
        # With the other phones waiting for a screen: a table is read once for them all.
        return await phone_screens(lambda: render_executor(self.audience)).render(self)

    async def deliver_view(self, frame: dict[str, Any]) -> None:
        await self.send_json(frame)
        if frame["type"] == "removed":
            self.closing = True
            await self.close(code=4403)

    def render(self) -> dict[str, Any]:
        with translation.override(self.language):  # the view too: it names the lesson
            # The socket acts for (and is shown) its seat only while its token still holds
            # the seat, even if the "removed" message never reaches it (a lost channel-layer
            # message, another daphne process): every render (and every action, in the
            # service) checks the token again.
            view = selectors.held_seat_view(self.seat, self.token_hash)
            if view is None:
                return {"type": "removed", "message": _("You are no longer in this lesson.")}
            context = {**phone_context(view), "csrf_token": self.csrf_token()}
            html = render_to_string("play/_screen.html", context)
        return view_frame(view, html)

    async def lesson_counted(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "counted", "table": event["table"], "bag": event["bag"]})

    async def lesson_removed(self, event: dict[str, Any]) -> None:
        with translation.override(self.language):
            await self.send_json({"type": "removed",
                                  "message": _("You are no longer in this lesson.")})
        await self.close(code=4403)


class TeacherConsumer(LessonConsumer):
    audience = "projector"
    session: ClassSession

    async def connect(self) -> None:
        user = self.scope.get("user")
        session_id = self.scope["url_route"]["kwargs"]["session_id"]
        try:
            self.session = await database_sync_to_async(selectors.session_for_teacher)(
                user, session_id)
        except ServiceError:
            await self.close(code=4403)
            return
        self.adapter = messages.teacher_messages(self.session.lesson)
        self.user_pk = user.pk
        self.session_key = getattr(self.scope.get("session"), "session_key", None)
        self.speak(self.session.language)
        self.join_url = join_url(_header(self.scope, b"host"),
                                 secure=self.scope.get("scheme") == "wss",
                                 code=self.session.join_code)
        await self.channel_layer.group_add(broadcast.projector_group(self.session.pk),
                                           self.channel_name)
        await self.accept()
        await self.recover_votes()
        await self.send_view()

    async def recover_votes(self) -> None:
        """After a restart the console reconnects first: a vote whose key was lost is asked
        again now (its phones are told), not at the next count."""
        try:
            await database_sync_to_async(services.bags_recover)(session=self.session)
        except ServiceError as exc:  # the key store is down: the console says why
            await self.send_json(exc.as_frame())

    async def disconnect(self, code: int) -> None:
        session = getattr(self, "session", None)
        if session is not None:
            await self.channel_layer.group_discard(broadcast.projector_group(session.pk),
                                                   self.channel_name)
        self.stop_views()

    # An open console drives the lesson only while its login lasts: the login is checked
    # again before every action and every view; once it is gone the action is refused and
    # the socket closed (4403: the page reloads, and the console page asks for the login).
    def logged_in(self) -> bool:
        return still_logged_in(self.session_key, self.user_pk)

    def act(self, message: Any) -> dict[str, Any] | None:
        if not self.logged_in():
            raise ServiceError("logged_out", _("You are logged out. Log in again to run the "
                                               "lesson."), status=403)
        messages.teacher_act(self.session, message)
        return None

    RENDERS_PER_SECOND = 10

    async def deliver_view(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "logged_out":
            self.closing = True
            await self.close(code=4403)
            return
        await self.send_json(frame)

    def render(self) -> dict[str, Any]:
        if not self.logged_in():
            return {"type": "logged_out"}  # never sent: the socket is closed instead
        self.session.refresh_from_db()
        with translation.override(self.language):  # the view too: it names the lesson
            view = selectors.projector_view(self.session)
            context = {**projector_context(view, join_url=self.join_url),
                       "csrf_token": self.csrf_token()}
            html = render_to_string("facilitator/_console_live.html", context)
        return view_frame(view, html)

    async def lesson_progress(self, event: dict[str, Any]) -> None:
        if "voted" not in event:
            # A progress without counts (a round of open choices, not a bag): the console's
            # view has them, so it is rendered again.
            self.request_view()
            return
        await self.send_json({"type": "progress", "text": self.progress_text(event),
                              **{k: v for k, v in event.items() if k != "type"}})

    async def lesson_presence(self, event: dict[str, Any]) -> None:
        """A phone came or went: the console marks that student online or offline."""
        await self.send_json({"type": "presence", "seat": event["seat"],
                              "connected": event["connected"]})


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Every socket path that is no route: refused at the handshake, with nothing logged."""

    async def connect(self) -> None:
        await self.close(code=4404)
