"""Scale curve: the same measurements at growing catalogue sizes, so that the cost per
unit of work shows whether the service stays linear (flat per-unit cost) as it grows.

    python -m bench.scale [--sizes 10000,100000,1000000] [--out bench/RESULTS-scale.md]

For each size, on an emptied graph: a warehouse-like layered DAG (about 3 parents per
asset, deterministic) is ingested through `POST /lineage/bulk` in requests of 10,000
edges; then lineage reads at depth 1, 5 and 10 from sampled roots, searches
(`GET /assets?q=`) of several shapes, each also timed as the old substring scan
through the raw driver, and the memory of the service and of Neo4j. Writes the
results file and a PNG plot beside it (matplotlib, the `bench` extra).

Neo4j is a local instance of its own (GOVERNANCE_BENCH_NEO4J_NAME/PORT) sized like
any local instance (GOVERNANCE_NEO4J_HEAP/PAGECACHE, else from the machine's RAM),
or NEO4J_URI.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import neo4j

from bench.common import (
    BENCH_INSTANCE,
    BENCH_PORT,
    Figure,
    Service,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    median_ms,
    write_summary,
)
from bench.lineage import warehouse as lineage_warehouse
from service import cypher
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, ServiceProcess

CHUNK = 10_000
LAYERS = 20
DEPTHS = (1, 5, 10)
STAGES = ("raw", "stg", "int", "core", "mart")
DOMAINS = ("sales", "finance", "marketing", "ops", "hr", "product", "support", "risk")
ENTITIES = (
    *("orders", "customers", "payments", "invoices", "sessions", "events"),
    *("accounts", "refunds", "shipments", "leads", "tickets", "contracts"),
)


def asset_id(layer: int, i: int) -> str:
    """`core07.sales.orders_000123`: tokens a catalogue search would really meet."""
    stage = STAGES[layer * len(STAGES) // LAYERS]
    domain = DOMAINS[i % len(DOMAINS)]
    entity = ENTITIES[(i // len(DOMAINS)) % len(ENTITIES)]
    return f"{stage}{layer:02d}.{domain}.{entity}_{i:07d}"


def warehouse(assets: int, seed: int = 42) -> list[tuple[str, str]]:
    """bench.lineage's layered DAG, with warehouse-like ids."""
    return lineage_warehouse(assets, LAYERS, seed, asset_id)


def searches(assets: int) -> dict[str, str]:
    """Query shapes, by what they stand for."""
    per_layer = assets // LAYERS
    one = asset_id(LAYERS // 2, per_layer // 3)
    return {
        "exact id (1 hit)": one,
        "id number (few hits)": one.rsplit("_", 1)[1][1:],
        "word (1/12 of assets)": "orders",
        "inside a word": "rders_00012",
        "no letter or digit (scan)": "/",
    }


@dataclass
class Point:
    assets: int
    edges: int
    ingest_s: float = 0.0
    traversal_ms: dict[int, float] = field(default_factory=dict)
    traversal_nodes: dict[int, float] = field(default_factory=dict)
    search_ms: dict[str, float] = field(default_factory=dict)
    search_hits: dict[str, int] = field(default_factory=dict)
    scan_ms: dict[str, float] = field(default_factory=dict)
    service_rss: float = float("nan")
    service_hwm: float = float("nan")
    neo4j_rss: float = float("nan")
    neo4j_hwm: float = float("nan")

    @property
    def edges_per_s(self) -> float:
        return self.edges / self.ingest_s


def memory_mib(pid: int | None) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MiB; NaN when it cannot be read."""
    values = {"VmRSS:": float("nan"), "VmHWM:": float("nan")}
    with contextlib.suppress(OSError, TypeError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key = line.split(maxsplit=1)[0] if line else ""
            if key in values:
                values[key] = int(line.split()[1]) / 1024
    return values["VmRSS:"], values["VmHWM:"]


@contextlib.contextmanager
def scale_neo4j() -> Iterator[tuple[Neo4jTarget, int | None]]:
    """The target and the pid of its Neo4j (None for NEO4J_URI: memory not measured)."""
    if os.environ.get("NEO4J_URI"):
        with bench_neo4j() as target:
            yield target, None
        return
    from service.localdb import LocalNeo4j, default_cache_dir
    from service.settings import Settings

    memory = Settings.from_env().local_neo4j
    server = LocalNeo4j(
        default_cache_dir(),
        name=os.environ.get("GOVERNANCE_BENCH_NEO4J_NAME", BENCH_INSTANCE),
        bolt_port=int(os.environ.get("GOVERNANCE_BENCH_NEO4J_PORT", BENCH_PORT)),
        heap=memory.heap,
        pagecache=memory.pagecache,
    )
    print(f"neo4j heap {server.settings.heap}, page cache {server.settings.pagecache}", flush=True)
    info = server.start(timeout=300)
    try:
        yield (
            Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local"),
            (server.status().pid),
        )
    finally:
        if not os.environ.get("GOVERNANCE_KEEP_TEST_NEO4J"):
            server.stop()


@contextlib.contextmanager
def scale_service(target: Neo4jTarget) -> Iterator[Service]:
    """The service as `bench.common` runs it, with a query timeout that a 10,000-edge
    request on a busy machine stays within, logging to a file of its own."""
    env = {
        "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
        "GOVERNANCE_RATE_LIMIT_BURST": "100000",
        "GOVERNANCE_QUERY_TIMEOUT": "120",
    }
    with ServiceProcess(target, env, LOGS / "bench-scale-service.log").start(timeout=300) as run:
        assert run.process is not None
        yield Service(run.url, run.admin_token("bench"), run.process)


def ingest(service: Service, edges: list[tuple[str, str]]) -> float:
    """Seconds to send every edge; a 503 is retried after its Retry-After, as a
    client would, and the wait counts."""
    with service.client() as client:
        started = time.perf_counter()
        for start in range(0, len(edges), CHUNK):
            body = [{"source": s, "target": t} for s, t in edges[start : start + CHUNK]]
            for _attempt in range(5):
                response = client.post("/lineage/bulk", json=body)
                if response.status_code != 503:
                    break
                print(f"  503 {response.text[:200]}; retrying", flush=True)
                time.sleep(float(response.headers.get("retry-after", "1")))
            response.raise_for_status()
        return time.perf_counter() - started


def traversals(service: Service, roots: list[str], point: Point) -> None:
    with service.client() as client:
        for depth in DEPTHS:
            took, sizes = [], []
            for root in roots:
                for side in ("upstream", "downstream"):
                    started = time.perf_counter()
                    response = client.get(f"/lineage/{root}/{side}", params={"depth": depth})
                    took.append(time.perf_counter() - started)
                    response.raise_for_status()
                    sizes.append(len(response.json()["nodes"]))
            point.traversal_ms[depth] = median_ms(took)
            point.traversal_nodes[depth] = sorted(sizes)[len(sizes) // 2]


def old_scan(driver: neo4j.Driver, statement: str, q: str) -> None:
    """The substring scan `q` used to run: first page of 50, in id order."""
    records, _, _ = driver.execute_query(
        statement,
        after="",
        limit=51,
        type=None,
        platform=None,
        owner=None,
        tags=[],
        placeholder=None,
        q=q.lower(),
        routing_=neo4j.RoutingControl.READ,
    )
    assert records is not None


def search_latencies(
    service: Service, driver: neo4j.Driver, samples: int, point: Point, scan: str
) -> None:
    with service.client() as client:
        for shape, q in searches(point.assets).items():
            took, baseline = [], []
            for _ in range(samples + 1):  # the first run of each compiles: not counted
                started = time.perf_counter()
                response = client.get("/assets", params={"q": q, "limit": 50})
                took.append(time.perf_counter() - started)
                response.raise_for_status()
                point.search_hits[shape] = len(response.json()["items"])
                started = time.perf_counter()
                old_scan(driver, scan, q)
                baseline.append(time.perf_counter() - started)
            point.search_ms[shape] = median_ms(took[1:])
            point.scan_ms[shape] = median_ms(baseline[1:])


def measure(
    service: Service,
    driver: neo4j.Driver,
    neo4j_pid: int | None,
    assets: int,
    args: argparse.Namespace,
    scan: str,
) -> Point:
    edges = warehouse(assets)
    point = Point(assets, len(edges))
    print(f"{assets:,} assets, {len(edges):,} edges: clearing, ingesting", flush=True)
    clear_graph(driver)
    point.ingest_s = ingest(service, edges)
    print(f"  ingest {point.ingest_s:.1f} s ({point.edges_per_s:,.0f} edges/s)", flush=True)
    middle = sorted({t for _, t in edges if t.startswith(asset_id(LAYERS // 2, 0)[:6])})
    roots = random.Random(7).sample(middle, min(args.roots, len(middle)))
    traversals(service, roots[:2], Point(assets, 0))  # warm-up
    traversals(service, roots, point)
    search_latencies(service, driver, args.samples, point, scan)
    point.service_rss, point.service_hwm = memory_mib(service.process.pid)
    point.neo4j_rss, point.neo4j_hwm = memory_mib(neo4j_pid)
    print(f"  traversal ms {point.traversal_ms}, search ms {point.search_ms}", flush=True)
    return point


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated asset counts")
    parser.add_argument("--roots", type=int, default=10, help="sampled roots per depth")
    parser.add_argument("--samples", type=int, default=5, help="repeats of each search")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-scale.md")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))

    scan = cypher.load()["assets.list"].statement()
    points = []
    with (
        scale_neo4j() as (target, pid),
        scale_service(target) as service,
        driver_for(target) as driver,
    ):
        ingest(service, warehouse(sizes[0])[:CHUNK])  # compile the statements first
        for assets in sizes:
            points.append(measure(service, driver, pid, assets, args, scan))
    report = render(args, points)
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report)
    plot(points, args.out.with_suffix(".png"))
    summarise(args, points)


def summarise(args: argparse.Namespace, points: list[Point]) -> None:
    """Headline figures per size, and how far the cost per edge moves across sizes
    (1 for perfectly linear ingestion)."""
    first, last = points[0], points[-1]
    per_edge = (last.ingest_s / last.edges) / (first.ingest_s / first.edges)
    figures = [
        Figure(
            f"ingest cost per edge, {last.assets:,} / {first.assets:,} assets",
            per_edge,
            "x",
            "<= 2.0",
        )
    ]
    for p in points:
        size = f"{p.assets:,} assets"
        figures += [
            Figure(f"{size}: ingest", p.edges_per_s, "edges/s"),
            *(
                Figure(f"{size}: traversal depth {d}", ms, "ms")
                for d, ms in sorted(p.traversal_ms.items())
            ),
            Figure(
                f"{size}: search, median over shapes",
                statistics.median(p.search_ms.values()) if p.search_ms else float("nan"),
                "ms",
            ),
            Figure(f"{size}: service RSS", p.service_rss, "MiB"),
            Figure(f"{size}: Neo4j RSS", p.neo4j_rss, "MiB"),
        ]
    write_summary("scale", args.out.name, figures, [args.out.with_suffix(".png").name])


def render(args: argparse.Namespace, points: list[Point]) -> str:
    lines = ["# Scale curve", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    lines += [
        f"- graph: layered DAG of {LAYERS} layers, ids like `{asset_id(10, 123)}`; "
        f"lineage reads from {args.roots} roots (upstream and downstream each), "
        f"searches repeated {args.samples} times; figures are medians",
        "",
        "## Ingestion (`POST /lineage/bulk`, 10,000 edges a request)",
        "",
        "| assets | edges | time | edges/s | µs per edge |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {p.assets:,} | {p.edges:,} | {p.ingest_s:.1f} s | {p.edges_per_s:,.0f} "
        f"| {1e6 / p.edges_per_s:.0f} |"
        for p in points
    ]
    lines += [
        "",
        "## Lineage reads (median ms; median nodes returned; µs per node)",
        "",
        "| assets | " + " | ".join(f"depth {d}" for d in DEPTHS) + " |",
        "|---|" + "---|" * len(DEPTHS),
    ]
    lines += [
        f"| {p.assets:,} | "
        + " | ".join(
            f"{p.traversal_ms[d]:.1f} ms, {p.traversal_nodes[d]:.0f} nodes, "
            f"{1000 * p.traversal_ms[d] / max(p.traversal_nodes[d], 1):.0f} µs/node"
            for d in DEPTHS
        )
        + " |"
        for p in points
    ]
    shapes = list(searches(points[0].assets))
    lines += [
        "",
        "## Search (`GET /assets?q=`, first page of 50; median ms)",
        "",
        "Each cell: the ranked search over HTTP / the old substring scan (first page in id "
        "order, raw driver) / items on the first page.",
        "",
        "| assets | " + " | ".join(shapes) + " |",
        "|---|" + "---|" * len(shapes),
    ]
    lines += [
        f"| {p.assets:,} | "
        + " | ".join(
            f"{p.search_ms[s]:.1f} / {p.scan_ms[s]:.1f} / {p.search_hits[s]}" for s in shapes
        )
        + " |"
        for p in points
    ]
    lines += [
        "",
        "## Memory (MiB, after each size; the service runs through all sizes in turn)",
        "",
        "| assets | service RSS | service peak | Neo4j RSS | Neo4j peak | Neo4j KiB per asset |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {p.assets:,} | {p.service_rss:.0f} | {p.service_hwm:.0f} | {p.neo4j_rss:.0f} "
        f"| {p.neo4j_hwm:.0f} | {1024 * p.neo4j_rss / p.assets:.1f} |"
        for p in points
    ]
    lines += ["", f"Plot: `{args.out.with_suffix('.png').name}` beside this file.", ""]
    return "\n".join(lines)


def plot(points: list[Point], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [p.assets for p in points]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    ingest_ax, walk_ax, search_ax, memory_ax = axes.flat
    ingest_ax.plot(sizes, [1e6 / p.edges_per_s for p in points], marker="o")
    ingest_ax.set_title("ingestion: µs per edge (flat = linear)")
    for depth in DEPTHS:
        walk_ax.plot(sizes, [p.traversal_ms[depth] for p in points], marker="o", label=f"{depth}")
    walk_ax.set_title("lineage read: median ms by depth")
    walk_ax.legend(title="depth")
    for shape in points[0].search_ms:
        search_ax.plot(sizes, [p.search_ms[shape] for p in points], marker="o", label=shape)
    search_ax.set_title("search: median ms by query shape")
    search_ax.legend(fontsize=7)
    memory_ax.plot(sizes, [p.service_rss for p in points], marker="o", label="service RSS")
    memory_ax.plot(sizes, [p.neo4j_rss for p in points], marker="o", label="Neo4j RSS")
    memory_ax.set_title("memory: MiB")
    memory_ax.legend()
    for ax in axes.flat:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("assets")
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
