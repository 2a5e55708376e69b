"""Our dbt project (`corner_shop`) as the HTTP tests upload it: the namespace they
upload it under, the ids they name, the upload itself, and the project with a board
reading its orders model (`project`)."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest

from tests.support.dbt_fixtures import manifest
from tests.support.writes import edge, put_asset

WAREHOUSE = "duckdb://warehouse"
ORDERS = "model.corner_shop.orders"
ANALYSIS = "analysis.corner_shop.revenue_by_region"
BOARD = "bi.orders_dashboard"
# An upload derives column lineage with sqlglot: slow on a busy machine.
SLOW = 180


def send(client: httpx.Client, path: str, document: Any, **params: str) -> httpx.Response:
    """POST `document` (a manifest, or a check's candidate) as JSON to `path`."""
    return client.post(
        path,
        content=orjson.dumps(document),
        params=params,
        headers={"Content-Type": "application/json"},
        timeout=SLOW,
    )


@pytest.fixture
def project(admin: httpx.Client) -> dict[str, Any]:
    """The dbt project uploaded, and a board reading its orders model."""
    stored = manifest("v12")
    assert send(admin, "/lineage/manifest", stored, namespace=WAREHOUSE).status_code == 200
    put_asset(admin, BOARD, "Orders board", owners=["bi@example.com"])
    edge(admin, ORDERS, BOARD)
    return stored
