"""Webhook records and delivery logs over `cypher/webhooks/`."""

from __future__ import annotations

from typing import Any

from service import clock
from service.domain import webhook_signing as signing
from service.domain.event_types import parse_patterns
from service.domain.secret_box import SecretBox
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
from service.store import audit

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


def audited(webhook: Webhook, **extra: Any) -> dict[str, Any]:
    """What the audit trail keeps of a webhook: never its secret."""
    return {
        "id": webhook.id,
        "url": webhook.url,
        "types": list(webhook.types),
        "enabled": webhook.enabled,
        **extra,
    }


async def create(
    graph: Graph, body: WebhookCreate, allow_private: bool, actor: str, *, box: SecretBox
) -> WebhookCreated:
    url = validate_target(body.url, body.types, allow_private)
    now = clock.now_iso()
    secret = signing.new_secret()
    props = {
        "id": new_id("whk"),
        "url": url,
        "types": list(body.types),
        "enabled": body.enabled,
        "description": body.description,
        "secret": box.seal(secret),
        "created_at": now,
        "updated_at": now,
    }

    async def work(tx: Tx) -> Webhook:
        rows = await tx.run(
            "webhooks.create", props={k: v for k, v in props.items() if v is not None}
        )
        made = _public(rows[0]["webhook"])
        audit.record(tx, "webhook.created", audited(made), actor)
        return made

    made = await graph.write_tx(work)
    return WebhookCreated(**made.model_dump(), secret=secret)


async def get(graph: Graph, webhook_id: str) -> Webhook:
    return _public(await _node(graph, webhook_id))


async def _node(graph: Graph, webhook_id: str) -> dict[str, Any]:
    rows = await graph.read("webhooks.get", id=webhook_id)
    if not rows:
        raise _not_found(webhook_id)
    node: dict[str, Any] = rows[0]["webhook"]
    return node


async def secret_and_url(graph: Graph, webhook_id: str, box: SecretBox) -> tuple[str, str]:
    node = await _node(graph, webhook_id)
    return await signing_secret(graph, box, node), str(node["url"])


async def signing_secret(graph: Graph, box: SecretBox, webhook: dict[str, Any]) -> str:
    """The plain secret, to sign a delivery with: the only place it is decrypted. One
    stored in plain text or under an old key is sealed with the current key on the way."""
    stored = str(webhook["secret"])
    opened = box.open(stored)
    if opened.stale and box.can_seal:
        await graph.write(
            "webhooks.reseal", id=webhook["id"], was=stored, sealed=box.seal(opened.secret)
        )
    return opened.secret


async def page(graph: Graph, after: str, limit: int) -> list[Webhook]:
    rows = await graph.read("webhooks.list", after=after, limit=limit)
    return [_public(r["webhook"]) for r in rows]


async def update(
    graph: Graph,
    webhook_id: str,
    body: WebhookUpdate,
    allow_private: bool,
    actor: str,
    *,
    box: SecretBox,
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
        props["secret"] = box.refreshed(props["secret"])
        saved = await tx.run(
            "webhooks.replace",
            id=webhook_id,
            props={k: v for k, v in props.items() if v is not None},
        )
        updated = _public(saved[0]["webhook"])
        audit.record(tx, "webhook.updated", audited(updated, changed=sorted(changes)), actor)
        return updated

    return await graph.write_tx(work)


async def delete(graph: Graph, webhook_id: str, actor: str) -> None:
    async def work(tx: Tx) -> None:
        found = await tx.run("webhooks.get", id=webhook_id)
        rows = await tx.run("webhooks.delete", id=webhook_id)
        if not found or not rows or rows[0]["deleted"] == 0:
            raise _not_found(webhook_id)
        audit.record(tx, "webhook.deleted", audited(_public(found[0]["webhook"])), actor)

    await graph.write_tx(work)


async def deliveries(graph: Graph, webhook_id: str, after: str, limit: int) -> list[Delivery]:
    await _node(graph, webhook_id)
    rows = await graph.read("webhooks.deliveries", webhook_id=webhook_id, after=after, limit=limit)
    return [Delivery(**r["delivery"]) for r in rows]
