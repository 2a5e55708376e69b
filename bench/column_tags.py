"""Column classification benchmark: tagging one column upstream of N column mappings,
over HTTP (the tag is a PATCH of the asset's columns, and the inheritance settles in
the same transaction, so the answer's time is the settling time), then untagging it.

    python -m bench.column_tags [--reps 5] [--out bench/RESULTS-column-tags.md]

The graph: a root asset with one column feeding a layered DAG of assets, 100 columns
each, every column fed by two columns of the layer before (one mapping in ten a
`transformation`, one in twenty `masking`, the rest `identity`), and a last asset fed
by the last layer to make up the count: 2,500, 5,000 and 10,000 mappings (12, 25 and
50 layers). Median of `--reps` tag/untag pairs after an
untimed one. Target: 10,000 mappings settle in <= 5 s; cost per mapping flat.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import (
    Figure,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    running_service,
    write_summary,
)

WIDTH = 100
SIZES = (2_500, 5_000, 10_000)
ROOT = "bench.root"
# An instance of its own (GOVERNANCE_BENCH_NEO4J_NAME/PORT or NEO4J_URI pick another).
BENCH_NAME, BENCH_PORT = "bench-columns", 17697


def layer(i: int) -> str:
    return f"bench.layer_{i:03d}"


def edges_for(mappings: int, seed: int = 3) -> list[dict[str, Any]]:
    """The root's column into every column of layer 1, then two parents per column."""
    rng = random.Random(seed)
    layers = mappings // (2 * WIDTH)
    items = [
        {
            "source": ROOT,
            "target": layer(1),
            "columns": [
                {"source": "email", "target": f"c{j}", "kind": "identity"} for j in range(WIDTH)
            ],
        }
    ]
    for i in range(1, layers):
        columns = []
        for j in range(WIDTH):
            for parent in rng.sample(range(WIDTH), 2):
                roll = rng.random()
                kind = "masking" if roll < 0.05 else "transformation" if roll < 0.15 else "identity"
                columns.append({"source": f"c{parent}", "target": f"c{j}", "kind": kind})
        items.append({"source": layer(i), "target": layer(i + 1), "columns": columns})
    written = WIDTH + 2 * WIDTH * (layers - 1)
    tail = [
        {"source": f"c{j % WIDTH}", "target": f"t{j}", "kind": "identity"}
        for j in range(mappings - written)
    ]
    if tail:
        items.append({"source": layer(layers), "target": "bench.tail", "columns": tail})
    return items


def root_body(tags: list[str]) -> dict[str, Any]:
    return {"name": "root", "type": "table", "columns": [{"name": "email", "tags": tags}]}


def timed_put(client: httpx.Client, tags: list[str]) -> float:
    started = time.perf_counter()
    client.put(f"/assets/{ROOT}", json=root_body(tags)).raise_for_status()
    return time.perf_counter() - started


def measure(client: httpx.Client, mappings: int, reps: int) -> dict[str, Any]:
    items = edges_for(mappings)
    written = sum(len(item["columns"]) for item in items)
    client.put(f"/assets/{ROOT}", json=root_body([])).raise_for_status()
    client.post("/lineage/bulk", json=items).raise_for_status()
    timed_put(client, ["pii"])  # untimed: warms the plans
    timed_put(client, [])
    tag_s, untag_s = [], []
    for _ in range(reps):
        tag_s.append(timed_put(client, ["pii"]))
        untag_s.append(timed_put(client, []))
    timed_put(client, ["pii"])
    last = layer(mappings // (2 * WIDTH))
    listed = client.get(f"/assets/{last}/columns").raise_for_status().json()["columns"]
    return {
        "mappings": written,
        "tag_s": statistics.median(tag_s),
        "untag_s": statistics.median(untag_s),
        "inheriting_in_last_layer": sum(1 for c in listed if c["inherited"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "RESULTS-column-tags.md"
    )
    args = parser.parse_args()
    results = []
    with (
        bench_neo4j(BENCH_NAME, BENCH_PORT, memory="1g") as target,
        running_service(target) as service,
        driver_for(target) as driver,
        service.client() as client,
    ):
        for size in SIZES:
            clear_graph(driver)
            driver.execute_query("MATCH (c:Column) DETACH DELETE c")
            results.append(measure(client, size, args.reps))
            print(results[-1], flush=True)
    report(args, results)


def report(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    largest = results[-1]
    per_k = [r["tag_s"] * 1000 / (r["mappings"] / 1000) for r in results]
    lines = [
        "# Column classification benchmark",
        "",
        *(f"- {k}: {v}" for k, v in environment().items()),
        f"- median of {args.reps} tag/untag pairs after an untimed one, over HTTP",
        "",
        "| mappings | tag settles (ms) | untag settles (ms) | ms per 1,000 mappings | "
        "last layer columns inheriting |",
        "|---|---|---|---|---|",
        *(
            f"| {r['mappings']:,} | {r['tag_s'] * 1000:.0f} | {r['untag_s'] * 1000:.0f} | "
            f"{k:.0f} | {r['inheriting_in_last_layer']} / {WIDTH} |"
            for r, k in zip(results, per_k, strict=True)
        ),
        "",
        f"Target: 10,000 mappings settle in <= 5 s: {largest['tag_s']:.2f} s. Linear: the cost "
        f"per 1,000 mappings goes {per_k[0]:.0f} -> {per_k[-1]:.0f} ms from the smallest to "
        "the largest graph.",
        "",
    ]
    args.out.write_text("\n".join(lines))
    write_summary(
        "column-tags",
        args.out.name,
        [
            Figure("tag one column upstream of 10,000 mappings", largest["tag_s"], "s", "<= 5"),
            Figure("cost per mapping, largest / smallest", per_k[-1] / per_k[0], "x", "<= 1.5"),
        ],
    )


if __name__ == "__main__":
    main()
