"""Sealed ballots: a vote option encrypted under its bag's key (AES-256-GCM).

Every sealed ballot has the same length whatever its option (a fixed-size plaintext: the
option's index, its weight and zero padding), and two ballots for the same option differ (a
random nonce per ballot), so the stored bytes say nothing about the vote. The bag's random key
reference is the associated data: a sealed ballot cannot be moved into another bag and still
open.
"""

from __future__ import annotations

import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_BYTES = 32
NONCE_BYTES = 12
# The plaintext: one byte of option index, two of weight (big-endian; 0 in ballots sealed
# before weights existed, meaning 1), then zeros.
SLOT_BYTES = 16
MAX_WEIGHT = 0xFFFF
SEALED_BYTES = NONCE_BYTES + SLOT_BYTES + 16  # + the GCM tag


class BrokenSeal(Exception):
    """A sealed ballot that does not open under its bag's key."""


def new_key() -> bytes:
    return AESGCM.generate_key(bit_length=KEY_BYTES * 8)


def fingerprint(key: bytes) -> str:
    """Names a key without revealing it (a keyed hash cannot be inverted to the key)."""
    return hashlib.sha256(b"state-in-class bag key\x00" + key).hexdigest()[:32]


def seal(key: bytes, key_ref: str, index: int, weight: int = 1) -> bytes:
    if not 0 <= index < 256:
        raise ValueError("an option index is one byte")
    if not 1 <= weight <= MAX_WEIGHT:
        raise ValueError("a weight is 1 to 65535")
    nonce = os.urandom(NONCE_BYTES)
    plain = bytes([index]) + weight.to_bytes(2, "big") + bytes(SLOT_BYTES - 3)
    return nonce + AESGCM(key).encrypt(nonce, plain, key_ref.encode())


def unseal(key: bytes, key_ref: str, sealed: bytes) -> tuple[int, int]:
    """The sealed ballot's option index and weight."""
    if len(sealed) != SEALED_BYTES:
        raise BrokenSeal("a sealed ballot has the wrong length")
    try:
        plain = AESGCM(key).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:],
                                    key_ref.encode())
    except InvalidTag:
        raise BrokenSeal("a sealed ballot does not open under its bag's key") from None
    if len(plain) != SLOT_BYTES or any(plain[3:]):
        raise BrokenSeal("a sealed ballot holds no option")
    return plain[0], int.from_bytes(plain[1:3], "big") or 1
