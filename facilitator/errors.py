"""The one error type services raise: a stable ``code`` and a message a person can read."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the lesson cannot take now. Nothing was changed.

    ``code`` is stable (tests, websocket error frames); ``message`` is already translated
    into the active language; ``status`` is the HTTP status a view should answer with.
    """

    def __init__(self, code: str, message: Any, *, status: int = 400) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = str(message)
        self.status = status

    def as_frame(self) -> dict[str, str]:
        return {"type": "error", "code": self.code, "message": self.message}
