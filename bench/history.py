"""Lineage through time: what keeping history costs the everyday path, what an `as_of`
traversal costs, and what history weighs on disk.

    python -m bench.history [--assets 100000] [--layers 20] [--rounds 10] [--roots 10]
                            [--samples 10] [--measure-every 0] [--storage-only]
                            [--out bench/RESULTS-history.md]

(GOVERNANCE_BENCH_NEO4J_NAME/PORT name the two instances `<name>-plain` and
`<name>-kept`, on that port and the next.)

Two local Neo4j instances hold the same live warehouse graph (bench.lineage's):
`plain` as a database without history would, `kept` with every change recorded by
the service's own statements. On `kept`, each of `rounds` rounds changes every edge's
transformation (one edge change each, recorded by `history.record_edges` in the
transaction that made it, as the service's write paths do) and every asset's
description (one asset version each, `assets.record_versions`): at 100k assets that
is 10 intervals per edge and 10 versions per asset. Then, request by request
interleaved, for roots in the middle layer at depth 10 both ways:

1. today's traversal (`lineage.traverse`) on `plain` and on `kept`, raw driver and
   HTTP: what history kept beside the live graph costs the everyday path;
2. the `as_of` traversal (`lineage.traverse_as_of`) on `kept` at an instant inside
   the last round but one, against today's traversal on `kept`: the answers hold the
   same nodes, checked.

Store sizes (after a checkpoint: the database directory's files by kind, the
transaction logs apart; `bench.history_growth`) on the live graph and after every
`--measure-every`-th round of asset versions and of edge changes give bytes per asset
version and per edge change as the slope of a line fitted through the points, and the
plain ratio where edge changes pass one million (`--storage-only`: `kept` and these
alone). No peer keeps whole-graph history to compare with (Marquez versions
datasets and runs; see docs/lineage.md).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import neo4j

from bench.common import (
    Figure,
    LeanClient,
    driver_for,
    environment,
    median_ms,
    running_service,
    write_summary,
)
from bench.history_growth import Growth, Size, table
from bench.history_growth import measure as measure_store
from bench.lineage import CHUNK, NODE_LIMIT, warehouse
from service import clock, cypher
from service.domain.history import OPEN, as_of_params
from service.domain.lineage_pages import page_params
from service.localdb import LocalNeo4j, default_cache_dir
from tests.support.neo4j_server import Neo4jTarget

DEPTH = 10
RECORDED_CHUNK = 2_000
PLAIN = ("bench-history-plain", 17711)
KEPT = ("bench-history-kept", 17712)
# Described as the API would: no longer a placeholder (a placeholder records no version).
SET_DESCRIPTIONS = (
    "UNWIND $ids AS id MATCH (a:Asset {id: id})"
    " SET a.description = $description, a.placeholder = false, a.updated_at = $now"
)


@dataclass
class Instance:
    """A fresh local instance: where to reach it, and its store files on disk."""

    target: Neo4jTarget
    server: LocalNeo4j

    def store_size(self) -> Size:
        """The store files' size once everything written is in them. Community has no
        `db.checkpoint()`; a clean shutdown checkpoints, so the instance restarts (the
        service's and the benchmark's drivers reconnect by themselves)."""
        self.server.stop()
        self.server.start()
        return measure_store(self.server.layout.data_dir)


def instance_names() -> tuple[tuple[str, int], tuple[str, int]]:
    """`plain` and `kept`'s names and Bolt ports: PLAIN and KEPT, or where
    GOVERNANCE_BENCH_NEO4J_NAME is set, `<name>-plain` and `<name>-kept` on
    GOVERNANCE_BENCH_NEO4J_PORT and the port after it."""
    name = os.environ.get("GOVERNANCE_BENCH_NEO4J_NAME")
    if not name:
        return PLAIN, KEPT
    port = int(os.environ.get("GOVERNANCE_BENCH_NEO4J_PORT", PLAIN[1]))
    return (f"{name}-plain", port), (f"{name}-kept", port + 1)


@contextlib.contextmanager
def instance(name: str, port: int) -> Iterator[Instance]:
    server = LocalNeo4j(default_cache_dir(), name=name, bolt_port=port, heap="2g", pagecache="2g")
    info = server.start()
    try:
        yield Instance(
            Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local"), server
        )
    finally:
        server.stop()


def apply_schema(driver: neo4j.Driver, queries: cypher.Queries) -> None:
    """The service's `schema.*` statements, as its start-up applies them (each is `IF
    NOT EXISTS`), for a run without the service."""
    with driver.session() as session:
        for name in sorted(n for n in queries if n.startswith("schema.")):
            session.run(queries[name].statement()).consume()
        session.run(queries["meta.await_indexes"].statement()).consume()


def clear(driver: neo4j.Driver) -> None:
    """Everything but the service's tokens and users, a thousand nodes a transaction."""
    with driver.session() as session:
        while session.run(
            "MATCH (n) WHERE n:Asset OR n:AssetTrail OR n:AssetVersion"
            " WITH n LIMIT 1000 DETACH DELETE n RETURN count(*) AS deleted"
        ).single(strict=True)["deleted"]:
            pass


def load(
    driver: neo4j.Driver,
    queries: cypher.Queries,
    edges: list[tuple[str, str]],
    transformation: str,
    record: bool,
) -> None:
    """The live graph through the service's statements: placeholders, then the edges
    with `transformation`; with `record`, each batch's history in its transaction."""
    placeholders = queries["lineage.merge_placeholders"].statement()
    merge = queries["lineage.merge_edges"].statement()
    history = queries["history.record_edges"].statement()

    def work(tx: neo4j.ManagedTransaction, chunk: list[tuple[str, str]]) -> None:
        now = clock.now_iso()
        ids = sorted({x for pair in chunk for x in pair})
        # no domains defined: no placeholder is placed in one
        tx.run(placeholders, ids=ids, now=now, domains={}, private=[]).consume()
        rows = [{"source": s, "target": t, "transformation": transformation} for s, t in chunk]
        tx.run(merge, edges=rows, origin="api", now=now).consume()
        if record:
            tx.run(history, pairs=[list(p) for p in chunk], now=now, open=OPEN).consume()

    # Recorded rounds go 2,000 pairs a transaction: a 10,000-pair one ran past the
    # instance's 60 s transaction timeout on a cold page cache at load 15-20.
    size = RECORDED_CHUNK if record else CHUNK
    ordered = sorted(edges)
    with driver.session() as session:
        for start in range(0, len(ordered), size):
            session.execute_write(work, ordered[start : start + size])


def describe(
    driver: neo4j.Driver, queries: cypher.Queries, ids: list[str], description: str, record: bool
) -> None:
    """Every asset's description set, with a version of each when `record`."""
    versions = queries["assets.record_versions"].statement()

    def work(tx: neo4j.ManagedTransaction, batch: list[str]) -> None:
        now = clock.now_iso()
        tx.run(SET_DESCRIPTIONS, ids=batch, description=description, now=now).consume()
        if record:
            items = [{"id": i, "at": now, "actor": "bench"} for i in batch]
            tx.run(versions, items=items).consume()

    with driver.session() as session:
        for start in range(0, len(ids), CHUNK):
            session.execute_write(work, ids[start : start + CHUNK])


def make_history(
    kept: Instance,
    driver: neo4j.Driver,
    queries: cypher.Queries,
    edges: list[tuple[str, str]],
    ids: list[str],
    growth: Growth,
) -> str:
    """The rounds of changes on `kept`: every asset's versions first, then every edge's
    intervals. Answers an instant inside the last edge round but one (the graph then:
    the same edges, every asset at its newest version)."""
    growth.add("live", 0, kept.store_size())
    for round_ in range(1, growth.rounds + 1):
        describe(driver, queries, ids, f"round {round_}", record=True)
        if round_ in growth.checkpoints():
            growth.add("versions", round_ * len(ids), kept.store_size())
    middle = ""
    for round_ in range(1, growth.rounds + 1):
        started = time.perf_counter()
        load(driver, queries, edges, f"select {round_}", record=True)
        if round_ == growth.rounds - 1:
            middle = clock.now_iso()
        print(f"edge round {round_}: {time.perf_counter() - started:.0f} s", flush=True)
        if round_ in growth.checkpoints():
            growth.add("edges", round_ * len(edges), kept.store_size())
    return middle


@dataclass
class Pair:
    """One root's interleaved samples of two ways to answer (seconds)."""

    base: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return statistics.median(self.other) / statistics.median(self.base)


@dataclass
class Cell:
    name: str
    side: str
    base_ms: float
    other_ms: float
    ratio: float
    nodes: float


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def traverse(
    driver: neo4j.Driver, statement: str, root: str, side: str, as_of: str | None
) -> set[str]:
    params = traverse_params(root, side, as_of)
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        row = session.run(statement, params).single(strict=True)
    # lineage.traverse answers one list of nodes; lineage.traverse_as_of one per side
    nodes = row.get("nodes")
    if nodes is None:
        nodes = row["down"] + row["up"]
    return {n["id"] for n in nodes}


def traverse_params(root: str, side: str, as_of: str | None) -> dict[str, object]:
    """A first page's parameters as the service passes them (no filters, no token)."""
    params: dict[str, object] = {
        "id": root,
        **page_params(NODE_LIMIT),
        "downstream": side == "downstream",
        "upstream": side == "upstream",
        "now": clock.now_iso(),
    }
    if as_of:
        params.update(as_of_params(as_of, clock.now_iso()))
    return params


def http_get(client: LeanClient, path: str) -> None:
    """GET on the kept-alive connection; once more on a new one if the service closed
    it while idle (its keep-alive ends after 5 s, which a slow raw turn can pass)."""
    try:
        status, body = client.get(path)
    except http.client.RemoteDisconnected:
        status, body = client.get(path)
    assert status == 200, body


Way = Callable[[], object]


def comparisons(
    plain: Side, kept: Side, statements: tuple[str, str], root: str, side: str, as_of: str
) -> dict[str, tuple[Way, Way]]:
    """Each comparison's two ways to answer for one root: (base, other)."""
    present, past = statements
    url = f"/lineage/{root}/{side}?depth={DEPTH}"
    return {
        "raw: today's traversal, kept / plain": (
            partial(traverse, plain.driver, present, root, side, None),
            partial(traverse, kept.driver, present, root, side, None),
        ),
        "raw: as_of / today's, on kept": (
            partial(traverse, kept.driver, present, root, side, None),
            partial(traverse, kept.driver, past, root, side, as_of),
        ),
        "HTTP: today's traversal, kept / plain": (
            partial(http_get, plain.client, url),
            partial(http_get, kept.client, url),
        ),
        "HTTP: as_of / today's, on kept": (
            partial(http_get, kept.client, url),
            partial(http_get, kept.client, f"{url}&as_of={as_of}"),
        ),
    }


@dataclass
class Side:
    """One instance as the benchmark reaches it: the raw driver and the service."""

    driver: neo4j.Driver
    client: LeanClient


def measure(
    plain: Side, kept: Side, queries: cypher.Queries, roots: list[str], samples: int, as_of: str
) -> list[Cell]:
    statements = (
        queries["lineage.traverse"].statement({"depth": DEPTH}),
        queries["lineage.traverse_as_of"].statement({"depth": DEPTH}),
    )
    cells = []
    for side in ("upstream", "downstream"):
        sizes = []
        for root in roots:
            now_nodes = traverse(kept.driver, statements[0], root, side, None)
            then_nodes = traverse(kept.driver, statements[1], root, side, as_of)
            assert now_nodes == then_nodes, f"{root} {side}: as_of answers other nodes"
            sizes.append(len(now_nodes) + 1)
        ways = {r: comparisons(plain, kept, statements, r, side, as_of) for r in roots}
        pairs: dict[str, dict[str, Pair]] = {r: {name: Pair() for name in ways[r]} for r in roots}
        for _ in range(samples):
            for root in roots:
                for name, (base, other) in ways[root].items():
                    pairs[root][name].base.append(timed(base))
                    pairs[root][name].other.append(timed(other))
        for name in ways[roots[0]]:
            over = [pairs[r][name] for r in roots]
            cells.append(
                Cell(
                    name,
                    side,
                    statistics.median(median_ms(x.base) for x in over),
                    statistics.median(median_ms(x.other) for x in over),
                    statistics.median(x.ratio for x in over),
                    statistics.median(sizes),
                )
            )
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--assets", type=int, default=100_000)
    parser.add_argument("--layers", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--roots", type=int, default=10)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument(
        "--measure-every",
        type=int,
        default=0,
        help="measure the store after every N-th round (default: a third, two thirds, all)",
    )
    parser.add_argument(
        "--storage-only",
        action="store_true",
        help="only `kept`'s history and its store sizes: no `plain`, no timings",
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-history.md")
    args = parser.parse_args()

    edges = warehouse(args.assets, args.layers)
    ids = sorted({x for pair in edges for x in pair})
    million = next(
        (r for r in range(1, args.rounds + 1) if r * len(edges) >= 1_000_000), args.rounds
    )
    growth = Growth(len(edges), len(ids), args.rounds, million, args.measure_every)
    queries = cypher.load()
    print(f"graph: {len(ids)} assets, {len(edges)} edges", flush=True)
    if args.storage_only:
        storage(args, queries, edges, ids, growth)
        return
    plain_name, kept_name = instance_names()
    with (
        instance(*plain_name) as plain_instance,
        instance(*kept_name) as kept_instance,
        running_service(plain_instance.target) as plain_service,
        running_service(kept_instance.target) as kept_service,
        driver_for(plain_instance.target) as plain_driver,
        driver_for(kept_instance.target) as kept_driver,
    ):
        clear(plain_driver)
        clear(kept_driver)
        load(plain_driver, queries, edges, f"select {args.rounds}", record=False)
        describe(plain_driver, queries, ids, f"round {args.rounds}", record=False)
        load(kept_driver, queries, edges, "select 0", record=False)
        as_of = make_history(kept_instance, kept_driver, queries, edges, ids, growth)
        middle = sorted({t for _, t in edges if t.startswith(f"l{args.layers // 2:02d}.")})
        roots = random.Random(7).sample(middle, min(args.roots, len(middle)))
        with plain_service.lean_client() as plain_client, kept_service.lean_client() as kept_client:
            plain, kept = Side(plain_driver, plain_client), Side(kept_driver, kept_client)
            measure(plain, kept, queries, roots[:2], 1, as_of)  # warm-up
            cells = measure(plain, kept, queries, roots, args.samples, as_of)
    report = render(args, growth, cells)
    print(report)
    args.out.write_text(report)
    write_summary("history", args.out.name, figures(growth, cells))


def storage(
    args: argparse.Namespace,
    queries: cypher.Queries,
    edges: list[tuple[str, str]],
    ids: list[str],
    growth: Growth,
) -> None:
    """`kept` alone, without its service: the store growth on one instance, which is
    what a million changes leave time for. No summary is written (its timing figures
    are not measured)."""
    _, kept_name = instance_names()
    with instance(*kept_name) as kept, driver_for(kept.target) as driver:
        apply_schema(driver, queries)
        clear(driver)
        load(driver, queries, edges, "select 0", record=False)
        make_history(kept, driver, queries, edges, ids, growth)
    report = "\n".join(
        [
            "# Lineage history benchmark: store growth",
            "",
            *(f"- {k}: {v}" for k, v in environment().items()),
            f"- graph: {growth.assets} assets, {growth.edges} edges; on `kept`, {args.rounds}"
            f" versions per asset, then {args.rounds} intervals per edge",
            "",
            *table(growth),
            "",
        ]
    )
    print(report)
    args.out.write_text(report)


def worst(cells: list[Cell], name: str) -> float:
    return max(c.ratio for c in cells if c.name == name)


def figures(growth: Growth, cells: list[Cell]) -> list[Figure]:
    return [
        Figure(
            "today's traversal with history kept / without, raw, worst side",
            worst(cells, "raw: today's traversal, kept / plain"),
            "x",
            "<= 1.05",
        ),
        Figure(
            "today's traversal with history kept / without, HTTP, worst side",
            worst(cells, "HTTP: today's traversal, kept / plain"),
            "x",
            "<= 1.05",
        ),
        Figure(
            f"as_of traversal at depth {DEPTH} / today's, raw, worst side",
            worst(cells, "raw: as_of / today's, on kept"),
            "x",
            "<= 1.3",
        ),
        Figure(
            f"as_of traversal at depth {DEPTH} / today's, HTTP, worst side",
            worst(cells, "HTTP: as_of / today's, on kept"),
            "x",
            "<= 1.3",
        ),
        Figure(
            f"bytes per edge change (at {growth.million * growth.edges:,} changes)",
            growth.per_edge_change_at_million(),
            "B",
        ),
        Figure(
            f"bytes per edge change (slope to {growth.rounds * growth.edges:,} changes)",
            growth.per_edge_change(),
            "B",
        ),
        Figure(
            f"bytes per asset version (slope to {growth.rounds * growth.assets:,} versions)",
            growth.per_asset_version(),
            "B",
        ),
    ]


def render(args: argparse.Namespace, growth: Growth, cells: list[Cell]) -> str:
    lines = [
        "# Lineage history benchmark",
        "",
        *(f"- {k}: {v}" for k, v in environment().items()),
        f"- graph: {growth.assets} assets, {growth.edges} edges; on `kept`, {args.rounds}"
        f" versions per asset, then {args.rounds} intervals per edge",
        f"- traversals: {args.roots} middle-layer roots x {args.samples} samples at depth"
        f" {DEPTH}, both ways interleaved request by request; limit {NODE_LIMIT} nodes",
        "",
        "## Traversal (median over roots of each root's median; ratio: median of ratios)",
        "",
        "| comparison | direction | median nodes | base ms | other ms | ratio |",
        "|---|---|---|---|---|---|",
        *(
            f"| {c.name} | {c.side} | {c.nodes:.0f} | {c.base_ms:.1f} | {c.other_ms:.1f}"
            f" | {c.ratio:.2f} |"
            for c in cells
        ),
        "",
        "## Store growth (after a clean shutdown; the store is every file in the"
        " database directory, the transaction logs apart)",
        "",
        *table(growth),
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
