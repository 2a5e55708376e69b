"""Against a running service (GOVERNANCE_URL, GOVERNANCE_TOKEN with the admin scope),
as `clients/harness.py python` provides. Other clients may share the database, so
every test works under its own unique id prefix and removes what it made."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from governance_client import (
    AsyncClient,
    AuthenticationError,
    Client,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    ValidationError,
)

# The repository's own dbt fixture (tests/fixtures/dbt_quality of the service).
MANIFEST = (
    Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "dbt_quality" / "manifest.json"
)

pytestmark = pytest.mark.live


def test_service_info_and_openapi_need_no_token(url: str) -> None:
    with Client(base_url=url + "/api/v1/", token="") as anonymous:
        assert anonymous.info()["api_version"] == "v1"
        document = anonymous.openapi()
    assert document["openapi"].startswith("3.1")
    assert "/api/v1/lineage/bulk" in document["paths"]


def test_asset_lifecycle_honours_if_match(client: Client, prefix: str) -> None:
    asset_id = f"{prefix}/s3://lake/raw/orders.parquet"
    created = client.assets.create(
        asset_id,
        name="Orders",
        type="table",
        platform="s3",
        owners=["data@example.com"],
        tags=["PII", "pii", "Raw"],
        columns=[{"name": "id", "type": "bigint"}],
        properties={"rows": 10, "gold": True},
    )
    assert (created["id"], created["version"], created["placeholder"]) == (asset_id, 1, False)
    assert created["tags"] == ["pii", "raw"]
    assert client.assets.get(asset_id) == created

    with pytest.raises(PreconditionFailedError) as stale:
        client.assets.put(asset_id, name="Orders v2", type="table", if_match=2)
    assert stale.value.code == "precondition_failed"
    replaced = client.assets.put(asset_id, name="Orders v2", type="table", if_match=1)
    assert (replaced["version"], replaced["name"], replaced["platform"]) == (2, "Orders v2", None)

    patched = client.assets.patch(asset_id, {"description": "every order", "tags": ["Gold"]})
    assert (patched["version"], patched["description"], patched["tags"]) == (
        3,
        "every order",
        ["gold"],
    )
    assert client.assets.patch(asset_id, {"description": None})["description"] is None

    with pytest.raises(PreconditionFailedError):
        client.assets.patch(asset_id, {"name": "lost update"}, if_match=3)
    with pytest.raises(PreconditionFailedError):
        client.assets.delete(asset_id, if_match=1)
    current = client.assets.get(asset_id)
    assert (current["name"], current["version"]) == ("Orders v2", 4)

    client.assets.delete(asset_id, if_match=current["version"])
    with pytest.raises(NotFoundError):
        client.assets.get(asset_id)


def test_put_creates_then_replaces(client: Client, prefix: str) -> None:
    asset_id = f"{prefix}.sync"
    first = client.assets.put(asset_id, name="Sync", type="view")
    again = client.assets.put(asset_id, name="Sync", type="view")
    assert first["version"] == again["version"] == 1
    assert client.assets.put(asset_id, name="Sync 2", type="view")["version"] == 2


def test_a_missing_asset_is_not_found_with_code_and_request_id(client: Client, prefix: str) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.assets.get(f"{prefix}/missing")
    error = caught.value
    assert error.status == 404
    assert error.code == "asset_not_found"
    assert error.request_id
    assert error.problem["request_id"] == error.request_id
    assert error.problem["status"] == 404


def test_creating_an_existing_asset_is_a_conflict(client: Client, prefix: str) -> None:
    client.assets.create(f"{prefix}.dup", name="Dup", type="table")
    with pytest.raises(ConflictError) as caught:
        client.assets.create(f"{prefix}.dup", name="Dup", type="table")
    assert (caught.value.status, caught.value.code) == (409, "already_exists")


def test_a_repeated_idempotency_key_answers_the_first_answer(client: Client, prefix: str) -> None:
    key = f"{prefix}-key"
    first = client.assets.create(f"{prefix}.once", name="Once", type="table", idempotency_key=key)
    repeat = client.assets.create(f"{prefix}.once", name="Once", type="table", idempotency_key=key)
    assert repeat == first


def test_an_invalid_body_is_a_validation_error_naming_the_fields(
    client: Client, prefix: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        client.assets.create(f"{prefix}.bad", name="", type="not a type!")
    error = caught.value
    assert (error.status, error.code) == (422, "validation_error")
    locs = {tuple(e["loc"]) for e in error.errors}
    assert {("body", "name"), ("body", "type")} <= locs


def test_an_invalid_parameter_is_a_validation_error(client: Client, prefix: str) -> None:
    client.assets.create(f"{prefix}.p", name="P", type="table")
    with pytest.raises(ValidationError) as caught:
        client.lineage.downstream(f"{prefix}.p", depth=0)
    assert caught.value.errors[0]["loc"] == ["query", "depth"]
    with pytest.raises(ValidationError):
        client.assets.list(limit=0)


SUFFIXES = [
    "s3://lake/raw/events.parquet",
    "urn:li:dataset:(hive,db.t,PROD)",
    "a+b#c?d%e&f=g",  # reserved characters (whitespace is never allowed in an id)
    "表.订单",
]


@pytest.mark.parametrize("suffix", [*SUFFIXES, "x@y$z", "~tilde-dash_under."])
def test_ids_with_reserved_characters_round_trip(client: Client, prefix: str, suffix: str) -> None:
    asset_id = f"{prefix}/{suffix}"
    client.assets.put(asset_id, name=suffix, type="file")
    assert client.assets.get(asset_id)["id"] == asset_id
    assert client.lineage.get(asset_id)["root"] == asset_id
    assert client.lineage.upstream(asset_id)["root"] == asset_id
    client.assets.delete(asset_id)


def test_paging_goes_through_every_page(client: Client, prefix: str) -> None:
    ids = [f"{prefix}.page.{i}" for i in range(5)]
    for asset_id in reversed(ids):
        client.assets.create(asset_id, name=asset_id, type="table")
    first = client.assets.list(q=prefix, limit=2)
    assert [a["id"] for a in first["items"]] == ids[:2]
    assert first["next_cursor"]
    assert [a["id"] for a in client.assets.iter(q=prefix, limit=2)] == ids


def test_every_tag_given_must_match(client: Client, prefix: str) -> None:
    both, one = f"t{prefix[-12:]}a", f"t{prefix[-12:]}b"
    client.assets.create(f"{prefix}.both", name="both", type="table", tags=[both, one])
    client.assets.create(f"{prefix}.one", name="one", type="table", tags=[one])
    assert [a["id"] for a in client.assets.iter(tags=[both, one])] == [f"{prefix}.both"]
    assert len(client.assets.list(tags=one)["items"]) == 2


def test_push_bulk_chunks_and_repeats_safely(client: Client, prefix: str) -> None:
    hub = f"{prefix}.hub"
    edges = [(hub, f"{prefix}.leaf.{i}", f"select {i}") for i in range(7)]
    result = client.lineage.push_bulk(edges, chunk_size=3)
    assert result == {"received": 7, "created": 7, "existing": 0, "assets_created": 8}
    again = client.lineage.push_bulk(iter(edges), chunk_size=3)
    assert again == {"received": 7, "created": 0, "existing": 7, "assets_created": 0}

    listed = list(client.lineage.iter_edges(source=hub, limit=2))
    assert [e["target"] for e in listed] == [target for _, target, _ in edges]
    assert listed[0]["transformation"] == "select 0"
    assert listed[0]["origins"] == ["api"]


def test_traversal_upstream_and_downstream(client: Client, prefix: str) -> None:
    a, b, c, d, x = (f"{prefix}.{n}" for n in "abcdx")
    client.lineage.bulk([(a, b), (b, c), (c, d), (x, c)])

    down = client.lineage.downstream(a, depth=2)
    assert (down["root"], down["direction"], down["depth"], down["truncated"]) == (
        a,
        "downstream",
        2,
        False,
    )
    assert {n["id"]: n["distance"] for n in down["nodes"]} == {a: 0, b: 1, c: 2}
    assert {(e["source"], e["target"]) for e in down["edges"]} == {(a, b), (b, c)}

    up = client.lineage.upstream(d)
    assert {n["id"]: n["distance"] for n in up["nodes"]} == {d: 0, c: 1, b: 2, x: 2, a: 3}
    assert all(n["direction"] in ("root", "upstream") for n in up["nodes"])
    assert all(n["placeholder"] for n in up["nodes"])

    around = client.lineage.get(c, direction="both", depth=1)
    directions = {n["id"]: n["direction"] for n in around["nodes"]}
    assert directions == {c: "root", b: "upstream", x: "upstream", d: "downstream"}

    assert client.lineage.get(c, limit=2)["truncated"] is True
    with pytest.raises(NotFoundError):
        client.lineage.upstream(f"{prefix}.nowhere")


def test_edges_strict_self_loop_and_delete(client: Client, prefix: str) -> None:
    a, b = f"{prefix}.src", f"{prefix}.dst"
    edge = client.lineage.add_edge(a, b, "insert into dst select * from src")
    assert (edge["source"], edge["target"], edge["origins"]) == (a, b, ["api"])
    assert client.assets.get(a)["placeholder"] is True

    with pytest.raises(ValidationError) as unknown:
        client.lineage.add_edge(a, f"{prefix}.ghost", strict=True)
    assert unknown.value.code == "unknown_assets"
    with pytest.raises(ValidationError) as loop:
        client.lineage.add_edge(a, a)
    assert loop.value.code == "self_loop"

    client.lineage.delete_edge(a, b)
    assert client.lineage.list_edges(source=a)["items"] == []
    with pytest.raises(NotFoundError):
        client.lineage.delete_edge(a, b)


def test_tokens_are_created_used_and_revoked(client: Client, url: str, prefix: str) -> None:
    created = client.tokens.create(f"{prefix}-reader", scopes=["read"], expires_in_days=1)
    secret = created["token"]
    assert secret.startswith("dgs_")
    assert created["prefix"] == secret[:8]
    assert created["scopes"] == ["read"]

    meta = client.tokens.get(created["id"])
    assert "token" not in meta
    assert meta["revoked_at"] is None
    assert created["id"] in {t["id"] for t in client.tokens.iter(limit=100)}

    with Client(base_url=url, token=secret, max_retries=0) as reader:
        reader.assets.list(limit=1)
        with pytest.raises(PermissionDeniedError) as denied:
            reader.assets.create(f"{prefix}.nope", name="n", type="table")
        assert denied.value.code == "insufficient_scope"

        client.tokens.revoke(created["id"])
        with pytest.raises(AuthenticationError) as refused:
            reader.assets.list(limit=1)
        assert (refused.value.status, refused.value.code) == (401, "invalid_token")
    assert client.tokens.get(created["id"])["revoked_at"] is not None


@pytest.mark.anyio
async def test_the_async_client_does_the_same(url: str, prefix: str) -> None:
    async with AsyncClient(base_url=url) as client:
        assert (await client.info())["api_version"] == "v1"
        asset_id = f"{prefix}/async:orders"
        created = await client.assets.create(asset_id, name="Orders", type="table")
        assert (await client.assets.get(asset_id)) == created
        with pytest.raises(PreconditionFailedError):
            await client.assets.patch(asset_id, {"name": "x"}, if_match=9)
        patched = await client.assets.patch(asset_id, {"name": "Orders!"}, if_match=1)
        assert (patched["name"], patched["version"]) == ("Orders!", 2)
        replaced = await client.assets.put(asset_id, name="Orders", type="view", if_match=2)
        assert replaced["type"] == "view"

        total = await client.lineage.push_bulk(
            [(asset_id, f"{prefix}/async:{i}") for i in range(5)], chunk_size=2
        )
        assert (total["received"], total["created"]) == (5, 5)
        assert len([e async for e in client.lineage.iter_edges(source=asset_id, limit=2)]) == 5
        ids = [a["id"] async for a in client.assets.iter(q=prefix, limit=2)]
        assert len(ids) == 6
        graph = await client.lineage.downstream(asset_id, depth=1)
        assert len(graph["nodes"]) == 6
        assert (await client.lineage.upstream(f"{prefix}/async:0"))["nodes"][1]["id"] == asset_id

        with pytest.raises(ConflictError):
            await client.assets.create(asset_id, name="Orders", type="table")
        await client.assets.delete(asset_id)
        with pytest.raises(NotFoundError) as caught:
            await client.assets.get(asset_id)
        assert caught.value.code == "asset_not_found"
        assert caught.value.request_id


def test_a_dbt_manifest_is_ingested_once_and_announced(client: Client) -> None:
    project = f"py-{uuid.uuid4().hex[:8]}"
    first = client.lineage.upload_manifest(MANIFEST, project=project)
    assert first["project"] == project
    assert first["dbt_version"] == "1.11.16"
    # Other tests upload the same manifest to the same database, so the assets and
    # edges may exist already; the edges with this project's origin are ours.
    edges = first["edges"]["created"] + first["edges"]["existing"]
    assert edges > 0
    assert len(list(client.lineage.iter_edges(origin=f"dbt:{project}", limit=100))) == edges
    assert isinstance(first["warnings"], list)

    second = client.lineage.upload_manifest(MANIFEST.read_bytes(), project=project)
    assert second["project"] == project
    assert (second["edges"]["created"], second["edges"]["removed"]) == (0, 0)
    assert second["edges"]["existing"] == edges

    page = client.events.list(types=["lineage.*"], limit=1)
    assert len(page["items"]) <= 1
    announced = [
        event
        for event in client.events.iter(types=["lineage.manifest.ingested"])
        if event["data"].get("project") == project
    ]
    assert announced, f"no lineage.manifest.ingested event for {project}"
    assert announced[0]["type"] == "lineage.manifest.ingested"
    assert announced[0]["data"]["edges"] == first["edges"]


@pytest.mark.anyio
async def test_the_async_client_ingests_manifests_and_reads_events(url: str) -> None:
    project = f"py-{uuid.uuid4().hex[:8]}"
    async with AsyncClient(base_url=url) as client:
        summary = await client.lineage.upload_manifest(MANIFEST, project=project, prune=False)
        assert summary["edges"]["created"] + summary["edges"]["existing"] > 0
        found = [
            event
            async for event in client.events.iter(types="lineage.manifest.*")
            if event["data"].get("project") == project
        ]
        assert found, f"no lineage.manifest.ingested event for {project}"
