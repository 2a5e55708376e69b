"""Column classification against a running service (GOVERNANCE_URL, GOVERNANCE_TOKEN
with the admin scope), as `clients/harness.py python` provides: a tag set on a column
is inherited downstream, with its path, until the tag's rule stops it."""

from __future__ import annotations

import pytest

from governance_client import Client, NotFoundError

pytestmark = pytest.mark.live


def inherited(client: Client, asset_id: str) -> dict[str, list[str]]:
    return {
        c["name"]: [t["tag"] for t in c["inherited"]]
        for c in client.assets.columns(asset_id)["columns"]
    }


def test_a_tag_is_inherited_with_its_path_until_its_rule_stops_it(
    client: Client, prefix: str
) -> None:
    tag = f"{prefix}-pii"
    raw, mart = f"{prefix}.raw", f"{prefix}.mart"
    client.assets.create(
        raw, name="raw", type="table", columns=[{"name": "email", "type": "text", "tags": [tag]}]
    )
    client.assets.create(
        mart, name="mart", type="table", columns=[{"name": "contact", "type": "text"}]
    )
    client.lineage.add_edge(raw, mart, columns=[{"source": "email", "target": "contact"}])

    contact = client.assets.columns(mart)["columns"][0]
    assert contact["name"] == "contact"
    assert contact["tags"] == []
    (why,) = contact["inherited"]
    assert why["from"] == {"asset": raw, "column": "email"}
    assert [(s["asset"], s["column"]) for s in why["path"]] == [(raw, "email"), (mart, "contact")]
    assert [s["kind"] for s in why["path"]] == [None, "unknown"]  # a mapping nobody described

    default = client.assets.get_column_tag_rule(tag)
    assert default["default"] is True
    assert "masking" in default["stops"]
    written = client.assets.put_column_tag_rule(tag, ["unknown"])
    assert written["default"] is False
    assert inherited(client, mart) == {"contact": []}
    client.assets.put_column_tag_rule(tag, [])
    assert inherited(client, mart) == {"contact": [tag]}


def test_the_columns_of_an_unknown_asset_are_not_found(client: Client, prefix: str) -> None:
    with pytest.raises(NotFoundError):
        client.assets.columns(f"{prefix}.never")
