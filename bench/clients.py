"""Client-library overhead: each official client against the bare HTTP of its own
language, on the same service, the same requests, the same run.

    python -m bench.clients [--runs 21] [--languages python js go java]

Starts Neo4j and the service, seeds a downstream tree under one root (8 children
an asset, to depth 3: 585 assets) through the bulk endpoint, then runs each
`clients/<lang>/bench.sh` that exists with GOVERNANCE_URL, GOVERNANCE_TOKEN,
BENCH_ROOT and BENCH_RUNS. Each times, per run, a `POST /lineage/bulk` of 1,000 new
edges and a downstream traversal of the root at depth 3, through its client and
through bare HTTP (alternating which goes first, after 3 warm-up runs), and prints
one JSON line of samples. Writes bench/RESULTS-clients.md (medians, client / plain
ratio against the target of 1.05) and bench/results/clients.json for bench.report
(with every sample).

Neo4j: NEO4J_URI if set, else a local instance sized like the tests'
(GOVERNANCE_BENCH_NEO4J_NAME/PORT pick it; default "bench-clients" on 17694), left
running with GOVERNANCE_KEEP_TEST_NEO4J=1. The graph is cleared first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.common import (
    ROOT,
    SUMMARIES,
    Figure,
    Service,
    bench_neo4j,
    clear_graph,
    driver_for,
    environment,
    running_service,
    write_summary,
)
from tests.support.neo4j_server import Neo4jTarget

LANGUAGES = ("python", "js", "go", "java")
OPERATIONS = ("bulk", "traversal")
TARGET = 1.05
BENCH_ROOT = "bench.root"
FANOUT = 8
DEPTH = 3
RESULTS = Path(__file__).parent / "RESULTS-clients.md"
LANGUAGE_TIMEOUT_S = 1800


def clients_neo4j() -> contextlib.AbstractContextManager[Neo4jTarget]:
    """NEO4J_URI if set; else a small local instance of its own (the graph here is
    small), named by GOVERNANCE_BENCH_NEO4J_NAME/PORT so as not to meet another's."""
    return bench_neo4j("bench-clients", 17694, memory="1g")


def tree_edges(root: str, fanout: int, depth: int) -> list[dict[str, str]]:
    """A tree under ``root``: ``fanout`` children an asset, ``depth`` levels."""
    edges = []
    level = [root]
    for distance in range(1, depth + 1):
        below = []
        for parent in level:
            for i in range(fanout):
                child = f"{parent}.{i}" if distance > 1 else f"bench.d1.{i}"
                edges.append({"source": parent, "target": child})
                below.append(child)
        level = below
    return edges


def seed(service: Service) -> int:
    edges = tree_edges(BENCH_ROOT, FANOUT, DEPTH)
    with service.client() as http:
        http.post("/lineage/bulk", json=edges).raise_for_status()
        graph = http.get(f"/lineage/{BENCH_ROOT}/downstream", params={"depth": DEPTH}).json()
    return len(graph["nodes"])


def run_language(language: str, service: Service, runs: int) -> dict[str, object]:
    """The samples one language's bench.sh printed, or why there are none."""
    script = ROOT / "clients" / language / "bench.sh"
    env = {
        **os.environ,
        "GOVERNANCE_URL": service.url,
        "GOVERNANCE_TOKEN": service.token,
        "BENCH_ROOT": BENCH_ROOT,
        "BENCH_RUNS": str(runs),
    }
    print(f"== {language}", file=sys.stderr, flush=True)
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["bash", str(script)],
            cwd=script.parent,
            env=env,
            capture_output=True,
            text=True,
            timeout=LANGUAGE_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {LANGUAGE_TIMEOUT_S} s"}
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        tail = "\n".join((done.stderr or done.stdout).splitlines()[-15:])
        return {"error": f"bench.sh exited {done.returncode}:\n{tail}"}
    try:
        samples: dict[str, object] = json.loads(lines[-1])
    except json.JSONDecodeError:
        return {"error": f"the last line is not JSON: {lines[-1][:200]}"}
    samples["seconds"] = round(time.monotonic() - started, 1)
    return samples


def summary(samples: dict[str, object]) -> dict[str, dict[str, float]]:
    """Per operation: the medians, their ratio, and the median of the runs' ratios."""
    found = {}
    for operation in OPERATIONS:
        times = samples[operation]
        assert isinstance(times, dict)
        client, http = times["client_ms"], times["http_ms"]
        paired = [c / h for c, h in zip(client, http, strict=True)]
        found[operation] = {
            "runs": len(client),
            "client_ms": statistics.median(client),
            "http_ms": statistics.median(http),
            "ratio": statistics.median(client) / statistics.median(http),
            "paired_ratio": statistics.median(paired),
        }
    return found


def render(
    results: dict[str, dict[str, object]], nodes: int, env: dict[str, str], runs: int
) -> str:
    lines = [
        "# Client-library overhead",
        "",
        f"- date: {env['date']}",
        f"- machine: {env['machine']}",
        f"- python: {env['python']}",
        f"- graph: a tree of {nodes} assets under `{BENCH_ROOT}` ({FANOUT} children an "
        f"asset, depth {DEPTH}), seeded through `POST /lineage/bulk`",
        f"- runs: {runs} per language after 3 warm-up runs, client and plain HTTP "
        "alternating which goes first",
        "",
        "Each client against the bare HTTP of its language (Python: httpx, as the client "
        "uses; Node: fetch; Go: net/http; Java: java.net.http), with the same body and "
        "headers. Bulk: a `POST /lineage/bulk` of 1,000 new edges (ids "
        "`bench-<lang>-<run>-<i>`, new in every request, so each writes the same amount); "
        "traversal: `GET /lineage/{root}/downstream?depth=3`. The ratio is the client's "
        f"median over plain HTTP's (target <= {TARGET}); paired is the median of each "
        "run's own ratio.",
        "",
        "| language | operation | client ms | plain HTTP ms | client / plain | paired | met |",
        "|---|---|---|---|---|---|---|",
    ]
    failures = []
    for language, samples in results.items():
        if "error" in samples:
            failures.append(f"- {language}: {samples['error']}")
            continue
        for operation, figures in summary(samples).items():
            met = "yes" if figures["ratio"] <= TARGET else "**no**"
            lines.append(
                f"| {language} | {operation} | {figures['client_ms']:.1f} | "
                f"{figures['http_ms']:.1f} | {figures['ratio']:.3f} | "
                f"{figures['paired_ratio']:.3f} | {met} |"
            )
    if failures:
        lines += ["", "Not measured:", "", *failures]
    return "\n".join(lines) + "\n"


def figures(results: dict[str, dict[str, object]]) -> list[Figure]:
    found = []
    for language, samples in results.items():
        if "error" in samples:
            continue
        for operation, numbers in summary(samples).items():
            name = f"{language} {operation}"
            found.append(Figure(f"{name}: client / plain HTTP", numbers["ratio"], "x", "<= 1.05"))
            found.append(Figure(f"{name}: client", numbers["client_ms"], "ms"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--languages", nargs="*", default=list(LANGUAGES))
    args = parser.parse_args()
    present = [lang for lang in args.languages if (ROOT / "clients" / lang / "bench.sh").exists()]
    with clients_neo4j() as target, running_service(target) as service:
        with driver_for(target) as driver:
            clear_graph(driver)
        nodes = seed(service)
        results = {lang: run_language(lang, service, args.runs) for lang in present}
    RESULTS.write_text(render(results, nodes, environment(), args.runs))
    write_summary("clients", RESULTS.name, figures(results))
    # The samples too, for a second look at a ratio (bench.report reads the figures).
    written = SUMMARIES / "clients.json"
    payload = json.loads(written.read_text())
    written.write_text(json.dumps({**payload, "samples": results}, indent=2) + "\n")
    print(RESULTS.read_text())


if __name__ == "__main__":
    main()
