"""WebSocket consumers: thin. Authenticate, validate the JSON, call a service, answer.

Protocol (JSON text frames, each with a ``type``):

- Phone (``/ws/play/``, seat token in the HttpOnly cookie): ``pact {coins}``,
  ``ballot {kind, option}``, ``tie_break {choice}``, ``refresh``; each may carry ``expected``
  (the ``phase_id`` the phone was showing: an action for a moment that has passed is refused as
  stale) and ``id`` (echoed in the ``ack`` so a phone can tell a lost frame from a refused one).
- Teacher (``/ws/lesson/<id>/``, logged-in owner): ``start {fill}``, ``next``, ``undo``,
  ``pause``, ``resume``, ``remove {seat}``, ``tie_break {table, choice}``, ``refresh``.
- Server: ``view {view}`` (the full current view, on connect and after every change),
  ``progress`` (projector: "5 of 8 have voted"), ``ack {id}``, ``error {code, message}``,
  ``removed``.

Bad input gets an ``error`` frame and changes nothing; the socket stays open.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from facilitator import broadcast, selectors, services
from facilitator.errors import ServiceError
from facilitator.models import ClassSession, Seat

SEAT_COOKIE = "sic_seat"
MAX_FRAME = 4096
Id = Annotated[StrictStr, Field(max_length=64)] | StrictInt | None
Phase = Annotated[StrictStr, Field(max_length=40)] | None


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: Id = None
    expected: Phase = None


class Pact(Message):
    type: Literal["pact"]
    coins: Annotated[StrictInt, Field(ge=0, le=3)]


class Ballot(Message):
    type: Literal["ballot"]
    kind: Literal["tax", "budget"]
    option: Annotated[StrictStr, Field(max_length=20)]


class SeatTieBreak(Message):
    type: Literal["tie_break"]
    choice: Annotated[StrictStr, Field(max_length=20)] | None


class Refresh(Message):
    type: Literal["refresh"]


class Start(Message):
    type: Literal["start"]
    fill: Literal["bots", "pairs"] | None = None


class Simple(Message):
    type: Literal["next", "undo", "pause", "resume"]


class Remove(Message):
    type: Literal["remove"]
    seat: StrictInt


class TeacherTieBreak(Message):
    type: Literal["tie_break"]
    table: Annotated[StrictInt, Field(ge=1)]
    choice: Annotated[StrictStr, Field(max_length=20)] | None


SEAT_MESSAGES: TypeAdapter[Any] = TypeAdapter(
    Annotated[Pact | Ballot | SeatTieBreak | Refresh, Field(discriminator="type")])
TEACHER_MESSAGES: TypeAdapter[Any] = TypeAdapter(
    Annotated[Start | Simple | Remove | TeacherTieBreak | Refresh, Field(discriminator="type")])


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"] if not isinstance(p, int)) or "message"
    return _("Bad message (%(where)s): %(problem)s") % {"where": where, "problem": first["msg"]}


class LessonConsumer(AsyncJsonWebsocketConsumer):
    """What both sockets share: parsing, error frames, language, refresh on demand."""

    adapter: TypeAdapter[Any]
    language = "en"

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None
                      ) -> None:
        with translation.override(self.language):
            if text_data is None or len(text_data) > MAX_FRAME:
                await self.send_error("bad_message", _("Send one JSON text message of at most "
                                                       "4 KB."))
                return
            try:
                raw = json.loads(text_data)
            except ValueError:
                await self.send_error("bad_message", _("That message is not valid JSON."))
                return
            try:
                message = self.adapter.validate_python(raw)
            except ValidationError as exc:
                await self.send_error("bad_message", _describe(exc))
                return
            try:
                await self.handle(message)
            except ServiceError as exc:
                await self.send_json({**exc.as_frame(), "id": message.id})
                await self.send_view()
                return
            await self.send_json({"type": "ack", "id": message.id})

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    async def handle(self, message: Any) -> None:
        raise NotImplementedError

    async def send_view(self) -> None:
        raise NotImplementedError

    async def lesson_refresh(self, event: dict[str, Any]) -> None:
        await self.send_view()

    async def encode_json(self, content: Any) -> str:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


class SeatConsumer(LessonConsumer):
    adapter = SEAT_MESSAGES
    seat: Seat

    async def connect(self) -> None:
        token = self.scope.get("cookies", {}).get(SEAT_COOKIE)
        seat = await database_sync_to_async(selectors.seat_for_token)(token)
        if seat is None:
            await self.close(code=4403)
            return
        self.seat = seat
        self.language = seat.session.language
        await self.channel_layer.group_add(broadcast.seat_group(seat.pk), self.channel_name)
        await self.accept()
        await database_sync_to_async(services.seat_set_connected)(seat_id=seat.pk,
                                                                   connected=True)
        await self.send_view()

    async def disconnect(self, code: int) -> None:
        seat = getattr(self, "seat", None)
        if seat is not None:
            await self.channel_layer.group_discard(broadcast.seat_group(seat.pk),
                                                   self.channel_name)
            await database_sync_to_async(services.seat_set_connected)(seat_id=seat.pk,
                                                                       connected=False)

    async def handle(self, message: Any) -> None:
        seat_id, expected = self.seat.pk, message.expected
        if isinstance(message, Pact):
            await database_sync_to_async(services.pact_submit)(
                seat_id=seat_id, coins=message.coins, expected=expected)
        elif isinstance(message, Ballot):
            await database_sync_to_async(services.ballot_cast)(
                seat_id=seat_id, kind=message.kind, option=message.option, expected=expected)
        elif isinstance(message, SeatTieBreak):
            await database_sync_to_async(services.tie_break_submit)(
                seat_id=seat_id, choice=message.choice)
        else:
            await self.send_view()

    async def send_view(self) -> None:
        view = await database_sync_to_async(selectors.seat_view)(self.seat)
        await self.send_json({"type": "view", "view": view})

    async def lesson_removed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "removed", "message": _("You are no longer in this "
                                                               "lesson.")})
        await self.close(code=4403)


class TeacherConsumer(LessonConsumer):
    adapter = TEACHER_MESSAGES
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
        self.language = self.session.language
        await self.channel_layer.group_add(broadcast.projector_group(self.session.pk),
                                           self.channel_name)
        await self.accept()
        await self.send_view()

    async def disconnect(self, code: int) -> None:
        session = getattr(self, "session", None)
        if session is not None:
            await self.channel_layer.group_discard(broadcast.projector_group(session.pk),
                                                   self.channel_name)

    async def handle(self, message: Any) -> None:
        session, expected = self.session, message.expected
        call = database_sync_to_async
        if isinstance(message, Start):
            await call(services.session_start)(session=session, fill=message.fill)
        elif isinstance(message, Simple) and message.type == "next":
            await call(services.session_advance)(session=session, expected=expected)
        elif isinstance(message, Simple) and message.type == "undo":
            await call(services.session_undo)(session=session, expected=expected)
        elif isinstance(message, Simple):
            await call(services.session_pause)(session=session,
                                               paused=message.type == "pause")
        elif isinstance(message, Remove):
            seat = await call(Seat.objects.filter(pk=message.seat, session=session).first)()
            if seat is None:
                raise ServiceError("not_found", _("That student is not in this lesson."))
            await call(services.seat_remove)(session=session, seat=seat)
        elif isinstance(message, TeacherTieBreak):
            await call(services.tie_break_submit)(session=session, table_number=message.table,
                                                  choice=message.choice, expected=expected)
        else:
            await self.send_view()

    async def send_view(self) -> None:
        view = await database_sync_to_async(self._view)()
        await self.send_json({"type": "view", "view": view})

    def _view(self) -> dict[str, Any]:
        self.session.refresh_from_db()
        return selectors.projector_view(self.session)

    async def lesson_progress(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "progress", **{k: v for k, v in event.items()
                                                     if k != "type"}})
