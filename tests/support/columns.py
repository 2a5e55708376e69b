"""Assets with tagged columns, written as a user writes them (PUT)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx


def put_with_columns(
    client: httpx.Client, asset_id: str, columns: dict[str, list[str]], **more: Any
) -> None:
    """PUT the asset `asset_id` (a table named after it) with these columns and their tags."""
    body = {
        "name": asset_id,
        "type": "table",
        "columns": [{"name": name, "tags": tags} for name, tags in columns.items()],
        **more,
    }
    response = client.put(f"/assets/{quote(asset_id, safe='')}", json=body)
    assert response.status_code in (200, 201), response.text
