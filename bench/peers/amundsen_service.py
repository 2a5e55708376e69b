"""Amundsen's metadata service as the peer: its Neo4j loaded with Amundsen's own
graph model, and its WSGI app under gunicorn from its own virtualenv.

The model is the one Amundsen's databuilder publishes and its Neo4j proxy reads
(metadata_service/proxy/neo4j_proxy.py): ``Database -[:CLUSTER]-> Cluster -[:SCHEMA]->
Schema -[:TABLE]-> Table``, each with its reverse (``CLUSTER_OF``, ``SCHEMA_OF``,
``TABLE_OF``), nodes keyed by ``key``, and table lineage as a pair of relationships per
edge, ``(source)-[:HAS_DOWNSTREAM]->(target)`` and ``(target)-[:HAS_UPSTREAM]->(source)``,
which its lineage statement walks one or the other of. It is written here with direct
Cypher rather than through the databuilder (a loading tool, not what is measured).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import neo4j

from bench.peers.amundsen_setup import DEFAULT_VENV, ensure_venv, python_of
from bench.peers.graph import Dag
from tests.support.neo4j_server import Neo4jTarget
from tests.support.waiting import eventually

HERE = Path(__file__).resolve().parent
LOGS = HERE.parents[1] / ".cache" / "logs"
DATABASE = "hive"
CLUSTER = "gold"
BATCH = 5_000

# Uniqueness constraints as the databuilder's publisher creates them (they also give
# the lookups by key an index).
CONSTRAINTS = [
    f"CREATE CONSTRAINT amundsen_{label.lower()}_key IF NOT EXISTS "
    f"FOR (n:{label}) REQUIRE n.key IS UNIQUE"
    for label in ("Database", "Cluster", "Schema", "Table")
]
# Deleting in batches keeps a rerun's wipe inside the transaction memory cap.
WIPE = "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
CATALOG = """
MERGE (db:Database {key: 'database://' + $database}) SET db.name = $database
MERGE (cluster:Cluster {key: $database + '://' + $cluster}) SET cluster.name = $cluster
MERGE (db)-[:CLUSTER]->(cluster)
MERGE (cluster)-[:CLUSTER_OF]->(db)
WITH cluster
UNWIND $schemas AS name
MERGE (schema:Schema {key: cluster.key + '.' + name}) SET schema.name = name
MERGE (cluster)-[:SCHEMA]->(schema)
MERGE (schema)-[:SCHEMA_OF]->(cluster)
"""
TABLES = """
UNWIND $tables AS row
MATCH (schema:Schema {key: row.schema})
MERGE (table:Table {key: row.key}) SET table.name = row.name, table.is_view = false
MERGE (schema)-[:TABLE]->(table)
MERGE (table)-[:TABLE_OF]->(schema)
"""
LINEAGE = """
UNWIND $edges AS row
MATCH (source:Table {key: row.source}), (target:Table {key: row.target})
MERGE (source)-[:HAS_DOWNSTREAM]->(target)
MERGE (target)-[:HAS_UPSTREAM]->(source)
"""


def schema_and_table(name: str) -> tuple[str, str]:
    prefix, table = name.rsplit(".", 1)
    return prefix.replace(".", "_"), table


def table_key(name: str) -> str:
    """Amundsen's table key, ``database://cluster.schema/table``, for one of our names."""
    schema, table = schema_and_table(name)
    return f"{DATABASE}://{CLUSTER}.{schema}/{table}"


def wipe(target: Neo4jTarget) -> None:
    # CALL IN TRANSACTIONS needs an implicit transaction: session.run, not execute_query.
    with (
        neo4j.GraphDatabase.driver(target.uri, auth=(target.username, target.password)) as driver,
        driver.session() as session,
    ):
        session.run(WIPE).consume()


def load(target: Neo4jTarget, dag: Dag) -> None:
    """The tables and edges of `dag` in Amundsen's model (added to what is there)."""
    schemas = sorted({schema_and_table(name)[0] for name in dag.tables})
    tables = [
        {
            "key": table_key(name),
            "name": schema_and_table(name)[1],
            "schema": f"{DATABASE}://{CLUSTER}.{schema_and_table(name)[0]}",
        }
        for name in dag.tables
    ]
    edges = [{"source": table_key(s), "target": table_key(t)} for s, t in dag.edges]
    with neo4j.GraphDatabase.driver(target.uri, auth=(target.username, target.password)) as driver:
        for statement in CONSTRAINTS:
            driver.execute_query(statement)
        driver.execute_query(CATALOG, database=DATABASE, cluster=CLUSTER, schemas=schemas)
        for start in range(0, len(tables), BATCH):
            driver.execute_query(TABLES, tables=tables[start : start + BATCH])
        for start in range(0, len(edges), BATCH):
            driver.execute_query(LINEAGE, edges=edges[start : start + BATCH])


# Every transaction but this one: a walk Amundsen's client gave up on still running.
RUNNING = """
SHOW TRANSACTIONS YIELD transactionId, currentQuery
WHERE NOT currentQuery CONTAINS 'SHOW TRANSACTIONS'
RETURN count(*) AS running
"""


def wait_until_idle(target: Neo4jTarget, timeout: float = 120) -> None:
    """Until Amundsen's Neo4j runs no query: a timed-out walk goes on there until the
    transaction timeout (60 s) and would slow whatever is measured next."""

    def idle() -> bool:
        with (
            neo4j.GraphDatabase.driver(target.uri, auth=(target.username, target.password)) as d,
            d.session() as session,
        ):
            running: int = session.run(RUNNING).single(strict=True)["running"]
            return running == 0

    eventually(idle, timeout=timeout, interval=1, what="Amundsen's Neo4j idle")


@dataclass
class Amundsen:
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def lineage_path(self, name: str) -> str:
        return f"/table/{table_key(name)}/lineage"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _environment(target: Neo4jTarget) -> dict[str, str]:
    """What peer_config.PeerConfig reads: its module's place and the proxy settings."""
    host, port = target.uri.rsplit(":", 1)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(HERE / "amundsen"),
        "METADATA_SVC_CONFIG_MODULE_CLASS": "peer_config.PeerConfig",
        "PROXY_HOST": host.replace("neo4j://", "bolt://"),
        "PROXY_PORT": port,
        "CREDENTIALS_PROXY_USER": target.username,
        "CREDENTIALS_PROXY_PASSWORD": target.password,
    }


def check_hooks(target: Neo4jTarget, name: str, venv: Path = DEFAULT_VENV) -> list[dict[str, Any]]:
    """amundsen/check_hooks.py's answers: one lineage request with both hooks, and
    without each (the loaded graph must hold the table `name`)."""
    env = _environment(target)
    del env["METADATA_SVC_CONFIG_MODULE_CLASS"]  # it would override the config under test
    output = subprocess.run(
        [
            str(python_of(venv)),
            "-W",
            "ignore",
            str(HERE / "amundsen" / "check_hooks.py"),
            table_key(name),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


@contextlib.contextmanager
def running_amundsen(
    target: Neo4jTarget, threads: int = 4, venv: Path = DEFAULT_VENV
) -> Iterator[Amundsen]:
    """gunicorn serving ``metadata_service.metadata_wsgi:application`` on 127.0.0.1,
    one worker process with `threads` threads, configured by amundsen/peer_config.py."""
    python = ensure_venv(venv)
    listen = _free_port()
    env = _environment(target)
    command = [
        str(python),
        "-m",
        "gunicorn",
        "--bind",
        f"127.0.0.1:{listen}",
        "--workers",
        "1",
        "--threads",
        str(threads),
        # A walk that outlives this is the worker's end; Neo4j's own transaction
        # timeout (60 s on the local instances) ends the query.
        "--timeout",
        "120",
        "metadata_service.metadata_wsgi:application",
    ]
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / "bench-peers-amundsen.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{listen}"
    try:

        def ready() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({process.returncode}); see {log_path}")
            return httpx.get(url + "/healthcheck", timeout=5).status_code == 200

        eventually(
            ready,
            timeout=120,
            what="Amundsen's metadata service ready",
            retry_on=(httpx.TransportError,),
        )
        yield Amundsen(url, process, log_path)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
