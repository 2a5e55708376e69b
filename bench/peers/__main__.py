"""Side-by-side lineage benchmark: this service against Amundsen's metadata service 3.13,
each on its own local Neo4j 5.26, on the same graphs, in the same run.

    python -m bench.peers [--tables 20000] [--layers 10] [--roots 5] [--samples 10]
                          [--depths 1 3 5 10] [--lattice-hops 12 16 20]
                          [--timeout 30]

Both services are loaded with the same seeded warehouse DAG (ours through POST
/lineage/bulk, Amundsen's Neo4j with direct Cypher in its own model) and asked the same
questions over HTTP, one request at a time and alternating (ours, theirs, ours, ...)
after a warm-up pass: upstream and downstream lineage from sampled tables at each depth.
Then the exploding-paths case: lattices where the top table has 2^hops paths below it,
which Amundsen's path-enumerating statement is given `--timeout` seconds for.
Writes bench/peers/RESULTS.md and bench/peers/latency.png.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import neo4j

from bench.common import Figure, environment, write_summary
from bench.peers import amundsen_service
from bench.peers.amundsen_service import Amundsen, running_amundsen
from bench.peers.amundsen_setup import ensure_venv
from bench.peers.graph import Dag, lattice, lattice_top, sample_roots, warehouse
from bench.peers.report import render, write_plot
from bench.peers.stats import Case, median_ms
from service.localdb import NEO4J_VERSION, LocalNeo4j, default_cache_dir
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, ServiceProcess

HERE = Path(__file__).resolve().parent
CHUNK = 5_000
OUR_LIMIT = 10_000  # the most nodes the service answers with; Amundsen has no cap
SIDES = ("upstream", "downstream")


@contextlib.contextmanager
def local_neo4j(name: str, port: int) -> Iterator[Neo4jTarget]:
    server = LocalNeo4j(default_cache_dir(), name=name, bolt_port=port, heap="1g", pagecache="512m")
    info = server.start()
    try:
        yield Neo4jTarget(info.uri, info.username, info.password, "neo4j", f"local {name}")
    finally:
        if not os.environ.get("GOVERNANCE_KEEP_TEST_NEO4J"):
            server.stop()


@contextlib.contextmanager
def our_service(target: Neo4jTarget) -> Iterator[httpx.Client]:
    # The transaction timeout is Neo4j's own (60 s on the local instances), as on
    # Amundsen's side, rather than the service's 10 s default.
    env = {
        "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
        "GOVERNANCE_RATE_LIMIT_BURST": "100000",
        "GOVERNANCE_QUERY_TIMEOUT": "60",
    }
    with ServiceProcess(target, env, LOGS / "bench-peers-service.log").start(timeout=120) as svc:
        headers = {"Authorization": f"Bearer {svc.admin_token('bench-peers')}"}
        with httpx.Client(base_url=svc.url + "/api/v1", headers=headers, timeout=600) as client:
            yield client


def wipe_ours(target: Neo4jTarget) -> None:
    """Assets and their edges (not the tokens), batched: CALL IN TRANSACTIONS."""
    with (
        neo4j.GraphDatabase.driver(target.uri, auth=(target.username, target.password)) as d,
        d.session() as session,
    ):
        session.run(
            "MATCH (n:Asset) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
        ).consume()


def load_ours(client: httpx.Client, dag: Dag) -> None:
    for start in range(0, len(dag.edges), CHUNK):
        chunk = dag.edges[start : start + CHUNK]
        response = client.post("/lineage/bulk", json=[{"source": s, "target": t} for s, t in chunk])
        if response.status_code != 200:
            raise RuntimeError(f"POST /lineage/bulk: {response.status_code} {response.text[:500]}")


def ask_ours(client: httpx.Client, root: str, side: str, depth: int) -> tuple[float, set[str]]:
    started = time.perf_counter()
    response = client.get(f"/lineage/{root}/{side}", params={"depth": depth, "limit": OUR_LIMIT})
    elapsed = time.perf_counter() - started
    response.raise_for_status()
    tables = {node["id"] for node in response.json()["nodes"]} - {root}
    return elapsed, tables


def ask_theirs(
    client: httpx.Client, amundsen: Amundsen, root: str, side: str, depth: int, timeout: float
) -> tuple[float | None, list[str], str]:
    """Seconds (None when it timed out or failed), the keys of the items, an error."""
    started = time.perf_counter()
    try:
        response = client.get(
            amundsen.lineage_path(root),
            params={"direction": side, "depth": depth},
            timeout=timeout,
        )
    except httpx.TimeoutException:
        return None, [], f"no answer within {timeout:g} s"
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        return None, [], f"HTTP {response.status_code}: {response.text[:200]}"
    items = response.json()[f"{side}_entities"]
    return elapsed, [item["key"] for item in items], ""


def ask_both(
    case: Case,
    root: str,
    ours: httpx.Client,
    theirs: httpx.Client | None,
    amundsen: Amundsen,
    timeout: float,
) -> None:
    """Ours, then theirs unless `theirs` is None or a request of theirs already failed
    in this case (a walk that timed out would only time out again)."""
    seconds, tables = ask_ours(ours, root, case.side, case.depth)
    case.ours.append(seconds)
    case.our_tables.append(len(tables))
    if theirs is None or case.their_errors:
        return
    expected = {amundsen_service.table_key(t) for t in tables}
    record_theirs(
        case, expected, *ask_theirs(theirs, amundsen, root, case.side, case.depth, timeout)
    )


def record_theirs(
    case: Case, expected: set[str], seconds: float | None, keys: list[str], error: str
) -> bool:
    """Count one answer of theirs against the tables ours returned; False if it failed."""
    case.theirs.append(seconds)
    if error:
        case.their_errors.append(error)
        return False
    case.their_items.append(len(keys))
    case.their_tables.append(len(set(keys)))
    case.same_tables &= expected == set(keys)
    return True


def run_case(
    case: Case,
    roots: list[str],
    samples: int,
    ours: httpx.Client,
    theirs: httpx.Client,
    amundsen: Amundsen,
    timeout: float,
) -> None:
    """Alternate ours and theirs, root by root, round after round."""
    for _ in range(samples):
        for root in roots:
            ask_both(case, root, ours, theirs, amundsen, timeout)


def run_exploding(
    case: Case,
    root: str,
    samples: int,
    ours: httpx.Client,
    theirs: httpx.Client,
    amundsen: Amundsen,
    timeout: float,
) -> None:
    """Ours `samples` times first, then theirs: a walk of theirs that the client gave up
    on runs on in their Neo4j until its transaction timeout, and would slow ours down."""
    _, tables = ask_ours(ours, root, case.side, case.depth)  # also the warm-up
    expected = {amundsen_service.table_key(t) for t in tables}
    for _ in range(samples):
        ask_both(case, root, ours, None, amundsen, timeout)
    for _ in range(samples):
        answer = ask_theirs(theirs, amundsen, root, case.side, case.depth, timeout)
        if not record_theirs(case, expected, *answer):
            break


def versions() -> dict[str, str]:
    python = ensure_venv()
    listing = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pins = dict(line.split("==", 1) for line in listing.splitlines() if "==" in line)
    amundsen = ", ".join(
        f"{name} {pins.get(name, '?')}"
        for name in ("amundsen-metadata", "amundsen-common", "Flask", "Werkzeug", "neo4j")
    )
    revision = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=HERE, capture_output=True, text=True
    ).stdout.strip()
    return {
        **environment(),
        "neo4j server": f"{NEO4J_VERSION} community, one instance per service, 1g heap, 512m page cache",
        "ours": f"governance-service {importlib.metadata.version('governance-service')} "
        f"({revision or 'not a git checkout'}), uvicorn (one process)",
        "theirs": f"{amundsen}; gunicorn {pins.get('gunicorn', '?')} (one worker, 4 threads)",
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.peers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tables", type=int, default=20_000, help="tables in the warehouse")
    parser.add_argument("--layers", type=int, default=10, help="layers of the warehouse")
    parser.add_argument("--roots", type=int, default=5, help="sampled roots per direction")
    parser.add_argument("--samples", type=int, default=10, help="rounds over the roots per case")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 3, 5, 10])
    parser.add_argument(
        "--lattice-hops",
        type=int,
        nargs="*",
        default=[12, 16, 20],
        help="lattices with 2^hops paths (none: skip the case)",
    )
    parser.add_argument("--lattice-samples", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=30, help="seconds per Amundsen request")
    parser.add_argument(
        "--ours-name", default=os.environ.get("GOVERNANCE_BENCH_NEO4J_NAME", "bench")
    )
    parser.add_argument(
        "--ours-port", type=int, default=int(os.environ.get("GOVERNANCE_BENCH_NEO4J_PORT", 17695))
    )
    parser.add_argument("--theirs-name", default="peer-amundsen")
    parser.add_argument("--theirs-port", type=int, default=17713)
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    parser.add_argument("--plot", type=Path, default=HERE / "latency.png")
    args = parser.parse_args()

    dag = warehouse(args.tables, args.layers)
    lattices = sorted(set(args.lattice_hops))
    roots = {side: sample_roots(dag, side, args.roots) for side in SIDES}
    print(f"warehouse: {len(dag.tables)} tables in {args.layers} layers, {len(dag.edges)} edges")
    env = versions()
    cases: list[Case] = []
    with (
        local_neo4j(args.ours_name, args.ours_port) as our_db,
        local_neo4j(args.theirs_name, args.theirs_port) as their_db,
    ):
        wipe_ours(our_db)
        amundsen_service.wipe(their_db)
        amundsen_service.load(their_db, dag)
        for hops in lattices:
            amundsen_service.load(their_db, lattice(hops))
        hooks = amundsen_service.check_hooks(their_db, roots["upstream"][0])
        with our_service(our_db) as ours, running_amundsen(their_db) as amundsen:
            load_ours(ours, dag)
            for hops in lattices:
                load_ours(ours, lattice(hops))
            print("loaded both sides", flush=True)
            with httpx.Client(base_url=amundsen.url) as theirs:
                for side in SIDES:  # warm-up: every statement compiled, caches filled
                    for depth in args.depths:
                        warm = Case("warm-up", side, depth)
                        run_case(warm, roots[side][:2], 1, ours, theirs, amundsen, args.timeout)
                for side in SIDES:
                    for depth in args.depths:
                        case = Case("warehouse", side, depth)
                        run_case(
                            case, roots[side], args.samples, ours, theirs, amundsen, args.timeout
                        )
                        cases.append(case)
                        print(case.side, case.depth, "done", flush=True)
                for hops in lattices:
                    case = Case(f"lattice 2^{hops} paths", "upstream", hops)
                    run_exploding(
                        case,
                        lattice_top(hops),
                        args.lattice_samples,
                        ours,
                        theirs,
                        amundsen,
                        args.timeout,
                    )
                    cases.append(case)
                    print(case.graph, "done", flush=True)
                    if case.their_errors:
                        amundsen_service.wait_until_idle(their_db)
    env["load average at end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    report = render(args, dag, roots, cases, env, hooks, args.plot)
    write_plot(cases, args.plot, args.timeout)
    print(report)
    args.out.write_text(report)
    warehouse_cases = [c for c in cases if c.graph == "warehouse" and c.their_times and c.ours]
    write_summary(
        "peers",
        str(args.out.relative_to(HERE.parent)),
        [
            Figure(
                "everyday traversal, worst median ratio ours / Amundsen",
                max(median_ms(c.ours) / median_ms(c.their_times) for c in warehouse_cases),
                "x",
                "<= 1.0",
            ),
            *(
                Figure(
                    f"{c.side} depth {c.depth}, ours / Amundsen",
                    median_ms(c.ours) / median_ms(c.their_times),
                    "x",
                )
                for c in warehouse_cases
            ),
        ],
        [str(args.plot.relative_to(HERE.parent))],
    )


if __name__ == "__main__":
    main()
