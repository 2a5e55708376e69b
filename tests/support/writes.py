"""An asset and an edge written through the API, each asserted to have been taken."""

from __future__ import annotations

from typing import Any

import httpx


def put_asset(
    client: httpx.Client, asset_id: str, name: str | None = None, **fields: Any
) -> dict[str, Any]:
    """PUT the table `asset_id` (named `name`, else after its id), with any other
    fields; the asset as answered, created or replaced."""
    body = {"name": name or asset_id, "type": "table", **fields}
    answer = client.put(f"/assets/{asset_id}", json=body)
    assert answer.status_code in (200, 201), answer.text
    made: dict[str, Any] = answer.json()
    return made


def post_asset(
    client: httpx.Client, asset_id: str, name: str | None = None, **fields: Any
) -> dict[str, Any]:
    """POST the new table `asset_id` (named `name`, else after its id), with any other
    fields; the asset as answered, asserted created (201)."""
    body = {"id": asset_id, "name": name or asset_id, "type": "table", **fields}
    answer = client.post("/assets", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


Endpoint = str | dict[str, str]  # an asset id, or a dataset as {namespace, name}


def edge(client: httpx.Client, source: Endpoint, target: Endpoint, **fields: Any) -> None:
    """POST the edge `source` -> `target`, with any other fields."""
    answer = client.post("/lineage", json={"source": source, "target": target, **fields})
    assert answer.status_code in (200, 201), answer.text
