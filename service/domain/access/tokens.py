"""The API token format: `dgs_` + 36 random base62 characters + a 6-character checksum.

The checksum is CRC32 of the 36 random characters, in base62, so a secret
scanner (or this service, before any database look-up) can tell a real token
from a typo or noise. Only the SHA-256 of the whole token is ever stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import zlib

PREFIX = "dgs_"
RANDOM_LENGTH = 36
CHECKSUM_LENGTH = 6
TOKEN_LENGTH = len(PREFIX) + RANDOM_LENGTH + CHECKSUM_LENGTH
DISPLAY_PREFIX_LENGTH = 8
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ALPHABET_SET = frozenset(_ALPHABET)


def _base62(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, rem = divmod(number, 62)
        digits.append(_ALPHABET[rem])
    return "".join(reversed(digits))


def checksum(random_part: str) -> str:
    return _base62(zlib.crc32(random_part.encode("ascii")), CHECKSUM_LENGTH)


def generate() -> str:
    random_part = "".join(secrets.choice(_ALPHABET) for _ in range(RANDOM_LENGTH))
    return PREFIX + random_part + checksum(random_part)


def is_well_formed(token: str) -> bool:
    """Shape and checksum only; says nothing about whether the token exists."""
    if len(token) != TOKEN_LENGTH or not token.startswith(PREFIX):
        return False
    body = token[len(PREFIX) :]
    if not set(body) <= _ALPHABET_SET:
        return False
    random_part, check = body[:RANDOM_LENGTH], body[RANDOM_LENGTH:]
    return hmac.compare_digest(checksum(random_part), check)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def display_prefix(token: str) -> str:
    return token[:DISPLAY_PREFIX_LENGTH]
