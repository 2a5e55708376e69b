"""`make test`: the suites in order, on one local Neo4j started (and its plans made)
while the suites that need no database run.

Each suite that needs a database (integration, API fuzz, browser, clients) used to
start the test instance and stop it again: four JVM starts, each followed by a minute
or more of CPU in the JIT compilers and the query planner while the session's warm-up
(`warm_plans`) ran on a cold server. Here the instance is started once, and walked
through the everyday paths once, beside the first suites (the linters and the unit
tests, which never touch it); every later suite finds it running, warm and with its
plans made, and leaves it running (`neo4j_for_tests`); this stops it at the end,
unless it was running before or GOVERNANCE_KEEP_TEST_NEO4J is set. A suite still
makes its own session's warm-up and clears the graph as before, so what a test sees
is what it saw when the suite ran alone. With NEO4J_URI or a Docker engine (one
database, or a container per session) the suites simply run in order.

Targets given as `--beside` run in the background beside the first suites too: what
mostly waits on a package index (the Python client's virtualenv), so that the
clients' suite finds it made.

    python -m tests.support.suite MAKE "lint unit" "integration fuzz-api e2e clients" \
        --beside clients-deps
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.support.neo4j_server import Neo4jTarget, local_server, uses_local_server

if TYPE_CHECKING:
    from service.localdb import LocalNeo4j

KEEP = "GOVERNANCE_KEEP_TEST_NEO4J"


@dataclass(frozen=True)
class Suites:
    first: list[str]  # need no database: run while it starts
    beside: list[str]  # need no database either, and mostly wait on a network: run beside `first`
    then: list[str]  # run after, on the started database


def _make(make: str, targets: list[str]) -> int:
    if not targets:
        return 0
    return subprocess.run([make, "--no-print-directory", *targets], check=False).returncode


def _start_and_prepare() -> float:
    """Start the local instance and make the everyday plans; the seconds it took."""
    from tests.conftest import prepare_database

    started = time.monotonic()
    info = local_server().start()
    prepare_database(Neo4jTarget(info.uri, info.username, info.password, "neo4j", "local"))
    return time.monotonic() - started


def _run(make: str, suites: Suites, server: LocalNeo4j | None) -> int:
    """`first` and `beside` at once, with the database starting (`server`, if any)
    beside them too; then `then`. The database is stopped at the end if this started it."""
    was_running = server is not None and server.status().running
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="beside") as pool:
        starting = pool.submit(_start_and_prepare) if server is not None else None
        installing = pool.submit(_make, make, suites.beside)
        try:
            status = _make(make, suites.first) or installing.result()
            if starting is not None:
                seconds = starting.result()
                print(
                    f"suite: the test Neo4j was started and warmed in {seconds:.0f} s", flush=True
                )
            return status or _make(make, suites.then)
        finally:
            # Waited for on any way out: a start holds the instance's lock until it ends.
            installing.exception()
            if starting is not None:
                starting.exception()
            if server is not None and not was_running and not os.environ.get(KEEP):
                server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("make", help="the make command to run the suites with")
    parser.add_argument("first", help="suites that need no database, run while it starts")
    parser.add_argument("then", help="suites run after, on the started database")
    parser.add_argument("--beside", default="", help="targets run in the background beside `first`")
    args = parser.parse_args(argv)
    suites = Suites(args.first.split(), args.beside.split(), args.then.split())
    return _run(args.make, suites, local_server() if uses_local_server() else None)


if __name__ == "__main__":
    sys.exit(main())
