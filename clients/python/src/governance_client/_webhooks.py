"""Checking webhook deliveries (Standard Webhooks, https://www.standardwebhooks.com)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from governance_client._errors import WebhookVerificationError

SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, not a secret)
SIGNATURE_VERSION = "v1"
DEFAULT_TOLERANCE = timedelta(minutes=5)


def sign_webhook(secret: str, msg_id: str, timestamp: int, body: bytes | str) -> str:
    """The ``v1,<base64>`` signature the service sends for a delivery."""
    key = _secret_key(secret)
    payload = f"{msg_id}.{timestamp}.".encode() + _as_bytes(body)
    digest = hmac.new(key, payload, hashlib.sha256).digest()
    return f"{SIGNATURE_VERSION},{base64.b64encode(digest).decode('ascii')}"


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: bytes | str,
    *,
    tolerance: timedelta = DEFAULT_TOLERANCE,
    now: datetime | float | None = None,
) -> Any:
    """Check a webhook delivery and return its parsed JSON envelope.

    ``secret`` is the endpoint's ``whsec_...`` secret; ``headers`` the request's
    headers (any case); ``body`` the raw request body, exactly as received.
    ``now`` (a datetime, or seconds since the epoch) defaults to the current time.
    Raises ``WebhookVerificationError`` if a ``webhook-*`` header is missing, no
    signature in ``webhook-signature`` matches (compared in constant time), the
    timestamp is more than ``tolerance`` from now, or the body is not JSON.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    msg_id = lowered.get("webhook-id")
    raw_timestamp = lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not msg_id or not raw_timestamp or not signatures:
        raise WebhookVerificationError(
            "missing webhook-id, webhook-timestamp or webhook-signature header"
        )
    try:
        timestamp = int(raw_timestamp.strip())
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a whole number") from None

    current = _seconds(now)
    if abs(current - timestamp) > tolerance.total_seconds():
        raise WebhookVerificationError("webhook-timestamp is too far from now")

    raw_body = _as_bytes(body)
    expected = sign_webhook(secret, msg_id, timestamp, raw_body).encode("ascii")
    matched = False
    for candidate in signatures.split():
        version, _, _value = candidate.partition(",")
        if version != SIGNATURE_VERSION:
            continue
        # Check every candidate, so the time taken does not tell which one matched.
        if hmac.compare_digest(candidate.encode("utf-8"), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("no webhook signature matches")
    try:
        return json.loads(raw_body)
    except ValueError:
        raise WebhookVerificationError("the webhook body is not JSON") from None


def _secret_key(secret: str) -> bytes:
    text = secret.removeprefix(SECRET_PREFIX)
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise WebhookVerificationError("the webhook secret is not base64") from None


def _as_bytes(body: bytes | str) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


def _seconds(now: datetime | float | None) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        return now.timestamp()
    return float(now)
