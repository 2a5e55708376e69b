"""Where a lineage traversal's time goes inside the service: py-spy samples the service
process while a client sends traversals one at a time, and the top frames by own
time and by total time are printed (and the flame graph written as SVG).

    python -m bench.profile [--assets 20000] [--requests 2000] [--depth 5]

Run it from two checkouts to compare before and after a change.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import neo4j

from bench.common import Service, bench_neo4j, clear_graph, driver_for, running_service
from bench.lineage import CHUNK, ingest_http, ingest_raw, warehouse
from service import cypher


def _top(collapsed: Path, count: int) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """(frames by own time, frames by total time), as shares of all samples."""
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in collapsed.read_text().splitlines():
        stack, _, weight = line.rpartition(" ")
        frames = stack.split(";")
        n = int(weight)
        samples += n
        own[frames[-1]] += n
        for frame in set(frames):
            total[frame] += n
    return (
        [(f, n / samples) for f, n in own.most_common(count)],
        [(f, n / samples) for f, n in total.most_common(count * 3) if "service/" in f][:count],
    )


def _profile_bulk(
    spy: str, service: Service, driver: neo4j.Driver, edges: list[tuple[str, str]], out: Path
) -> None:
    """The whole edge list through POST /lineage/bulk in requests of 10,000, sampled."""
    ingest_http(service, edges[:CHUNK])  # compile the statements
    clear_graph(driver)
    collapsed = out / "bulk.collapsed"
    with _sampling(spy, service, collapsed):
        elapsed = ingest_http(service, edges)
    print(f"{len(edges)} edges in {elapsed:.1f} s: {len(edges) / elapsed:,.0f} edges/s")
    _print_top(collapsed)


@contextlib.contextmanager
def _sampling(spy: str, service: Service, collapsed: Path) -> Iterator[None]:
    process = subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(service.process.pid),
            "--rate",
            "250",
            "--format",
            "raw",
            "--output",
            str(collapsed),
            "--nonblocking",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(60)


def _print_top(collapsed: Path) -> None:
    own, total = _top(collapsed, 15)
    print("\nby own time:")
    for frame, share in own:
        print(f"  {share:6.1%}  {frame}")
    print("\nour code by total time:")
    for frame, share in total:
        print(f"  {share:6.1%}  {frame}")
    print(f"\ncollapsed stacks: {collapsed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--assets", type=int, default=20_000)
    parser.add_argument("--layers", type=int, default=10)
    parser.add_argument("--requests", type=int, default=2_000)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--workload", choices=("traversal", "bulk"), default="traversal")
    parser.add_argument("--out", type=Path, default=Path(".cache/profile"))
    args = parser.parse_args()
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    args.out.mkdir(parents=True, exist_ok=True)
    edges = warehouse(args.assets, args.layers)
    roots = sorted({t for _, t in edges})
    rng = random.Random(7)
    with bench_neo4j() as target, driver_for(target) as driver:
        clear_graph(driver)
        with running_service(target) as service, service.client() as client:
            if args.workload == "bulk":
                _profile_bulk(spy, service, driver, edges, args.out)
                return
            ingest_raw(driver, cypher.load(), edges)  # the service made the indexes
            for root in roots[:50]:  # warm the plan cache and the token memory
                client.get(f"/lineage/{root}/upstream", params={"depth": args.depth})
            collapsed = args.out / "traversal.collapsed"
            with _sampling(spy, service, collapsed):
                started = time.perf_counter()
                for _ in range(args.requests):
                    side = rng.choice(("upstream", "downstream"))
                    root = rng.choice(roots)
                    client.get(f"/lineage/{root}/{side}", params={"depth": args.depth})
                elapsed = time.perf_counter() - started
    per_request = elapsed / args.requests * 1000
    print(f"{args.requests} traversals at depth {args.depth}: {per_request:.2f} ms each")
    _print_top(collapsed)


if __name__ == "__main__":
    main()
