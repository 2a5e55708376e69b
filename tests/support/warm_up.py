"""Plans made once per test session, before the first test runs.

Neo4j plans a statement the first time it sees it, and planning the heaviest ones
(the history writes, the as-of walk) takes seconds in a JVM that has just started,
more on a busy machine. That time counts against a transaction's timeout, so the
first test to write lineage could meet a 503 that no later test would. Here a
service with a patient query timeout walks the everyday paths once (assets, edges
with columns, a replaced edge set, an OpenLineage run, a dbt upload, traversals now
and in the past, filtered, fanned out and by column, an impact check that walks
downstream, lists, deletions) and the graph is cleared after. The test database
keeps its plans for the session (`stable_plans`), so the tests find them made.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import httpx
import neo4j
import orjson
from pydantic import SecretStr

from service.app import create_app
from service.settings import Settings
from tests.support.dbt_fixtures import json_bytes, load, manifest_path
from tests.support.server import LiveServer
from tests.support.tokens import TokenMaker

PATIENT_QUERY_TIMEOUT_S = 300.0


def _event(job: str, inputs: list[str], output: str) -> dict[str, object]:
    column = {
        "fields": {
            "id": {
                "inputFields": [
                    {"namespace": "warm", "name": name, "field": "id"} for name in inputs
                ]
            }
        }
    }
    return {
        "eventType": "COMPLETE",
        "eventTime": datetime.now(UTC).isoformat(),
        "producer": "https://example.com/warm-up",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": "01930000-0000-7000-8000-000000000001"},
        "job": {"namespace": "warm", "name": job},
        "inputs": [{"namespace": "warm", "name": name} for name in inputs],
        "outputs": [
            {
                "namespace": "warm",
                "name": output,
                "facets": {
                    "schema": {
                        "_producer": "https://example.com/warm-up",
                        "_schemaURL": "https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json",
                        "fields": [{"name": "id", "type": "int"}],
                    },
                    "columnLineage": {
                        "_producer": "https://example.com/warm-up",
                        "_schemaURL": "https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json",
                        **column,
                    },
                },
            }
        ],
    }


def _retyped_column() -> bytes:
    """The uploaded project with a breaking change (a column's type), so that the impact
    check walks downstream: planning that walk's statement took 10 s of a loaded
    machine's time in the first test that needed it, past the query timeout."""
    candidate = load(manifest_path("v12"))
    candidate["nodes"]["model.corner_shop.stg_customers"]["columns"]["customer_id"]["data_type"] = (
        "bigint"
    )
    return orjson.dumps(candidate)


def _walk(client: httpx.Client) -> None:
    columns = [{"source": "id", "target": "id", "transformation": "id"}]
    calls: list[tuple[str, str, dict[str, object]]] = [
        (
            "PUT",
            "/assets/warm.a",
            {
                "json": {
                    "name": "a",
                    "type": "table",
                    "columns": [{"name": "id", "type": "int", "tags": ["pii"]}],
                }
            },
        ),
        ("POST", "/assets", {"json": {"id": "warm.b", "name": "b", "type": "table"}}),
        (
            "PATCH",
            "/assets/warm.b",
            {
                "json": {"description": "warm"},
                "headers": {"Content-Type": "application/merge-patch+json"},
            },
        ),
        (
            "POST",
            "/lineage",
            {
                "json": {
                    "source": "warm.a",
                    "target": "warm.b",
                    "transformation": "select",
                    "columns": columns,
                }
            },
        ),
        (
            "POST",
            "/lineage/bulk",
            {
                "json": [
                    {"source": "warm.b", "target": "warm.c", "columns": columns},
                    {"source": "warm.c", "target": "warm.d"},
                ]
            },
        ),
        (
            "POST",
            "/lineage/bulk",
            {
                "params": {"origin": "warm-sync", "replace": "true"},
                "json": [{"source": "warm.c", "target": "warm.e"}],
            },
        ),
        (
            "POST",
            "/lineage/bulk",
            {
                "params": {"origin": "warm-sync", "replace": "true"},
                "json": [{"source": "warm.c", "target": "warm.f"}],
            },
        ),
        ("POST", "/lineage/openlineage", {"json": [_event("job", ["warm.a"], "warm.g")]}),
        ("POST", "/lineage/openlineage", {"json": [_event("job", ["warm.b"], "warm.g")]}),
        (
            "POST",
            "/lineage/manifest",
            {
                "content": json_bytes(manifest_path("v12")),
                "headers": {"Content-Type": "application/json"},
            },
        ),
        (
            "POST",
            "/impact/manifest",
            {"content": _retyped_column(), "headers": {"Content-Type": "application/json"}},
        ),
        ("GET", "/lineage/warm.b", {}),
        ("GET", "/lineage/warm.b/upstream", {}),
        ("GET", "/lineage/warm.b/downstream", {}),
        ("GET", "/lineage/warm.b", {"params": {"as_of": "2999-01-01T00:00:00Z"}}),
        ("GET", "/lineage/warm.b/diff", {"params": {"from": "2020-01-01T00:00:00Z"}}),
        ("GET", "/lineage/warm.a/columns/id/downstream", {}),
        ("GET", "/assets/warm.b/history", {}),
        ("GET", "/lineage/warm.b", {"params": {"fanout": "5"}}),
        ("GET", "/lineage/warm.b", {"params": {"types": "table"}}),
        (
            "GET",
            "/lineage/warm.a/columns/id/downstream",
            {"params": {"as_of": "2999-01-01T00:00:00Z"}},
        ),
        ("GET", "/lineage/edges", {}),
        ("GET", "/assets", {}),
        ("GET", "/assets", {"params": {"q": "warm"}}),
        ("GET", "/assets/warm.b/columns", {}),
        ("DELETE", "/lineage/edges", {"params": {"source": "warm.c", "target": "warm.d"}}),
        ("DELETE", "/assets/warm.a", {}),
    ]
    for method, path, options in calls:
        answer = client.request(method, path, **options)  # type: ignore[arg-type]
        if not answer.is_success:
            raise RuntimeError(f"warm-up {method} {path}: {answer.status_code} {answer.text}")
        if path == "/impact/manifest" and not answer.json()["impacted"]:
            raise RuntimeError("warm-up: the impact check reached nothing, so no walk was planned")


def _clear(settings: Settings, clear_graph: str) -> None:
    with neo4j.GraphDatabase.driver(
        settings.neo4j_uri or "",
        auth=(settings.neo4j_username, settings.neo4j_password.get_secret_value()),
    ) as driver:
        driver.execute_query(clear_graph)


def warm_plans(settings: Settings, clear_graph: str) -> None:
    """Walk the everyday paths once through a patient service, on a cleared graph that
    is cleared again after."""
    limits = settings.limits.model_copy(update={"query_timeout_s": PATIENT_QUERY_TIMEOUT_S})
    # A first admin's password of its own, never used: a start on an empty graph would
    # otherwise print a generated one into `make test`'s log (`_first_admin`).
    quiet = SecretStr(secrets.token_urlsafe(18))
    patient = settings.model_copy(update={"limits": limits, "admin_password": quiet})
    _clear(settings, clear_graph)
    server = LiveServer(create_app(patient)).start()
    try:
        with TokenMaker(patient) as maker:
            token = maker.make(admin=["admin"])["admin"]
        with httpx.Client(
            base_url=server.url + "/api/v1",
            headers={"Authorization": f"Bearer {token}"},
            timeout=PATIENT_QUERY_TIMEOUT_S,
        ) as client:
            _walk(client)
    finally:
        server.stop()
        _clear(settings, clear_graph)
