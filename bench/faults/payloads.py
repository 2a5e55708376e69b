"""The four write workloads, each request with ids of its own, so that what Neo4j
holds afterwards can be counted per request: every request knows how many rows it
makes (`expected`) and how to count them (`count`, one Cypher statement)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, LiteralString

import neo4j

WORKLOADS = ("bulk", "manifest", "openlineage", "run_results")


@dataclass(frozen=True)
class Write:
    """One request: where it goes, its body, and how to find what it wrote."""

    workload: str
    key: str
    method: str
    path: str
    body: Any
    expected: int
    count: LiteralString
    params: dict[str, Any] = field(default_factory=dict)

    def stored(self, driver: neo4j.Driver) -> int:
        records, _, _ = driver.execute_query(self.count, self.params, database_="neo4j")
        return int(records[0]["n"])


def bulk(key: str, edges: int = 200) -> Write:
    """A bulk request of `edges` new edges between placeholder assets: one transaction."""
    body = [{"source": f"{key}-s{i}", "target": f"{key}-t{i}"} for i in range(edges)]
    return Write(
        "bulk",
        key,
        "POST",
        "/lineage/bulk",
        body,
        edges,
        "MATCH (s:Asset)-[e:LINEAGE]->(:Asset) WHERE s.id STARTS WITH $prefix RETURN count(e) AS n",
        {"prefix": f"{key}-s"},
    )


def manifest_document(project: str, models: int = 12) -> dict[str, Any]:
    """A small dbt project: one source, a chain of models, a not_null test on each."""
    source = f"source.{project}.raw.orders"
    nodes: dict[str, Any] = {}
    parent = source
    for i in range(models):
        unique_id = f"model.{project}.m{i:03d}"
        nodes[unique_id] = {
            "unique_id": unique_id,
            "resource_type": "model",
            "name": f"m{i:03d}",
            "package_name": project,
            "database": "analytics",
            "schema": "marts",
            "alias": f"m{i:03d}",
            "config": {"enabled": True, "materialized": "table"},
            "tags": [],
            "description": "",
            "columns": {"id": {"name": "id", "data_type": "integer", "tags": []}},
            "meta": {},
            "depends_on": {"nodes": [parent], "macros": []},
            "raw_code": "select id from parent",
        }
        test_id = f"test.{project}.not_null_m{i:03d}_id"
        nodes[test_id] = {
            "unique_id": test_id,
            "resource_type": "test",
            "name": f"not_null_m{i:03d}_id",
            "package_name": project,
            "config": {"enabled": True, "severity": "ERROR"},
            "column_name": "id",
            "attached_node": unique_id,
            "test_metadata": {"name": "not_null", "kwargs": {"column_name": "id"}},
            "depends_on": {"nodes": [unique_id], "macros": []},
            "tags": [],
        }
        parent = unique_id
    sources = {
        source: {
            "unique_id": source,
            "resource_type": "source",
            "name": "orders",
            "source_name": "raw",
            "package_name": project,
            "database": "raw",
            "schema": "raw",
            "identifier": "orders",
            "config": {"enabled": True},
            "tags": [],
            "description": "",
            "columns": {},
            "meta": {},
        }
    }
    return {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
            "dbt_version": "1.9.0",
            "project_name": project,
            "adapter_type": "postgres",
        },
        "nodes": nodes,
        "sources": sources,
        "exposures": {},
        "disabled": {},
        "macros": {},
    }


def manifest(key: str, models: int = 12) -> Write:
    """A manifest upload; it is written in several transactions (assets, edges, rules), so
    an unanswered one may be partly there: sending it again completes it."""
    project = key.replace("-", "_")
    # assets (models + the source) + edges (one per model) + rules (one per model)
    return Write(
        "manifest",
        key,
        "POST",
        "/lineage/manifest",
        manifest_document(project, models),
        3 * models + 1,
        "CALL () { MATCH (a:Asset) WHERE a.id STARTS WITH 'model.' + $p OR a.id STARTS WITH "
        "'source.' + $p RETURN count(a) AS c UNION ALL MATCH (:Asset)-[e:LINEAGE]->(t:Asset) "
        "WHERE t.id STARTS WITH 'model.' + $p RETURN count(e) AS c UNION ALL "
        "MATCH (r:QualityRule) WHERE r.id STARTS WITH 'test.' + $p RETURN count(r) AS c } "
        "RETURN sum(c) AS n",
        {"p": project + "."},
    )


def openlineage(key: str, inputs: int = 8) -> Write:
    """A COMPLETE run event: `inputs` datasets into one output, one edge each."""
    namespace = f"faults://{key}"
    event = {
        "eventType": "COMPLETE",
        "eventTime": "2026-11-21T12:00:00Z",
        "producer": "https://example.com/bench-faults",
        "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
        "run": {"runId": str(uuid.uuid4())},
        "job": {"namespace": "bench", "name": key},
        "inputs": [{"namespace": namespace, "name": f"in{i}"} for i in range(inputs)],
        "outputs": [{"namespace": namespace, "name": "out"}],
    }
    return Write(
        "openlineage",
        key,
        "POST",
        "/lineage/openlineage",
        event,
        inputs,
        "MATCH (:Asset)-[e:LINEAGE]->(t:Asset {id: $target}) RETURN count(e) AS n",
        {"target": f"{namespace}/out"},
    )


def run_results(key: str, project: str, models: int = 12) -> Write:
    """dbt run results for the tests of `project` (uploaded before), one invocation: one
    transaction, one result per test."""
    invocation = str(uuid.uuid4())
    results: list[dict[str, Any]] = [
        {
            "status": "pass",
            "timing": [],
            "thread_id": "Thread-1",
            "execution_time": 0.01,
            "adapter_response": {},
            "message": None,
            "failures": 0,
            "unique_id": f"test.{project}.not_null_m{i:03d}_id",
        }
        for i in range(models)
    ]
    body = {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json",
            "dbt_version": "1.9.0",
            "generated_at": "2026-11-24T12:00:00Z",
            "invocation_id": invocation,
        },
        "results": results,
        "elapsed_time": 1.0,
        "args": {},
    }
    return Write(
        "run_results",
        key,
        "POST",
        "/quality/results/dbt",
        body,
        models,
        "MATCH (r:QualityResult) WHERE r.key ENDS WITH $suffix RETURN count(r) AS n",
        {"suffix": "|" + invocation},
    )


def round_makers(prefix: str, base: str) -> dict[str, Callable[[int], Write]]:
    """The n-th request of each workload in a round; run-results name `base`'s tests."""
    return {
        "bulk": lambda n: bulk(f"{prefix}-bulk{n}"),
        "manifest": lambda n: manifest(f"{prefix}-mf{n}"),
        "openlineage": lambda n: openlineage(f"{prefix}-ol{n}"),
        "run_results": lambda n: run_results(f"{prefix}-rr{n}", base),
    }
