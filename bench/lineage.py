"""Lineage benchmark: the service over HTTP against the raw Neo4j driver running the
same Cypher on the same data, in the same run.

    python -m bench.lineage [--assets 100000] [--layers 20] [--reps 2] [--out bench/RESULTS.md]

Ingestion: bulk requests of 10,000 edges against the raw driver's UNWIND ... MERGE
(throughput ratio, target >= 0.7). Traversal: upstream and downstream at depths 1, 5,
10 and 50 against the same three statements in one read transaction (median latency
ratio, target <= 1.5). Also the service process's peak memory.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import neo4j

from bench.common import (
    Service,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    median_ms,
    running_service,
)
from service import clock, cypher

CHUNK = 10_000
DEPTHS = (1, 5, 10, 50)
NODE_LIMIT = 2_000


def warehouse(assets: int, layers: int, seed: int = 42) -> list[tuple[str, str]]:
    """A layered DAG shaped like a warehouse: sources feed staging feeds marts. Each
    asset has 1-6 parents (about 3), mostly from the layer before, picked with a skew
    so that a few hub tables fan out widely."""
    rng = random.Random(seed)
    per_layer = assets // layers
    names = [[f"l{layer:02d}.t{i:06d}" for i in range(per_layer)] for layer in range(layers)]
    edges: set[tuple[str, str]] = set()
    for layer in range(1, layers):
        for child in names[layer]:
            for _ in range(rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5, 6))):
                source_layer = layer - 1 if rng.random() < 0.7 else rng.randrange(layer)
                parent = names[source_layer][int(per_layer * rng.random() ** 2)]
                edges.add((parent, child))
    ordered = sorted(edges)
    rng.shuffle(ordered)
    return ordered


def chunks(edges: list[tuple[str, str]]) -> Iterator[list[tuple[str, str]]]:
    for start in range(0, len(edges), CHUNK):
        yield edges[start : start + CHUNK]


def ingest_http(service: Service, edges: list[tuple[str, str]]) -> float:
    with service.client() as client:
        started = time.perf_counter()
        for chunk in chunks(edges):
            response = client.post(
                "/lineage/bulk", json=[{"source": s, "target": t} for s, t in chunk]
            )
            response.raise_for_status()
        return time.perf_counter() - started


def ingest_raw(
    driver: neo4j.Driver, queries: cypher.Queries, edges: list[tuple[str, str]]
) -> float:
    placeholders = queries["lineage.merge_placeholders"].statement()
    merge = queries["lineage.merge_edges"].statement()

    def work(tx: neo4j.ManagedTransaction, chunk: list[tuple[str, str]]) -> None:
        now = clock.now_iso()
        ids = sorted({s for s, _ in chunk} | {t for _, t in chunk})
        tx.run(placeholders, ids=ids, now=now).consume()
        rows = [{"source": s, "target": t, "transformation": None} for s, t in sorted(chunk)]
        tx.run(merge, edges=rows, origin="api", now=now).consume()

    started = time.perf_counter()
    with driver.session() as session:
        for chunk in chunks(edges):
            session.execute_write(work, chunk)
    return time.perf_counter() - started


def traverse_raw(
    driver: neo4j.Driver, queries: cypher.Queries, root: str, side: str, depth: int
) -> int:
    walk = queries[f"lineage.{side}"].statement({"depth": depth})
    adjacent = queries["lineage.adjacent"].statement()

    def work(tx: neo4j.Session) -> int:
        """Auto-commit statements in one session, as the service runs its reads."""
        reached = tx.run(walk, id=root, limit=NODE_LIMIT).single(strict=True)["reached"]
        ids = [root] + [r["node"]["id"] for r in reached]
        down, up = (ids, []) if side == "downstream" else ([], ids)
        answer = tx.run(adjacent, id=root, down_ids=down, up_ids=up).single(strict=True)
        return len(answer["edges"]) + len(ids) if answer["root"] else 0

    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        return work(session)


@dataclass
class Latency:
    side: str
    depth: int
    http_ms: float
    raw_ms: float
    nodes: float

    @property
    def ratio(self) -> float:
        return self.http_ms / self.raw_ms


def measure_traversals(
    service: Service, driver: neo4j.Driver, queries: cypher.Queries, roots: list[str], samples: int
) -> list[Latency]:
    results = []
    with service.client() as client:
        for side in ("upstream", "downstream"):
            for depth in DEPTHS:
                http, raw, sizes = [], [], []
                for _ in range(samples):
                    for root in roots:
                        started = time.perf_counter()
                        response = client.get(f"/lineage/{root}/{side}", params={"depth": depth})
                        http.append(time.perf_counter() - started)
                        response.raise_for_status()
                        sizes.append(len(response.json()["nodes"]))
                        started = time.perf_counter()
                        traverse_raw(driver, queries, root, side, depth)
                        raw.append(time.perf_counter() - started)
                results.append(
                    Latency(
                        side, depth, median_ms(http), median_ms(raw), sorted(sizes)[len(sizes) // 2]
                    )
                )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--assets", type=int, default=100_000)
    parser.add_argument("--layers", type=int, default=20)
    parser.add_argument("--reps", type=int, default=2, help="ingestion runs per side")
    parser.add_argument("--roots", type=int, default=10)
    parser.add_argument("--samples", type=int, default=5, help="repeats per root and depth")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS.md")
    args = parser.parse_args()

    edges = warehouse(args.assets, args.layers)
    queries = cypher.load()
    print(f"graph: {args.assets} assets in {args.layers} layers, {len(edges)} edges", flush=True)
    with bench_neo4j() as target, running_service(target) as service, driver_for(target) as driver:
        warm = edges[: min(len(edges), CHUNK)]
        for _ in range(2):  # compile every statement on both paths before measuring
            clear_graph(driver)
            ingest_raw(driver, queries, warm)
            clear_graph(driver)
            ingest_http(service, warm)
        raw_s, http_s = [], []
        for rep in range(args.reps):
            clear_graph(driver)
            raw_s.append(ingest_raw(driver, queries, edges))
            clear_graph(driver)
            http_s.append(ingest_http(service, edges))
            print(f"ingest rep {rep + 1}: raw {raw_s[-1]:.1f}s, http {http_s[-1]:.1f}s", flush=True)
        middle = sorted({t for _, t in edges if t.startswith(f"l{args.layers // 2:02d}.")})
        roots = random.Random(7).sample(middle, min(args.roots, len(middle)))
        measure_traversals(service, driver, queries, roots[:2], 1)  # warm-up
        latencies = measure_traversals(service, driver, queries, roots, args.samples)
        peak = service.peak_rss_mib()
    report = render(args, len(edges), raw_s, http_s, latencies, peak)
    print(report)
    args.out.write_text(report)


def render(
    args: argparse.Namespace,
    edge_count: int,
    raw_s: list[float],
    http_s: list[float],
    latencies: list[Latency],
    peak_mib: float,
) -> str:
    raw_rate = edge_count / (median_ms(raw_s) / 1000)
    http_rate = edge_count / (median_ms(http_s) / 1000)
    lines = ["# Lineage benchmark", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    lines += [
        f"- graph: {args.assets} assets in {args.layers} layers, {edge_count} edges; "
        f"{args.reps} ingestion runs per side; traversals from {args.roots} roots x {args.samples} samples",
        "",
        "## Bulk ingestion (requests of 10,000 edges, one transaction each)",
        "",
        "| path | median time | edges/s |",
        "|---|---|---|",
        f"| raw driver (same UNWIND ... MERGE) | {median_ms(raw_s) / 1000:.1f} s | {raw_rate:,.0f} |",
        f"| service over HTTP | {median_ms(http_s) / 1000:.1f} s | {http_rate:,.0f} |",
        "",
        f"Throughput ratio HTTP / raw: **{http_rate / raw_rate:.2f}** (target >= 0.7)",
        "",
        f"## Traversal (median latency; limit {NODE_LIMIT} nodes)",
        "",
        "| direction | depth | median nodes | HTTP ms | raw ms | ratio |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {x.side} | {x.depth} | {x.nodes:.0f} | {x.http_ms:.1f} | {x.raw_ms:.1f} | {x.ratio:.2f} |"
        for x in latencies
    ]
    worst = max(x.ratio for x in latencies)
    lines += [
        "",
        f"Worst median latency ratio: **{worst:.2f}** (target <= 1.5)",
        "",
        f"Service peak RSS: **{peak_mib:.0f} MiB**",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
