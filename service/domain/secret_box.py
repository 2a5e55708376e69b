"""Webhook signing secrets sealed at rest with Fernet (AES-128-CBC and HMAC-SHA256).

A stored secret is `fernet:` + a Fernet token made with the first of the keys
(`GOVERNANCE_SECRET_KEY`); the other keys only open older tokens, so a key is
rotated by putting the new one first and keeping the old ones after it. A value
still starting `whsec_` was stored before secrets were sealed: it opens as it is
and is sealed again the next time it is read or written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken
from pydantic import SecretStr

from service.domain.webhook_signing import SECRET_PREFIX
from service.errors import ServiceError

SEALED_PREFIX = "fernet:"


# The service is misconfigured for this one operation, which the client can do nothing
# about: 503 with a Retry-After (an operator fixing the key heals it), never a 500.
CONFIG_RETRY_AFTER_S = 60


class _Misconfigured(ServiceError):
    status = 503

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail, headers={"Retry-After": str(CONFIG_RETRY_AFTER_S)})


class SecretKeyMissing(_Misconfigured):
    code, title = "secret_key_missing", "No secret key configured"


class SecretUnreadable(_Misconfigured):
    code, title = "secret_key_mismatch", "Stored secret cannot be decrypted"


@dataclass(frozen=True)
class Opened:
    secret: str
    stale: bool  # stored in plain text or under an old key: seal it again


class SecretBox:
    def __init__(self, keys: Sequence[str]) -> None:
        self._fernets = [Fernet(key.encode()) for key in keys]

    def seal(self, secret: str) -> str:
        if not self._fernets:
            raise SecretKeyMissing(
                "Webhook secrets are encrypted at rest; set GOVERNANCE_SECRET_KEY."
            )
        return SEALED_PREFIX + self._fernets[0].encrypt(secret.encode()).decode()

    def open(self, stored: str) -> Opened:
        if stored.startswith(SECRET_PREFIX):
            return Opened(stored, stale=True)
        token = stored.removeprefix(SEALED_PREFIX).encode()
        for index, fernet in enumerate(self._fernets):
            try:
                return Opened(fernet.decrypt(token).decode(), stale=index > 0)
            except InvalidToken:
                continue
        raise SecretUnreadable(
            "A webhook secret cannot be decrypted with any GOVERNANCE_SECRET_KEY "
            "(was the key replaced without keeping the old one after it?)."
        )

    def refreshed(self, stored: str) -> str:
        """`stored` sealed with the current key when it is plain or under an old key;
        as it is when it is current, or cannot be opened or sealed here."""
        try:
            opened = self.open(stored)
        except SecretUnreadable:
            return stored
        return self.seal(opened.secret) if opened.stale and self.can_seal else stored

    @property
    def can_seal(self) -> bool:
        return bool(self._fernets)


def box_for(keys: Sequence[SecretStr]) -> SecretBox:
    return SecretBox([key.get_secret_value() for key in keys])
