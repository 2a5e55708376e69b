"""Users, /me, tokens, the service's probes, column lineage and OpenLineage ingest
against a running service (GOVERNANCE_URL, GOVERNANCE_TOKEN with the admin scope),
as `clients/harness.py python` provides. Names are unique per test: the database
is shared with the other clients' suites."""

from __future__ import annotations

import contextlib
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from governance_client import (
    AuthenticationError,
    Client,
    ConflictError,
    NotFoundError,
    ValidationError,
)

pytestmark = pytest.mark.live
PASSWORD = "correct horse battery staple"


def test_the_probes_and_metrics(client: Client) -> None:
    assert client.health() == {"status": "ok"}
    assert client.readiness() == {"status": "ready"}
    assert "# TYPE" in client.metrics()


def test_me_names_the_calling_token(client: Client) -> None:
    me = client.me()
    assert "admin" in me["token"]["scopes"]
    assert "token" not in me["token"]
    assert me["user"] is None or me["user"]["role"] == "admin"


def test_a_user_is_created_changed_listed_and_deleted(client: Client, prefix: str) -> None:
    username = f"{prefix}-ada"
    user = client.users.create(username, password=PASSWORD, role="viewer", display_name="Ada")
    try:
        assert (user["username"], user["role"], user["display_name"]) == (username, "viewer", "Ada")
        assert user["id"].startswith("usr_")
        assert "password" not in user
        assert client.users.get(user["id"]) == user
        with pytest.raises(ConflictError) as taken:
            client.users.create(username.upper(), password=PASSWORD, role="viewer")
        assert taken.value.code == "already_exists"
        with pytest.raises(ValidationError):
            client.users.create(f"{prefix}-short", password="short", role="viewer")

        patched = client.users.patch(user["id"], {"role": "editor", "display_name": None})
        assert (patched["role"], patched["display_name"]) == ("editor", None)
        assert user["id"] in {u["id"] for u in client.users.iter(limit=100)}
        client.users.delete(user["id"])
        with pytest.raises(NotFoundError):
            client.users.get(user["id"])
    finally:
        with contextlib.suppress(NotFoundError):
            client.users.delete(user["id"])


def test_a_token_carries_its_user_and_knows_itself(client: Client, url: str, prefix: str) -> None:
    created = client.tokens.create(f"{prefix}-me", scopes=["read"], expires_in_days=1)
    me = client.me()
    assert created["user_id"] == (me["user"]["id"] if me["user"] else None)
    assert client.tokens.get(created["id"])["user_id"] == created["user_id"]
    with Client(base_url=url, token=created["token"], max_retries=0) as reader:
        mine = reader.me()
        assert (mine["token"]["id"], mine["token"]["scopes"]) == (created["id"], ["read"])
        client.tokens.revoke(created["id"])
        with pytest.raises(AuthenticationError):
            reader.me()


# -- column lineage ---------------------------------------------------------------


def test_column_lineage_follows_the_mappings_of_edges(client: Client, prefix: str) -> None:
    raw, clean, mart = (f"{prefix}.{n}" for n in ("raw", "clean", "mart"))
    for asset_id, names in ((raw, ["id", "amount"]), (clean, ["order_id", "total"])):
        client.assets.create(
            asset_id, name=asset_id, type="table", columns=[{"name": n} for n in names]
        )
    first = client.with_raw_response.lineage.add_edge(
        raw,
        clean,
        columns=[
            {"source": "id", "target": "order_id"},
            {"source": "amount", "target": "total", "transformation": "sum(amount)"},
        ],
    )
    assert first.status_code == 201
    assert [(c["source"], c["target"]) for c in first.parse()["columns"]] == [
        ("amount", "total"),
        ("id", "order_id"),
    ]
    again = client.with_raw_response.lineage.add_edge(raw, clean)
    assert again.status_code == 200
    result = client.lineage.bulk(
        [{"source": clean, "target": mart, "columns": [{"source": "total", "target": "revenue"}]}]
    )
    assert result["column_mappings"] == {"created": 1, "existing": 0}

    up = client.lineage.column_upstream(mart, "revenue")
    assert up["root"] == {"asset": mart, "column": "revenue"}
    assert [(n["asset"], n["column"], n["distance"]) for n in up["nodes"]] == [
        (mart, "revenue", 0),
        (clean, "total", 1),
        (raw, "amount", 2),
    ]
    transformations = {e["source"]["column"]: e["transformation"] for e in up["edges"]}
    assert transformations == {"total": None, "amount": "sum(amount)"}

    down = client.lineage.column_downstream(raw, "id", depth=1)
    assert [(n["asset"], n["column"]) for n in down["nodes"]] == [(raw, "id"), (clean, "order_id")]
    with pytest.raises(NotFoundError) as missing:
        client.lineage.column_upstream(raw, "nope")
    assert missing.value.code == "column_not_found"


# -- OpenLineage ------------------------------------------------------------------


def run_event(
    prefix: str, kind: str, run_id: str, output: str = "clean", job: str = "load"
) -> dict[str, Any]:
    """A RunEvent: job ``<prefix>/<job>`` reads ``<prefix>/raw`` and writes ``output``."""
    raw_id = {"namespace": prefix, "name": "raw", "field": "id"}
    return {
        "eventType": kind,
        "eventTime": datetime.now(UTC).isoformat(),
        "producer": "https://github.com/governance-service/governance/clients/python",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": run_id},
        "job": {"namespace": prefix, "name": job, "facets": {"sql": {"query": "select 1"}}},
        "inputs": [
            {
                "namespace": prefix,
                "name": "raw",
                "facets": {"schema": {"fields": [{"name": "id", "type": "int"}]}},
            }
        ],
        "outputs": [
            {
                "namespace": prefix,
                "name": output,
                "facets": {"columnLineage": {"fields": {"id": {"inputFields": [raw_id]}}}},
            }
        ],
    }


def test_openlineage_events_become_lineage(client: Client, prefix: str) -> None:
    run_id = str(uuid.uuid4())
    one = client.lineage.ingest_openlineage(run_event(prefix, "COMPLETE", run_id))
    assert (one["received"], one["complete"], one["runs"]) == (1, 1, 1)
    assert one["edges"] == {"created": 1, "existing": 0}
    assert one["column_mappings"] == {"created": 1, "existing": 0}

    edge = client.lineage.list_edges(source=f"{prefix}/raw")["items"][0]
    assert (edge["target"], edge["transformation"]) == (f"{prefix}/clean", "select 1")
    assert edge["origins"] == [f"openlineage:{prefix}/load"]
    assert [(c["source"], c["target"]) for c in edge["columns"]] == [("id", "id")]

    # Three other jobs, each writing its own output: their edges add up.
    more = [run_event(prefix, "START", str(uuid.uuid4()))]
    more += [
        run_event(prefix, "COMPLETE", str(uuid.uuid4()), f"out{i}", f"copy{i}") for i in range(3)
    ]
    total = client.lineage.ingest_openlineage(iter(more), chunk_size=2)
    assert (total["received"], total["complete"]) == (4, 3)
    assert total["edges"]["created"] == 3
    assert {e["target"] for e in client.lineage.iter_edges(source=f"{prefix}/raw")} == {
        f"{prefix}/clean",
        *(f"{prefix}/out{i}" for i in range(3)),
    }

    # A later complete run of a job replaces the edges that job asserted before.
    client.lineage.ingest_openlineage(run_event(prefix, "COMPLETE", str(uuid.uuid4()), "clean2"))
    targets = {e["target"] for e in client.lineage.iter_edges(source=f"{prefix}/raw")}
    assert f"{prefix}/clean2" in targets
    assert f"{prefix}/clean" not in targets


def test_a_bad_run_event_is_refused_whole(client: Client, prefix: str) -> None:
    good = run_event(prefix, "COMPLETE", str(uuid.uuid4()))
    bad = {**good, "run": {"runId": "not a uuid"}}
    with pytest.raises(ValidationError) as caught:
        client.lineage.ingest_openlineage([good, bad])
    assert caught.value.errors
    assert client.lineage.list_edges(source=f"{prefix}/raw")["items"] == []
