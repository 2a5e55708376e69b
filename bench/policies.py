"""Policy evaluation: `POST /policies/evaluate` over HTTP against the raw driver
running the same evaluation statements, at two graph sizes to show how cost grows.

The graph is the lineage benchmark's warehouse DAG with described assets: about 5%
without an owner, 10% without a description, 2% tagged `pii`, the last layer typed
`dashboard`, a rule on every third asset. Five policies, one per kind. Both sides do the
same work per policy: lock, evaluate, read the stored violations, reconcile, save
(the first run writes them all; the measured runs find nothing changed). Medians of `--samples` runs.

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
from service.domain.policies import Finding, reconcile
from service.domain.walks import Walk, flowing_into, lacking_tag
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
    """The same work on the raw driver: per policy, one write transaction that locks it,
    runs the same statements with the same parameters (the three single-pass kinds; the
    two lineage kinds as one multi-source walk), reads the stored violations, reconciles
    them with the same pure function and saves the difference."""
    every = Selector().as_params()
    pii, dashboards = Selector(tags=["pii"]).as_params(), Selector(type="dashboard").as_params()

    def findings(tx: neo4j.ManagedTransaction, kind: str) -> list[Finding]:
        def run(name: str, **params: Any) -> list[neo4j.Record]:
            return list(tx.run(queries[name].statement(), params))

        if kind == "tag_propagation":
            tagged = Walk.start(r["id"] for r in run("policies.tag_sources", tag="pii"))
            walk(tagged, lambda f: run("policies.children", frontier=f))
            reached = [n for n, labels in tagged.reached.items() if labels[0].distance > 0]
            rows = run("policies.tag_lacking", ids=reached, tag="pii", selector=every)
            return lacking_tag(tagged, (r["id"] for r in rows), "pii")
        if kind == "restricted_flow":
            targets = [r["id"] for r in run("policies.restricted_targets", to=dashboards)]
            flows = Walk.start(targets, labels=2)
            walk(flows, lambda f: run("policies.parents", frontier=f))
            flowing = [n for n in flows.reached if flows.nearest(n, other_than=n)]
            rows = run("policies.governed", ids=flowing, selector=pii)
            return flowing_into(flows, (r["id"] for r in rows))
        extra: dict[str, list[str]] = {"types": []} if kind == "require_quality_rule" else {}
        rows = run(f"policies.eval_{kind}", selector=every, **extra)
        return [Finding(r["asset_id"], r["reason"]) for r in rows]

    def evaluate(tx: neo4j.ManagedTransaction, policy_id: str, kind: str) -> int:
        tx.run(queries["policies.lock"].statement(), id=policy_id).consume()
        found = findings(tx, kind)
        stored = {
            r["asset_id"]: r
            for r in tx.run(queries["policies.open_violations"].statement(), policy_id=policy_id)
        }
        diff = reconcile(stored, found, "now")
        tx.run(
            queries["policies.save_violations"].statement(),
            policy_id=policy_id,
            now="now",
            open=[
                {"asset_id": f.asset_id, "reason": f.reason, "path": _path(f), "opened_at": at}
                for f, at in diff.to_write
            ],
            resolved=[f.asset_id for f in diff.resolved],
        ).consume()
        return len(found)

    started = time.perf_counter()
    total = 0
    with driver.session() as session:
        policies = session.run("MATCH (p:Policy) RETURN p.id AS id, p.kind AS kind").data()
        for policy in policies:
            total += session.execute_write(evaluate, policy["id"], policy["kind"])
    return time.perf_counter() - started, total


def _path(finding: Finding) -> list[str] | None:
    return list(finding.path) if finding.path is not None else None


def walk(state: Walk, step: Any, depth: int = 10) -> None:
    for _ in range(depth):
        if not state.frontier:
            return
        state.advance((r["node"], n) for r in step(state.frontier_ids()) for n in r["next"])


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
