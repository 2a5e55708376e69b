"""The service's own endpoints: service info, OpenAPI, health, readiness, metrics."""

from __future__ import annotations

import httpx

from tests.support.server import LiveServer


def test_service_info(anonymous: httpx.Client) -> None:
    info = anonymous.get("").json()
    assert info["api_version"] == "v1" and info["service"] and info["version"]


def test_openapi_documents_every_operation(anonymous: httpx.Client) -> None:
    document = anonymous.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/assets"])
    assert {"get", "put", "patch", "delete"} <= set(paths["/api/v1/assets/{asset_id}"])
    assert {"get", "post"} <= set(paths["/api/v1/tokens"])


def test_health_readiness_and_metrics(live: LiveServer, reader: httpx.Client) -> None:
    assert httpx.get(live.url + "/healthz").json() == {"status": "ok"}
    assert httpx.get(live.url + "/readyz").json() == {"status": "ready"}
    reader.get("/assets")
    text = httpx.get(live.url + "/metrics").text
    assert (
        'governance_http_requests_total{method="GET",route="/api/v1/assets",status="200"}' in text
    )
