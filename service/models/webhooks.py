"""Webhook bodies."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from service.models.common import ResponseModel, StrictModel

Url = Annotated[str, StringConstraints(min_length=1, max_length=2048)]
Patterns = Annotated[
    list[Annotated[str, StringConstraints(min_length=1, max_length=128)]], Field(max_length=50)
]


class WebhookCreate(StrictModel):
    url: Url
    types: Patterns = Field(
        default_factory=lambda: ["*"], description="event types or `prefix.*` patterns"
    )
    enabled: bool = True
    description: Annotated[str, StringConstraints(max_length=1024)] | None = None


class WebhookUpdate(StrictModel):
    """PATCH: fields left out keep their value; enabling again clears the failure state."""

    url: Url | None = None
    types: Patterns | None = None
    enabled: bool | None = None
    description: Annotated[str, StringConstraints(max_length=1024)] | None = None


class Webhook(ResponseModel):
    id: str
    url: str
    types: list[str]
    enabled: bool
    description: str | None = None
    created_at: str
    updated_at: str
    failing_since: str | None = None
    disabled_reason: str | None = None
    last_delivery_at: str | None = None


class WebhookCreated(Webhook):
    secret: str = Field(description="`whsec_…`, shown this once; signs every delivery")


class WebhookPage(ResponseModel):
    items: list[Webhook]
    next_cursor: str | None


class Delivery(ResponseModel):
    id: str
    event_id: str
    event_type: str
    state: str = Field(description="pending, delivered, failed (gave up) or cancelled")
    attempts: int
    last_status: int | None = None
    last_error: str | None = Field(
        default=None, description="our account of a failure; never the receiver's body"
    )
    next_attempt_at: str | None = None
    last_attempt_at: str | None = None
    delivered_at: str | None = None
    created_at: str


class DeliveryPage(ResponseModel):
    items: list[Delivery]
    next_cursor: str | None


class TestResult(ResponseModel):
    delivered: bool
    status: int | None = None
    error: str | None = None
    duration_ms: float
