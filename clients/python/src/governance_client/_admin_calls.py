"""What the token, user and webhook operations send and how their answers are read,
shared by both clients. All of them need the admin scope."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from governance_client._call import (
    Call,
    as_list,
    create,
    delete,
    dump,
    fields,
    get,
    item_path,
    json_body,
    merge_patch,
)
from governance_client.types import (
    Delivery,
    Page,
    Token,
    TokenCreated,
    User,
    Webhook,
    WebhookCreated,
    WebhookTestResult,
)


def created_once(path: str, body: dict[str, Any]) -> Call[Any]:
    """A ``POST`` whose answer holds a secret shown once. It carries no automatic
    Idempotency-Key, so it is not retried: the service keeps no answer to replay."""
    return Call("POST", path, json_body, body=dump(body))


# -- tokens -----------------------------------------------------------------


def create_token(
    name: str, scopes: str | Sequence[str], expires_in_days: int | None
) -> Call[TokenCreated]:
    body = fields(name=name, scopes=as_list(scopes), expires_in_days=expires_in_days)
    return created_once("/tokens", body)


def get_token(token_id: str) -> Call[Token]:
    return get(item_path("/tokens", token_id))


def revoke_token(token_id: str) -> Call[None]:
    return delete(item_path("/tokens", token_id))


# -- users ------------------------------------------------------------------


def create_user(
    username: str,
    password: str,
    role: str,
    display_name: str | None,
    idempotency_key: str | None,
) -> Call[User]:
    body = fields(username=username, password=password, role=role, display_name=display_name)
    return create("/users", body, idempotency_key)


def get_user(user_id: str) -> Call[User]:
    return get(item_path("/users", user_id))


def patch_user(user_id: str, changes: Mapping[str, Any]) -> Call[User]:
    return merge_patch(item_path("/users", user_id), changes, None)


def delete_user(user_id: str) -> Call[None]:
    return delete(item_path("/users", user_id))


# -- webhooks ---------------------------------------------------------------


def create_webhook(
    url: str,
    types: str | Sequence[str] | None,
    enabled: bool | None,
    description: str | None,
) -> Call[WebhookCreated]:
    patterns = as_list(types)
    body = fields(
        url=url,
        types=None if patterns is None else list(patterns),
        enabled=enabled,
        description=description,
    )
    return created_once("/webhooks", body)


def get_webhook(webhook_id: str) -> Call[Webhook]:
    return get(item_path("/webhooks", webhook_id))


def patch_webhook(webhook_id: str, changes: Mapping[str, Any]) -> Call[Webhook]:
    return merge_patch(item_path("/webhooks", webhook_id), changes, None)


def delete_webhook(webhook_id: str) -> Call[None]:
    return delete(item_path("/webhooks", webhook_id))


def test_webhook(webhook_id: str, idempotency_key: str | None) -> Call[WebhookTestResult]:
    # A test delivery changes nothing; retried with a key like the other POSTs.
    return Call(
        "POST",
        item_path("/webhooks", webhook_id, "/test"),
        json_body,
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


def list_deliveries(
    webhook_id: str, *, limit: int | None, cursor: str | None
) -> Call[Page[Delivery]]:
    return get(item_path("/webhooks", webhook_id, "/deliveries"), limit=limit, cursor=cursor)
