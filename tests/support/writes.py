"""An asset and an edge written through the API, each asserted to have been taken."""

from __future__ import annotations

from typing import Any

import httpx


def put_asset(client: httpx.Client, asset_id: str, name: str, **fields: Any) -> None:
    """PUT the table `asset_id` named `name`, with any other fields."""
    answer = client.put(f"/assets/{asset_id}", json={"name": name, "type": "table", **fields})
    assert answer.status_code in (200, 201), answer.text


def edge(client: httpx.Client, source: str, target: str, **fields: Any) -> None:
    """POST the edge `source` -> `target`, with any other fields."""
    answer = client.post("/lineage", json={"source": source, "target": target, **fields})
    assert answer.status_code in (200, 201), answer.text
