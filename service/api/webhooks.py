"""/api/v1/webhooks: webhook subscriptions and their deliveries; scope admin for every
operation."""

from __future__ import annotations

import time

import orjson
from starlette.requests import Request
from starlette.responses import Response

from service import clock, state
from service.api import deps
from service.domain import webhook_signing as signing
from service.domain.access.scopes import Scope
from service.domain.secret_box import SecretBox, box_for
from service.http import (
    created_with_secret,
    json_response,
    path_param,
    quote_segment,
    read_json,
)
from service.ids import new_id
from service.models.validation import validate
from service.models.webhooks import (
    DeliveryPage,
    TestResult,
    Webhook,
    WebhookCreate,
    WebhookCreated,
    WebhookPage,
    WebhookUpdate,
)
from service.openapi import PAGING, Doc
from service.routing import Replay, Route, bearer
from service.store import audit
from service.store import webhooks as store

BASE = "/api/v1/webhooks"


def _allow_private(request: Request) -> bool:
    return deps.settings(request).webhooks.allow_private


def _box(request: Request) -> SecretBox:
    return box_for(deps.settings(request).webhooks.secret_keys)


async def list_webhooks(request: Request) -> Response:
    paging = deps.paging(request)
    rows = await store.page(deps.graph(request), paging.after, paging.fetch)
    return paging.respond(rows, key=lambda w: w.id)


async def create_webhook(request: Request) -> Response:
    body = validate(WebhookCreate, await read_json(request))
    made = await store.create(
        deps.graph(request), body, _allow_private(request), deps.actor(request), box=_box(request)
    )
    return created_with_secret(made, f"{BASE}/{quote_segment(made.id)}")


async def get_webhook(request: Request) -> Response:
    return json_response(await store.get(deps.graph(request), path_param(request, "webhook_id")))


async def patch_webhook(request: Request) -> Response:
    body = validate(
        WebhookUpdate,
        await read_json(request, accept=("application/json", "application/merge-patch+json")),
    )
    updated = await store.update(
        deps.graph(request),
        path_param(request, "webhook_id"),
        body,
        _allow_private(request),
        deps.actor(request),
        box=_box(request),
    )
    return json_response(updated)


async def delete_webhook(request: Request) -> Response:
    await store.delete(deps.graph(request), path_param(request, "webhook_id"), deps.actor(request))
    return Response(status_code=204)


async def test_webhook(request: Request) -> Response:
    """Send a signed `webhook.test` event now and say what happened; the test itself is
    not in the event log, only its `audit.webhook.tested` record."""
    graph = deps.graph(request)
    webhook_id = path_param(request, "webhook_id")
    secret, url = await store.secret_and_url(graph, webhook_id, _box(request))
    event_id = new_id("evt")
    body = orjson.dumps(
        {
            "id": event_id,
            "seq": 0,
            "type": "webhook.test",
            "occurred_at": clock.now_iso(),
            "actor": deps.actor(request),
            "data": {"message": "test delivery"},
        }
    )
    deliverer = state.of(request).deliverer
    started = time.perf_counter()
    outcome = await deliverer.post(
        url, signing.headers(secret, event_id, int(time.time()), body), body
    )
    result = TestResult(
        delivered=outcome.ok,
        status=outcome.status,
        error=outcome.error,
        duration_ms=round((time.perf_counter() - started) * 1000, 1),
    )
    tested = {"id": webhook_id, "url": url, "delivered": result.delivered, "status": result.status}
    await audit.record_alone(graph, "webhook.tested", tested, deps.actor(request))
    return json_response(result)


async def list_deliveries(request: Request) -> Response:
    paging = deps.paging(request)
    rows = await store.deliveries(
        deps.graph(request), path_param(request, "webhook_id"), paging.after, paging.fetch
    )
    return paging.respond(rows, key=lambda d: d.id)


routes = [
    Route(BASE, list_webhooks, methods=["GET"], name="list_webhooks", policy=bearer(Scope.ADMIN)),
    Route(
        BASE,
        create_webhook,
        methods=["POST"],
        name="create_webhook",
        policy=bearer(Scope.ADMIN, replay=Replay.SECRET),
    ),
    Route(
        BASE + "/{webhook_id}",
        get_webhook,
        methods=["GET"],
        name="get_webhook",
        policy=bearer(Scope.ADMIN),
    ),
    Route(
        BASE + "/{webhook_id}",
        patch_webhook,
        methods=["PATCH"],
        name="patch_webhook",
        policy=bearer(Scope.ADMIN),
    ),
    Route(
        BASE + "/{webhook_id}",
        delete_webhook,
        methods=["DELETE"],
        name="delete_webhook",
        policy=bearer(Scope.ADMIN),
    ),
    Route(
        BASE + "/{webhook_id}/test",
        test_webhook,
        methods=["POST"],
        name="test_webhook",
        policy=bearer(Scope.ADMIN, replay=Replay.KEPT),
    ),
    Route(
        BASE + "/{webhook_id}/deliveries",
        list_deliveries,
        methods=["GET"],
        name="list_deliveries",
        policy=bearer(Scope.ADMIN),
    ),
]

docs = {
    "list_webhooks": Doc(
        "List webhooks", "webhooks", params=PAGING, responses={200: WebhookPage}, errors=(422,)
    ),
    "create_webhook": Doc(
        "Create a webhook",
        "webhooks",
        description="The `secret` is in this answer only. The URL must be https and resolve to "
        "public addresses only (checked again at every delivery) unless "
        "GOVERNANCE_WEBHOOK_ALLOW_PRIVATE is set. An Idempotency-Key is ignored here: keeping "
        "the answer would keep the secret.",
        body=WebhookCreate,
        responses={201: WebhookCreated},
        errors=(415, 422),
    ),
    "get_webhook": Doc("Get a webhook", "webhooks", responses={200: Webhook}, errors=(404,)),
    "patch_webhook": Doc(
        "Update a webhook",
        "webhooks",
        description="Fields left out keep their value; enabling a disabled "
        "webhook clears its failure state.",
        body=WebhookUpdate,
        responses={200: Webhook},
        errors=(404, 415, 422),
    ),
    "delete_webhook": Doc(
        "Delete a webhook",
        "webhooks",
        description="Pending deliveries are dropped.",
        responses={204: None},
        errors=(404,),
    ),
    "test_webhook": Doc(
        "Send a signed test event now",
        "webhooks",
        description="Type `webhook.test`; the receiver's answer body is never shown.",
        responses={200: TestResult},
        errors=(404,),
    ),
    "list_deliveries": Doc(
        "A webhook's delivery log",
        "webhooks",
        params=PAGING,
        responses={200: DeliveryPage},
        errors=(404, 422),
    ),
}
