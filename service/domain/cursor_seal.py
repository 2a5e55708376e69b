"""Sealing the one part of a traversal cursor that could name a hidden asset: a side's
position when its last node was a redacted stand-in. The position must hold the real id
(the next page continues after it), so it is encrypted (Fernet: AES-128-CBC with
HMAC-SHA256) under the first `GOVERNANCE_SECRET_KEY`, or, where none is configured, a
key this process drew at start (such a cursor then continues only in this process).
"""

from __future__ import annotations

from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken

SEALED = "\x00"  # no asset id starts so (ids hold no control characters)
_PROCESS_KEY = Fernet.generate_key()


class CursorSeal:
    def __init__(self, keys: Sequence[str]) -> None:
        self._fernets = [Fernet(key.encode()) for key in keys] or [Fernet(_PROCESS_KEY)]

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
