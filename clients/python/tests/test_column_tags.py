"""An asset's classified columns and the column tag rules on a scripted transport:
the paths each operation sends to, the body a rule is written with, and the answers
read back as the service gives them. No network."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from scripted import Script, ok, problem

from governance_client import AssetColumns, AsyncClient, Client, ColumnTagRule, NotFoundError

COLUMNS: AssetColumns = {
    "asset": "mart.users",
    "columns": [
        {
            "name": "contact",
            "type": "text",
            "tags": [],
            "inherited": [
                {
                    "tag": "pii",
                    "from": {"asset": "raw.users", "column": "email"},
                    "path": [
                        {"asset": "raw.users", "column": "email", "kind": None},
                        {"asset": "mart.users", "column": "contact", "kind": "identity"},
                    ],
                }
            ],
        }
    ],
}
RULE: ColumnTagRule = {
    "tag": "confidential",
    "stops": ["masking"],
    "default": False,
    "updated_at": "2026-11-27T10:00:00.000Z",
}


def test_columns_reads_the_asset_s_classified_columns(make: Callable[..., Client]) -> None:
    script = Script(ok(COLUMNS))
    listing = make(script).assets.columns("mart users")
    assert listing["columns"][0]["inherited"][0]["from"] == {
        "asset": "raw.users",
        "column": "email",
    }
    request = script.requests[0]
    assert (request.method, request.url.raw_path) == ("GET", b"/api/v1/assets/mart%20users/columns")


def test_columns_of_an_unknown_asset_is_not_found(make: Callable[..., Client]) -> None:
    script = Script(problem(404, "not_found"))
    with pytest.raises(NotFoundError):
        make(script).assets.columns("nothing")


def test_a_rule_is_read_and_put_under_its_tag(make: Callable[..., Client]) -> None:
    script = Script(ok(RULE), ok(RULE))
    assets = make(script).assets
    assert assets.get_column_tag_rule("confidential") == RULE
    assert assets.put_column_tag_rule("confidential", ("masking",)) == RULE
    read, written = script.requests
    assert (read.method, read.url.path) == ("GET", "/api/v1/column-tags/confidential")
    assert (written.method, written.url.path) == ("PUT", "/api/v1/column-tags/confidential")
    assert json.loads(written.content) == {"stops": ["masking"]}
    assert "If-Match" not in written.headers


def test_an_empty_rule_is_sent_as_an_empty_list(make: Callable[..., Client]) -> None:
    script = Script(ok({**RULE, "stops": []}))
    make(script).assets.put_column_tag_rule("a/b", [])
    assert json.loads(script.requests[0].content) == {"stops": []}
    assert script.requests[0].url.raw_path == b"/api/v1/column-tags/a%2Fb"


@pytest.mark.anyio
async def test_the_async_client_classifies_columns_too() -> None:
    script = Script(ok(COLUMNS), ok(RULE), ok(RULE))
    async with AsyncClient(
        base_url="http://gov.test", token="t", transport=httpx.MockTransport(script)
    ) as client:
        assert await client.assets.columns("mart.users") == COLUMNS
        assert (await client.assets.get_column_tag_rule("confidential"))["stops"] == ["masking"]
        await client.assets.put_column_tag_rule("confidential", ["masking"])
    assert [r.method for r in script.requests] == ["GET", "GET", "PUT"]
