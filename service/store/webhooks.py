"""Webhook records and delivery logs over `cypher/webhooks/`."""

from __future__ import annotations

from typing import Any

from service import clock
from service.domain import webhook_signing as signing
from service.domain.event_types import parse_patterns
from service.domain.webhook_targets import TargetRefused, check_url, normalise_url
from service.errors import NotFound, validation_error
from service.graph import Graph, Tx
from service.ids import new_id
from service.models.webhooks import (
    Delivery,
    Webhook,
    WebhookCreate,
    WebhookCreated,
    WebhookUpdate,
)

PUBLIC_FIELDS = set(Webhook.model_fields)


def _not_found(webhook_id: str) -> NotFound:
    return NotFound(f"No webhook with id {webhook_id!r}.", code="webhook_not_found")


def validate_target(url: str, types: list[str], allow_private: bool) -> str:
    """The URL to store (host in IDNA form), once it and the types pass the rules."""
    try:
        url = normalise_url(url)
        check_url(url, allow_private)
    except TargetRefused as exc:
        raise validation_error(("body", "url"), str(exc), "url_refused") from exc
    _, problem = parse_patterns(types)
    if problem:
        raise validation_error(("body", "types"), problem, "enum")
    return url


def _public(node: dict[str, Any]) -> Webhook:
    return Webhook(**{k: v for k, v in node.items() if k in PUBLIC_FIELDS})


async def create(graph: Graph, body: WebhookCreate, allow_private: bool) -> WebhookCreated:
    url = validate_target(body.url, body.types, allow_private)
    now = clock.now_iso()
    secret = signing.new_secret()
    props = {
        "id": new_id("whk"),
        "url": url,
        "types": list(body.types),
        "enabled": body.enabled,
        "description": body.description,
        "secret": secret,
        "created_at": now,
        "updated_at": now,
    }
    rows = await graph.write(
        "webhooks.create", props={k: v for k, v in props.items() if v is not None}
    )
    return WebhookCreated(**_public(rows[0]["webhook"]).model_dump(), secret=secret)


async def get(graph: Graph, webhook_id: str) -> Webhook:
    return _public(await _node(graph, webhook_id))


async def _node(graph: Graph, webhook_id: str) -> dict[str, Any]:
    rows = await graph.read("webhooks.get", id=webhook_id)
    if not rows:
        raise _not_found(webhook_id)
    node: dict[str, Any] = rows[0]["webhook"]
    return node


async def secret_and_url(graph: Graph, webhook_id: str) -> tuple[str, str]:
    node = await _node(graph, webhook_id)
    return str(node["secret"]), str(node["url"])


async def page(graph: Graph, after: str, limit: int) -> list[Webhook]:
    rows = await graph.read("webhooks.list", after=after, limit=limit)
    return [_public(r["webhook"]) for r in rows]


async def update(
    graph: Graph, webhook_id: str, body: WebhookUpdate, allow_private: bool
) -> Webhook:
    async def work(tx: Tx) -> Webhook:
        rows = await tx.run("webhooks.get", id=webhook_id)
        if not rows:
            raise _not_found(webhook_id)
        props = dict(rows[0]["webhook"])
        changes = body.model_dump(exclude_unset=True)
        for key in ("url", "types", "enabled"):
            if key in changes and changes[key] is None:
                raise validation_error(("body", key), f"{key} cannot be null")
        props.update(changes)
        props["url"] = validate_target(props["url"], props["types"], allow_private)
        if changes.get("enabled") and not rows[0]["webhook"].get("enabled"):
            props.pop("failing_since", None)
            props.pop("disabled_reason", None)
        props["updated_at"] = clock.now_iso()
        saved = await tx.run(
            "webhooks.replace",
            id=webhook_id,
            props={k: v for k, v in props.items() if v is not None},
        )
        return _public(saved[0]["webhook"])

    return await graph.write_tx(work)


async def delete(graph: Graph, webhook_id: str) -> None:
    rows = await graph.write("webhooks.delete", id=webhook_id)
    if not rows or rows[0]["deleted"] == 0:
        raise _not_found(webhook_id)


async def deliveries(graph: Graph, webhook_id: str, after: str, limit: int) -> list[Delivery]:
    await _node(graph, webhook_id)
    rows = await graph.read("webhooks.deliveries", webhook_id=webhook_id, after=after, limit=limit)
    return [Delivery(**r["delivery"]) for r in rows]
