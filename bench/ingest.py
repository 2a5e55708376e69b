"""Bulk lineage ingestion at the store's limit, and how writers scale.

    python -m bench.ingest [--assets 100000] [--reps 2] [--seconds 10] [--out bench/RESULTS-ingest.md]

1. Formulations of the raw driver's bulk upsert, each loading the same warehouse
   graph from empty in requests of 10,000 edges (unless the variant says otherwise).
   Variants marked "same result" write what the service writes and answer the same
   counts; the fastest of them in transactions no larger than one request (10,000
   edges) is the raw baseline. The others are references: a floor with none of the
   service's bookkeeping, and batching that is not atomic.
2. The service over HTTP loading the same graph, against that baseline: first as a
   load of its own, then paired with the baseline request by request, each writing
   its own copy of the graph (ids prefixed `raw.` and `http.`) into the same
   database, so a slow spell of Neo4j (a checkpoint, a pause) falls on both sides
   alike. The paired ratio is the target's figure; the separate loads, minutes
   apart, show what it smooths over.
3. Writer scaling over HTTP: 1 and 4 concurrent writers of single asset creates,
   single edge posts and 1,000-edge bulks, each writer on ids of its own.
4. The same scaling on the raw driver, with the event counter updated first in the
   transaction (the old shape: the counter's lock is held for the whole change) and
   last (the current shape: held for the commit only).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j
import orjson

from bench.common import (
    Figure,
    Service,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    median_ms,
    running_service,
    write_summary,
)
from bench.lineage import JSON_BODY, chunks, ingest_http, warehouse
from service import clock, cypher
from service.ids import new_id

CHUNK = 10_000
# The driver's packstream codec: with neo4j-rust-ext installed, its Packer and
# Unpacker call Rust; `python_codec` swaps the pure-Python methods back in.
packstream: Any = importlib.import_module("neo4j._codec.packstream.v1")
RUST_CODEC = packstream._rust_pack is not None
_COMPILED = packstream.Packer._pack, packstream.Unpacker.unpack


def _py_pack(self: Any, data: Any, dehydration_hooks: Any = None) -> None:
    self._py_pack(data, dehydration_hooks)


def _py_unpack(self: Any, hydration_hooks: Any = None) -> Any:
    return self._unpack(hydration_hooks=hydration_hooks)


def python_codec(on: bool) -> None:
    packstream.Packer._pack, packstream.Unpacker.unpack = (
        (_py_pack, _py_unpack) if on else _COMPILED
    )


Edges = list[tuple[str, str]]
Work = Callable[[neo4j.ManagedTransaction, Edges], None]

# A per-row subquery: the Eager the planner puts between reading and writing an
# edge's properties then spans one row instead of the whole batch.
PER_ROW_EDGES = """
UNWIND $edges AS e
MATCH (s:Asset {id: e.source})
MATCH (t:Asset {id: e.target})
CALL (s, t, e) {
  MERGE (s)-[r:LINEAGE]->(t)
    ON CREATE SET r._new = true, r.created_at = $now, r.updated_at = $now, r.origins = []
  WITH r, e, coalesce(r._new, false) AS created,
       e.transformation IS NOT NULL
         AND (e.at IS NULL OR r.transformation_at IS NULL OR e.at >= r.transformation_at) AS take,
       CASE WHEN $origin IN r.origins THEN r.origins ELSE r.origins + $origin END AS origins
  WITH r, created, origins,
       CASE WHEN take THEN e.transformation ELSE r.transformation END AS transformation,
       CASE WHEN take AND e.at IS NOT NULL THEN e.at ELSE r.transformation_at END
         AS transformation_at
  WITH r, created, origins, transformation, transformation_at,
       size(origins) <> size(r.origins)
         OR coalesce(transformation <> r.transformation, transformation IS NOT NULL) AS changed
  SET r.transformation = transformation,
      r.transformation_at = transformation_at,
      r.origins = origins,
      r.updated_at = CASE WHEN changed AND NOT created THEN $now ELSE r.updated_at END
  REMOVE r._new
  RETURN created, changed
}
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created,
       sum(CASE WHEN changed AND NOT created THEN 1 ELSE 0 END) AS updated,
       count(*) AS total
"""
PER_ROW_PLACEHOLDERS = """
UNWIND $ids AS id
CALL (id) {
  MERGE (a:Asset {id: id})
    ON CREATE SET a.name = id, a.type = 'unknown', a.placeholder = true, a.version = 1,
                  a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now,
                  a._new = true
  WITH a, coalesce(a._new, false) AS created
  REMOVE a._new
  RETURN created
}
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created
"""
FLOOR_PLACEHOLDERS = """
UNWIND $ids AS id
MERGE (a:Asset {id: id})
  ON CREATE SET a.name = id, a.type = 'unknown', a.placeholder = true, a.version = 1,
                a.owners = [], a.tags = [], a.created_at = $now, a.updated_at = $now
"""
FLOOR_EDGES = """
UNWIND $edges AS e
MATCH (s:Asset {id: e.source})
MATCH (t:Asset {id: e.target})
MERGE (s)-[r:LINEAGE]->(t)
  ON CREATE SET r.created_at = $now, r.updated_at = $now, r.origins = [$origin]
"""


def _ids(chunk: Edges) -> list[str]:
    return sorted({s for s, _ in chunk} | {t for _, t in chunk})


def _rows(chunk: Edges, ordered: bool = True) -> list[dict[str, Any]]:
    pairs = sorted(chunk) if ordered else chunk
    return [{"source": s, "target": t, "transformation": None, "at": None} for s, t in pairs]


def two_statements(placeholders: str, merge: str, ordered: bool = True) -> Work:
    """Placeholders for every endpoint, then the edges: the service's shape."""

    def work(tx: neo4j.ManagedTransaction, chunk: Edges) -> None:
        now = clock.now_iso()
        tx.run(placeholders, ids=_ids(chunk), now=now, domains={}, private=[]).consume()
        tx.run(merge, edges=_rows(chunk, ordered), origin="api", now=now).consume()

    return work


def load_managed(driver: neo4j.Driver, work: Work, edges: Edges, chunk: int) -> None:
    with driver.session() as session:
        for start in range(0, len(edges), chunk):
            session.execute_write(work, edges[start : start + chunk])


def load_in_transactions(driver: neo4j.Driver, queries: cypher.Queries, edges: Edges) -> None:
    """All edges in one auto-commit statement that commits every 10,000 rows: not
    atomic, so not something a bulk request may do; a reference for batching cost."""
    placeholders = "CALL (id) {" + _body(queries["lineage.merge_placeholders"].statement())
    merge = "CALL (e) {" + _body(queries["lineage.merge_edges"].statement())
    now = clock.now_iso()
    with driver.session() as session:
        session.run(
            neo4j.Query(
                "UNWIND $ids AS id "
                + placeholders
                + "} IN TRANSACTIONS OF 10000 ROWS RETURN count(*)"
            ),
            ids=_ids(edges),
            now=now,
            domains={},
            private=[],
        ).consume()
        session.run(
            neo4j.Query(
                "UNWIND $edges AS e " + merge + "} IN TRANSACTIONS OF 10000 ROWS RETURN count(*)"
            ),
            edges=_rows(edges),
            origin="api",
            now=now,
        ).consume()


def _body(statement: str) -> str:
    """A statement's lines after its UNWIND and without comments, for a subquery
    (whose final RETURN stays: one row per input row)."""
    lines = [line for line in statement.splitlines() if line and not line.startswith("//")]
    return "\n".join(lines[1:]) + "\n"


@dataclass(frozen=True)
class Variant:
    name: str
    same: bool
    load: Callable[[neo4j.Driver, Edges], None]
    python_packstream: bool = False
    # Transactions larger than one request may be: reported, but no baseline for it.
    oversized: bool = False


def variants(queries: cypher.Queries) -> list[Variant]:
    placeholders = queries["lineage.merge_placeholders"].statement()
    merge = queries["lineage.merge_edges"].statement()
    service = two_statements(placeholders, merge)

    def managed(work: Work, chunk: int = CHUNK) -> Callable[[neo4j.Driver, Edges], None]:
        return lambda driver, edges: load_managed(driver, work, edges, chunk)

    return [
        Variant("service statements, rows sorted, 10,000 a transaction", True, managed(service)),
        Variant(
            "same, rows in request order",
            True,
            managed(two_statements(placeholders, merge, ordered=False)),
        ),
        Variant("same, 2,500 a transaction", True, managed(service, 2_500)),
        Variant("same, 5,000 a transaction", True, managed(service, 5_000)),
        Variant("same, 20,000 a transaction", True, managed(service, 20_000), oversized=True),
        Variant("same, pure-Python packstream", True, managed(service), python_packstream=True),
        Variant(
            "per-row CALL subqueries (Eager spans one row)",
            True,
            managed(two_statements(PER_ROW_PLACEHOLDERS, PER_ROW_EDGES)),
        ),
        Variant(
            "reference: CALL IN TRANSACTIONS OF 10,000 ROWS (not atomic)",
            False,
            lambda driver, edges: load_in_transactions(driver, queries, edges),
        ),
        Variant(
            "reference: bare MERGE, no counts or transformations",
            False,
            managed(two_statements(FLOOR_PLACEHOLDERS, FLOOR_EDGES)),
        ),
    ]


def timed_load(driver: neo4j.Driver, variant: Variant, edges: Edges) -> float:
    clear_graph(driver)
    python_codec(variant.python_packstream)
    try:
        started = time.perf_counter()
        variant.load(driver, edges)
        return time.perf_counter() - started
    finally:
        python_codec(False)


def prefixed(chunk: Edges, prefix: str) -> Edges:
    return [(prefix + source, prefix + target) for source, target in chunk]


@dataclass
class Paired:
    """Seconds per 10,000-edge request of the service and of the raw baseline, taken
    alternately (which side goes first alternates too) on two copies of the graph."""

    http: list[float]
    raw: list[float]

    @property
    def ratio(self) -> float:
        """Throughput HTTP / raw over the whole load: total raw time / total HTTP time."""
        return sum(self.raw) / sum(self.http)


def paired_load(service: Service, driver: neo4j.Driver, baseline: Variant, edges: Edges) -> Paired:
    clear_graph(driver)
    paired = Paired([], [])
    with service.client() as client:

        def over_http(chunk: Edges) -> None:
            body = orjson.dumps([{"source": s, "target": t} for s, t in prefixed(chunk, "http.")])
            client.post("/lineage/bulk", content=body, headers=JSON_BODY).raise_for_status()

        def raw(chunk: Edges) -> None:
            python_codec(baseline.python_packstream)
            try:
                baseline.load(driver, prefixed(chunk, "raw."))
            finally:
                python_codec(False)

        sides = ((over_http, paired.http), (raw, paired.raw))
        for index, chunk in enumerate(chunks(edges)):
            for load, seconds in sides if index % 2 else reversed(sides):
                started = time.perf_counter()
                load(chunk)
                seconds.append(time.perf_counter() - started)
    return paired


# --- writer scaling -------------------------------------------------------------


@dataclass(frozen=True)
class Scaling:
    name: str
    unit: str
    one: float
    four: float

    @property
    def factor(self) -> float:
        return self.four / self.one if self.one else float("nan")


def concurrently(
    writers: int, seconds: float, op: Callable[[int, int], int], numbers: Iterator[int]
) -> float:
    """Each writer calls op(writer, n), n the next of `numbers` (shared by every run of
    op, so ids are never reused), until the time is up; the units op reports, per
    second, over all writers."""
    done = [0] * writers
    deadline = time.perf_counter() + seconds

    failures: list[Exception] = []

    def run(writer: int) -> None:
        try:
            while time.perf_counter() < deadline:
                done[writer] += op(writer, next(numbers))
        except Exception as exc:  # reported below: a failed write voids the figure
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(w,)) for w in range(writers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return sum(done) / (time.perf_counter() - started)


def http_ops(service: Service, tag: str) -> dict[str, tuple[str, Callable[[int, int], int]]]:
    clients = [service.client() for _ in range(4)]

    def asset(writer: int, n: int) -> int:
        body = {"id": f"{tag}.a{writer}.{n}", "name": "x", "type": "table"}
        clients[writer].post("/assets", json=body).raise_for_status()
        return 1

    def edge(writer: int, n: int) -> int:
        body = {"source": f"{tag}.e{writer}.{n}.s", "target": f"{tag}.e{writer}.{n}.t"}
        clients[writer].post("/lineage", json=body).raise_for_status()
        return 1

    def bulk(writer: int, n: int) -> int:
        prefix = f"{tag}.b{writer}.{n}"
        body = [{"source": f"{prefix}.s{i // 3}", "target": f"{prefix}.t{i}"} for i in range(1000)]
        clients[writer].post(
            "/lineage/bulk", content=orjson.dumps(body), headers=JSON_BODY
        ).raise_for_status()
        return 1000

    return {
        "single asset creates (HTTP)": ("requests/s", asset),
        "single edge posts (HTTP)": ("requests/s", edge),
        "1,000-edge bulks (HTTP)": ("edges/s", bulk),
    }


def raw_ops(
    driver: neo4j.Driver, queries: cypher.Queries, tag: str, counter_first: bool
) -> dict[str, tuple[str, Callable[[int, int], int]]]:
    """The service's lineage write as one managed transaction with its event, the
    counter update run before the change or after it."""
    placeholders = queries["lineage.merge_placeholders"].statement()
    merge = queries["lineage.merge_edges"].statement()
    append = queries["events.append_many"].statement()
    sessions = [driver.session() for _ in range(4)]

    def work(tx: neo4j.ManagedTransaction, chunk: Edges) -> None:
        now = clock.now_iso()
        event = {
            "id": new_id("evt"),
            "type": "lineage.bulk.ingested",
            "occurred_at": now,
            "actor": "bench",
            "data": orjson.dumps({"received": len(chunk)}).decode(),
            "alert": False,
            "severity": None,
        }
        if counter_first:
            tx.run(append, items=[event]).consume()
        tx.run(placeholders, ids=_ids(chunk), now=now, domains={}, private=[]).consume()
        tx.run(merge, edges=_rows(chunk), origin="api", now=now).consume()
        if not counter_first:
            tx.run(append, items=[event]).consume()

    def edge(writer: int, n: int) -> int:
        prefix = f"{tag}.e{writer}.{n}"
        sessions[writer].execute_write(work, [(prefix + ".s", prefix + ".t")])
        return 1

    def bulk(writer: int, n: int) -> int:
        prefix = f"{tag}.b{writer}.{n}"
        chunk = [(f"{prefix}.s{i // 3}", f"{prefix}.t{i}") for i in range(1000)]
        sessions[writer].execute_write(work, chunk)
        return 1000

    where = "first" if counter_first else "last"
    return {
        f"single edge, counter {where} (raw)": ("transactions/s", edge),
        f"1,000-edge bulk, counter {where} (raw)": ("edges/s", bulk),
    }


def scale(ops: dict[str, tuple[str, Callable[[int, int], int]]], seconds: float) -> list[Scaling]:
    results = []
    for name, (unit, op) in ops.items():
        numbers = itertools.count()
        concurrently(1, min(2.0, seconds), op, numbers)  # warm-up
        one = concurrently(1, seconds, op, numbers)
        four = concurrently(4, seconds, op, numbers)
        results.append(Scaling(name, unit, one, four))
        print(f"{name}: 1 writer {one:,.1f}, 4 writers {four:,.1f} {unit}", flush=True)
    return results


# --- main -------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--assets", type=int, default=100_000)
    parser.add_argument("--layers", type=int, default=20)
    parser.add_argument("--reps", type=int, default=2, help="loads per variant")
    parser.add_argument("--seconds", type=float, default=10.0, help="per scaling measurement")
    parser.add_argument("--skip-variants", action="store_true", help="only the service path")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-ingest.md")
    args = parser.parse_args()

    edges = warehouse(args.assets, args.layers)
    queries = cypher.load()
    print(f"graph: {args.assets} assets, {len(edges)} edges", flush=True)
    chosen = variants(queries)[:1] if args.skip_variants else variants(queries)
    loads: dict[str, list[float]] = {v.name: [] for v in chosen}
    with bench_neo4j() as target, running_service(target) as service, driver_for(target) as driver:
        warm = edges[:CHUNK]
        for variant in chosen:
            timed_load(driver, variant, warm)
        clear_graph(driver)
        ingest_http(service, warm)
        http: list[float] = []
        for rep in range(args.reps):
            for variant in chosen:  # interleaved, so a slow spell hits every variant
                loads[variant.name].append(timed_load(driver, variant, edges))
                print(f"rep {rep + 1} {variant.name}: {loads[variant.name][-1]:.1f} s", flush=True)
            clear_graph(driver)
            http.append(ingest_http(service, edges))
            print(f"rep {rep + 1} service over HTTP: {http[-1]:.1f} s", flush=True)
        baseline = best_variant(chosen, loads, len(edges))
        paired = paired_load(service, driver, baseline, edges)
        print(f"paired with {baseline.name}: HTTP / raw {paired.ratio:.2f}", flush=True)
        clear_graph(driver)
        scaling = scale(http_ops(service, new_id("h")), args.seconds)
        clear_graph(driver)
        counter = scale(raw_ops(driver, queries, new_id("f"), True), args.seconds)
        counter += scale(raw_ops(driver, queries, new_id("l"), False), args.seconds)
        clear_graph(driver)
    report = render(args, chosen, len(edges), loads, http, paired, scaling, counter)
    print(report)
    args.out.write_text(report)
    summarise(args, chosen, len(edges), loads, http, paired, scaling + counter)


def _rate_of(edge_count: int) -> Callable[[list[float]], float]:
    """Edges per second at the median of a load's timings."""
    return lambda samples: edge_count / (median_ms(samples) / 1000)


def best_variant(chosen: list[Variant], loads: dict[str, list[float]], edge_count: int) -> Variant:
    """The baseline: the fastest raw load that writes the service's result in
    transactions no larger than one request."""
    rate = _rate_of(edge_count)
    return max((v for v in chosen if v.same and not v.oversized), key=lambda v: rate(loads[v.name]))


def summarise(
    args: argparse.Namespace,
    chosen: list[Variant],
    edge_count: int,
    loads: dict[str, list[float]],
    http: list[float],
    paired: Paired,
    scaling: list[Scaling],
) -> None:
    rate = _rate_of(edge_count)
    best = best_variant(chosen, loads, edge_count)
    write_summary(
        "ingest",
        args.out.name,
        [
            Figure(
                "bulk ingest, HTTP / best raw formulation, paired request by request",
                paired.ratio,
                "x",
                ">= 0.85",
            ),
            Figure(
                "bulk ingest, HTTP / best raw formulation, separate loads",
                rate(http) / rate(loads[best.name]),
                "x",
            ),
            Figure("bulk ingest over HTTP", rate(http), "edges/s"),
            Figure(f"best raw formulation ({best.name})", rate(loads[best.name]), "edges/s"),
            *(Figure(f"4 writers / 1 writer: {s.name}", s.factor, "x") for s in scaling),
        ],
    )


def render(
    args: argparse.Namespace,
    chosen: list[Variant],
    edge_count: int,
    loads: dict[str, list[float]],
    http: list[float],
    paired: Paired,
    scaling: list[Scaling],
    counter: list[Scaling],
) -> str:
    rate = _rate_of(edge_count)
    best = best_variant(chosen, loads, edge_count)
    lines = ["# Ingestion benchmark", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    lines += [
        f"- neo4j-rust-ext: {'installed' if RUST_CODEC else 'not installed'}",
        f"- load average at the end (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
        " (other work on the machine skews every figure)",
        f"- graph: {args.assets} assets in {args.layers} layers, {edge_count} edges, loaded "
        f"from empty {args.reps} times per variant (median)",
        "",
        "## Raw driver formulations",
        "",
        "| variant | same result | median time | edges/s |",
        "|---|---|---|---|",
    ]
    for v in chosen:
        mark = ("yes, larger than a request" if v.oversized else "yes") if v.same else "no"
        bold = "**" if v is best else ""
        lines.append(
            f"| {bold}{v.name}{bold} | {mark} | {median_ms(loads[v.name]) / 1000:.1f} s "
            f"| {rate(loads[v.name]):,.0f} |"
        )
    ratio = rate(http) / rate(loads[best.name])
    lines += [
        "",
        f"Raw baseline: **{best.name}**, {rate(loads[best.name]):,.0f} edges/s.",
        "",
        "## The service over HTTP (requests of 10,000 edges)",
        "",
        "| path | median time | edges/s |",
        "|---|---|---|",
        f"| service over HTTP | {median_ms(http) / 1000:.1f} s | {rate(http):,.0f} |",
        "",
        f"Separate loads, minutes apart: HTTP / best raw {ratio:.2f}.",
        "",
        "Paired request by request with the raw baseline, each side on its own copy of the "
        "graph in the same database (which goes first alternates): "
        f"HTTP {sum(paired.http):.1f} s, raw {sum(paired.raw):.1f} s, median request "
        f"{median_ms(paired.http):.0f} ms against {median_ms(paired.raw):.0f} ms.",
        "",
        f"Throughput ratio HTTP / best raw, paired: **{paired.ratio:.2f}** (target >= 0.85)",
        "",
        f"## Writer scaling ({args.seconds:g} s per measurement; each writer on its own ids)",
        "",
        "| workload | unit | 1 writer | 4 writers | 4 / 1 |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {s.name} | {s.unit} | {s.one:,.1f} | {s.four:,.1f} | **{s.factor:.2f}** |"
        for s in scaling + counter
    ]
    lines += [
        "",
        "The raw rows run the service's transaction shape (placeholders, edge merge, one "
        "event) with the event counter's update first (its lock held for the whole change, "
        "as before) or last (held for the commit only, as now).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
