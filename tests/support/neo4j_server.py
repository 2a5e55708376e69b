"""Which Neo4j the test session uses: NEO4J_URI if set; else a testcontainers
Neo4j where a Docker engine answers; else the local server this project
provisions from Maven Central (instance "test" on port 17688, its own data;
GOVERNANCE_TEST_NEO4J_NAME/PORT pick another, GOVERNANCE_KEEP_TEST_NEO4J=1 leaves
it running afterwards for a faster next run).

Under pytest-xdist every worker has a Neo4j of its own, since each test clears the
graph: worker `gwN` takes the instance `<name>-gwN` on port `<port> + 1 + N`, so two
people's parallel runs with different names and ports still never meet."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.localdb import LocalNeo4j

TEST_IMAGE = "neo4j:5.26-community"
TEST_BOLT_PORT = 17688


@dataclass(frozen=True)
class Neo4jTarget:
    uri: str
    username: str
    password: str
    database: str
    how: str


def _docker_answers() -> bool:
    """A Docker engine answers `/_ping` on its socket (checked by hand: the docker
    package leaks its socket when no engine is there)."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not host.startswith("unix://"):
        return True
    path = host.removeprefix("unix://")
    if not os.path.exists(path):
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(3)
            sock.connect(path)
            sock.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
            return b" 200 " in sock.recv(256)
    except OSError:
        return False


def local_instance() -> tuple[str, int]:
    """The local instance's name and Bolt port for this process: the configured ones,
    or under pytest-xdist (PYTEST_XDIST_WORKER=gwN) the worker's own, derived from them.
    The first worker, gw0, takes the configured instance itself, so a run in workers
    finds the one `make test` started and warmed (`worker_instance`)."""
    name = os.environ.get("GOVERNANCE_TEST_NEO4J_NAME", "test")
    port = int(os.environ.get("GOVERNANCE_TEST_NEO4J_PORT", TEST_BOLT_PORT))
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return worker_instance(name, port, int(worker.removeprefix("gw")) if worker else 0)


def worker_instance(name: str, port: int, worker: int) -> tuple[str, int]:
    """Worker `gw<worker>`'s instance name and Bolt port, from the configured ones."""
    if worker == 0:
        return name, port
    return f"{name}-gw{worker}", port + 1 + worker


def uses_local_server() -> bool:
    """Whether `neo4j_for_tests` would start the local instance (no NEO4J_URI, no Docker)."""
    return not os.environ.get("NEO4J_URI") and not _docker_answers()


def local_server() -> LocalNeo4j:
    """The local instance this process's tests use (`local_instance`), configured the
    same wherever it is started from: a running server with another configuration is
    refused rather than shared."""
    return local_server_named(*local_instance())


def local_server_named(name: str, port: int) -> LocalNeo4j:
    """The local test instance `name` on `port`, configured as every test instance is."""
    from service.localdb import LocalNeo4j, default_cache_dir

    return LocalNeo4j(
        default_cache_dir(),
        name=name,
        bolt_port=port,
        # 2g: a transaction may use a quarter of the heap, and a full bulk of 10,000
        # new edges with its history (20,000 placeholders, 10,000 edges and their
        # trails) needs more than the 256 MiB a 1g heap allows.
        heap="2g",
        pagecache="512m",
        # Tests clear the graph between them; without this each clear would make the
        # next run of every heavy statement replan it (up to seconds on a busy machine).
        stable_plans=True,
        # Each instance plans hundreds of statements once or a few times; C2 inlining
        # less halves the JVM's compiling (`ServerSettings.lean_inlining`).
        lean_inlining=True,
    )


@contextlib.contextmanager
def neo4j_for_tests() -> Iterator[Neo4jTarget]:
    uri = os.environ.get("NEO4J_URI")
    if uri and os.environ.get("PYTEST_XDIST_WORKER"):
        raise RuntimeError(
            "NEO4J_URI names one database, and parallel workers would clear each other's "
            "graph: run the tests in one process (pytest -n 0, make ... TEST_WORKERS=0)"
        )
    if uri:
        yield Neo4jTarget(
            uri,
            os.environ.get("NEO4J_USERNAME", "neo4j"),
            os.environ.get("NEO4J_PASSWORD", ""),
            os.environ.get("NEO4J_DATABASE", "neo4j"),
            "NEO4J_URI",
        )
        return
    if _docker_answers():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer(TEST_IMAGE) as container:
            yield Neo4jTarget(
                container.get_connection_url(),
                "neo4j",
                container.password,
                "neo4j",
                "testcontainers",
            )
        return
    server = local_server()
    was_running = server.status().running
    try:
        info = server.start()
        yield Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local")
    finally:
        if not was_running and not os.environ.get("GOVERNANCE_KEEP_TEST_NEO4J"):
            server.stop()
