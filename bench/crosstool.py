"""Cross-tool lineage: what one asset per physical dataset costs, in one run.

    python -m bench.crosstool [--assets 100000] [--out bench/RESULTS-crosstool.md]

Runs on a local Neo4j of its own (instance `crosstool`, Bolt port 17751, unless
GOVERNANCE_BENCH_NEO4J_NAME/PORT or NEO4J_URI say otherwise), and beside the service
under test runs the service as it was before datasets (commit BEFORE), from a git
worktree in a temporary directory, on the same Neo4j with the same token:

1. OpenLineage ingestion now (each dataset resolved to the asset holding it) against
   the old service (datasets MERGEd as placeholders by id), requests alternating
   between the two, each side on datasets and jobs of its own namespace. Target:
   new / old events/s >= 0.9, the median over pairs of requests.
2. Depth-10 traversals over HTTP on a stitched graph (A: every edge asserted by three
   writers, every asset holding a dataset, one in ten with a former id) against the
   same shape with one writer and no datasets (B), alternating: A / B <= 1.1. And the
   traversal statement now (root looked up through an alias too) against the one
   before, on the raw driver on graph A: new / old <= 1.05.
3. Merging an asset with 10,000 edges and 2,000 column mappings into another:
   `identity.merge_into` in one transaction through `service.graph.Graph`, on fresh
   copies: <= 2 s.
4. SQL: POST /lineage/sql with the TPC-H query logs of tests/fixtures/sql against
   sqlglot's own parse_one + lineage per output column in process, with our parse and
   lineage in process beside them: HTTP / sqlglot >= 0.8.
5. Bulk ingestion (10,000 edges a request) now against the old service, paired as in
   1: new / old >= 0.95.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, LiteralString

import neo4j
import orjson
import sqlglot
from sqlglot import exp
from sqlglot.lineage import lineage as sqlglot_lineage

from bench.common import (
    ROOT,
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
from bench.ingest import prefixed
from bench.lineage import JSON_BODY, chunks, traverse_raw, warehouse
from service import clock, cypher, gc_tuning
from service.domain import sql_plan
from service.domain.datasets import DatasetRef, normalise
from service.domain.lineage import column_key
from service.domain.lineage_pages import page_params
from service.domain.sql.lineage import lineage as our_lineage
from service.domain.sql.statements import Failed, SqlStatement, parse, split_script
from service.graph import Graph
from service.store import identity
from tests.support.neo4j_server import Neo4jTarget
from tests.support.process import LOGS, ServiceProcess

BEFORE = "22c5d4b"  # the last commit before assets held datasets
INSTANCE, PORT = "crosstool", 17751
RATE_LIMITS = {
    "GOVERNANCE_RATE_LIMIT_PER_SECOND": "100000",
    "GOVERNANCE_RATE_LIMIT_BURST": "100000",
}
DEPTH = 10
WRITERS = ("dbt:x", "openlineage:y", "sql:z")
WAREHOUSE_NS = "postgres://warehouse.bench:5432"
FIXTURES = ROOT / "tests" / "fixtures" / "sql"
TARGETS = {
    "openlineage": ">= 0.9",
    "stitched": "<= 1.1",
    "statement": "<= 1.05",
    "merge": "<= 2",
    "sql": ">= 0.8",
    "bulk": ">= 0.95",
}


# --- pairs of requests ----------------------------------------------------------------


@dataclass
class Pairs:
    """Seconds per request of two sides taken alternately (who goes first alternates)."""

    old: list[float] = field(default_factory=list)
    new: list[float] = field(default_factory=list)
    # seconds per request in each named statement, when the sides are services
    old_statements: dict[str, float] = field(default_factory=dict)
    new_statements: dict[str, float] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        """Throughput new / old at the median request: median old / median new seconds."""
        return ratio_of_medians(self.old, self.new)

    @property
    def pair_median(self) -> float:
        """The median over pairs of old seconds / new seconds."""
        return statistics.median(o / n for o, n in zip(self.old, self.new, strict=True))

    @property
    def total_ratio(self) -> float:
        return sum(self.old) / sum(self.new)


def alternate(count: int, old: Callable[[int], object], new: Callable[[int], object]) -> Pairs:
    pairs = Pairs()
    for index in range(count):
        sides = ((old, pairs.old), (new, pairs.new))
        for run, seconds in sides if index % 2 else reversed(sides):
            started = time.perf_counter()
            run(index)
            seconds.append(time.perf_counter() - started)
    return pairs


def ratio_of_medians(top: Sequence[float], bottom: Sequence[float]) -> float:
    return statistics.median(top) / statistics.median(bottom)


# --- the service before this change ---------------------------------------------------


@contextlib.contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """A checkout of `commit` in a temporary directory (`git worktree`: the main
    checkout, its branch and its files are left as they are), removed afterwards."""
    parent = Path(tempfile.mkdtemp(prefix="crosstool-"))
    tree = parent / "old-service"
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "add", "--detach", "--quiet", str(tree), commit], check=True)
    try:
        yield tree
    finally:
        subprocess.run([*git, "remove", "--force", str(tree)], check=False)
        shutil.rmtree(parent, ignore_errors=True)


@contextlib.contextmanager
def service_at(tree: Path, target: Neo4jTarget, token: str) -> Iterator[Service]:
    """`python -m service serve` with the checkout `tree` first on the path (PYTHONSAFEPATH
    keeps the working directory off it), on the same Neo4j and token as the service."""
    env = {**RATE_LIMITS, "PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1"}
    process = ServiceProcess(target, env, LOGS / "crosstool-old-service.log")
    with process.start(timeout=120):
        assert process.process is not None
        yield Service(process.url, token, process.process)


def serves_sql(service: Service) -> bool:
    """Whether the service has POST /lineage/sql: tells the old code from the new."""
    with service.client() as client:
        paths = client.get("/openapi.json").raise_for_status().json()["paths"]
    return any(path.endswith("/lineage/sql") for path in paths)


STATEMENT_METRIC = "governance_neo4j_statement_duration_seconds"


def statement_totals(metrics: str) -> dict[str, float]:
    """Seconds spent in each named statement so far, from a Prometheus text page."""
    found: dict[str, float] = {}
    prefix = STATEMENT_METRIC + '_sum{statement="'
    for line in metrics.splitlines():
        if line.startswith(prefix):
            name, _, rest = line.removeprefix(prefix).partition('"')
            found[name] = float(rest.rsplit(" ", 1)[1])
    return found


def scrape(service: Service) -> dict[str, float]:
    with service.client() as client:
        return statement_totals(client.get(service.url + "/metrics").raise_for_status().text)


def spent(before: dict[str, float], after: dict[str, float], requests: int) -> dict[str, float]:
    """Seconds per request in each statement between two scrapes."""
    return {name: (after[name] - before.get(name, 0.0)) / requests for name in after}


# --- 1. OpenLineage -------------------------------------------------------------------

SOURCES = 300
JOBS = 50
COLUMNS = {"id": ("id",), "amount": ("amount", "amount"), "name": ("name",), "ts": ("ts",)}
PRODUCER = "https://github.com/OpenLineage/OpenLineage/tree/1.20.0/integration/spark"
SCHEMA_URL = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def ol_event(namespace: str, job_namespace: str, n: int) -> dict[str, Any]:
    """The n-th COMPLETE event of a side: job n % 50 writes `derived.t<n>` from a raw
    table and an earlier output (2 inputs, 1 output, 5 column mappings, a schema and
    the SQL), so about half of its inputs are datasets an earlier event made."""
    source = f"analytics.raw.s{n % SOURCES:04d}"
    earlier = f"analytics.derived.t{n * 7 // 10:06d}" if n else "analytics.raw.s9999"
    output = f"analytics.derived.t{n:06d}"
    feeds = {"id": (source,), "amount": (source, earlier), "name": (earlier,), "ts": (source,)}
    column_lineage = {
        column: {
            "inputFields": [
                {
                    "namespace": namespace,
                    "name": table,
                    "field": column,
                    "transformations": [{"type": "DIRECT", "subtype": "IDENTITY"}],
                }
                for table in tables
            ]
        }
        for column, tables in feeds.items()
    }
    schema = [{"name": c, "type": "bigint" if c in ("id", "amount") else "text"} for c in feeds]
    facet = {"_producer": PRODUCER, "_schemaURL": SCHEMA_URL}
    sql = f"INSERT INTO {output} SELECT * FROM {source}"  # noqa: S608 (a facet's text)
    return {
        "eventType": "COMPLETE",
        "eventTime": (EPOCH + timedelta(seconds=n)).isoformat(),
        "producer": PRODUCER,
        "schemaURL": SCHEMA_URL,
        "run": {"runId": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{job_namespace}/{n}"))},
        "job": {
            "namespace": job_namespace,
            "name": f"etl.job_{n % JOBS:02d}",
            "facets": {"sql": {**facet, "query": sql}},
        },
        "inputs": [
            {"namespace": namespace, "name": source},
            {"namespace": namespace, "name": earlier},
        ],
        "outputs": [
            {
                "namespace": namespace,
                "name": output,
                "facets": {
                    "schema": {**facet, "fields": schema},
                    "columnLineage": {**facet, "fields": column_lineage},
                },
            }
        ],
    }


def ol_bodies(side: str, requests: int, events: int) -> list[bytes]:
    namespace = f"postgres://{side}.bench:5432"
    return [
        orjson.dumps([ol_event(namespace, f"bench-{side}", r * events + i) for i in range(events)])
        for r in range(requests)
    ]


# Run with a checkout first on the path: the service's own work on one request's body
# before it writes (validating the events, folding them into a plan), median of 7.
PLANNING = """
import statistics, sys, time
import orjson
from service.domain import openlineage
from service.gc_tuning import tune_for_serving
events = orjson.loads(sys.stdin.buffer.read())
tune_for_serving()
samples = []
for _ in range(7):
    started = time.perf_counter()
    openlineage.plan_events(openlineage.parse_events(events, len(events)), 10**9)
    samples.append(time.perf_counter() - started)
print(statistics.median(samples))
"""


def planning_seconds(tree: Path, body: bytes) -> float:
    """parse_events + plan_events on `body` with the code of checkout `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1"}
    done = subprocess.run(
        [sys.executable, "-c", PLANNING], input=body, env=env, capture_output=True, check=True
    )
    return float(done.stdout)


def post_all(service: Service, path: str, bodies: list[bytes]) -> Callable[[int], None]:
    client = service.client()

    def post(index: int) -> None:
        response = client.post(path, content=bodies[index], headers=JSON_BODY)
        if response.status_code != 200:
            raise RuntimeError(f"{service.url}{path}: {response.status_code} {response.text}")

    return post


def paired_posts(
    old: Service, new: Service, path: str, bodies: dict[str, list[bytes]], warm: int
) -> Pairs:
    """The first `warm` bodies of each side untimed, then the rest paired; each side's
    seconds per request in each named statement (from its /metrics) over the rest."""
    post_old, post_new = post_all(old, path, bodies["old"]), post_all(new, path, bodies["new"])
    for index in range(warm):
        post_old(index)
        post_new(index)
    before = scrape(old), scrape(new)
    count = len(bodies["old"]) - warm
    pairs = alternate(count, lambda i: post_old(warm + i), lambda i: post_new(warm + i))
    pairs.old_statements = spent(before[0], scrape(old), count)
    pairs.new_statements = spent(before[1], scrape(new), count)
    return pairs


# --- 2. traversal over a stitched graph -----------------------------------------------


@dataclass(frozen=True)
class Shape:
    """How the same warehouse DAG is written: by how many writers, with datasets or
    not, and one asset in `alias_every` with a former id (0: none)."""

    prefix: str
    writers: tuple[str, ...]
    datasets: bool
    alias_every: int


STITCHED = Shape("a.", WRITERS, True, 10)
PLAIN = Shape("b.", ("api",), False, 0)


def asset_rows(shape: Shape, names: Sequence[str], now: str) -> list[dict[str, Any]]:
    rows = []
    for index, name in enumerate(names):
        row: dict[str, Any] = {
            "id": shape.prefix + name,
            "name": name,
            "type": "table",
            "placeholder": False,
            "version": 1,
            "owners": [],
            "tags": [],
            "created_at": now,
            "updated_at": now,
        }
        if shape.datasets:
            ref = normalise(WAREHOUSE_NS, f"analytics.{name}")
            row |= {"dataset_namespace": ref.namespace, "dataset_name": ref.name}
            row["dataset_key"] = ref.key
        if shape.alias_every and index % shape.alias_every == 0:
            row["aliases"] = [alias_of(shape, name)]
        rows.append(row)
    return rows


def alias_of(shape: Shape, name: str) -> str:
    return f"{shape.prefix}legacy.{name}"


CREATE_ASSETS = "UNWIND $rows AS row CREATE (a:Asset) SET a = row"
CREATE_ALIASES = """
UNWIND $rows AS row
MATCH (a:Asset {id: row[1]})
CREATE (:AssetAlias {id: row[0]})-[:ALIAS_OF]->(a)
"""
CREATE_EDGES = """
UNWIND $rows AS row
MATCH (s:Asset {id: row[0]})
MATCH (t:Asset {id: row[1]})
CREATE (s)-[:LINEAGE {origins: $origins, created_at: $now, updated_at: $now}]->(t)
"""
BATCH = 10_000


def in_batches(
    driver: neo4j.Driver, statement: LiteralString, rows: Sequence[Any], **params: Any
) -> None:
    """`statement` over `rows`, 10,000 a transaction."""

    def write(tx: neo4j.ManagedTransaction, batch: Sequence[Any]) -> None:
        tx.run(statement, rows=batch, **params).consume()

    with driver.session() as session:
        for start in range(0, len(rows), BATCH):
            session.execute_write(write, rows[start : start + BATCH])


def load_shape(driver: neo4j.Driver, shape: Shape, edges: list[tuple[str, str]]) -> int:
    """The DAG written as `shape` says, with the raw driver; the assets made."""
    now = clock.now_iso()
    names = sorted({s for s, _ in edges} | {t for _, t in edges})
    rows = asset_rows(shape, names, now)
    in_batches(driver, CREATE_ASSETS, rows)
    aliases = [[alias, row["id"]] for row in rows for alias in row.get("aliases", ())]
    in_batches(driver, CREATE_ALIASES, aliases)
    pairs = [[shape.prefix + s, shape.prefix + t] for s, t in edges]
    in_batches(driver, CREATE_EDGES, pairs, origins=list(shape.writers), now=now)
    return len(rows)


@dataclass
class RootTimes:
    """One root in one direction: seconds of each side's requests, answer sizes."""

    root: str
    side: str
    a: list[float] = field(default_factory=list)
    b: list[float] = field(default_factory=list)
    nodes: int = 0

    @property
    def ratio(self) -> float:
        return ratio_of_medians(self.a, self.b)


def http_walk(client: LeanClient, asset_id: str, side: str) -> int:
    status, body = client.get(f"/lineage/{asset_id}/{side}?depth={DEPTH}")
    assert status == 200, body
    return len(orjson.loads(body)["nodes"])


def stitched_against_plain(service: Service, roots: list[str], samples: int) -> list[RootTimes]:
    """A (STITCHED) and B (PLAIN) from the same root name, request by request."""
    results = []
    with service.lean_client() as client:
        for side in ("downstream", "upstream"):
            for root in roots:
                times = RootTimes(root, side)
                a_id, b_id = STITCHED.prefix + root, PLAIN.prefix + root
                nodes = {http_walk(client, a_id, side), http_walk(client, b_id, side)}
                assert len(nodes) == 1, (root, side, nodes)  # the same answer's size
                times.nodes = nodes.pop()
                for sample in range(samples):
                    runs = ((a_id, times.a), (b_id, times.b))
                    for asset_id, seconds in runs if sample % 2 else reversed(runs):
                        started = time.perf_counter()
                        http_walk(client, asset_id, side)
                        seconds.append(time.perf_counter() - started)
                results.append(times)
    return results


Statement = tuple[cypher.Queries, str]  # a traversal statement and the graph's id prefix


def raw_against(
    driver: neo4j.Driver, a: Statement, b: Statement, roots: list[str], samples: int
) -> list[RootTimes]:
    """Two traversal statements (or one on two graphs), raw driver, auto-commit,
    alternating; their answers checked to be the same size."""
    results = []
    for side in ("downstream", "upstream"):
        for root in roots:
            times = RootTimes(root, side)
            runs = ((a, times.a), (b, times.b))
            counts = {
                traverse_raw(driver, q, prefix + root, side, DEPTH) for (q, prefix), _ in runs
            }
            assert len(counts) == 1, (root, side, counts)
            times.nodes = counts.pop()
            for sample in range(samples):
                for (queries, prefix), seconds in runs if sample % 2 else reversed(runs):
                    started = time.perf_counter()
                    traverse_raw(driver, queries, prefix + root, side, DEPTH)
                    seconds.append(time.perf_counter() - started)
            results.append(times)
    return results


def db_hits(plan: Any) -> int:
    """Every operator's database hits in a PROFILE's plan."""
    if plan is None:
        return 0
    own = int(plan.get("dbHits", 0))
    return own + sum(db_hits(child) for child in plan.get("children", ()))


def profiled_hits(driver: neo4j.Driver, queries: cypher.Queries, asset_id: str, side: str) -> int:
    statement = "PROFILE " + queries["lineage.traverse"].statement({"depth": DEPTH})
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
        result = session.run(
            statement,
            id=asset_id,
            **page_params(2000),
            downstream=side == "downstream",
            upstream=side == "upstream",
            now=clock.now_iso(),
        )
        return db_hits(result.consume().profile)


# --- 3. merging -----------------------------------------------------------------------

NEIGHBOURS = 5_000  # upstream and as many downstream
SHARED = 500  # neighbours `into` already has an edge with, each way
MERGED_COLUMNS = 100  # each with 10 mappings in and 10 out: 2,000
INTO_COLUMNS = 50
FANOUT = 10

CREATE_COLUMNS = """
UNWIND $rows AS row
MATCH (a:Asset {id: row[0]})
CREATE (a)-[:HAS_COLUMN]->(:Column {key: row[2], asset: row[0], name: row[1]})
"""
CREATE_MAPPINGS = """
UNWIND $rows AS row
MATCH (s:Column {key: row[0]})
MATCH (t:Column {key: row[1]})
CREATE (s)-[:COLUMN_LINEAGE {origins: $origins, created_at: $now, updated_at: $now}]->(t)
"""


@dataclass(frozen=True)
class MergeCopy:
    """An asset `from` with 5,000 edges in, 5,000 out and 2,000 column mappings, and
    the asset `into` it is merged into (which already shares 1,000 of those edges
    and half the columns, so both the create and the join paths run)."""

    prefix: str

    @property
    def source(self) -> str:
        return self.prefix + "from"

    @property
    def into(self) -> str:
        return self.prefix + "into"

    def up(self, i: int) -> str:
        return f"{self.prefix}up{i:05d}"

    def down(self, i: int) -> str:
        return f"{self.prefix}down{i:05d}"

    def assets(self) -> list[str]:
        ups = [self.up(i) for i in range(NEIGHBOURS)]
        return [self.source, self.into, *ups, *(self.down(i) for i in range(NEIGHBOURS))]

    def edges(self) -> tuple[list[list[str]], list[list[str]]]:
        """(edges of `from`, edges `into` already has)."""
        moved = [[self.up(i), self.source] for i in range(NEIGHBOURS)]
        moved += [[self.source, self.down(i)] for i in range(NEIGHBOURS)]
        kept = [[self.up(i), self.into] for i in range(SHARED)]
        kept += [[self.into, self.down(i)] for i in range(SHARED)]
        return moved, kept

    def columns(self) -> list[list[str]]:
        """[asset, name, key] of every column node."""
        found: list[tuple[str, str]] = []
        for c in range(MERGED_COLUMNS):
            name = f"c{c:03d}"
            found.append((self.source, name))
            found += [(self.up(c * FANOUT + r), name) for r in range(FANOUT)]
            found += [(self.down(c * FANOUT + r), name) for r in range(FANOUT)]
        found += [(self.into, f"c{c:03d}") for c in range(INTO_COLUMNS)]
        return [[asset, name, column_key(asset, name)] for asset, name in found]

    def mappings(self) -> list[list[str]]:
        rows = []
        for c in range(MERGED_COLUMNS):
            name = f"c{c:03d}"
            mine = column_key(self.source, name)
            for r in range(FANOUT):
                rows.append([column_key(self.up(c * FANOUT + r), name), mine])
                rows.append([mine, column_key(self.down(c * FANOUT + r), name)])
        return rows


def build_copy(driver: neo4j.Driver, copy: MergeCopy) -> None:
    now = clock.now_iso()
    shape = Shape("", ("dbt:x",), False, 0)  # the copy's ids carry its prefix already
    in_batches(driver, CREATE_ASSETS, asset_rows(shape, copy.assets(), now))
    moved, kept = copy.edges()
    in_batches(driver, CREATE_EDGES, moved, origins=["dbt:x"], now=now)
    in_batches(driver, CREATE_EDGES, kept, origins=["openlineage:y"], now=now)
    in_batches(driver, CREATE_COLUMNS, copy.columns())
    in_batches(driver, CREATE_MAPPINGS, copy.mappings(), origins=["dbt:x"], now=now)


@dataclass
class Recorder:
    """A `service.graph.Observer` that adds up each named statement's seconds."""

    seconds: dict[str, float] = field(default_factory=dict)

    def statement(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    def driver_error(self, exc: Exception) -> None:
        pass


@dataclass
class Merge:
    seconds: float
    result: identity.MergeResult
    statements: dict[str, float]

    @property
    def rest(self) -> float:
        return self.seconds - sum(self.statements.values())


# The least moving the same edges can cost: CREATE and DELETE, no MERGE, no columns.
MOVE_EDGES = """
MATCH (f:Asset {id: $from})
MATCH (i:Asset {id: $into})
CALL (f, i) {
  MATCH (f)-[r:LINEAGE]->(t) WHERE t <> i
  CREATE (i)-[n:LINEAGE]->(t) SET n = properties(r)
  DELETE r
  RETURN count(*) AS outgoing
}
CALL (f, i) {
  MATCH (s)-[r:LINEAGE]->(f) WHERE s <> i
  CREATE (s)-[n:LINEAGE]->(i) SET n = properties(r)
  DELETE r
  RETURN count(*) AS incoming
}
RETURN outgoing + incoming AS moved
"""


def timed_move(driver: neo4j.Driver, copy: MergeCopy) -> tuple[float, float]:
    """(seconds of the statement, seconds of the commit) moving `from`'s edges to `into`."""
    with driver.session() as session, session.begin_transaction() as tx:
        started = time.perf_counter()
        moved = tx.run(MOVE_EDGES, {"from": copy.source, "into": copy.into}).single(strict=True)
        assert moved["moved"] == 2 * NEIGHBOURS, moved
        ran = time.perf_counter()
        tx.commit()
        return ran - started, time.perf_counter() - ran


async def timed_merge(target: Neo4jTarget, copy: MergeCopy) -> Merge:
    driver = neo4j.AsyncGraphDatabase.driver(
        target.uri, auth=(target.username, target.password), notifications_min_severity="OFF"
    )
    recorder = Recorder()
    graph = Graph(driver, cypher.load(), target.database, timeout_s=120.0, observer=recorder)
    try:
        await graph.ping()
        recorder.seconds.clear()
        started = time.perf_counter()
        result = await graph.write_tx(
            lambda tx: identity.merge_into(tx, copy.source, copy.into, "bench")
        )
        return Merge(time.perf_counter() - started, result, recorder.seconds)
    finally:
        await graph.close()


# --- 4. SQL ---------------------------------------------------------------------------

TPCH: dict[str, tuple[str, ...]] = {
    "region": ("r_regionkey", "r_name", "r_comment"),
    "nation": ("n_nationkey", "n_name", "n_regionkey", "n_comment"),
    "part": (
        "p_partkey", "p_name", "p_mfgr", "p_brand", "p_type", "p_size", "p_container",
        "p_retailprice", "p_comment",
    ),
    "supplier": (
        "s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone", "s_acctbal", "s_comment",
    ),
    "partsupp": ("ps_partkey", "ps_suppkey", "ps_availqty", "ps_supplycost", "ps_comment"),
    "customer": (
        "c_custkey", "c_name", "c_address", "c_nationkey", "c_phone", "c_acctbal",
        "c_mktsegment", "c_comment",
    ),
    "orders": (
        "o_orderkey", "o_custkey", "o_orderstatus", "o_totalprice", "o_orderdate",
        "o_orderpriority", "o_clerk", "o_shippriority", "o_comment",
    ),
    "lineitem": (
        "l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity",
        "l_extendedprice", "l_discount", "l_tax", "l_returnflag", "l_linestatus",
        "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode",
        "l_comment",
    ),
}  # fmt: skip


@dataclass(frozen=True)
class QueryLog:
    """A fixture's statements as a query log, with what POST /lineage/sql is told."""

    dialect: str
    namespace: str
    database: str
    schema: str
    source: str
    statements: tuple[str, ...]

    def tables(self) -> dict[str, DatasetRef]:
        """The TPC-H tables' datasets, by table."""
        return {t: normalise(self.namespace, f"{self.database}.{self.schema}.{t}") for t in TPCH}

    def sqlglot_schema(self) -> dict[str, Any]:
        """The TPC-H tables as sqlglot's MappingSchema takes them: catalog, db, table."""
        columns = {t: dict.fromkeys(cs, "VARCHAR") for t, cs in TPCH.items()}
        return {self.database: {self.schema: columns}}

    def body(self) -> dict[str, Any]:
        return {
            "dialect": self.dialect,
            "namespace": self.namespace,
            "default_database": self.database,
            "default_schema": self.schema,
            "source": self.source,
            "statements": [{"sql": s} for s in self.statements],
        }


def query_logs(repeat: int) -> list[QueryLog]:
    """The two TPC-H fixtures, each statement `repeat` times (a pipeline's runs)."""
    found = []
    for file, dialect, namespace, database, schema, source in (
        ("tpch_snowflake.sql", "snowflake", "snowflake://acme-prod", "TPCH", "RAW", "sf-log"),
        ("tpch_postgres.sql", "postgres", "postgres://warehouse.internal", "tpch", "public", "pg"),
    ):
        pieces = split_script((FIXTURES / file).read_text(), dialect)
        statements = tuple(s.sql for s in pieces) * repeat
        found.append(QueryLog(dialect, namespace, database, schema, source, statements))
    return found


def query_of(expression: exp.Expr) -> exp.Query | None:
    """The query whose output columns a statement writes (or yields): the statement
    itself, or the query of an INSERT or CREATE ... AS; None for the rest."""
    if isinstance(expression, exp.Query):
        return expression
    inner = expression.args.get("expression")
    return inner if isinstance(inner, exp.Query) else None


@dataclass
class SqlglotCount:
    statements: int = 0
    columns: int = 0
    failures: list[str] = field(default_factory=list)  # what sqlglot said, per statement


def sqlglot_pass(log: QueryLog, schema: dict[str, Any], per_column: bool = True) -> SqlglotCount:
    """sqlglot alone: parse_one each statement, then lineage() for each output column of
    its query (or, `per_column` False, lineage(None, ...) for all of them at once)."""
    count = SqlglotCount()
    qualify = {"dialect": log.dialect, "catalog": log.database, "db": log.schema}
    for sql in log.statements:
        count.statements += 1
        try:
            query = query_of(sqlglot.parse_one(sql, dialect=log.dialect))
        except sqlglot.errors.SqlglotError as exc:
            count.failures.append(_first_line(exc))
            continue
        if query is None:
            continue
        names = query.named_selects
        count.columns += len(names)
        try:
            if per_column:
                for name in names:
                    sqlglot_lineage(name, query, schema, **qualify)
            else:
                sqlglot_lineage(None, query, schema, **qualify)
        except Exception as exc:  # sqlglot raises more than SqlglotError on what it cannot trace
            count.failures.append(_first_line(exc))
    return count


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0][:160] if lines else ''}"


def ours_pass(log: QueryLog, stored: dict[str, list[str]]) -> sql_plan.SqlPlan:
    """What POST /lineage/sql does before it writes: parse, name the datasets, trace
    the columns with the stored columns, fold into one plan."""
    statements = [SqlStatement(s) for s in log.statements]
    read = parse(statements, log.dialect, log.database, log.schema)
    namespace = normalise(log.namespace, "_").namespace
    tables, refused = sql_plan.datasets_of(namespace, sql_plan.table_names(read))
    schema = sql_plan.schema_for(tables, stored)
    outcomes: list[Any] = []
    for item in read:
        if isinstance(item, Failed) or item.target is None:
            outcomes.append(item)
        else:
            outcomes.append(sql_plan.unnamable(item, refused) or our_lineage(item, schema))
    return sql_plan.fold(sql_plan.ORIGIN_PREFIX + log.source, statements, outcomes, tables)


def seed_tpch(service: Service, logs: list[QueryLog]) -> dict[str, list[str]]:
    """The TPC-H tables as assets holding their datasets, with columns (what POST
    /lineage/sql reads to expand `*` and bind columns); their stored columns by key."""
    stored: dict[str, list[str]] = {}
    with service.client() as client:
        for log in logs:
            for table, ref in log.tables().items():
                body = {
                    "id": f"tpch.{log.dialect}.{table}",
                    "name": table,
                    "type": "table",
                    "dataset": {"namespace": ref.namespace, "name": ref.name},
                    "columns": [{"name": c} for c in TPCH[table]],
                }
                client.post("/assets", json=body).raise_for_status()
                stored[ref.key] = list(TPCH[table])
    return stored


@dataclass
class SqlTimes:
    sqlglot: list[float] = field(default_factory=list)
    sqlglot_at_once: list[float] = field(default_factory=list)
    ours: list[float] = field(default_factory=list)
    http: list[float] = field(default_factory=list)
    statements: int = 0
    with_lineage: int = 0
    columns: int = 0
    sqlglot_failures: list[str] = field(default_factory=list)


def measure_sql(service: Service, logs: list[QueryLog], passes: int) -> SqlTimes:
    """Each pass: sqlglot per column, sqlglot all columns at once, ours in process, ours
    over HTTP. In process under the service's own collector settings, with what this
    process holds already frozen out of the collector's way, as the service's is."""
    gc_tuning.tune_for_serving()
    stored = seed_tpch(service, logs)
    schemas = [log.sqlglot_schema() for log in logs]
    bodies = [orjson.dumps(log.body()) for log in logs]
    times = SqlTimes(statements=sum(len(log.statements) for log in logs))
    with service.client() as client:

        def http() -> int:
            found = 0
            for body in bodies:
                response = client.post("/lineage/sql", content=body, headers=JSON_BODY)
                answer = response.raise_for_status().json()
                assert not answer["failures"], answer["failures"]
                found += answer["statements"]["with_lineage"]
            return found

        def timed(work: Callable[[], object], into: list[float]) -> None:
            started = time.perf_counter()
            work()
            into.append(time.perf_counter() - started)

        for rep in range(passes + 1):  # the first of each is a warm-up
            runs: list[tuple[Callable[[], object], list[float]]] = [
                (lambda: [sqlglot_pass(g, s) for g, s in zip(logs, schemas, strict=True)], times.sqlglot),
                (lambda: [sqlglot_pass(g, s, False) for g, s in zip(logs, schemas, strict=True)], times.sqlglot_at_once),
                (lambda: [ours_pass(g, stored) for g in logs], times.ours),
                (http, times.http),
            ]  # fmt: skip
            for work, into in runs:
                timed(work, into)
                if not rep:
                    into.clear()
        counts = [sqlglot_pass(g, s) for g, s in zip(logs, schemas, strict=True)]
        times.columns = sum(c.columns for c in counts)
        times.sqlglot_failures = [f for c in counts for f in c.failures]
        times.with_lineage = sum(ours_pass(g, stored).with_lineage for g in logs)
        assert http() == times.with_lineage
    return times


# --- the graph between parts ----------------------------------------------------------

# 10,000 a transaction: this benchmark's edges carry no SQL, so a batch stays small.
CLEAR = (
    "MATCH (n:Column) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
    "MATCH (n:Asset) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
    "MATCH (n:AssetAlias) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
    "MATCH (n:DatasetSchema) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
    "MATCH (n:OpenLineageRun) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
    "MATCH (n:Event) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
)


def clear_all(driver: neo4j.Driver) -> None:
    """What this benchmark writes (assets, columns, aliases, schemas, runs, events), then
    bench.common.clear_graph's sweep of assets, which finds none left."""
    with driver.session() as session:
        for statement in CLEAR:
            while session.run(statement).single(strict=True)["deleted"]:
                pass
    clear_graph(driver)


# --- main -----------------------------------------------------------------------------


@dataclass
class Results:
    assets: int = 0
    edges: int = 0
    load_s: float = 0.0
    openlineage: Pairs = field(default_factory=Pairs)
    ol_events: int = 0
    planning: tuple[float, float] = (0.0, 0.0)  # parse + plan of one request, now and before
    bulk: Pairs = field(default_factory=Pairs)
    stitched: list[RootTimes] = field(default_factory=list)
    statement: list[RootTimes] = field(default_factory=list)
    raw_stitched: list[RootTimes] = field(default_factory=list)  # A / B, raw driver
    hits: dict[str, tuple[int, int]] = field(default_factory=dict)  # new, old
    merges: list[Merge] = field(default_factory=list)
    moves: list[tuple[float, float]] = field(default_factory=list)  # statement, commit
    sql: SqlTimes = field(default_factory=SqlTimes)
    phases: dict[str, float] = field(default_factory=dict)

    @property
    def merge_s(self) -> float:
        return statistics.median(m.seconds for m in self.merges)


@contextlib.contextmanager
def phase(results: Results, name: str) -> Iterator[None]:
    print(f"{name} ...", flush=True)
    started = time.perf_counter()
    yield
    results.phases[name] = time.perf_counter() - started
    print(f"{name}: {results.phases[name]:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--assets", type=int, default=100_000, help="per traversal graph")
    parser.add_argument("--layers", type=int, default=20)
    parser.add_argument("--roots", type=int, default=20)
    parser.add_argument("--samples", type=int, default=10, help="per root, side and variant")
    parser.add_argument("--ol-requests", type=int, default=20)
    parser.add_argument("--ol-events", type=int, default=500)
    parser.add_argument("--bulk-requests", type=int, default=25)
    parser.add_argument("--merges", type=int, default=5)
    parser.add_argument("--sql-passes", type=int, default=5)
    parser.add_argument("--sql-repeat", type=int, default=4, help="copies of each statement")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "RESULTS-crosstool.md")
    args = parser.parse_args()
    os.environ.setdefault("GOVERNANCE_BENCH_NEO4J_NAME", INSTANCE)
    os.environ.setdefault("GOVERNANCE_BENCH_NEO4J_PORT", str(PORT))
    # A cold Neo4j on two busy cores can take more than the default 10 s over its first
    # statements (the admin token's); no measured request comes near either bound.
    os.environ.setdefault("GOVERNANCE_QUERY_TIMEOUT", "60")
    # Both services share one Neo4j: no background policy rounds or webhook dispatch
    # (whichever process leads them would work for the other side's writes too).
    os.environ.setdefault("GOVERNANCE_POLICY_EVALUATION", "false")
    os.environ.setdefault("GOVERNANCE_WEBHOOK_DISPATCH", "false")

    results = Results()
    started = time.perf_counter()
    with (
        bench_neo4j() as target,
        driver_for(target) as driver,
        worktree(BEFORE) as tree,
        running_service(target) as new,
        service_at(tree, target, new.token) as old,
    ):
        assert serves_sql(new) and not serves_sql(old), "the old service runs the new code"
        with phase(results, "clearing"):
            clear_all(driver)
        run_traversals(args, results, driver, new, tree)
        with phase(results, "merges"):
            for run in range(args.merges + 1):  # the first compiles the statements
                copy = MergeCopy(f"m{run}.")
                build_copy(driver, copy)
                merge = asyncio.run(timed_merge(target, copy))
                floor = MergeCopy(f"f{run}.")
                build_copy(driver, floor)
                move = timed_move(driver, floor)
                print(
                    f"merge {run}: {merge.seconds:.2f} s; bare move {sum(move):.2f} s", flush=True
                )
                if run:
                    results.merges.append(merge)
                    results.moves.append(move)
        with phase(results, "openlineage"):
            bodies = {s: ol_bodies(s, args.ol_requests + 2, args.ol_events) for s in ("old", "new")}
            path = "/lineage/openlineage"
            results.openlineage = paired_posts(old, new, path, bodies, warm=2)
            results.ol_events = args.ol_events
            results.planning = (
                planning_seconds(ROOT, bodies["new"][-1]),
                planning_seconds(tree, bodies["new"][-1]),
            )
        with phase(results, "bulk"):
            # about 3 edges an asset: enough for the requests asked
            edges = warehouse(3_500 * (args.bulk_requests + 1), args.layers, seed=11)
            chosen = list(chunks(edges))[: args.bulk_requests + 1]
            bodies = {
                side: [
                    orjson.dumps([{"source": s, "target": t} for s, t in prefixed(c, f"{side}.")])
                    for c in chosen
                ]
                for side in ("old", "new")
            }
            results.bulk = paired_posts(old, new, "/lineage/bulk", bodies, warm=1)
        with phase(results, "sql"):
            results.sql = measure_sql(new, query_logs(args.sql_repeat), args.sql_passes)
        with phase(results, "clearing"):
            clear_all(driver)  # the next run starts on an empty graph
    results.phases["total"] = time.perf_counter() - started
    report = render(args, results)
    print(report)
    args.out.write_text(report)
    summarise(args, results)


def run_traversals(
    args: argparse.Namespace,
    results: Results,
    driver: neo4j.Driver,
    service: Service,
    tree: Path,
) -> None:
    edges = warehouse(args.assets, args.layers)
    with phase(results, "loading the stitched and plain graphs"):
        results.assets = load_shape(driver, STITCHED, edges)
        load_shape(driver, PLAIN, edges)
        results.edges = len(edges)
    results.load_s = results.phases["loading the stitched and plain graphs"]
    middle = sorted({t for _, t in edges if t.startswith(f"l{args.layers // 2:02d}.")})
    roots = random.Random(7).sample(middle, min(args.roots, len(middle)))
    new, old = cypher.load(), cypher.load(tree / "cypher")
    with phase(results, "traversals"):
        stitched_against_plain(service, roots[:2], 1)  # warm-up
        results.stitched = stitched_against_plain(service, roots, args.samples)
        now, before = (new, STITCHED.prefix), (old, STITCHED.prefix)
        raw_against(driver, now, before, roots[:2], 1)
        results.statement = raw_against(driver, now, before, roots, args.samples)
        results.raw_stitched = raw_against(driver, now, (new, PLAIN.prefix), roots, args.samples)
    for side in ("downstream", "upstream"):  # PROFILE the largest answer's root
        root = max((t for t in results.stitched if t.side == side), key=lambda t: t.nodes).root
        results.hits[side] = (
            profiled_hits(driver, new, STITCHED.prefix + root, side),
            profiled_hits(driver, old, STITCHED.prefix + root, side),
        )
        results.hits[f"A/B {side}"] = (
            results.hits[side][0],
            profiled_hits(driver, new, PLAIN.prefix + root, side),
        )
        if side == "downstream":
            alias = alias_of(STITCHED, root)
            results.hits["by alias"] = (profiled_hits(driver, new, alias, side), 0)


# --- the report -----------------------------------------------------------------------


def by_side(times: list[RootTimes]) -> dict[str, float]:
    """The median over roots of each root's ratio of medians, per direction and overall."""
    found = {
        side: statistics.median(t.ratio for t in times if t.side == side)
        for side in ("downstream", "upstream")
    }
    found["all"] = statistics.median(t.ratio for t in times)
    return found


def rate(count: float, seconds: list[float]) -> float:
    return count / statistics.median(seconds)


def figures(args: argparse.Namespace, r: Results) -> list[Figure]:
    stitched, statement = by_side(r.stitched), by_side(r.statement)
    sql = r.sql
    return [
        Figure("OpenLineage ingest, new / old commit, paired", r.openlineage.ratio, "x", TARGETS["openlineage"]),
        Figure("OpenLineage ingest now", rate(r.ol_events, r.openlineage.new), "events/s"),
        Figure("OpenLineage ingest at the old commit", rate(r.ol_events, r.openlineage.old), "events/s"),
        Figure("depth-10 downstream over HTTP, stitched / plain graph", stitched["downstream"], "x", TARGETS["stitched"]),
        Figure("depth-10 upstream over HTTP, stitched / plain graph", stitched["upstream"], "x", TARGETS["stitched"]),
        Figure("traversal statement now / before, raw driver", statement["all"], "x", TARGETS["statement"]),
        Figure("merge of 10,000 edges and 2,000 column mappings", r.merge_s, "s", TARGETS["merge"]),
        Figure("SQL ingest over HTTP / sqlglot parse + lineage per column", rate(sql.statements, sql.http) / rate(sql.statements, sql.sqlglot), "x", TARGETS["sql"]),
        Figure("SQL ingest over HTTP", rate(sql.statements, sql.http), "statements/s"),
        Figure("SQL parse + lineage in process (ours)", rate(sql.statements, sql.ours), "statements/s"),
        Figure("sqlglot parse_one + lineage per output column", rate(sql.statements, sql.sqlglot), "statements/s"),
        Figure("bulk ingest, new / old commit, paired", r.bulk.ratio, "x", TARGETS["bulk"]),
    ]  # fmt: skip


def summarise(args: argparse.Namespace, r: Results) -> None:
    write_summary("crosstool", args.out.name, figures(args, r))


def _met(figure: Figure) -> str:
    return {True: "met", False: "**not met**", None: ""}[figure.met]


def render(args: argparse.Namespace, r: Results) -> str:
    lines = ["# Cross-tool lineage benchmark", ""]
    lines += [f"- {k}: {v}" for k, v in environment().items()]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines += [
        f"- load average at the end (1, 5, 15 min): {load} (two cores shared by the "
        "client, both services and Neo4j; other work on the machine skews every figure, "
        "the paired ratios least)",
        f"- old side: the service at `{BEFORE}` (before assets held datasets), run from a "
        "git worktree on the same Neo4j, with the same token",
        f"- sqlglot {importlib.metadata.version('sqlglot')}; whole run {r.phases['total'] / 60:.1f} min",
        "",
        "## Headline figures",
        "",
        "| figure | value | target | |",
        "|---|---|---|---|",
    ]
    for f in figures(args, r):
        value = f"{f.value:,.0f}" if abs(f.value) >= 100 else f"{f.value:.2f}"
        lines.append(f"| {f.name} | {value} {f.unit} | {f.target} | {_met(f)} |")
    lines += render_openlineage(args, r) + render_traversal(args, r) + render_merge(args, r)
    lines += render_sql(args, r) + render_bulk(args, r)
    lines += ["## Phases", "", "| phase | seconds |", "|---|---|"]
    lines += [f"| {name} | {seconds:.0f} |" for name, seconds in r.phases.items()]
    lines.append("")
    return "\n".join(lines)


# Statements each process runs on its own schedule, not for a request: the event
# poller behind live streams, leases, token bookkeeping.
BACKGROUND = (
    "events.after",
    "events.last_seq",
    "leases.",
    "policies.",
    "webhooks.",
    "tokens.touch",
)


def _pairs_table(p: Pairs, count: int, unit: str) -> list[str]:
    lines = [
        f"| side | median request | {unit}/s (median) |",
        "|---|---|---|",
        f"| now | {median_ms(p.new):,.0f} ms | {rate(count, p.new):,.0f} |",
        f"| at `{BEFORE}` | {median_ms(p.old):,.0f} ms | {rate(count, p.old):,.0f} |",
        "",
        f"New / old throughput at the median request of {len(p.new)} pairs: **{p.ratio:.2f}** "
        f"(median old seconds / median new seconds). The same pairs read two other ways: "
        f"the median over pairs of old / new seconds {p.pair_median:.2f}, total old / total "
        f"new seconds {p.total_ratio:.2f}; their spread is the noise of a shared machine.",
        "",
        "Where a request's time goes in Neo4j, from each service's "
        "`neo4j_statement_duration_seconds` over the paired requests (ms a request; "
        "statements under 1 ms on both sides left out):",
        "",
        "| statement | now | before |",
        "|---|---|---|",
    ]  # background loops summed in the last row
    names = sorted(set(p.new_statements) | set(p.old_statements))
    for name in (n for n in names if not n.startswith(BACKGROUND)):
        now, before = p.new_statements.get(name, 0.0), p.old_statements.get(name, 0.0)
        if max(now, before) >= 0.001:
            lines.append(f"| {name} | {now * 1000:,.0f} | {before * 1000:,.0f} |")
    background = [n for n in names if n.startswith(BACKGROUND)]
    now = sum(p.new_statements.get(n, 0.0) for n in background)
    before = sum(p.old_statements.get(n, 0.0) for n in background)
    lines += [
        f"| background loops ({', '.join(background)}) | {now * 1000:,.0f} | {before * 1000:,.0f} |",
        "",
    ]
    return lines


def render_openlineage(args: argparse.Namespace, r: Results) -> list[str]:
    return [
        "",
        f"## 1. OpenLineage ingestion: now against `{BEFORE}`",
        "",
        f"{args.ol_requests} paired requests of {args.ol_events} COMPLETE events (after 2 "
        "untimed each), alternating between the services, who goes first alternating too. "
        "Each event: job `etl.job_<n % 50>`, 2 inputs (a raw table and an earlier event's "
        "output), 1 output with a schema facet and 4 columns fed by 5 column mappings, and "
        "the SQL job facet: per request 1,000 edges, 2,500 column mappings and about 500 new "
        "datasets, half the inputs held already. Each side writes datasets and jobs of its "
        "own namespace (`postgres://old.bench:5432`, `postgres://new.bench:5432`). Now each "
        "dataset resolves to its holder (`identity.ensure_datasets`); before, "
        "`lineage.merge_placeholders` made sure of `<namespace>/<name>` by id.",
        "",
        *_pairs_table(r.openlineage, r.ol_events, "events"),
        "The service's own work on a request before it writes, in a process of its own "
        "with the service's collector settings (`parse_events` + `plan_events` on one "
        f"request's body, median of 7): {r.planning[0] * 1000:,.0f} ms now, "
        f"{r.planning[1] * 1000:,.0f} ms before.",
        "",
        f"Target: new / old >= 0.9 ({_met(figures(args, r)[0])}).",
        "",
    ]


def _sides_table(
    times: list[RootTimes], a: str, b: str, target: str = "", size: str = "median nodes"
) -> list[str]:
    ratios = by_side(times)
    lines = [
        f"| direction | {size} | {a} ms | {b} ms | {a} / {b} | target |",
        "|---|---|---|---|---|---|",
    ]
    for side in ("downstream", "upstream"):
        mine = [t for t in times if t.side == side]
        lines.append(
            f"| {side} | {statistics.median(t.nodes for t in mine):.0f} "
            f"| {statistics.median(median_ms(t.a) for t in mine):.1f} "
            f"| {statistics.median(median_ms(t.b) for t in mine):.1f} "
            f"| **{ratios[side]:.2f}** | {target} |"
        )
    lines.append(f"| both | | | | **{ratios['all']:.2f}** | {target} |")
    return [*lines, ""]


RAW_SIZE = "median rows (nodes and edges)"  # what bench.lineage.traverse_raw counts


def render_traversal(args: argparse.Namespace, r: Results) -> list[str]:
    hits = r.hits
    return [
        "## 2. Traversal over a stitched graph",
        "",
        f"{r.assets:,} assets in {args.layers} layers, {r.edges:,} edges (bench.lineage's "
        f"warehouse DAG), written twice with the raw driver in {r.load_s:.0f} s: A, every "
        "edge with origins `['dbt:x', 'openlineage:y', 'sql:z']`, every asset holding a "
        "dataset (`dataset_namespace`, `dataset_name`, `dataset_key`), one in ten with a "
        "former id (`:AssetAlias`); B, origins `['api']`, no datasets, no aliases. "
        f"Depth {DEPTH} from the same {args.roots} roots of the middle layer, {args.samples} "
        "samples per root, direction and graph, alternating request by request (answers "
        "checked to be the same size). Figures: medians over roots of each root's median, "
        "ratios the median over roots of each root's ratio of medians.",
        "",
        "Over HTTP (`GET /lineage/{id}/downstream|upstream?depth=10`), A against B:",
        "",
        *_sides_table(r.stitched, "A", "B", "<= 1.1"),
        "The same on the raw driver (the traversal statement, auto-commit), which says "
        "how much of that is Neo4j's:",
        "",
        *_sides_table(r.raw_stitched, "A", "B", size=RAW_SIZE),
        f"The traversal statement now against the one at `{BEFORE}` "
        "(`cypher/lineage/traverse.cypher` of that commit, loaded from the worktree: no "
        "alias look-up, `n.id <> $id` in place of `n <> root`), raw driver, on graph A:",
        "",
        *_sides_table(r.statement, "now", "before", "<= 1.05", RAW_SIZE),
        "Database hits (PROFILE, the root with the largest answer each way): downstream "
        f"{hits['downstream'][0]:,} now against {hits['downstream'][1]:,} before, upstream "
        f"{hits['upstream'][0]:,} against {hits['upstream'][1]:,}; the same downstream walk "
        f"asked by the root's former id {hits['by alias'][0]:,}. The statement now on A "
        f"against B: downstream {hits['A/B downstream'][0]:,} against "
        f"{hits['A/B downstream'][1]:,}, upstream {hits['A/B upstream'][0]:,} against "
        f"{hits['A/B upstream'][1]:,}.",
        "",
    ]


def render_merge(args: argparse.Namespace, r: Results) -> list[str]:
    last = r.merges[-1].result
    names = sorted({name for m in r.merges for name in m.statements})
    return [
        "## 3. Merging a busy asset",
        "",
        "`identity.merge_into` through `service.graph.Graph`, one write transaction "
        "(lock_pair, merge_edges, merge_columns, merge_node, the `asset.merged` event, "
        f"commit), on {args.merges} fresh copies (after one untimed, which compiles the "
        f"statements) of: an asset with {NEIGHBOURS:,} edges in and {NEIGHBOURS:,} out and "
        f"{MERGED_COLUMNS} columns with {FANOUT} mappings in and {FANOUT} out each (2,000), "
        f"merged into an asset that already has {2 * SHARED:,} of those edges (origins "
        f"joined) and {INTO_COLUMNS} of those columns. Each run moved {last.edges_moved:,} "
        f"edges and {last.columns_moved} columns.",
        "",
        f"Runs: {', '.join(f'{m.seconds:.2f}' for m in r.merges)} s; median "
        f"**{r.merge_s:.2f} s** (target <= 2 s). Where the time goes (medians over the "
        "runs, from the graph's statement observer; the rest is BEGIN, COMMIT and the "
        "driver):",
        "",
        "| statement | ms |",
        "|---|---|",
        *(
            f"| {name} | {statistics.median(m.statements.get(name, 0.0) for m in r.merges) * 1000:,.0f} |"
            for name in names
        ),
        f"| BEGIN, COMMIT, the driver | {statistics.median(m.rest for m in r.merges) * 1000:,.0f} |",
        "",
        "The floor, on fresh copies of the same shape after each run: the raw driver moving "
        "the 10,000 edges with CREATE and DELETE in one transaction (no MERGE, no columns, "
        "no alias; `MOVE_EDGES` in bench/crosstool.py): statement "
        f"{statistics.median(m[0] for m in r.moves) * 1000:,.0f} ms, commit "
        f"{statistics.median(m[1] for m in r.moves) * 1000:,.0f} ms, "
        f"**{statistics.median(sum(m) for m in r.moves):.2f} s** in all (median).",
        "",
    ]


def render_sql(args: argparse.Namespace, r: Results) -> list[str]:
    sql = r.sql
    n = sql.statements
    return [
        "## 4. SQL ingestion against sqlglot",
        "",
        "The TPC-H query logs of `tests/fixtures/sql` (Snowflake and Postgres, split "
        f"by the dialect's tokenizer), each statement {args.sql_repeat} times: {n} "
        f"statements, {sql.with_lineage} of them writing a table. The installed sqlglot "
        "wheel ships no TPC-H or TPC-DS fixtures (its tests are not in the wheel), so these "
        "are the set. The eight TPC-H tables are assets holding their datasets with their "
        "columns, and sqlglot gets the same columns as a schema (catalog, db, table). "
        f"Medians of {args.sql_passes} passes after a warm-up.",
        "",
        "| path | median pass | statements/s |",
        "|---|---|---|",
        f"| sqlglot: parse_one + lineage() per output column ({sql.columns} columns, "
        f"{len(sql.sqlglot_failures)} statements it could not trace) | {median_ms(sql.sqlglot):,.0f} ms "
        f"| {rate(n, sql.sqlglot):,.0f} |",
        f"| sqlglot: parse_one + lineage(None) for all columns at once (reference) "
        f"| {median_ms(sql.sqlglot_at_once):,.0f} ms | {rate(n, sql.sqlglot_at_once):,.0f} |",
        f"| ours in process: parse + lineage + fold (service.domain.sql, sql_plan) "
        f"| {median_ms(sql.ours):,.0f} ms | {rate(n, sql.ours):,.0f} |",
        f"| ours over HTTP: POST /lineage/sql, one request per log, written "
        f"| {median_ms(sql.http):,.0f} ms | {rate(n, sql.http):,.0f} |",
        "",
        f"HTTP / sqlglot per column: **{rate(n, sql.http) / rate(n, sql.sqlglot):.2f}** "
        f"(target >= 0.8); in process / sqlglot {rate(n, sql.ours) / rate(n, sql.sqlglot):.2f}; "
        f"HTTP / in process {rate(n, sql.http) / rate(n, sql.ours):.2f} (the writing, reading "
        "stored columns and the HTTP hop).",
        "",
        "What sqlglot's lineage() raised (each statement once per copy; ours traced them, "
        "with warnings where a column could not be followed):",
        "",
        *(f"- {count} x {message}" for message, count in Counter(sql.sqlglot_failures).items()),
        "",
    ]


def render_bulk(args: argparse.Namespace, r: Results) -> list[str]:
    return [
        f"## 5. Bulk ingestion: now against `{BEFORE}`",
        "",
        f"{args.bulk_requests} paired `POST /lineage/bulk` requests of 10,000 edges (after "
        "one untimed each) from the warehouse DAG, each side on ids of its own (`old.`, "
        "`new.`). Now `lineage.merge_placeholders` also looks up each id it has just "
        "made as a former id (an alias), which must not become an asset of its own.",
        "",
        *_pairs_table(r.bulk, 10_000, "edges"),
        "Target: new / old >= 0.95.",
        "",
    ]


if __name__ == "__main__":
    main()
