"""Lineage traversal benchmark: the service over HTTP against the raw Neo4j driver
running the same one-statement traversal on the same data, in the same run, and
against the thinnest HTTP service that gives the same answer (bench.thin).

    python -m bench.lineage [--assets 100000] [--layers 20] [--ingest-reps 0]

Upstream and downstream at depths 1, 3, 5, 10 and 50, HTTP and raw interleaved
request by request (median latency ratio, target <= 1.2), and the service's peak
memory, with the bare HTTP hop (bench.floor) and the thin service timed beside each
pair. Writes
bench/RESULTS-lineage.md, a plot, and a summary for bench.report.
Bulk ingestion has its own benchmark (bench.ingest); `--ingest-reps` also times it here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j
import orjson

from bench.common import (
    Figure,
    LeanClient,
    Service,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    median_ms,
    running_service,
    write_summary,
)
from bench.floor import bare_http
from bench.thin import thin_service
from service import clock, cypher
from service.domain.lineage_pages import page_params
from service.settings import Limits

CHUNK = 10_000
JSON_BODY = {"Content-Type": "application/json"}
DEPTHS = (1, 3, 5, 10, 50)
# The service's default answer size: the HTTP requests pass no `limit`, the raw driver this.
NODE_LIMIT: int = Limits.model_fields["default_lineage_nodes"].default


def warehouse(
    assets: int,
    layers: int,
    seed: int = 42,
    name: Callable[[int, int], str] = lambda layer, i: f"l{layer:02d}.t{i:06d}",
) -> list[tuple[str, str]]:
    """A layered DAG shaped like a warehouse: sources feed staging feeds marts. Each
    asset has 1-6 parents (about 3), mostly from the layer before, picked with a skew
    so that a few hub tables fan out widely."""
    rng = random.Random(seed)
    per_layer = assets // layers
    names = [[name(layer, i) for i in range(per_layer)] for layer in range(layers)]
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
    """Requests of 10,000 edges, one after another, each body written by orjson as a
    client that cares for speed would (httpx's `json=` takes ten times as long)."""
    with service.client() as client:
        started = time.perf_counter()
        for chunk in chunks(edges):
            body = orjson.dumps([{"source": s, "target": t} for s, t in chunk])
            response = client.post("/lineage/bulk", content=body, headers=JSON_BODY)
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
        tx.run(placeholders, ids=ids, now=now, domains={}, private=[]).consume()
        rows = [{"source": s, "target": t, "transformation": None} for s, t in sorted(chunk)]
        tx.run(merge, edges=rows, origin="api", now=now).consume()

    started = time.perf_counter()
    with driver.session() as session:
        for chunk in chunks(edges):
            session.execute_write(work, chunk)
    return time.perf_counter() - started


def _uncursored(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key != "next_cursor"}


def traverse_raw(
    driver: neo4j.Driver, queries: cypher.Queries, root: str, side: str, depth: int
) -> int:
    """The service's own one-statement traversal, auto-commit, as the best Cypher we
    know for the same answer (no token re-check: the raw driver has no caller)."""
    statement = queries["lineage.traverse"].statement({"depth": depth})
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        row = session.run(
            statement,
            id=root,
            downstream=side == "downstream",
            upstream=side == "upstream",
            now=clock.now_iso(),
            **page_params(NODE_LIMIT),
        ).single(strict=True)
    found = len(row["nodes"]) + len(row["edges"])
    return found + 1 if row["root"] else 0


@dataclass
class RootSamples:
    """One root's requests in a cell: client-side seconds of the HTTP request, the raw
    statement, the bare HTTP hop and the thin service beside it, and each HTTP answer's
    Server-Timing."""

    http: list[float] = field(default_factory=list)
    raw: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    thin: list[float] = field(default_factory=list)
    timing: list[dict[str, float]] = field(default_factory=list)
    nodes: int = 0

    @property
    def ratio(self) -> float:
        return statistics.median(self.http) / statistics.median(self.raw)

    @property
    def thin_ratio(self) -> float:
        """The thinnest HTTP service over the raw driver: what any service pays."""
        return statistics.median(self.thin) / statistics.median(self.raw)

    @property
    def over_thin(self) -> float:
        """The service over the thinnest HTTP service: what its own machinery costs."""
        return statistics.median(self.http) / statistics.median(self.thin)

    @property
    def beyond_floor(self) -> float:
        """The service's time over the raw driver's plus the bare HTTP hop: what the
        service itself adds, which a ratio of small answers cannot show."""
        return statistics.median(self.http) / (
            statistics.median(self.raw) + statistics.median(self.floor)
        )

    def split(self) -> tuple[float, float, float]:
        """Medians in ms, from Server-Timing: waiting on Neo4j, the service's own time
        (total - db), and outside the service (client's time - total: hop and client)."""
        db = [t["db"] for t in self.timing]
        own = [t["total"] - t["db"] for t in self.timing]
        outside = [s * 1000 - t["total"] for s, t in zip(self.http, self.timing, strict=True)]
        return statistics.median(db), statistics.median(own), statistics.median(outside)


@dataclass
class Latency:
    """A cell (direction, depth) over its roots. Each figure is the median over roots of
    that root's median, and each ratio the median over roots of that root's ratio of
    medians: answers from different roots differ a hundredfold in size (a leaf table
    reaches one node, a hub two thousand), so one median over all of a cell's requests
    would land between clusters and pair an HTTP sample with a raw one of another size."""

    side: str
    depth: int
    http_ms: float
    raw_ms: float
    nodes: float
    floor_ms: float  # the bare HTTP round trip (bench.floor), timed beside these
    thin_ms: float  # the thinnest HTTP service giving the same answer (bench.thin)
    ratio: float
    beyond_floor: float
    thin_ratio: float
    over_thin: float
    db_ms: float  # these three split the HTTP requests' time by Server-Timing
    own_ms: float
    outside_ms: float
    roots: list[RootSamples]

    @classmethod
    def of(cls, side: str, depth: int, roots: list[RootSamples]) -> Latency:
        over_roots = statistics.median
        splits = [r.split() for r in roots]
        return cls(
            side,
            depth,
            http_ms=over_roots(median_ms(r.http) for r in roots),
            raw_ms=over_roots(median_ms(r.raw) for r in roots),
            nodes=over_roots(r.nodes for r in roots),
            floor_ms=over_roots(median_ms(r.floor) for r in roots),
            thin_ms=over_roots(median_ms(r.thin) for r in roots),
            ratio=over_roots(r.ratio for r in roots),
            beyond_floor=over_roots(r.beyond_floor for r in roots),
            thin_ratio=over_roots(r.thin_ratio for r in roots),
            over_thin=over_roots(r.over_thin for r in roots),
            db_ms=over_roots(db for db, _, _ in splits),
            own_ms=over_roots(own for _, own, _ in splits),
            outside_ms=over_roots(outside for _, _, outside in splits),
            roots=roots,
        )


LARGE_ANSWER = 1000  # from here on the HTTP hop is a small part of a traversal's time
SIZE_BANDS = ((1, 10), (10, 100), (100, LARGE_ANSWER), (LARGE_ANSWER, NODE_LIMIT + 1))


@dataclass
class SizeBand:
    """Every (direction, depth, root) whose answer held `low` to `high - 1` nodes, the
    root included: the ratio follows the answer's size, not its depth."""

    low: int
    high: int
    count: int
    raw_ms: float
    http_ms: float
    thin_ms: float
    ratio: float
    beyond_floor: float
    thin_ratio: float
    over_thin: float


def by_size(latencies: list[Latency]) -> list[SizeBand]:
    bands = []
    for low, high in SIZE_BANDS:
        inside = [r for x in latencies for r in x.roots if low <= r.nodes < high]
        if inside:
            bands.append(
                SizeBand(
                    low,
                    high,
                    len(inside),
                    statistics.median(median_ms(r.raw) for r in inside),
                    statistics.median(median_ms(r.http) for r in inside),
                    statistics.median(median_ms(r.thin) for r in inside),
                    statistics.median(r.ratio for r in inside),
                    statistics.median(r.beyond_floor for r in inside),
                    statistics.median(r.thin_ratio for r in inside),
                    statistics.median(r.over_thin for r in inside),
                )
            )
    return bands


def measure_traversals(
    service: Service,
    thin: LeanClient,
    driver: neo4j.Driver,
    queries: cypher.Queries,
    roots: list[str],
    samples: int,
) -> list[Latency]:
    results = []
    with service.lean_client() as client, bare_http() as bare:
        for side in ("upstream", "downstream"):
            for depth in DEPTHS:
                cell = {root: RootSamples() for root in roots}
                for _ in range(samples):
                    for root, seen in cell.items():
                        path = f"/lineage/{root}/{side}?depth={depth}"
                        started = time.perf_counter()
                        bare.get("/")
                        seen.floor.append(time.perf_counter() - started)
                        started = time.perf_counter()
                        thin_status, thin_body = thin.get(path)
                        seen.thin.append(time.perf_counter() - started)
                        started = time.perf_counter()
                        status, body = client.get(path)
                        seen.http.append(time.perf_counter() - started)
                        assert status == 200, body
                        seen.timing.append(client.timing)
                        answer = orjson.loads(body)
                        seen.nodes = len(answer["nodes"])
                        if not seen.raw:  # once a root: the thin service's answer is the same
                            assert thin_status == 200, thin_body
                            # the cursor is sealed with the service's secret, which the
                            # thin service does not hold (`truncated` says there is one)
                            thin_answer = orjson.loads(thin_body)
                            assert _uncursored(thin_answer) == _uncursored(answer), path
                        started = time.perf_counter()
                        traverse_raw(driver, queries, root, side, depth)
                        seen.raw.append(time.perf_counter() - started)
                results.append(Latency.of(side, depth, list(cell.values())))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--assets", type=int, default=100_000)
    parser.add_argument("--layers", type=int, default=20)
    parser.add_argument(
        "--ingest-reps", type=int, default=0, help="ingestion runs per side (bench.ingest has more)"
    )
    parser.add_argument("--roots", type=int, default=10)
    parser.add_argument("--samples", type=int, default=10, help="repeats per root and depth")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-lineage.md")
    args = parser.parse_args()

    edges = warehouse(args.assets, args.layers)
    queries = cypher.load()
    print(f"graph: {args.assets} assets in {args.layers} layers, {len(edges)} edges", flush=True)
    with (
        bench_neo4j() as target,
        running_service(target) as service,
        driver_for(target) as driver,
        thin_service(target, service.token) as thin,
    ):
        raw_s, http_s = [], []
        for rep in range(args.ingest_reps):
            clear_graph(driver)
            raw_s.append(ingest_raw(driver, queries, edges))
            clear_graph(driver)
            http_s.append(ingest_http(service, edges))
            print(f"ingest rep {rep + 1}: raw {raw_s[-1]:.1f}s, http {http_s[-1]:.1f}s", flush=True)
        if not args.ingest_reps:
            clear_graph(driver)
            ingest_raw(driver, queries, edges)
        middle = sorted({t for _, t in edges if t.startswith(f"l{args.layers // 2:02d}.")})
        roots = random.Random(7).sample(middle, min(args.roots, len(middle)))
        measure_traversals(service, thin, driver, queries, roots[:2], 1)  # warm-up
        latencies = measure_traversals(service, thin, driver, queries, roots, args.samples)
        peak = service.peak_rss_mib()
    report = render(args, len(edges), raw_s, http_s, latencies, peak)
    print(report)
    args.out.write_text(report)
    plot = plot_latency(latencies)
    worst = max(x.ratio for x in latencies)
    bands = by_size(latencies)
    write_summary(
        "lineage",
        args.out.name,
        [
            Figure("traversal, worst median ratio HTTP / raw driver", worst, "x", "<= 1.2"),
            Figure(
                "traversal, worst median ratio HTTP / (raw driver + bare HTTP hop)",
                max(x.beyond_floor for x in latencies),
                "x",
            ),
            Figure("bare HTTP hop (bench.floor), median", typical_floor_ms(latencies), "ms"),
            *(
                Figure(
                    f"traversal, answers of {b.low}-{b.high - 1} nodes, HTTP / raw",
                    b.ratio,
                    "x",
                    "<= 1.2" if b.low >= LARGE_ANSWER else "",
                )
                for b in bands
            ),
            *(
                Figure(
                    f"traversal, answers of {b.low}-{b.high - 1} nodes, "
                    "thinnest HTTP service / raw",
                    b.thin_ratio,
                    "x",
                )
                for b in bands
            ),
            *(
                Figure(
                    f"traversal, answers of {b.low}-{b.high - 1} nodes, "
                    "service / thinnest HTTP service",
                    b.over_thin,
                    "x",
                    "<= 1.2",
                )
                for b in bands
            ),
            *(
                Figure(f"{x.side} depth {x.depth}, HTTP median", x.http_ms, "ms")
                for x in latencies
                if x.depth in (1, 5, 10)
            ),
            Figure("service peak RSS", peak, "MiB"),
        ],
        [plot],
    )


def typical_floor_ms(latencies: list[Latency]) -> float:
    floors = sorted(x.floor_ms for x in latencies)
    return floors[len(floors) // 2]


def plot_latency(latencies: list[Latency]) -> str:
    """Median latency by depth, HTTP and raw, one line per direction; returns its path
    relative to bench/."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4))
    for side, style in (("upstream", "-"), ("downstream", "--")):
        rows = [x for x in latencies if x.side == side]
        depths = [x.depth for x in rows]
        axis.plot(depths, [x.http_ms for x in rows], style, marker="o", label=f"{side}, service")
        axis.plot(depths, [x.raw_ms for x in rows], style, marker="x", label=f"{side}, raw driver")
    axis.set_xlabel("depth")
    axis.set_ylabel("median latency (ms)")
    axis.set_title("Lineage traversal latency by depth")
    axis.legend()
    axis.grid(alpha=0.3)
    path = Path(__file__).parent / "plots" / "lineage-latency-by-depth.png"
    path.parent.mkdir(exist_ok=True)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return str(path.relative_to(Path(__file__).parent))


def render(
    args: argparse.Namespace,
    edge_count: int,
    raw_s: list[float],
    http_s: list[float],
    latencies: list[Latency],
    peak_mib: float,
) -> str:
    lines = ["# Lineage traversal benchmark", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    lines += [
        f"- graph: {args.assets} assets in {args.layers} layers, {edge_count} edges; "
        f"traversals from {args.roots} roots x {args.samples} samples, HTTP and raw "
        "interleaved request by request",
        "- raw: the same one-statement traversal (`lineage.traverse`) through the sync "
        "driver, auto-commit, no token re-check",
        "",
    ]
    if raw_s:
        raw_rate = edge_count / (median_ms(raw_s) / 1000)
        http_rate = edge_count / (median_ms(http_s) / 1000)
        lines += [
            "## Bulk ingestion (requests of 10,000 edges, one transaction each)",
            "",
            "| path | median time | edges/s |",
            "|---|---|---|",
            f"| raw driver | {median_ms(raw_s) / 1000:.1f} s | {raw_rate:,.0f} |",
            f"| service over HTTP | {median_ms(http_s) / 1000:.1f} s | {http_rate:,.0f} |",
            "",
            f"Throughput ratio HTTP / raw: **{http_rate / raw_rate:.2f}**",
            "",
        ]
    lines += [
        f"## Traversal (median latency; limit {NODE_LIMIT} nodes)",
        "",
        "Each figure is the median over the roots of that root's median, and each ratio the "
        "median over the roots of that root's ratio of medians: roots reach from one node to "
        "two thousand, so one median over a cell's requests would fall between sizes.",
        "",
        "| direction | depth | median nodes | HTTP ms | raw ms | ratio | bare HTTP hop ms "
        "| HTTP / (raw + hop) | thin ms | thin / raw | HTTP / thin "
        "| service: Neo4j ms | service: own ms | outside ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {x.side} | {x.depth} | {x.nodes:.0f} | {x.http_ms:.1f} | {x.raw_ms:.1f} "
        f"| {x.ratio:.2f} | {x.floor_ms:.2f} | {x.beyond_floor:.2f} "
        f"| {x.thin_ms:.1f} | {x.thin_ratio:.2f} | {x.over_thin:.2f} "
        f"| {x.db_ms:.2f} | {x.own_ms:.2f} | {x.outside_ms:.2f} |"
        for x in latencies
    ]
    bands = by_size(latencies)
    lines += [
        "",
        "### By the answer's size",
        "",
        "Every direction, depth and root, grouped by the nodes in the answer (root included); "
        "medians over the group of each root's medians and ratios.",
        "",
        "| nodes | answers | raw ms | thin ms | HTTP ms | ratio | HTTP / (raw + hop) "
        "| thin / raw | HTTP / thin |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {b.low}-{b.high - 1} | {b.count} | {b.raw_ms:.1f} | {b.thin_ms:.1f} "
        f"| {b.http_ms:.1f} | {b.ratio:.2f} | {b.beyond_floor:.2f} "
        f"| {b.thin_ratio:.2f} | {b.over_thin:.2f} |"
        for b in bands
    ]
    worst = max(x.ratio for x in latencies)
    lines += [
        "",
        "The bare HTTP hop is the smallest ASGI app under uvicorn (`bench/floor.py`), timed "
        "beside each pair: what any HTTP service in front of Neo4j pays on this machine. "
        "Thin is the thinnest HTTP service that gives the same answer (`bench/thin.py`: "
        "a bare ASGI app, the async driver, the service's statement with the token "
        "re-checked in it, its `assemble`, orjson; no framework, middleware, logs or "
        "metrics), checked to answer the same document once a root. Thin / raw is what "
        "any Python service in front of Neo4j pays; HTTP / thin is what the service's own "
        "machinery adds. "
        "The last three columns split the HTTP requests' time by each answer's "
        "`Server-Timing` header: the service waiting on Neo4j, "
        "the service's own time, and the time outside the service (network and client).",
        "",
        f"Worst median latency ratio: **{worst:.2f}** (target <= 1.2); over raw + bare hop: "
        f"**{max(x.beyond_floor for x in latencies):.2f}**",
        "",
        "**Targets.** At most 1.2 x the raw driver at every size is the target as first "
        f"set. For answers of {bands[0].low}-{bands[0].high - 1} nodes a fifth of the raw "
        f"time is {0.2 * bands[0].raw_ms:.2f} ms, the bare HTTP hop alone "
        f"{typical_floor_ms(latencies):.2f} ms, and the thinnest HTTP service "
        f"{bands[0].thin_ratio:.2f} x raw: where the hop alone is over a fifth of raw, no "
        "HTTP service can hold that target. So the report also holds two targets that "
        "any service could meet and that still catch overhead of its own: at most 1.2 x "
        f"raw for answers of {LARGE_ANSWER:,} nodes or more, where the hop is small beside "
        "the work, and at most 1.2 x the thinnest HTTP service at every size.",
        "",
        f"Service peak RSS: **{peak_mib:.0f} MiB**",
        "",
        "![latency by depth](plots/lineage-latency-by-depth.png)",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
