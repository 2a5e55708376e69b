"""Paging cursors: the sort key of a page's last item, as URL-safe base64 of JSON.

Opaque to clients; a cursor that does not decode to the expected keys is their
mistake (400 `invalid_cursor`).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from service.errors import BadRequest


def encode_cursor(position: Mapping[str, Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(position)).decode().rstrip("=")


def decode_cursor(cursor: str, keys: Sequence[str]) -> dict[str, Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        position = orjson.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, binascii.Error, orjson.JSONDecodeError, UnicodeEncodeError) as exc:
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor") from exc
    if not isinstance(position, dict) or set(position) != set(keys):
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor")
    return position
