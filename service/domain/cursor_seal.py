"""Sealing the one part of a traversal cursor that could tell of a hidden asset: a
side's position when its last node was a redacted stand-in. It is encrypted (Fernet:
AES-128-CBC with HMAC-SHA256) under the first `GOVERNANCE_SECRET_KEY`, or, where none is
configured, a key this process drew at start (such a cursor then continues only in this
process). The same key draws each walk's shuffle of its stand-ins (`shuffle`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken

SEALED = "\x00"  # no asset id starts so (ids hold no control characters)
_PROCESS_KEY = Fernet.generate_key()


class CursorSeal:
    def __init__(self, keys: Sequence[str]) -> None:
        self._fernets = [Fernet(key.encode()) for key in keys] or [Fernet(_PROCESS_KEY)]
        self._shuffle_key = base64.urlsafe_b64decode(keys[0] if keys else _PROCESS_KEY)

    def shuffle(self, walk: bytes, modulus: int) -> tuple[int, int]:
        """A multiplier in [1, modulus) and an offset in [0, modulus), drawn from the key
        and `walk` (its identity): the same walk is shuffled alike on every page and in
        every process sharing the key, another walk otherwise."""
        digest = hmac.new(self._shuffle_key, walk, hashlib.sha256).digest()
        drawn = int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")
        return 1 + drawn[0] % (modulus - 1), drawn[1] % modulus

    def seal(self, asset_id: str) -> str:
        return SEALED + self._fernets[0].encrypt(asset_id.encode()).decode()

    def open(self, value: str) -> str | None:
        """The id a sealed position holds; the value itself when it was never sealed;
        None when it was sealed by no key this process holds (or tampered with)."""
        if not value.startswith(SEALED):
            return value
        for fernet in self._fernets:
            try:
                return fernet.decrypt(value[len(SEALED) :].encode()).decode()
            except (InvalidToken, UnicodeDecodeError):
                continue
        return None
