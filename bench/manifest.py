"""dbt manifest benchmark: a generated 10,000-model manifest uploaded over HTTP,
against the raw Neo4j driver writing the same assets, edges and rules with the
same statements in the same run.

    python -m bench.manifest [--models 10000] [--sql-kb 12] [--out bench/RESULTS-manifest.md]

Reports wall time, the ratio HTTP / raw (target <= 2), and the service process's
peak RSS (its VmHWM, idle baseline included) against the manifest's size (target <= 2x).
"""

from __future__ import annotations

import argparse
import gzip
import random
import time
from pathlib import Path
from typing import Any, LiteralString

import neo4j
import orjson

from bench.common import (
    Figure,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    running_service,
    write_summary,
)
from service import clock, cypher
from service.domain.dbt_manifest import read_manifest
from service.domain.manifest_plan import plan_assets, plan_rules
from service.store.manifest import asset_size, batches, edge_size, manifest_edges

PROJECT = "warehouse"


def generate(models: int, sources: int, sql_kb: int, seed: int = 11) -> dict[str, Any]:
    """Layered like a real project: sources, staging, intermediate, marts; each model
    selects from 1-4 earlier models, mostly from the layer just before it."""
    rng = random.Random(seed)
    source_ids = [f"source.{PROJECT}.raw.table_{i}" for i in range(sources)]
    layers = 12
    per_layer = models // layers
    names = [
        [f"model.{PROJECT}.l{layer:02d}_m{i:05d}" for i in range(per_layer)]
        for layer in range(layers)
    ]
    padding = "-- " + "x" * 96 + "\n"
    nodes: dict[str, Any] = {}
    for layer, ids in enumerate(names):
        for unique_id in ids:
            if layer == 0:
                parents = set(rng.sample(source_ids, rng.randint(1, 2)))
            else:
                parents = {
                    names[layer - 1 if rng.random() < 0.7 else rng.randrange(layer)][
                        int(per_layer * rng.random() ** 2)
                    ]
                    for _ in range(rng.randint(1, 4))
                }
            name = unique_id.rsplit(".", 1)[1]
            columns = {
                f"col_{c}": {
                    "name": f"col_{c}",
                    "data_type": "varchar",
                    "description": f"column {c}",
                    "tags": [],
                }
                for c in range(12)
            }
            sql = "select\n" + ",\n".join(f"  p.col_{c}" for c in range(12)) + "\nfrom parent p\n"
            sql += padding * (sql_kb * 1024 // len(padding))
            nodes[unique_id] = {
                "unique_id": unique_id,
                "resource_type": "model",
                "name": name,
                "package_name": PROJECT,
                "database": "analytics",
                "schema": f"layer_{layer}",
                "alias": name,
                "relation_name": f"analytics.layer_{layer}.{name}",
                "original_file_path": f"models/{name}.sql",
                "config": {
                    "enabled": True,
                    "materialized": "table",
                    "tags": ["daily"],
                    "meta": {"owner": "data-team"},
                },
                "tags": ["daily"],
                "description": f"model {name}",
                "columns": columns,
                "meta": {},
                "depends_on": {"nodes": sorted(parents), "macros": []},
                "raw_code": sql,
                "compiled_code": sql,
            }
            for test in ("not_null", "unique"):
                test_id = f"test.{PROJECT}.{test}_{name}_col_0.{rng.getrandbits(32):08x}"
                nodes[test_id] = {
                    "unique_id": test_id,
                    "resource_type": "test",
                    "name": f"{test}_{name}_col_0",
                    "package_name": PROJECT,
                    "config": {"enabled": True, "severity": "ERROR"},
                    "column_name": "col_0",
                    "attached_node": unique_id,
                    "test_metadata": {
                        "name": test,
                        "kwargs": {"column_name": "col_0", "model": "{{ ref('x') }}"},
                    },
                    "depends_on": {"nodes": [unique_id], "macros": []},
                    "tags": [],
                }
    sources_map = {
        sid: {
            "unique_id": sid,
            "resource_type": "source",
            "name": sid.rsplit(".", 1)[1],
            "source_name": "raw",
            "package_name": PROJECT,
            "database": "raw",
            "schema": "raw",
            "identifier": sid.rsplit(".", 1)[1],
            "config": {"enabled": True},
            "tags": [],
            "description": "",
            "columns": {},
            "meta": {},
        }
        for sid in source_ids
    }
    return {
        "metadata": {
            "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
            "dbt_version": "1.9.0",
            "project_name": PROJECT,
            "adapter_type": "snowflake",
        },
        "nodes": nodes,
        "sources": sources_map,
        "exposures": {},
        "disabled": {},
        "macros": {},
    }


def raw_write(driver: neo4j.Driver, queries: cypher.Queries, manifest: dict[str, Any]) -> float:
    """The same rows in the same batches the service writes, prepared beforehand; only
    the writes are timed."""
    contents = read_manifest(manifest)
    now = clock.now_iso()
    assets = plan_assets(contents.assets, {}, now)
    ids = {a.id for a in contents.assets}
    rules = plan_rules(contents.rules, {}, ids, f"dbt:{PROJECT}", now)
    edges = manifest_edges(contents, ids)
    work: list[tuple[str, dict[str, Any]]] = [
        *(("manifest.write_assets", {"rows": rows}) for rows in batches(assets.rows, asset_size)),
        *(
            ("lineage.merge_edges", {"edges": chunk, "origin": f"dbt:{PROJECT}", "now": now})
            for chunk in batches(edges, edge_size)
        ),
        *(("manifest.write_rules", {"rows": rows}) for rows in batches(rules.rows)),
    ]
    started = time.perf_counter()
    with driver.session() as session:
        for name, params in work:
            session.execute_write(_consume, queries[name].statement(), params)
    return time.perf_counter() - started


def _consume(
    tx: neo4j.ManagedTransaction, statement: LiteralString, params: dict[str, Any]
) -> None:
    tx.run(statement, params).consume()


def _status_mib(pid: int, field: str) -> float:
    """A size from /proc/<pid>/status (VmRSS now, VmHWM the peak), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def clear_rules(driver: neo4j.Driver) -> None:
    """The rules; first the lineage edges in small batches, as each carries its model's SQL
    (10,000 assets' edges at once exceed a transaction's memory cap, a quarter of the heap)."""
    with driver.session() as session:
        session.run(
            "MATCH ()-[e:LINEAGE]->() CALL (e) { DELETE e } IN TRANSACTIONS OF 1000 ROWS"
        ).consume()
        session.run(
            "MATCH (r:QualityRule) CALL (r) { DETACH DELETE r } IN TRANSACTIONS OF 10000 ROWS"
        ).consume()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", type=int, default=10_000)
    parser.add_argument("--sources", type=int, default=300)
    parser.add_argument("--sql-kb", type=int, default=9, help="compiled SQL per model")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-manifest.md")
    args = parser.parse_args()

    manifest = generate(args.models, args.sources, args.sql_kb)
    body = orjson.dumps(manifest)
    compressed = gzip.compress(body, compresslevel=5)
    print(f"manifest: {len(body) / 1e6:.0f} MB ({len(compressed) / 1e6:.1f} MB gzip)", flush=True)
    queries = cypher.load()
    with bench_neo4j() as target, running_service(target) as service, driver_for(target) as driver:
        clear_graph(driver)  # whatever an earlier benchmark left (make bench: 1M assets)
        # Untimed warm-up: the first repetition should not pay for what an earlier
        # benchmark left (make bench: a million assets just deleted) or for planning.
        raw_write(driver, queries, manifest)
        raw_s, http_s = [], []
        idle = _status_mib(service.process.pid, "VmRSS")
        with service.client() as client:
            for rep in range(args.reps):
                clear_rules(driver)
                clear_graph(driver)
                raw_s.append(raw_write(driver, queries, manifest))
                clear_rules(driver)
                clear_graph(driver)
                started = time.perf_counter()
                response = client.post(
                    "/lineage/manifest",
                    content=compressed,
                    headers={"content-type": "application/json", "content-encoding": "gzip"},
                )
                http_s.append(time.perf_counter() - started)
                response.raise_for_status()
                summary = response.json()
                print(f"rep {rep + 1}: raw {raw_s[-1]:.1f}s, http {http_s[-1]:.1f}s", flush=True)
            started = time.perf_counter()
            again = client.post(
                "/lineage/manifest",
                content=compressed,
                headers={"content-type": "application/json", "content-encoding": "gzip"},
            )
            unchanged_s = time.perf_counter() - started
            again.raise_for_status()
        peak = service.peak_rss_mib()
    raw, http = sorted(raw_s)[len(raw_s) // 2], sorted(http_s)[len(http_s) // 2]
    lines = (
        ["# dbt manifest benchmark", ""]
        + [f"- {k}: {v}" for k, v in environment().items()]
        + [
            f"- manifest: {args.models} models, {args.sources} sources, {len(body) / 1e6:.0f} MB "
            f"({len(compressed) / 1e6:.1f} MB gzip); {summary['assets']['created']} assets, "
            f"{summary['edges']['created']} edges, {summary['quality_rules']['created']} rules",
            "",
            "| path | median wall time |",
            "|---|---|",
            f"| raw driver: the same rows, statements and batches | {raw:.1f} s |",
            f"| service: gzip upload, parse, plan, write, over HTTP | {http:.1f} s |",
            f"| service: the same manifest again (nothing changes) | {unchanged_s:.1f} s |",
            "",
            f"Ratio HTTP / raw: **{http / raw:.2f}** (target <= 2)",
            "",
            f"Service peak RSS: **{peak:.0f} MiB** for a {len(body) / 1e6:.0f} MB manifest "
            f"(**{peak * 2**20 / len(body):.1f}x** its size, target <= 2x; "
            f"{idle:.0f} MiB when idle before the first upload)",
            "",
        ]
    )
    report = "\n".join(lines)
    print(report)
    args.out.write_text(report)
    write_summary(
        "manifest",
        args.out.name,
        [
            Figure("peak service RSS / manifest size", peak * 2**20 / len(body), "x", "<= 2.0"),
            Figure("upload time, HTTP / raw driver", http / raw, "x", "<= 2.0"),
            Figure(f"{len(body) / 1e6:.0f} MB manifest over HTTP", http, "s"),
            Figure("service peak RSS", peak, "MiB"),
        ],
    )


if __name__ == "__main__":
    main()
