"""Policy evaluation: `POST /policies/evaluate` over HTTP against the raw driver
running the same evaluation statements, at two graph sizes to show how cost grows.

The graph is the lineage benchmark's warehouse DAG with described assets: about 5%
without an owner, 10% without a description, 2% tagged `pii`, the last layer typed
`dashboard`, a rule on every third asset. Five policies, one per kind. The service
side also reconciles and stores violations (the first run writes them all; later
runs find nothing changed), so its ratio includes that work; the raw side only
reads the violations. Medians of `--samples` runs.

    python -m bench.policies [--sizes 10000,20000,40000] [--samples 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

import neo4j

from bench.common import (
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    running_service,
)
from bench.lineage import ingest_raw, warehouse
from service import cypher
from service.domain.walks import Walk
from service.models.policies import Selector

LAYERS = 20
DESCRIBE = """
MATCH (a:Asset)
WITH a, toInteger(substring(a.id, size(a.id) - 6)) AS i, toInteger(substring(a.id, 1, 2)) AS layer
SET a.placeholder = false,
    a.name = a.id,
    a.type = CASE WHEN layer = $last THEN 'dashboard' ELSE 'table' END,
    a.owners = CASE WHEN i % 20 = 7 THEN [] ELSE ['team' + toString(i % 13) + '@example.com'] END,
    a.description = CASE WHEN i % 10 = 3 THEN null ELSE 'asset ' + a.id END,
    a.tags = CASE WHEN i % 50 = 11 THEN ['pii'] ELSE [] END
"""
RULES = """
MATCH (a:Asset) WHERE toInteger(substring(a.id, size(a.id) - 6)) % 3 = 0
CREATE (r:QualityRule {id: 'qr_bench_' + a.id, asset_id: a.id, name: 'n', type: 'not_null',
                       params: '{}', severity: 'warn', enabled: true, status: 'unknown',
                       version: 1, created_at: '', updated_at: ''})-[:CHECKS]->(a)
"""
POLICIES: list[dict[str, Any]] = [
    {"name": "owners", "kind": "require_owner"},
    {"name": "descriptions", "kind": "require_description"},
    {"name": "tested", "kind": "require_quality_rule"},
    {
        "name": "pii propagates",
        "kind": "tag_propagation",
        "params": {"tag": "pii", "max_depth": 10},
    },
    {
        "name": "no pii on dashboards",
        "kind": "restricted_flow",
        "selector": {"tags": ["pii"]},
        "params": {"to": {"type": "dashboard"}, "max_depth": 10},
    },
]


def raw_evaluate(driver: neo4j.Driver, queries: cypher.Queries) -> tuple[float, int]:
    """The same statements the service runs, with the same parameters, on the raw driver:
    the three single-pass kinds, and the two lineage kinds as one multi-source walk."""
    every = Selector().as_params()
    pii, dashboards = Selector(tags=["pii"]).as_params(), Selector(type="dashboard").as_params()
    found = 0
    started = time.perf_counter()
    with driver.session() as session:

        def run(name: str, **params: Any) -> list[neo4j.Record]:
            return list(session.run(queries[name].statement(), params))

        found += len(run("policies.eval_require_owner", selector=every))
        found += len(run("policies.eval_require_description", selector=every))
        found += len(run("policies.eval_require_quality_rule", selector=every, types=[]))
        tagged = Walk.start(r["id"] for r in run("policies.tag_sources", tag="pii"))
        walk(tagged, lambda f: run("policies.children", frontier=f))
        reached = [n for n, labels in tagged.reached.items() if labels[0].distance > 0]
        found += len(run("policies.tag_lacking", ids=reached, tag="pii", selector=every))
        targets = [r["id"] for r in run("policies.restricted_targets", to=dashboards)]
        flows = Walk.start(targets, labels=2)
        walk(flows, lambda f: run("policies.parents", frontier=f))
        flowing = [n for n in flows.reached if flows.nearest(n, other_than=n)]
        found += len(run("policies.governed", ids=flowing, selector=pii))
    return time.perf_counter() - started, found


def walk(state: Walk, step: Any, depth: int = 10) -> None:
    for _ in range(depth):
        if not state.frontier:
            return
        state.advance((r["node"], r["next"]) for r in step(state.frontier_ids()))


def measure(size: int, samples: int, driver: neo4j.Driver, service: Any) -> dict[str, Any]:
    queries = cypher.load()
    clear_graph(driver)
    with driver.session() as session:
        session.run(
            "MATCH (n) WHERE n:Policy OR n:Violation OR n:QualityRule DETACH DELETE n"
        ).consume()
    edges = warehouse(size, LAYERS)
    ingest_raw(driver, queries, edges)
    with driver.session() as session:
        session.run(DESCRIBE, last=LAYERS - 1).consume()
        session.run(RULES).consume()
    with service.client() as client:
        for body in POLICIES:
            client.post("/policies", json=body).raise_for_status()
        raw_evaluate(driver, queries)  # warm both paths' plans
        started = time.perf_counter()
        first = client.post("/policies/evaluate").raise_for_status().json()
        first_s = time.perf_counter() - started
        http, raw = [], []
        for _ in range(samples):
            started = time.perf_counter()
            again = client.post("/policies/evaluate").raise_for_status().json()
            http.append(time.perf_counter() - started)
            seconds, found = raw_evaluate(driver, queries)
            raw.append(seconds)
    violations = sum(p["violations"] for p in first["policies"])
    assert found == violations, (found, violations)
    assert all(p["opened"] == 0 for p in again["policies"])
    return {
        "assets": size,
        "edges": len(edges),
        "violations": violations,
        "first_s": first_s,
        "http_s": statistics.median(http),
        "raw_s": statistics.median(raw),
    }


def render(rows: list[dict[str, Any]], samples: int) -> str:
    lines = ["# Policy evaluation benchmark", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    lines += [
        f"- graph: the warehouse DAG ({LAYERS} layers), five policies (one per kind), medians of {samples}",
        "",
        "| assets | edges | violations | first evaluation (opens all) | HTTP evaluate | raw statements | ratio HTTP / raw |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['assets']:,} | {r['edges']:,} | {r['violations']:,} | {r['first_s']:.2f} s "
            f"| {r['http_s']:.2f} s | {r['raw_s']:.2f} s | **{r['http_s'] / r['raw_s']:.2f}** |"
        )
    base = rows[0]
    lines += ["", "Growth against the smallest graph (linear cost means time grows like size):", ""]
    for r in rows[1:]:
        lines.append(
            f"- {r['assets'] / base['assets']:.1f}x the assets: raw {r['raw_s'] / base['raw_s']:.1f}x, "
            f"HTTP {r['http_s'] / base['http_s']:.1f}x the time"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,20000,40000")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-policies.md")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    os.environ["GOVERNANCE_POLICY_EVALUATION"] = "false"  # only the measured evaluations run
    rows = []
    with bench_neo4j() as target, running_service(target) as service, driver_for(target) as driver:
        for size in sizes:
            rows.append(measure(size, args.samples, driver, service))
            print(rows[-1], flush=True)
    report = render(rows, args.samples)
    print(report)
    args.out.write_text(report)


if __name__ == "__main__":
    main()
