"""Seat tokens and join codes."""

from __future__ import annotations

import hashlib
import re
import secrets

# No look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B.
JOIN_CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"


JOIN_CODE_LENGTH = 6


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_seat_token() -> tuple[str, str]:
    """A fresh seat token (256 random bits) and the hash we store."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def normalise_code(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "").upper()


