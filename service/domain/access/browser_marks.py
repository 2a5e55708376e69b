"""A mark each browser carries before it signs in, so single sign-on starts can be
counted per browser when many browsers share one address (a TLS proxy whose
forwarded headers the service does not trust).

A mark is a random id and an HMAC of it under a key derived from the service's
secret keys (`GOVERNANCE_SECRET_KEY`, so every process and worker accepts the marks
of the others; with none, a key of this process). A client cannot make up marks:
each new one is handed out by a start, and starts without a mark are counted per
address (`service.ratelimit.SignInThrottle`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

_PURPOSE = b"governance browser mark"
_PROCESS_KEY = secrets.token_bytes(32)
ID_BYTES = 16
MAX_LENGTH = 128


def _derived(key: bytes) -> bytes:
    """A key of its own for marks: a secret key is never used as is for two jobs."""
    return hmac.new(key, _PURPOSE, hashlib.sha256).digest()


class BrowserMarks:
    """Mints marks under the first key and accepts marks of any key (rotation)."""

    def __init__(self, keys: Sequence[str]) -> None:
        raw = [key.encode() for key in keys] or [_PROCESS_KEY]
        self._keys = [_derived(key) for key in raw]

    def _signature(self, key: bytes, browser: str) -> str:
        return hmac.new(key, browser.encode(), hashlib.sha256).hexdigest()

    def mint(self) -> tuple[str, str]:
        """A new browser id and the cookie value that carries it."""
        browser = secrets.token_urlsafe(ID_BYTES)
        return browser, f"{browser}.{self._signature(self._keys[0], browser)}"

    def holder(self, value: str | None) -> str | None:
        """The browser id a cookie value carries; None when it is absent, malformed or
        signed by no key held here."""
        if not value or len(value) > MAX_LENGTH or value.count(".") != 1:
            return None
        browser, signature = value.split(".")
        for key in self._keys:
            if hmac.compare_digest(signature.encode(), self._signature(key, browser).encode()):
                return browser
        return None
